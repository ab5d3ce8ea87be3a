package tags

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/google/go-cmp/cmp"
)

// tag is a Tag without its path, written "line kind sub name".
func short(ts []Tag) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = fmt.Sprintf("%d %s %s %s", t.Line, t.Kind, t.Sub, t.Name)
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

const goSource = `package shop

import (
	"fmt"
	"net/http"
)

type Cart struct {
	Items []Item
	Owner http.Header
}

type Pricer interface {
	Price(id string) int
}

type ID = string
type Count int

const MaxItems, MinItems = 10, 1

var (
	Default = Cart{}
	_       = 3
)

var Registry, Other = New[int](), 2

func New[T any]() *Cart {
	fmt.Println(helper(&Cart{}))
	c := &http.Client{}
	return c.Do()
}

func (c *Cart) Total(p Pricer) int {
	x := func() {
		type local struct{}
	}
	return p.Price("a")
}
`

func TestParseGo(t *testing.T) {
	got := short(parse(t, "shop/cart.go", goSource))
	want := []string{
		"0 def package shop",
		"3 ref package fmt",
		"4 ref package http",
		"7 def struct Cart",
		"8 def field Items",
		"8 ref type Item",
		"9 def field Owner",
		"9 ref package http",
		"9 ref type Header",
		"12 def interface Pricer",
		"13 def method Price",
		"13 ref type string",
		"13 ref type int",
		"16 def type ID",
		"16 ref type string",
		"17 def type Count",
		"17 ref type int",
		"19 def constant MaxItems",
		"19 def constant MinItems",
		"22 def variable Default",
		"22 ref literal Cart",
		"26 def variable Registry",
		"26 def variable Other",
		"26 ref call New",
		"28 def function New",
		"28 ref type any",
		"28 ref type Cart",
		"29 ref member Println",
		"29 ref call helper",
		"29 ref literal Cart",
		"30 ref package http",
		"30 ref literal Client",
		"31 ref member Do",
		"34 ref type Cart",
		"34 def method Total",
		"34 ref type Pricer",
		"34 ref type int",
		"38 ref member Price",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse(cart.go) mismatch (-want +got):\n%s", diff)
	}
}

const pySource = `from .models import User, Group as G
import json

LIMIT = 10
a, b = 1, 2
type Vector = list[float]

@dataclass
class Account(Base, models.Mixin):
    kind = "x"

    def __init__(self, user):
        self.user = user

    @property
    def name(self):
        return format_name(self.user).strip()

@app.route("/")
def index():
    def inner():
        pass
    return Account(User())
`

func TestParsePython(t *testing.T) {
	got := short(parse(t, "app/account.py", pySource))
	want := []string{
		"0 ref import User",
		"0 ref import Group",
		"3 def variable LIMIT",
		"4 def variable a",
		"4 def variable b",
		"5 def type Vector",
		"7 ref decorator dataclass",
		"8 def class Account",
		"8 ref class Base",
		"8 ref class Mixin",
		"11 def method __init__",
		"14 ref decorator property",
		"15 def method name",
		"16 ref call format_name",
		"16 ref member strip",
		"18 ref decorator route",
		"19 def function index",
		"20 def function inner",
		"22 ref call Account",
		"22 ref call User",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse(account.py) mismatch (-want +got):\n%s", diff)
	}
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
	for _, tc := range []struct{ sub, text, want string }{
		{"package", `"net/http"`, "http"},
		{"package", `"fmt"`, "fmt"},
		{"package", `"example.com/mod/v2"`, "mod"},
		{"package", `"gopkg.in/yaml.v3"`, "yaml"},
		{"package", `"github.com/go-git/go-git/v5"`, ""}, // go-git is no identifier
		{"package", `"v2"`, "v2"},
		{"package", "http", "http"}, // a package qualifier, not a path
		{"call", `"x/y"`, `"x/y"`},
	} {
		if got := goName(tc.sub, tc.text); got != tc.want {
			t.Errorf("goName(%q, %q) = %q, want %q", tc.sub, tc.text, got, tc.want)
		}
	}
}
