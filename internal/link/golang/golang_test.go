package golang_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/golang"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
)

// defaultLinks are the link settings of the default ranking.
var defaultLinks = policy.Default().Link

func TestResolveGo(t *testing.T) {
	got := linktest.Edges(t, linktest.GoTree(), defaultLinks)
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
	linktest.Same(t, got, want)
	// Never: a.go's New() to b's New, helper() to b's helper, the
	// builtin len or fmt.Println to b's functions of those names, s.String()
	// on a fmt.Stringer to b's S.String. t.Close() and x.Close() on a's T
	// link within a.go, to T.Close.

	// Aider's ranking links by name, as it always did.
	aider := linktest.Edges(t, linktest.GoTree(), link.Config{})
	for _, e := range []string{"a/a.go -> b/b.go helper", "a/a.go -> b/b.go len", "a/a.go -> b/b.go Println"} {
		if !slices.Contains(aider, e) {
			t.Errorf("aider edges lack %q:\n%s", e, strings.Join(aider, "\n"))
		}
	}
}

// TestResolveNamesToo: with Config.Names, a resolved use links by name
// as well, so b.New also reaches a's New.
func TestResolveNamesToo(t *testing.T) {
	c := link.Config{Resolve: true, Rules: langs.Default(), Fallback: defaultLinks.Fallback}
	if got := linktest.Edges(t, linktest.GoTree(), c); slices.Contains(got, "a/a.go -> b/b.go helper") {
		t.Errorf("without Names, a's helper() links to b's")
	}
	c.Names = 0.1
	if got := linktest.Edges(t, linktest.GoTree(), c); !slices.Contains(got, "a/a.go -> b/b.go helper") {
		t.Errorf("with Names 0.1, a's helper() does not link to b's helper by name:\n%s", strings.Join(got, "\n"))
	}
}

// goModule returns a tree of the module example.com/m from its files,
// given as path and source.
func goModule(files ...string) fstest.MapFS {
	tree := fstest.MapFS{"go.mod": {Data: []byte("module example.com/m\n")}}
	for k := 0; k+1 < len(files); k += 2 {
		tree[files[k]] = &fstest.MapFile{Data: []byte(files[k+1])}
	}
	return tree
}

// TestResolveGoRules checks each rule of the Go link stage on a small
// tree: the edges it must make, and those it must not.
func TestResolveGoRules(t *testing.T) {
	for _, tc := range []struct {
		name        string
		tree        fstest.MapFS
		want, never []string
	}{{
		// An import means the package's files, and its test files only
		// for the package's external tests, which compile them.
		name: "package clause of test files",
		tree: goModule(
			"p/p.go", "package p\n\nfunc F() {}\n",
			"p/p_internal_test.go", "package p\n\nfunc helper() {}\n",
			"p/p_test.go", "package p_test\n\nimport \"example.com/m/p\"\n\nfunc use() { p.F() }\n",
			"q/q.go", "package q\n\nimport \"example.com/m/p\"\n\nfunc G() { p.F() }\n",
		),
		want:  []string{"p/p_test.go -> p/p.go p", "p/p_test.go -> p/p_internal_test.go p", "q/q.go -> p/p.go p"},
		never: []string{"q/q.go -> p/p_internal_test.go p"},
	}, {
		// A value of a type that a dot import brings: its methods.
		name: "types of dot imports",
		tree: goModule(
			"p/p.go", "package p\n\ntype W interface{ Write() }\n\nfunc New() *T { return nil }\n\ntype T struct{}\n\nfunc (*T) Close() {}\n",
			"p/p_test.go", "package p_test\n\nimport . \"example.com/m/p\"\n\nfunc use(w W) {\n\tw.Write()\n\tx := New()\n\tx.Close()\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Write() {}\n\nfunc (V) Close() {}\n",
		),
		want:  []string{"p/p_test.go -> p/p.go Write", "p/p_test.go -> p/p.go Close"},
		never: []string{"p/p_test.go -> q/q.go Write", "p/p_test.go -> q/q.go Close"},
	}, {
		// x, ok := y.(T) binds x to T; an interface literal to nothing.
		name: "type assertions",
		tree: goModule(
			"p/p.go", "package p\n\ntype T struct{}\n\nfunc (T) Close() {}\n",
			"p/use.go", "package p\n\nfunc use(y any) {\n\tif x, ok := y.(*T); ok {\n\t\tx.Close()\n\t}\n\tif f, ok := y.(interface{ Flush() }); ok {\n\t\tf.Flush()\n\t}\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Close() {}\n\nfunc (V) Flush() {}\n",
		),
		want:  []string{"p/use.go -> p/p.go Close"},
		never: []string{"p/use.go -> q/q.go Close", "p/use.go -> q/q.go Flush"},
	}, {
		// x := y.M() calls a method of y's type, where the file says it.
		name: "bound to a method call",
		tree: goModule(
			"p/p.go", "package p\n\ntype T struct{}\n\nfunc (T) Get() int { return 0 }\n",
			"p/use.go", "package p\n\nfunc use(y *T) int {\n\tn := y.Get()\n\treturn n\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Get() int { return 0 }\n",
		),
		want:  []string{"p/use.go -> p/p.go Get"},
		never: []string{"p/use.go -> q/q.go Get"},
	}, {
		// A method's result type, as a function's: r, err := c.Get().
		name: "method results",
		tree: goModule(
			"p/p.go", "package p\n\ntype Client struct{}\n\nfunc (c *Client) Get() (*Resp, error) { return nil, nil }\n\ntype Resp struct{ Header Header }\n\nfunc (*Resp) Close() {}\n\ntype Header struct{}\n\nfunc (Header) Values() {}\n",
			"p/use.go", "package p\n\nfunc use(c *Client) {\n\tr, _ := c.Get()\n\tr.Close()\n\tr.Header.Values()\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Close() {}\n\nfunc (V) Values() {}\n",
		),
		want:  []string{"p/use.go -> p/p.go Close", "p/use.go -> p/p.go Values"},
		never: []string{"p/use.go -> q/q.go Close", "p/use.go -> q/q.go Values"},
	}, {
		// x.Close() in two functions, x bound to two types: each use
		// means its own binding's type.
		name: "each use by its binding",
		tree: goModule(
			"p/t.go", "package p\n\ntype T struct{}\n\nfunc (T) Close() {}\n",
			"p/u.go", "package p\n\ntype U struct{}\n\nfunc (U) Close() {}\n",
			"p/use.go", "package p\n\nfunc a() {\n\tx := T{}\n\tx.Close()\n}\n\nfunc b() {\n\tx := U{}\n\tx.Close()\n}\n",
		),
		want: []string{"p/use.go -> p/t.go Close", "p/use.go -> p/u.go Close"},
	}, {
		// x := y.f binds x to the type of y's field f (it links no use of
		// f).
		name: "bound to a field",
		tree: goModule(
			"p/p.go", "package p\n\ntype Conn struct{ w *Writer }\n\ntype Writer struct{}\n\nfunc (*Writer) Flush() {}\n",
			"p/use.go", "package p\n\nfunc use(c *Conn) {\n\tw := c.w\n\tw.Flush()\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Flush() {}\n",
		),
		want:  []string{"p/use.go -> p/p.go Flush"},
		never: []string{"p/use.go -> q/q.go Flush"},
	}, {
		// A package-level variable holds what its declaration says, in
		// every file of the package.
		name: "package-level variables",
		tree: goModule(
			"p/p.go", "package p\n\ntype Client struct{}\n\nfunc (*Client) Do() {}\n\nvar Default = &Client{}\n",
			"p/use.go", "package p\n\nfunc use() {\n\tDefault.Do()\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Do() {}\n",
		),
		want:  []string{"p/use.go -> p/p.go Do"},
		never: []string{"p/use.go -> q/q.go Do"},
	}, {
		// x.f.g.M(): through the types of the fields.
		name: "chains of fields",
		tree: goModule(
			"p/p.go", "package p\n\ntype A struct{ b *B }\n\ntype B struct{ c C }\n\ntype C struct{}\n\nfunc (C) Close() {}\n",
			"p/use.go", "package p\n\nfunc use(a *A) {\n\ta.b.c.Close()\n}\n",
			"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Close() {}\n",
		),
		want:  []string{"p/use.go -> p/p.go Close"},
		never: []string{"p/use.go -> q/q.go Close"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := linktest.Edges(t, tc.tree, defaultLinks)
			for _, e := range tc.want {
				if !slices.Contains(got, e) {
					t.Errorf("edges lack %q:\n%s", e, strings.Join(got, "\n"))
				}
			}
			for _, e := range tc.never {
				if slices.Contains(got, e) {
					t.Errorf("edges have %q:\n%s", e, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestGoImportShortestCopy: an import path that is no directory of the
// tree means the shortest directory that ends in it, the first of those
// as short.
func TestGoImportShortestCopy(t *testing.T) {
	lib := []byte("package lib\n\nfunc Do() {}\n")
	tree := fstest.MapFS{
		"go.mod":                                  {Data: []byte("module example.com/app\n")},
		"a/a.go":                                  {Data: []byte("package a\n\nimport \"github.com/other/lib\"\n\nfunc A() { lib.Do() }\n")},
		"zz/vendor/github.com/other/lib/l.go":     {Data: lib},
		"aa/vendor/github.com/other/lib/l.go":     {Data: lib},
		"deep/x/vendor/github.com/other/lib/l.go": {Data: lib},
	}
	got := linktest.Edges(t, tree, defaultLinks)
	if !slices.Contains(got, "a/a.go -> aa/vendor/github.com/other/lib/l.go Do") ||
		slices.ContainsFunc(got, func(e string) bool { return strings.Contains(e, "zz/") || strings.Contains(e, "deep/") }) {
		t.Errorf("edges:\n%s\nwant a/a.go -> aa/vendor/github.com/other/lib/l.go alone", strings.Join(got, "\n"))
	}
}

// TestUnexportedMembers: an unexported method used on a value of a type
// the rules do not know links to the methods of that name of the file's
// own package (its test files' too for a test file), never to another
// package's, which it cannot use; an external test reaches only its
// directory's test files (here none but its own). An exported one still
// links to every package's.
func TestUnexportedMembers(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":      {Data: []byte("module m\n")},
		"a/a.go":      {Data: []byte("package a\n\nfunc F(x interface{ flush(); Flush() }) {\n\tx.flush()\n\tx.Flush()\n}\n\ntype A struct{}\n\nfunc (A) flush() {}\n")},
		"a/a_test.go": {Data: []byte("package a\n\nfunc G(x interface{ flush() }) {\n\tx.flush()\n}\n")},
		"a/x_test.go": {Data: []byte("package a_test\n\nfunc H(x interface{ flush() }) {\n\tx.flush()\n}\n\ntype X struct{}\n\nfunc (X) flush() {}\n")},
		"b/b.go":      {Data: []byte("package b\n\ntype B struct{}\n\nfunc (B) flush() {}\n\nfunc (B) Flush() {}\n")},
	}
	var got []string
	for _, e := range linktest.Edges(t, tree, defaultLinks) {
		if strings.HasSuffix(e, " flush") || strings.HasSuffix(e, " Flush") {
			got = append(got, e)
		}
	}
	linktest.Same(t, got, []string{
		"a/a.go -> b/b.go Flush",
		"a/a_test.go -> a/a.go flush", "a/a_test.go -> a/x_test.go flush",
	})
}

// TestReach: with Options.Reach, Close on a value whose type the rules
// do not know links to the Close methods of the file's own package and
// of the packages it imports, with the test files of the package an
// external test tests, and not to those of a package it does not
// import; its keys share their weight. The default rules link it to
// every Close but those of test files, which only the test files of
// their directory can use: no other package's, and not the package's
// own code.
func TestReach(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":         {Data: []byte("module m\n")},
		"a/a.go":         {Data: []byte("package a\n\nimport \"m/b\"\n\nfunc F(x interface{ Close() }) {\n\tb.Open()\n\tx.Close()\n}\n\ntype A struct{}\n\nfunc (A) Close() {}\n")},
		"a/x_test.go":    {Data: []byte("package a_test\n\nimport \"m/a\"\n\nfunc G(x interface{ Close() }) {\n\ta.F(x)\n\tx.Close()\n}\n")},
		"a/help_test.go": {Data: []byte("package a\n\ntype H struct{}\n\nfunc (H) Close() {}\n")},
		"b/b.go":         {Data: []byte("package b\n\nfunc Open() {}\n\ntype T struct{}\n\nfunc (T) Close() {}\n")},
		"c/c.go":         {Data: []byte("package c\n\ntype U struct{}\n\nfunc (U) Close() {}\n")},
		"c/c_test.go":    {Data: []byte("package c\n\ntype V struct{}\n\nfunc (V) Close() {}\n")},
	}
	closes := func(c link.Config) []string {
		var out []string
		for _, e := range linktest.Edges(t, tree, c) {
			if strings.HasSuffix(e, " Close") {
				out = append(out, e)
			}
		}
		return out
	}
	linktest.Same(t, closes(defaultLinks), []string{
		"a/a.go -> b/b.go Close", "a/a.go -> c/c.go Close",
		"a/x_test.go -> a/a.go Close", "a/x_test.go -> a/help_test.go Close", "a/x_test.go -> b/b.go Close", "a/x_test.go -> c/c.go Close",
	})
	reach := defaultLinks
	reach.Rules = langs.With(reach.Rules, golang.With(golang.Options{Reach: true}))
	linktest.Same(t, closes(reach), []string{
		"a/a.go -> b/b.go Close", "a/x_test.go -> a/a.go Close", "a/x_test.go -> a/help_test.go Close",
	})
	for _, k := range linktest.Refs(t, tree, reach, "a/a.go") {
		if strings.HasPrefix(k, "Close\x00") && !link.Split(k) {
			t.Errorf("key %q of a/a.go's Close: its definers do not share its weight", k)
		}
	}
}

// TestFields: with Options.Fields, r, err := s.c.Get() binds r to the
// result of the method of the type of s's field c, and r.Body.Close()
// then means a type outside the tree: nothing in it; c := newSrv().c
// binds c to the type of the field c of what newSrv gives; b := r.Body
// and t := NewResp().Trailer link to the fields. The default rules link
// s.c.Get() as well but bind neither r nor c, so their members link to
// every member of their name, and they link no field read into a
// variable.
func TestFields(t *testing.T) {
	tree := goModule(
		"p/p.go", "package p\n\nimport \"io\"\n\ntype Client struct{}\n\nfunc (*Client) Get() (*Resp, error) { return nil, nil }\n\ntype Resp struct {\n\tBody    io.ReadCloser\n\tTrailer io.Reader\n}\n\nfunc (*Resp) Header() {}\n\nfunc NewResp() *Resp { return nil }\n",
		"p/use.go", "package p\n\ntype srv struct{ c *Client }\n\nfunc newSrv() *srv { return nil }\n\nfunc use(s *srv) {\n\tr, _ := s.c.Get()\n\tr.Header()\n\tr.Body.Close()\n\tb := r.Body\n\tt := NewResp().Trailer\n\t_, _ = b, t\n}\n\nfunc use2() {\n\tc := newSrv().c\n\tc.Get()\n}\n",
		"q/q.go", "package q\n\ntype V struct{}\n\nfunc (V) Close() {}\n\nfunc (V) Header() {}\n\nfunc (V) Get() {}\n",
	)
	uses := func(c link.Config) []string {
		return slices.DeleteFunc(linktest.Edges(t, tree, c), func(e string) bool { return !strings.HasPrefix(e, "p/use.go -> ") })
	}
	linktest.Same(t, uses(defaultLinks), []string{
		"p/use.go -> p/p.go Client", "p/use.go -> p/p.go Get", "p/use.go -> p/p.go Header", "p/use.go -> p/p.go NewResp",
		"p/use.go -> q/q.go Close", "p/use.go -> q/q.go Get", "p/use.go -> q/q.go Header",
	})
	fields := defaultLinks
	fields.Rules = langs.With(fields.Rules, golang.With(golang.Options{Fields: true}))
	linktest.Same(t, uses(fields), []string{
		"p/use.go -> p/p.go Body", "p/use.go -> p/p.go Client", "p/use.go -> p/p.go Get", "p/use.go -> p/p.go Header",
		"p/use.go -> p/p.go NewResp", "p/use.go -> p/p.go Trailer",
	})
}
