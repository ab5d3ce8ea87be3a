package repomap

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/memo"
)

// TestCancelAtEachStage cancels a map at each boundary between two of
// its stages in turn, and checks that the map returns the context's
// error, that no stage runs after the boundary, that nothing of the map
// is kept (no last map, no map in the disk cache, no link result before
// the link stage ran), and that the next map of the same Map is a new
// Map's.
func TestCancelAtEachStage(t *testing.T) {
	root := writeTree(t, smallTree)
	all := []string{stageIndex, stageLink, stageRank, stageRender, stageKeep}
	want := buildAt(t, root, Options{NoCache: true}).Text
	for k, at := range all {
		t.Run(at, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var seen []string
			stage := func(s string) {
				seen = append(seen, s)
				if s == at {
					cancel()
				}
			}
			m, err := New(root, &Options{CacheDir: dir, Stage: func(s string) { stage(s) }})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			req := Request{MaxTokens: 1000}
			if _, err := m.Build(ctx, req); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled before %s: error %v, want context.Canceled", at, err)
			}
			if !slices.Equal(seen, all[:k+1]) {
				t.Errorf("cancelled before %s: stages %q, want %q", at, seen, all[:k+1])
			}
			if m.last != nil {
				t.Errorf("cancelled before %s: the Map keeps a last map", at)
			}
			if k <= slices.Index(all, stageLink) && !m.links.Empty() {
				t.Errorf("cancelled before %s: the Map keeps a link result", at)
			}
			stage = func(string) {}
			// The disk cache holds no map for the request.
			if c, err := cache.New(dir, root, nil); err == nil {
				var blob []byte
				c.ReadBlobs(context.Background(), []string{memo.Map.Blob(m.memoKey(req))}, func(b [][]byte) error {
					blob = b[0]
					return nil
				})
				if readMemo(blob, m.memoKey(req)) != nil {
					t.Errorf("cancelled before %s: the disk cache keeps the map", at)
				}
			}
			got, err := m.Build(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != want {
				t.Errorf("cancelled before %s, then made again:\n%s\nwant a new Map's:\n%s", at, got.Text, want)
			}
		})
	}
}
