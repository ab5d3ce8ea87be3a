// Package indextest makes snapshots of trees in memory for the tests of
// the stages after the index.
package indextest

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
)

// Snapshot returns the snapshot of the tree fsys, parsed without a disk
// cache, as a Map's first map sees it; the index is closed when the test
// ends.
func Snapshot(t testing.TB, fsys fs.FS) *index.Snapshot {
	t.Helper()
	x := index.New([]index.Root{{FS: fsys}}, index.Options{Parallelism: 2, MaxFileSize: 1 << 20, ParseTimeout: 5 * time.Second,
		Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(func() { x.Close() })
	files, skipped, err := x.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := x.Update(context.Background(), files, skipped)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Tree writes files, by slash-separated path, under a new temporary
// directory and returns it.
func Tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Cached returns the snapshot of the tree on disk at root as a second
// process sees it: the files' entries read back from a disk cache that a
// first index wrote, as much of them as read says (index.ReadStamps: the
// stamps alone, each made something of by see when it is not nil).
func Cached(t testing.TB, root string, read int, see *index.Seer) *index.Snapshot {
	t.Helper()
	dir := t.TempDir()
	open := func() *index.Index {
		c, err := cache.New(dir, root, nil)
		if err != nil {
			t.Fatal(err)
		}
		return index.New([]index.Root{{FS: os.DirFS(root), Dir: root, OnDisk: true, Cache: c}}, index.Options{Parallelism: 2,
			MaxFileSize: 1 << 20, ParseTimeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	}
	ctx := context.Background()
	first := open()
	files, skipped, err := first.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Update(ctx, files, skipped); err != nil {
		t.Fatal(err)
	}
	first.Close()
	x := open()
	t.Cleanup(func() { x.Close() })
	x.StartPreload(ctx, read, see)
	if files, skipped, err = x.Walk(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := x.Update(ctx, files, skipped)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
