package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestFloor checks that Floor takes the files a map parses: those of a
// tree-sitter language, not what git ignores, not what Exclude leaves
// out, nor images; a lexer's files are counted apart.
func TestFloor(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goSrc := "package a\n\nfunc A() int { return B() }\n"
	write("a.go", goSrc)
	write("gen/b.go", "package gen\n\nfunc B() int { return 1 }\n")
	write("ignored.go", "package a\n\nfunc C() {}\n")
	write(".gitignore", "ignored.go\n")
	write("lib.ex", "defmodule A do\n  def a, do: 1\nend\n")
	write("logo.png", "\x89PNG\r\n")
	write("notes.unknownext", "text")
	st, err := Floor(context.Background(), dir, defaults(Options{Exclude: []string{"gen"}}))
	if err != nil {
		t.Fatal(err)
	}
	want := FloorStats{Files: 1, Bytes: int64(len(goSrc)), Lexed: 1}
	if st.Captures == 0 {
		t.Errorf("Floor captured nothing in a.go")
	}
	st.Captures = 0
	if st != want {
		t.Errorf("Floor = %+v, want %+v (captures aside)", st, want)
	}

	// On several goroutines, the same files with the same captures.
	for i := range 40 {
		write(fmt.Sprintf("more/m%d.go", i), fmt.Sprintf("package more\n\nfunc M%d() int { return M%d() }\n", i, i+1))
	}
	one, err := Floor(context.Background(), dir, defaults(Options{Exclude: []string{"gen"}, Parallelism: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if one.Files != 41 {
		t.Errorf("Floor on one goroutine parsed %d files, want 41", one.Files)
	}
	for _, workers := range []int{2, 3, 64} {
		st, err := Floor(context.Background(), dir, defaults(Options{Exclude: []string{"gen"}, Parallelism: workers}))
		if err != nil {
			t.Fatal(err)
		}
		if st != one {
			t.Errorf("Floor on %d goroutines = %+v, on one %+v", workers, st, one)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Floor(ctx, dir, defaults(Options{})); err == nil {
		t.Errorf("Floor with a cancelled context: no error")
	}
}
