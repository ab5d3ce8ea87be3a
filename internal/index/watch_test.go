package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWatchedWalk changes a tree in every way a walk can see, and after
// each change compares the lists a watched walk gives with a new walk's.
// The changes that leave the tree's entries as they were must not walk
// the tree again; the others must give the new walk's lists.
func TestWatchedWalk(t *testing.T) {
	dir := t.TempDir()
	rw, err := newRootWatch(dir)
	if errors.Is(err, ErrNotWatched) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer rw.close()
	at := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(at(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at(p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	do := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "*.log\nbuild/\n")
	write("a.go", "package a\n")
	write("pkg/b.go", "package pkg\n")
	write("pkg/.gitignore", "*.tmp\n")
	write("pkg/sub/c.py", "def c(): pass\n")
	write("build/out.go", "package out\n")
	write("docs/x.md", "# X\n")

	r := Root{FS: os.DirFS(dir), Dir: dir}
	ctx := context.Background()
	// check compares the lists after step; rewalk says whether the
	// watched walk must walk again (1), must not (0), or may (-1).
	check := func(step string, rewalk int) {
		t.Helper()
		want, wantSkips, err := walkRoot(ctx, r, walkOptions{workers: 2, root: openRoot(t, dir)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		before := rw.rewalks
		got, gotSkips, err := walkRoot(ctx, r, walkOptions{workers: 2, root: openRoot(t, dir)}, rw)
		if err != nil {
			t.Fatal(err)
		}
		if rw.failed != nil {
			t.Fatalf("%s: the watch failed: %v", step, rw.failed)
		}
		if !slices.Equal(got, want) || !slices.Equal(gotSkips, wantSkips) {
			t.Errorf("%s: the watched walk gives\n%v %v\nwant\n%v %v", step, got, gotSkips, want, wantSkips)
		}
		if walked := rw.rewalks > before; rewalk >= 0 && walked != (rewalk == 1) {
			t.Errorf("%s: walked again: %v, want %v", step, walked, rewalk == 1)
		}
	}

	check("the first walk", 1)
	check("nothing changed", 0)
	write("a.go", "package a\n\nfunc A() {}\n")
	check("a file's bytes changed", 0)
	later := time.Now().Add(time.Hour)
	do(os.Chtimes(at("pkg/b.go"), later, later))
	check("a file touched", 0)
	write("x.log", "ignored\n")
	write("pkg/y.tmp", "ignored below\n")
	check("files the rules leave out", 0)
	write("build/new.go", "package out\n")
	check("a file in a directory left out", 0)
	write("pkg/4913", "")
	do(os.Remove(at("pkg/4913")))
	check("a file that came and went", 0)
	write("pkg/b.go.new", "package pkg\n\nfunc B() {}\n")
	do(os.Rename(at("pkg/b.go.new"), at("pkg/b.go")))
	check("a file saved by a rename over it", 0)
	write("pkg/new.go", "package pkg\n")
	check("a new file", 1)
	do(os.Remove(at("pkg/new.go")))
	check("a file removed", 1)
	do(os.Rename(at("a.go"), at("a2.go")))
	check("a file renamed", 1)
	write(".gitignore", "*.log\n")
	check("the root's .gitignore changed", 1)
	write("pkg/sub/.gitignore", "*.py\n")
	check("a new .gitignore", 1)
	write("new/dir/d.go", "package dir\n")
	check("a new directory", 1)
	write("new/dir/d.go", "package dir // edited\n")
	check("a file of the new directory changed", 0)
	do(os.Symlink("a2.go", at("link.go")))
	check("a symbolic link", 1)
	do(os.Remove(at("link.go")))
	check("the link removed", 1)
	do(os.RemoveAll(at("pkg/sub")))
	check("a directory removed", 1)
	do(os.Rename(at("new"), at("old")))
	check("a directory renamed", 1)
	write(".git/info/exclude", "*.md\n")
	check("the rules from outside the tree", 1)

	// Events lost to a full queue: two files touched in turn, so that no
	// event is merged with the one before.
	if data, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		if most, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && most <= 1<<17 {
			for i := range most + 2 {
				t := time.Unix(int64(1e9+i), 0)
				do(os.Chtimes(at([]string{"a2.go", "pkg/b.go"}[i%2]), t, t))
			}
			check("events lost to a full queue", 1)
		}
	}

	// Random changes, a few at a time.
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a2.go", "pkg/b.go", "pkg/c.go", "old/dir/d.go", "e.go", "x.log", "pkg/z.tmp", "build/f.go", "q/r/s.go", ".gitignore", "pkg/.gitignore"}
	texts := []string{"package p\n", "package p\n\nfunc F() {}\n", "*.log\n", "build/\n*.tmp\n", ""}
	for step := range 120 {
		for range 1 + rng.IntN(3) {
			p := names[rng.IntN(len(names))]
			switch rng.IntN(5) {
			case 0, 1:
				write(p, texts[rng.IntN(len(texts))])
			case 2:
				t := time.Unix(int64(rng.IntN(1<<30)), 0)
				os.Chtimes(at(p), t, t) // a file not there yet is no change
			case 3:
				os.Remove(at(p))
			case 4:
				if d := filepath.Dir(p); d != "." {
					os.RemoveAll(at(d))
				}
			}
		}
		check(fmt.Sprintf("random step %d", step), -1)
	}
}
