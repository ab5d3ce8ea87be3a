//go:build unix

package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// diskIndex returns the index of the tree at dir, a root on disk with no
// disk cache.
func diskIndex(t *testing.T, dir string, o Options) *Index {
	t.Helper()
	x := New([]Root{{FS: os.DirFS(dir), Dir: dir, OnDisk: true}}, defaults(o))
	t.Cleanup(func() { x.Close() })
	return x
}

// parseWithin parses the file f of x as a map does, into buf, and fails
// the test when that takes more than a few seconds (a read that blocks,
// or one without end).
func parseWithin(t *testing.T, x *Index, f File, buf *[]byte) *entry {
	t.Helper()
	done := make(chan *entry, 1)
	go func() {
		p := x.newParser()
		defer p.Close()
		done <- x.parse(context.Background(), p, f, false, buf, nil)
	}()
	select {
	case e := <-done:
		return e
	case <-time.After(5 * time.Second):
		t.Fatalf("parse of %s did not end in 5 s", f.Path)
		return nil
	}
}

// TestReadSwapped checks that a file the walk listed and that is then
// replaced is read as the walk saw it, or not at all: a FIFO is not
// waited on, a link to /dev/zero or out of the tree is not followed, a
// directory above it replaced by a link is not followed, and a file
// that grew past the size limit is not read past it.
func TestReadSwapped(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeFiles(t, outside, map[string]string{"a.py": "def outside_secret():\n    return 1\n"})
	tree := map[string]string{}
	for _, name := range []string{"fifo.py", "zero.py", "link.py", "grown.py", "renamed.py", "d/a.py", "ok.py"} {
		tree[name] = "def f():\n    return 1\n"
	}
	writeFiles(t, dir, tree)
	const limit = 1 << 16
	x := diskIndex(t, dir, Options{MaxFileSize: limit})
	files, _, err := x.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	swap := func(name string, make func(tmp string) error) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := make(p + ".tmp"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".tmp", p); err != nil {
			t.Fatal(err)
		}
	}
	swap("fifo.py", func(tmp string) error { return syscall.Mkfifo(tmp, 0o644) })
	swap("zero.py", func(tmp string) error { return os.Symlink("/dev/zero", tmp) })
	swap("link.py", func(tmp string) error { return os.Symlink(filepath.Join(outside, "a.py"), tmp) })
	swap("renamed.py", func(tmp string) error { return os.WriteFile(tmp, []byte("def g():\n    return 2\n"), 0o644) })
	if err := os.WriteFile(filepath.Join(dir, "grown.py"), []byte(strings.Repeat("x = 1\n", 4<<20/6)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "d.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"fifo.py":    "not a regular file",
		"zero.py":    "symbolic link",
		"link.py":    "symbolic link",
		"d/a.py":     "symbolic link",
		"renamed.py": "changed during the scan",
		"grown.py":   "larger than 65536 bytes",
		"ok.py":      "",
	}
	for _, f := range files {
		var buf []byte
		e := parseWithin(t, x, f, &buf)
		if e.skip.String() != want[f.Path] {
			t.Errorf("parse of %s: skipped for %q, want %q", f.Path, e.skip.String(), want[f.Path])
		}
		if cap(buf) > 2*limit {
			t.Errorf("parse of %s read into %d bytes, more than the limit of %d allows", f.Path, cap(buf), limit)
		}
		if f.Path == "ok.py" && len(e.tags.Tags) == 0 {
			t.Errorf("ok.py: no tags")
		}
	}
}

// TestWalkSwappedDir checks that a directory the walk listed and that is
// replaced by a link before the walk reads it is not followed: nothing
// from where the link leads is listed.
func TestWalkSwappedDir(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeFiles(t, outside, map[string]string{"shadow": "root:x:0:0\n", "ssh/ssh_config": "Host *\n"})
	writeFiles(t, dir, map[string]string{"a.go": "package a\n", "d/b.go": "package d\n"})
	x := diskIndex(t, dir, Options{})
	x.beforeDir = func(rel string) {
		if rel != "d" {
			return
		}
		if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "d.old")); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
			t.Error(err)
		}
	}
	files, skipped, err := x.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	if want := []string{"a.go"}; !slices.Equal(got, want) {
		t.Errorf("walk with d swapped for a link = %q, want %q (skipped %v)", got, want, skipped)
	}
}
