package repomap

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/link"

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
	l := linkTree(t, tree, ranking)
	definers := make(map[string][]string)
	for _, f := range l.Files {
		for _, d := range f.Defs {
			if !slices.Contains(definers[d], f.Path) {
				definers[d] = append(definers[d], f.Path)
			}
		}
	}
	var out []string
	for _, f := range l.Files {
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

// linkTree returns the link stage's result for the tree.
func linkTree(t *testing.T, tree fstest.MapFS, ranking string) linked {
	t.Helper()
	m, err := NewFS(tree, &Options{Policy: experimentPolicy(t, ranking)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := m.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rk, err := experiment.Parse(ranking)
	if err != nil {
		t.Fatal(err)
	}
	return linkedOf(t, s, rk)
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
		"a/a.go":  {Data: []byte("package a\n\nimport \"example.org/unknown/x\"\n\nfunc A() { x.Shared() }\n")},
		"b/b.go":  {Data: []byte("package b\n\nfunc Shared() {}\n")},
		"doc.lua": {Data: []byte("Shared()\n")},
		// The module root, imported by a path nothing else shows, under
		// the name of its package.
		"root.go":     {Data: []byte("package tea\n\nfunc Run() {}\n")},
		"cmd/main.go": {Data: []byte("package main\n\nimport tea \"example.org/bubble/v2\"\n\nfunc main() { tea.Run() }\n")},
		// Imported without a name: the package clause's name still means it.
		"cmd/other.go": {Data: []byte("package main\n\nimport \"example.org/bubble/v2\"\n\nfunc other() { tea.Run() }\n")},
	}
	got := edges(t, tree, RankingDefault)
	for _, e := range []string{"a/a.go -> b/b.go Shared", "cmd/main.go -> root.go Run", "cmd/other.go -> root.go Run"} {
		if !slices.Contains(got, e) {
			t.Errorf("edges lack %q:\n%s", e, strings.Join(got, "\n"))
		}
	}
	// A Lua file links to Go's names only when names link across
	// families of languages.
	const lua = "doc.lua -> b/b.go Shared"
	if slices.Contains(got, lua) {
		t.Errorf("edges have %q across families", lua)
	}
	if got := edges(t, tree, "aider+reverse+roles+rel+overview=1+resolve"); !slices.Contains(got, lua) {
		t.Errorf("without family, edges lack %q:\n%s", lua, strings.Join(got, "\n"))
	}
	for _, f := range linkTree(t, tree, RankingDefault).Files {
		if f.Path == "a/a.go" && !slices.Contains(f.Refs, fallbackKey("Shared", "go")) {
			t.Errorf("a/a.go refs %q, want the fallback key of Shared", f.Refs)
		}
	}
}

// TestReferencesResolved: the uses of a name the tree defines are those
// that can mean its definitions.
func TestReferencesResolved(t *testing.T) {
	m, err := NewFS(goTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, err := m.References(context.Background(), "New", "Println")
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, r := range got {
		list = append(list, r.Name+" "+r.Path)
	}
	slices.Sort(list)
	// a.go's b.New() means b's New; nothing else calls a New. fmt.Println
	// is not b's Println, so Println has no use.
	if want := []string{"New a/a.go"}; !slices.Equal(list, want) {
		t.Errorf("References(New, Println) = %q, want %q", list, want)
	}
}

// TestResolveInclude: an #include in quotes links to the header it names
// (next to the includer first, then the shortest path of the tree that
// ends in it, the first of those as short) and to the sources of the
// header's stem; other names link by name.
func TestResolveInclude(t *testing.T) {
	tree := fstest.MapFS{
		"src/store.h":       {Data: []byte("int store_get(int k);\n")},
		"src/store.c":       {Data: []byte("#include \"store.h\"\n\nint store_get(int k) { return k; }\n")},
		"src/main.c":        {Data: []byte("#include <stdio.h>\n#include \"store.h\"\n\nint main(void) { return store_get(1); }\n")},
		"lib/other/store.h": {Data: []byte("int other_get(int k);\n")},
		// Paths with the same end, as short but later, and longer.
		"zzz/other/store.h":     {Data: []byte("int z_get(int k);\n")},
		"deep/er/other/store.h": {Data: []byte("int d_get(int k);\n")},
		"app/use.cpp":           {Data: []byte("#include \"other/store.h\"\n\nint use() { return 0; }\n")},
	}
	got := edges(t, tree, RankingDefault)
	want := []string{
		"app/use.cpp -> lib/other/store.h store", // the end of a path in the tree
		"src/main.c -> src/store.c store",        // the header's source
		"src/main.c -> src/store.c store_get",    // by name
		"src/main.c -> src/store.h store",        // the header next to it
		"src/main.c -> src/store.h store_get",    // by name: the prototype
		"src/store.c -> src/store.h store",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The keys of the includes are never shown.
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(context.Background(), Request{MaxTokens: 400})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		for _, d := range f.Defs {
			if d.Name == "store" {
				t.Errorf("the map shows the include key of %s: %+v", f.Path, d)
			}
		}
	}
}

// TestResolveNamesToo: with the ranking change names=W, a resolved use
// links by name as well, so b.New also reaches a's New.
func TestResolveNamesToo(t *testing.T) {
	const d = "aider+reverse+roles+rel+overview=1+resolve+private=0.3"
	if got := edges(t, goTree, d); slices.Contains(got, "a/a.go -> b/b.go helper") {
		t.Errorf("without names=W, a's helper() links to b's")
	}
	if got := edges(t, goTree, d+"+names=0.1"); !slices.Contains(got, "a/a.go -> b/b.go helper") {
		t.Errorf("with names=0.1, a's helper() does not link to b's helper by name:\n%s", strings.Join(got, "\n"))
	}
}

// TestRelatedResolved: Related follows resolved references. a.go imports
// b, calls b.New() and its own package's New and helper(): with
// resolution, b.go's related uses in a.go are the import (line 5) and
// b.New() (29) alone; by name (Aider's ranking), fmt.Println and len
// (15), s.String (26), New (27) and helper (30) count too.
func TestRelatedResolved(t *testing.T) {
	for _, tc := range []struct {
		ranking string
		want    []int
	}{
		{RankingDefault, []int{5, 29}},
		{RankingAider, []int{5, 15, 15, 26, 27, 29, 30}},
	} {
		m, err := NewFS(goTree, &Options{Policy: experimentPolicy(t, tc.ranking)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Related(t.Context(), "b/b.go", Request{MaxTokens: 2000})
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		var uses []int
		for _, f := range res.Files {
			for _, d := range f.Defs {
				if f.Path == "a/a.go" && d.Kind == "use" {
					uses = append(uses, d.Line)
				}
			}
		}
		slices.Sort(uses)
		if !slices.Equal(uses, tc.want) {
			t.Errorf("%s: Related(b/b.go) shows uses in a/a.go on lines %v, want %v:\n%s", tc.ranking, uses, tc.want, res.Text)
		}
	}
}

// checkAboveNames fails unless the edges the rules make on a tree are
// more precise than those of name matching, and find no fewer of the
// true edges want.
func checkAboveNames(t *testing.T, tree string, rules, names, want []string) {
	t.Helper()
	p, r := precisionRecall(rules, want)
	np, nr := precisionRecall(names, want)
	t.Logf("cross-file edges of %s: rules precision %.2f recall %.2f; names precision %.2f recall %.2f", tree, p, r, np, nr)
	if np >= p || nr > r {
		t.Errorf("%s: names precision %.2f recall %.2f, not below the rules' %.2f %.2f", tree, np, nr, p, r)
	}
}

// precisionRecall returns the share of got that is in want and of want
// that is in got.
func precisionRecall(got, want []string) (float64, float64) {
	n := 0
	for _, g := range got {
		if slices.Contains(want, g) {
			n++
		}
	}
	if len(got) == 0 || len(want) == 0 {
		return 0, 0
	}
	return float64(n) / float64(len(got)), float64(n) / float64(len(want))
}

// TestLinkFamily checks ranking change family: a reference that links
// by name (from a language without rules, or one the rules fall back
// on) links only to definitions in languages of its family: a Python
// script's obj.helper() not to Go's helper, a Lisp file's helper not to
// it either, while a Vue component still uses a script's names.
func TestLinkFamily(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":        {Data: []byte("module example.com/m\n")},
		"util/util.go":  {Data: []byte("package util\n\nfunc helper() int { return 1 }\n\nfunc Use() int { return helper() }\n")},
		"tool/run.py":   {Data: []byte("def main(obj):\n    return obj.helper()\n")},
		"lisp/run.lisp": {Data: []byte("(defun main () (helper))\n")},
		"web/App.vue":   {Data: []byte("<script>\nexport default { data() { return { list: people } } }\n</script>\n")},
		"web/people.js": {Data: []byte("export const people = [];\n")},
	}
	const def = "aider+reverse+roles+rel+overview=1+resolve+private=0.3+rows=8"
	has := func(edges []string, e string) bool { return slices.Contains(edges, e) }
	off, on := edges(t, tree, def), edges(t, tree, def+"+family")
	for _, e := range []string{"tool/run.py -> util/util.go helper", "lisp/run.lisp -> util/util.go helper"} {
		if !has(off, e) {
			t.Errorf("without family, no edge %q; the test needs it (edges %q)", e, off)
		}
		if has(on, e) {
			t.Errorf("with family, edge %q across families", e)
		}
	}
	for _, e := range []string{"web/App.vue -> web/people.js people"} {
		if !has(on, e) {
			t.Errorf("with family, no edge %q within the web family (edges %q)", e, on)
		}
	}
}

// fallbackKey is the key a reference to name falls back to, from a file
// of the family of languages fam ("" when names link across families).
func fallbackKey(name, fam string) string { return link.NameKey(name, link.FallbackScope, fam) }
