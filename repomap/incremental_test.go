package repomap

import (
	"context"
	"testing"
	"time"
)

// TestIncrementalRender changes one file of a tree between two renders of
// one Map: the blocks of unchanged files are not rendered again,
// the changed file, which the map showed, gets its outline from the parse
// of its tags, and the map is the one a new Map makes of the changed tree.
func TestIncrementalRender(t *testing.T) {
	tree := synthTree(120)
	m, err := NewFS(tree, &Options{Refresh: RefreshAlways, MaxTokens: 2048})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	for _, req := range []Request{{}, {Focus: []string{"pkg1/file005.go"}}, {Text: "render a widget"}} {
		first, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		changed := first.Files[0].Path
		f := tree[changed]
		f.Data = append(f.Data, []byte("\nfunc Extra(w *Widget3) string { return Helper7(w.Name) }\n")...)
		f.ModTime = f.ModTime.Add(time.Second)
		m.mu.Lock()
		snap, err := m.snapshot(ctx)
		if err == nil && snap.entry(changed).outline == nil {
			t.Errorf("%+v: %s, shown and changed, has no outline once parsed again", req, changed)
		}
		m.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		again, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if again.Stats.Parsed != 0 || again.Stats.Files != first.Stats.Files {
			t.Fatalf("%+v: %d files parsed again by the render after the update, want none", req, again.Stats.Parsed)
		}
		cold := build(t, tree, &Options{MaxTokens: 2048}, req)
		t.Logf("%+v: %d blocks rendered, %d first", req, again.Stats.Rendered, first.Stats.Rendered)
		if again.Stats.Rendered >= first.Stats.Rendered {
			t.Errorf("%+v: the render after one change made %d blocks, the first %d: want fewer", req, again.Stats.Rendered, first.Stats.Rendered)
		}
		if again.Text != cold.text {
			t.Errorf("%+v: the map after one change differs from a new Map's:\n%s\nwant:\n%s", req, again.Text, cold.text)
		}
	}
}
