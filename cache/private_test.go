//go:build unix

package cache

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestPrivate checks that the cache directory and its files are the
// user's alone whatever the umask: a database holds the names and maps
// of private source.
func TestPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "cache")
	c, err := New(dir, "/some/root", &Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Store(context.Background(), map[string]Entry{"a.go": sampleEntry("a.go", 2)}, nil); err != nil {
		t.Fatal(err)
	}
	c.pruneDaily(time.Now().Add(48 * time.Hour))
	check := func(p string, want fs.FileMode) {
		t.Helper()
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(p), got, want)
		}
	}
	check(dir, 0o700)
	check(c.Path(), 0o600)
	check(filepath.Join(dir, pruneStamp), 0o600)
}

// TestPruneGoneRoots checks that Prune removes the database of a root
// that no longer exists, however recently it was used, and keeps that of
// a root that does.
func TestPruneGoneRoots(t *testing.T) {
	dir := t.TempDir()
	live, gone := t.TempDir(), filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, root := range []string{live, gone} {
		c, err := New(dir, root, &Options{NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Store(context.Background(), map[string]Entry{"a.go": sampleEntry("a.go", 1)}, nil); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, c.Path())
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	removed, err := Prune(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0].Path != paths[1] {
		t.Errorf("Prune removed %v, want the database of the gone root alone (%s)", removed, paths[1])
	}
	if _, err := os.Stat(paths[0]); err != nil {
		t.Errorf("the live root's database: %v", err)
	}
}
