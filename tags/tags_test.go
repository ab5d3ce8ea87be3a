package tags

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// short writes each Tag without its path, as "line kind sub name", with
// " <qual>" after when a qualifier is set.
func short(ts []Tag) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = fmt.Sprintf("%d %s %s %s", t.Line, t.Kind, t.Sub, t.Name)
		if t.Qual != "" {
			out[i] += " <" + t.Qual + ">"
		}
	}
	return out
}

func parse(t *testing.T, path, src string) []Tag {
	t.Helper()
	p := NewParser(nil)
	defer p.Close()
	got, err := p.Parse(context.Background(), path, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%s) error: %v", path, err)
	}
	for _, g := range got {
		if g.Path != path {
			t.Fatalf("Parse(%s) gave a tag with path %q", path, g.Path)
		}
	}
	return got
}

// The Go and Python fixtures of testdata/lang, whose tags TestLanguageFixtures
// checks line by line, serve the tests below as ordinary source.
var (
	goSource = mustRead("testdata/lang/go/shop.go")
	pySource = mustRead("testdata/lang/python/account.py")
)

func mustRead(name string) string {
	data, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestParseSyntaxError(t *testing.T) {
	// The first function's body is broken; the second still counts.
	src := "package p\n\nfunc Broken() { x := }\n\nfunc Fine() {}\n"
	got := parse(t, "p.go", src)
	if !slices.ContainsFunc(got, func(t Tag) bool { return t.Name == "Fine" && t.Kind == Definition }) {
		t.Errorf("Parse(broken file) = %v, want a definition of Fine", short(got))
	}
}

func TestParseUnsupported(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	_, err := p.Parse(context.Background(), "notes.txt", []byte("hello"))
	if !errors.Is(err, ErrUnsupportedLanguage) {
		t.Errorf("Parse(notes.txt) error = %v, want ErrUnsupportedLanguage", err)
	}
}

func TestParseCancelled(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Parse(ctx, "a.go", []byte(goSource))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Parse(cancelled) error = %v, want context.Canceled", err)
	}
	// The parser still works afterwards.
	if _, err := p.Parse(context.Background(), "a.go", []byte(goSource)); err != nil {
		t.Errorf("Parse after a cancelled parse: %v", err)
	}
}

func TestParseTimeout(t *testing.T) {
	p := NewParser(&ParserOptions{Timeout: time.Nanosecond})
	defer p.Close()
	// Enough text that the parser checks the clock.
	src := []byte("package p\n" + strings.Repeat("func f() { a := 1; b := 2; _ = a + b }\n", 20000))
	_, err := p.Parse(context.Background(), "big.go", src)
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("Parse(big file, 1ns timeout) error = %v, want ErrTimeout", err)
	}
}

func TestParseSorted(t *testing.T) {
	for _, tc := range []struct{ path, src string }{{"a.go", goSource}, {"a.py", pySource}} {
		got := parse(t, tc.path, tc.src)
		if !slices.IsSortedFunc(got, func(a, b Tag) int { return a.Line - b.Line }) {
			t.Errorf("Parse(%s) is not sorted by line: %v", tc.path, short(got))
		}
	}
}

func TestQueryError(t *testing.T) {
	_, err := compileQuery(ts.NewLanguage(lookup("go").grammar()), "bad-tags.scm", "(function_declaration\n  name: (no_such_node) @name.definition.function)")
	var qe *QueryError
	if !errors.As(err, &qe) {
		t.Fatalf("compileQuery(bad) error = %v, want a *QueryError", err)
	}
	if qe.File != "bad-tags.scm" || qe.Row != 1 {
		t.Errorf("compileQuery(bad) = %+v, want file bad-tags.scm, row 1", qe)
	}
	if !strings.Contains(qe.Error(), "bad-tags.scm:2:") {
		t.Errorf("QueryError.Error() = %q, want it to name bad-tags.scm:2", qe.Error())
	}
}

func TestQueriesCompile(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	for _, l := range languages {
		if l.grammar == nil {
			continue
		}
		if _, err := p.compile(l.name); err != nil {
			t.Errorf("compile(%s): %v", l.name, err)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ path, head, want string }{
		{"a.go", "", "go"},
		{"dir/b.py", "", "python"},
		{"c.pyi", "", "python"},
		{"D.PY", "", "python"},
		{"notes.txt", "", ""},
		{"README.md", "", "markdown"},
		{"Makefile", "", "make"},
		{"sub/GNUmakefile", "", "make"},
		{"go", "", ""},
		{"x.tsx", "", "tsx"},
		{"x.ts", "", "typescript"},
		{"x.mjs", "", "javascript"},
		{"x.cts", "", "typescript"},
		{"x.ino", "", "cpp"},
		{"lib.h", "", "c"},
		{"lib.h", "#include <stdio.h>\nint add(int, int);\n", "c"},
		{"lib.h", "namespace util {\nint add(int, int);\n}\n", "cpp"},
		{"lib.h", "template <typename T> T add(T a, T b);\n", "cpp"},
		{"lib.h", "class Point {\n public:\n  int x;\n};\n", "cpp"},
		{"lib.h", "struct point { int x; };\n", "c"},
		{"bin/tool", "#!/usr/bin/env python3\nprint(1)\n", "python"},
		{"bin/tool", "#!/usr/bin/python3.12\n", "python"},
		{"bin/run", "#!/bin/sh\necho hi\n", "bash"},
		{"bin/run", "#!/usr/bin/env -S node --no-warnings\n", "javascript"},
		{"bin/run", "#!/usr/bin/env\n", ""},
		{"bin/run", "echo hi\n", ""},
		{"notes.txt", "#!/bin/sh\n", ""}, // an extension decides
		{".bashrc", "", "bash"},
	} {
		if got := Detect(tc.path, []byte(tc.head)); got != tc.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tc.path, tc.head, got, tc.want)
		}
	}
}

// TestExtensionsUnique checks that no extension or file name belongs to
// two languages.
func TestExtensionsUnique(t *testing.T) {
	owner := map[string]string{}
	for _, l := range languages {
		for _, k := range slices.Concat(l.exts, l.files) {
			if o, ok := owner[k]; ok {
				t.Errorf("%s belongs to both %s and %s", k, o, l.name)
			}
			owner[k] = l.name
			if strings.HasPrefix(k, ".") && k != strings.ToLower(k) {
				t.Errorf("extension %s of %s is not lower-case", k, l.name)
			}
		}
	}
}

func TestCloseTwice(t *testing.T) {
	p := NewParser(nil)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close() = %v, want nil", err)
	}
	if _, err := p.Parse(context.Background(), "a.go", []byte("package a")); err == nil {
		t.Error("Parse on a closed parser succeeded")
	}
}

func TestGoImportName(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`"net/http"`, "http"},
		{`"fmt"`, "fmt"},
		{`"example.com/mod/v2"`, "mod"},
		{`"gopkg.in/yaml.v3"`, "yaml"},
		{`"github.com/go-git/go-git/v5"`, "go-git"}, // no identifier, but the import keeps its path as qualifier
		{`"v2"`, "v2"},
		{"http", "http"}, // a package qualifier, not a path
	} {
		if got := goName(tc.text); got != tc.want {
			t.Errorf("goName(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
