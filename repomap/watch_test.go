package repomap

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/repomap-dev/repomap/internal/index"
)

// TestWatchedMap edits a tree on disk under a Map kept open, which
// watches it from its second map on, and compares each map with a new
// Map's of the same tree.
func TestWatchedMap(t *testing.T) {
	dir := t.TempDir()
	tree := polyglotLinkTree()
	for p := range tree { // Go and Python alone: other languages' queries take seconds to compile
		if ext := filepath.Ext(p); ext != ".go" && ext != ".py" && ext != ".mod" {
			delete(tree, p)
		}
	}
	if err := os.CopyFS(dir, tree); err != nil {
		t.Fatal(err)
	}
	if err := index.Watchable(dir); errors.Is(err, index.ErrNotWatched) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	m, err := New(dir, &Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	change := func(p string, f func(string) string) func() {
		return func() {
			data, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(f(string(data))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		name   string
		do     func()
		rewalk bool
	}{
		{"nothing", func() {}, true}, // the second walk starts the watch
		{"nothing again", func() {}, false},
		{"a Go body", change("store/store.go", replace("return s.db.Query(k)", "return s.db.Query(k + s.Name)")), false},
		{"a Go method", change("store/store.go", appendText("\nfunc (s *Store) Close() {}\n")), false},
		{"a Python file added", func() {
			os.WriteFile(filepath.Join(dir, "pkg/extra.py"), []byte("from pkg.core import helper\n\n\ndef extra():\n    return helper()\n"), 0o644)
		}, true},
		{"a Python body", change("pkg/core.py", replace("return 1", "return 2")), false},
		{"Python left out", func() { os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.py\n"), 0o644) }, true},
		{"a Python body left out", change("pkg/core.py", replace("return 2", "return 3")), false},
		{"a Go file removed", func() { os.Remove(filepath.Join(dir, "store/db.go")) }, true},
	}
	for _, step := range steps {
		step.do()
		before, _, rewalks := m.idx.Watched(0)
		n, err := New(dir, &Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		for _, req := range []Request{{}, {Focus: []string{"app/app.go"}}, {Text: "the store's query"}} {
			keptMatchesNew(t, step.name, m, n, req)
		}
		n.Close()
		walks, watched, now := m.idx.Watched(0)
		if !watched {
			t.Fatalf("%s: the Map does not watch its tree after %d walks", step.name, walks)
		}
		if walked := now > rewalks || before < 2; walked != step.rewalk {
			t.Errorf("%s: walked the tree again: %v, want %v", step.name, walked, step.rewalk)
		}
	}
}
