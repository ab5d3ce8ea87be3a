package repomap

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/rank"
)

// goTree is a module, example.com/app, with two packages that define the
// same names, a vendored copy of a third-party package, and uses of each
// kind.
var goTree = fstest.MapFS{
	"a/a.go": {Data: []byte(`package a

import (
	"fmt"
	"example.com/app/b"
	. "example.com/app/c"
	lib "github.com/other/lib"
)

type T struct{ N int }

func (t *T) Close() error { return nil }

func New() *T {
	fmt.Println(len("x"))
	var s string
	_ = s
	lib.Do()
	Dotted()
	return &T{}
}

func use(t *T, f *File, s fmt.Stringer) {
	t.Close()
	f.Close()
	s.String()
	x := New()
	x.Close()
	b.New()
	helper()
}
`)},
	"a/helper.go": {Data: []byte("package a\n\nfunc helper() {}\n")},
	"b/b.go": {Data: []byte(`package b

func New() int { return 1 }

func helper() {}

func Println() {}

func len(s string) int { return 0 }

type S struct{}

func (S) String() string { return "" }
`)},
	"c/c.go":                           {Data: []byte("package c\n\nfunc Dotted() {}\n\ntype File struct{}\n\nfunc (f *File) Close() error { return nil }\n")},
	"vendor/github.com/other/lib/l.go": {Data: []byte("package lib\n\nfunc Do() {}\n")},
}

// edges returns the file graph of the tree with the ranking rk, as
// "from -> to ident" lines: one per reference key and definer.
func edges(t *testing.T, tree fstest.MapFS, ranking string) []string {
	t.Helper()
	m, err := NewFS(tree, &Options{Ranking: ranking})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := m.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rk, err := parseRanking(ranking)
	if err != nil {
		t.Fatal(err)
	}
	l := link(s, rk)
	definers := make(map[string][]string)
	for _, f := range l.files {
		for _, d := range f.Defs {
			if !slices.Contains(definers[d], f.Path) {
				definers[d] = append(definers[d], f.Path)
			}
		}
	}
	var out []string
	for _, f := range l.files {
		for _, r := range f.Refs {
			for _, to := range definers[r] {
				if to != f.Path {
					out = append(out, f.Path+" -> "+to+" "+rank.Ident(r))
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestResolveGo(t *testing.T) {
	got := edges(t, goTree, RankingDefault)
	want := []string{
		"a/a.go -> a/helper.go helper",                   // own package
		"a/a.go -> b/b.go New",                           // b.New: the package imported as b
		"a/a.go -> b/b.go b",                             // the import of b
		"a/a.go -> c/c.go Close",                         // f.Close(): File is no type of a's, so a method of any type
		"a/a.go -> c/c.go Dotted",                        // a dot import
		"a/a.go -> c/c.go File",                          // a type from a dot import
		"a/a.go -> c/c.go c",                             // the import of c
		"a/a.go -> vendor/github.com/other/lib/l.go Do",  // lib.Do: the vendored copy
		"a/a.go -> vendor/github.com/other/lib/l.go lib", // the import of the vendored copy
	}
	if !slices.Equal(got, want) {
		t.Errorf("resolved edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Never: a.go's New() to b's New, helper() to b's helper, the
	// builtin len or fmt.Println to b's functions of those names, s.String()
	// on a fmt.Stringer to b's S.String. t.Close() and x.Close() on a's T
	// link within a.go, to T.Close.

	// Aider's ranking links by name, as it always did.
	aider := edges(t, goTree, RankingAider)
	for _, e := range []string{"a/a.go -> b/b.go helper", "a/a.go -> b/b.go len", "a/a.go -> b/b.go Println"} {
		if !slices.Contains(aider, e) {
			t.Errorf("aider edges lack %q:\n%s", e, strings.Join(aider, "\n"))
		}
	}
}

// TestResolveFallback: a use the rules cannot place links to every
// definition of its name, at the fallback weight, and a file of a
// language without rules still links by name to Go definitions.
func TestResolveFallback(t *testing.T) {
	tree := fstest.MapFS{
		"a/a.go": {Data: []byte("package a\n\nimport \"example.org/unknown/x\"\n\nfunc A() { x.Shared() }\n")},
		"b/b.go": {Data: []byte("package b\n\nfunc Shared() {}\n")},
		"doc.py": {Data: []byte("from b import Shared\n\nShared()\n")},
	}
	got := edges(t, tree, RankingDefault)
	for _, e := range []string{"a/a.go -> b/b.go Shared", "doc.py -> b/b.go Shared"} {
		if !slices.Contains(got, e) {
			t.Errorf("edges lack %q:\n%s", e, strings.Join(got, "\n"))
		}
	}
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := m.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rk, _ := parseRanking(RankingDefault)
	l := link(s, rk)
	for _, f := range l.files {
		if f.Path == "a/a.go" && !slices.Contains(f.Refs, fallbackKey("Shared")) {
			t.Errorf("a/a.go refs %q, want the fallback key of Shared", f.Refs)
		}
	}
}
