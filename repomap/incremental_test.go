package repomap

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestIncrementalRender changes one file of a tree between two renders of
// one Map: the blocks of unchanged files are not rendered again,
// the changed file, which the map showed, gets its outline from the parse
// of its tags, and the map is the one a new Map makes of the changed tree.
func TestIncrementalRender(t *testing.T) {
	tree := synthTree(120)
	ctx := context.Background()
	for _, req := range []Request{{}, {Focus: []string{"pkg1/file005.go"}}, {Text: "render a widget"}} {
		// A Map for each request: the first render makes every block
		// it shows, none kept from another request's map.
		m, err := NewFS(tree, &Options{Refresh: RefreshAlways, MaxTokens: 2048})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
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
		if i, _ := snap.Lookup(changed); err == nil && !snap.State(i).Outlined {
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

// TestRefit asks a Map kept open for maps of one tree with several
// budgets: after the first, each is fitted from the ranking of the last
// (Stats.Refit) and is the map a new Map makes, Result.Ranked and the
// files' ranks included. A change of a file or of the request, and
// RefreshAlways, make the ranking again.
func TestRefit(t *testing.T) {
	ctx := context.Background()
	for _, req := range []Request{{}, {Focus: []string{"pkg1/file005.go"}}, {Text: "render a widget"}} {
		t.Run(fmt.Sprintf("%+v", req), func(t *testing.T) {
			tree := synthTree(120)
			m, err := NewFS(tree, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			for i, budget := range []int{1024, 300, 4096, 300} {
				req.MaxTokens = budget
				got, err := m.Build(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if got.Stats.Refit != (i > 0) {
					t.Errorf("map %d, %d tokens: refit %t, want %t", i, budget, got.Stats.Refit, i > 0)
				}
				sameMap(t, got, build(t, tree, nil, req))
			}

			// Another request is ranked.
			other := req
			other.Mentions = []string{"Helper3"}
			if got, err := m.Build(ctx, other); err != nil || got.Stats.Refit {
				t.Fatalf("another request: refit %t, err %v; want a ranking", got != nil && got.Stats.Refit, err)
			}

			// A changed file is ranked again.
			f := *tree["pkg2/file006.go"]
			f.Data = append(slices.Clone(f.Data), "\nfunc Extra(w *Widget3) string { return Helper7(w.Name) }\n"...)
			f.ModTime = f.ModTime.Add(time.Second)
			tree["pkg2/file006.go"] = &f
			req.MaxTokens = 700
			got, err := m.Build(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if got.Stats.Refit {
				t.Error("the map after a file changed was fitted from the last ranking")
			}
			sameMap(t, got, build(t, tree, nil, req))
		})
	}

	// RefreshAlways ranks every map.
	m, err := NewFS(synthTree(120), &Options{Refresh: RefreshAlways})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, budget := range []int{1024, 300} {
		if got, err := m.Build(ctx, Request{MaxTokens: budget}); err != nil || got.Stats.Refit {
			t.Fatalf("RefreshAlways, %d tokens: refit %t, err %v", budget, got != nil && got.Stats.Refit, err)
		}
	}
}

// errAfter is a context that is cancelled once its Err was asked n
// times; the contexts made from it, soon after.
type errAfter struct {
	context.Context
	n     int64
	asked atomic.Int64
	once  sync.Once
	done  chan struct{}
}

func newErrAfter(ctx context.Context, n int64) *errAfter {
	return &errAfter{Context: ctx, n: n, done: make(chan struct{})}
}

func (c *errAfter) Done() <-chan struct{} { return c.done }

func (c *errAfter) Err() error {
	if c.asked.Add(1) > c.n {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

// sameMap checks that got is the map want, its files and their order too.
func sameMap(t *testing.T, got *Result, want *result) {
	t.Helper()
	w := want.public
	if got.Text != w.Text || got.Tokens != w.Tokens || got.Budget != w.Budget ||
		!reflect.DeepEqual(got.Files, w.Files) || !reflect.DeepEqual(got.Ranked, w.Ranked) ||
		!reflect.DeepEqual(got.RankedFiles, w.RankedFiles) || !reflect.DeepEqual(got.RankedDefs, w.RankedDefs) {
		t.Errorf("the map differs from a new Map's:\n%s\nwant:\n%s", got.Text, w.Text)
	}
}

// TestRefitCutShort cuts maps of a Map kept open short after each number
// of checks of their context, the Map's files read from the disk cache
// as a map needs them; after each, a map for another budget is the one a
// new Map makes.
func TestRefitCutShort(t *testing.T) {
	tree := synthTree(120)
	root, cacheDir := writeTree(t, textsOf(tree)), t.TempDir()
	ctx := context.Background()
	req := Request{Text: "render a widget"}
	wants := map[int]*result{}
	for _, b := range []int{2000, 3000} {
		req.MaxTokens = b
		wants[b] = build(t, tree, nil, req)
	}
	fill, err := New(root, &Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fill.Build(ctx, Request{}); err != nil {
		t.Fatal(err)
	}
	fill.Close()
	m, err := New(root, &Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	req.MaxTokens = 1000
	if _, err := m.Build(ctx, req); err != nil {
		t.Fatal(err)
	}
	for n := int64(0); ; n++ {
		req.MaxTokens = 2000 + 1000*int(n%2)
		_, err := m.Build(newErrAfter(ctx, n), req)
		req.MaxTokens = 5000 - req.MaxTokens
		got, err2 := m.Build(ctx, req)
		if err2 != nil {
			t.Fatal(err2)
		}
		sameMap(t, got, wants[req.MaxTokens])
		if err == nil {
			t.Logf("maps cut short after 0 to %d checks of their context", n-1)
			break
		}
	}
}

// TestPrepareParallel maps a tree, warm, for words that show files no map
// showed before, with one goroutine and with four: the files are read
// and outlined together before the fit (snapshot.prepare), for the same
// map, and each file shown has its outline.
func TestPrepareParallel(t *testing.T) {
	tree := synthTree(80)
	root, dir := writeTree(t, textsOf(tree)), t.TempDir()
	ctx := context.Background()
	first, err := New(root, &Options{CacheDir: dir, MaxTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Build(ctx, Request{}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	req := Request{Text: "render a widget with helper seven", MaxTokens: 3000}
	var texts []string
	for _, workers := range []int{1, 4} {
		m, err := New(root, &Options{CacheDir: dir, Parallelism: workers})
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		m.mu.Lock()
		snap, err := m.snapshot(ctx)
		m.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range r.Files {
			i, ok := snap.Lookup(f.Path)
			if st := snap.State(i); len(f.Defs) > 0 && (!ok || !st.Outlined || !st.Lines) {
				t.Errorf("%d goroutines: %s is shown without its lines or outline", workers, f.Path)
			}
		}
		texts = append(texts, r.Text)
		m.Close()
	}
	if texts[0] != texts[1] {
		t.Errorf("the map with four goroutines differs from the one with one:\n%s\nwant:\n%s", texts[1], texts[0])
	}
	if want := build(t, tree, nil, req).text; texts[1] != want {
		t.Errorf("the warm map differs from a new Map's without a cache:\n%s\nwant:\n%s", texts[1], want)
	}
}
