package repomap

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/memo"
)

// polyglotLinkTree is a tree of several languages whose files use each other:
// Go packages of one module, Python with pytest fixtures, JavaScript and
// TypeScript, Java with Kotlin, C# with its project, C with a header,
// Rust with its Cargo.toml, and documents.
func polyglotLinkTree() fstest.MapFS {
	files := map[string]string{
		"go.mod": "module example.com/app\n",
		"store/store.go": `package store

// Store keeps values.
type Store struct {
	db   *DB
	Name string
}

// New returns a store.
func New() *Store { return &Store{db: &DB{}} }

// Get returns the value of k.
func (s *Store) Get(k string) string {
	return s.db.Query(k)
}

// Default is the store of the process.
var Default = New()
`,
		"store/db.go": `package store

// DB is a database.
type DB struct {
	path string
}

// Query asks the database.
func (d *DB) Query(q string) string { return d.path + q }
`,
		"app/app.go": `package app

import "example.com/app/store"

// App is the application.
type App struct {
	st *store.Store
}

// Run runs it.
func Run() string {
	s := store.New()
	return s.Get("k") + store.Default.Get("x")
}

// Do does it.
func (a *App) Do() string { return a.st.Get("y") }
`,
		"app/app_test.go": `package app

import "testing"

func TestRun(t *testing.T) {
	if Run() == "" {
		t.Fatal("empty")
	}
}
`,
		"cmd/main.go": `package main

import "example.com/app/app"

func main() { app.Run() }
`,
		"pkg/__init__.py": "from .core import Engine\n",
		"pkg/core.py": `class Engine:
    def start(self):
        return helper()


def helper():
    return 1
`,
		"pkg/util.py": `from pkg.core import Engine


def make():
    e = Engine()
    return e.start()
`,
		"tests/conftest.py": `import pytest


@pytest.fixture
def engine():
    from pkg.core import Engine
    return Engine()
`,
		"tests/test_core.py": `def test_start(engine):
    assert engine.start() == 1
`,
		"web/package.json": `{"name": "web", "version": "1.0.0"}` + "\n",
		"web/src/index.js": "export { Button } from './button';\n",
		"web/src/button.js": `export class Button {
  render() { return helper(); }
}

export function helper() { return 1; }
`,
		"web/src/app.ts": `import { Button } from './button';

export function main(): number {
  return new Button().render();
}
`,
		"java/com/ex/Foo.java": `package com.ex;

public class Foo {
    public int bar() { return Util.baz(); }
}
`,
		"java/com/ex/Util.java": `package com.ex;

public class Util {
    static int baz() { return 1; }
}
`,
		"kt/K.kt": `package com.ex.k

import com.ex.Foo

class K {
    fun go(): Int = Foo().bar()
}
`,
		"cs/app.csproj": `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <Using Include="Ex.Lib" />
  </ItemGroup>
</Project>
`,
		"cs/Lib.cs": `namespace Ex.Lib
{
    public static class Helpers
    {
        public static int Twice(this int x) { return x * 2; }
    }
}
`,
		"cs/App.cs": `namespace Ex.App
{
    public class Program
    {
        public static int Main() { return 3.Twice(); }
    }
}
`,
		"c/lib.h":  "int helper(int x);\n",
		"c/lib.c":  "#include \"lib.h\"\n\nint helper(int x) { return x + 1; }\n",
		"c/main.c": "#include \"lib.h\"\n\nint main(void) { return helper(1); }\n",
		"rs/Cargo.toml": `[package]
name = "mylib"
version = "0.1.0"
`,
		"rs/src/lib.rs": "pub mod a;\n\npub fn top() -> i32 { a::f() }\n",
		"rs/src/a.rs":   "pub fn f() -> i32 { crate::top() }\n",
		"docs/guide.md": "# Guide\n\nUse `Store` and `Engine`.\n\n## Running\n\nCall Run.\n",
		"README.md":     "# App\n\n```go\ns := store.New()\ns.Get(\"k\")\n```\n\nSee `Engine.start()`.\n",
		"data.json":     `{"store": {"name": "x"}}` + "\n",
	}
	tree := fstest.MapFS{}
	for p, src := range files {
		tree[p] = &fstest.MapFile{Data: []byte(src), ModTime: time.Unix(1e9, 0)}
	}
	return tree
}

// linkEdits are changes to the files of polyglotLinkTree, each a step: what
// each language's rules read of other files changes in some, not in
// others.
var linkEdits = []struct {
	name string
	path string
	edit func(string) string
}{
	{"a Go function's body", "store/store.go", replace("return s.db.Query(k)", "v := s.db.Query(k)\n\treturn v + s.Name")},
	{"a Go method", "store/store.go", appendText("\n// Put sets k.\nfunc (s *Store) Put(k, v string) {}\n")},
	{"a first call of the method", "app/app.go", replace(`return s.Get("k")`, `s.Put("a", "b")
	return s.Get("k")`)},
	{"a call of a function not yet defined", "app/app.go", replace(`s.Put("a", "b")`, `s.Put("a", store.Later())`)},
	{"the function defined", "store/db.go", appendText("\n// Later is later.\nfunc Later() string { return \"\" }\n")},
	{"a Go function with a named result", "store/store.go", appendText("\n// Open opens.\nfunc Open() *Store { return New() }\n")},
	{"a Go field", "store/db.go", replace("path string", "path string\n\tst   *Store")},
	{"a Go package variable", "app/app.go", appendText("\nvar current = store.Open()\n\nfunc Current() string { return current.Get(\"c\") }\n")},
	{"a Go import", "cmd/main.go", replace(`import "example.com/app/app"`, "import (\n\t\"example.com/app/app\"\n\t\"example.com/app/store\"\n)")},
	{"a use of the import", "cmd/main.go", replace("app.Run()", "app.Run()\n\tstore.New().Get(\"m\")")},
	{"a Go package's name", "cmd/main.go", replace("package main", "package mainly")},
	{"a Go test's body", "app/app_test.go", replace(`t.Fatal("empty")`, `t.Fatal("empty", Current())`)},
	{"a Python method's body", "pkg/core.py", replace("return helper()", "return helper() + 1")},
	{"a Python method", "pkg/core.py", replace("def start(self):", "def stop(self):\n        return 0\n\n    def start(self):")},
	{"a pytest fixture", "tests/conftest.py", appendText("\n\n@pytest.fixture\ndef other():\n    return 2\n")},
	{"a JavaScript export", "web/src/button.js", appendText("\nexport function extra() { return helper(); }\n")},
	{"a TypeScript call", "web/src/app.ts", replace("return new Button().render();", "return new Button().render() + extra();")},
	{"a package.json", "web/package.json", replace(`"1.0.0"`, `"1.0.1"`)},
	{"a Java method", "java/com/ex/Util.java", appendText("\nclass More { int twice() { return Util.baz() * 2; } }\n")},
	{"a Kotlin package", "kt/K.kt", replace("package com.ex.k", "package com.ex")},
	{"a C# project's usings", "cs/app.csproj", replace(`<Using Include="Ex.Lib" />`, `<Using Include="Ex.Other" />`)},
	{"a C header", "c/lib.h", appendText("int other(int x);\n")},
	{"a Cargo.toml", "rs/Cargo.toml", replace(`name = "mylib"`, `name = "otherlib"`)},
	{"a Rust function", "rs/src/a.rs", appendText("\npub fn g() -> i32 { f() }\n")},
	{"a heading", "docs/guide.md", replace("## Running", "## Running it\n\n## Store")},
	{"a README's code", "README.md", replace(`s.Get("k")`, "s.Get(\"k\")\nstore.Open()")},
	{"a page's inline code", "docs/guide.md", replace("Use `Store` and", "Use")},
	{"a JSON key", "data.json", replace(`"name"`, `"label"`)},
	{"a Go function's body again", "store/store.go", replace("return v + s.Name", "return v")},
}

func replace(old, new string) func(string) string {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

func appendText(more string) func(string) string {
	return func(s string) string { return s + more }
}

// edit changes the file at p of tree with f, and its modification time.
func edit(t *testing.T, tree fstest.MapFS, p string, f func(string) string) {
	t.Helper()
	file := tree[p]
	if file == nil {
		t.Fatalf("no file %s", p)
	}
	data := f(string(file.Data))
	if data == string(file.Data) {
		t.Fatalf("the edit of %s changes nothing", p)
	}
	file.Data = []byte(data)
	file.ModTime = file.ModTime.Add(time.Second)
}

// checkLinker checks that the link stage's state that m keeps is what a
// new link stage makes of the same snapshot, and returns where the
// links of m's last map came from.
func checkLinker(t *testing.T, m *Map, step string) {
	t.Helper()
	_, lk, _ := m.links.Last()
	if lk == nil {
		t.Fatalf("%s: the Map keeps no link stage", step)
	}
	if err := lk.Verify(); err != nil {
		t.Errorf("%s: %v", step, err)
	}
}

// TestLinkerUpdate changes the files of a tree of several languages one
// at a time under a Map kept open, and after each change checks that the
// Map's link stage, updated, is what a new one makes, and that the map is
// the bytes a new Map gives; then it makes random changes.
func TestLinkerUpdate(t *testing.T) {
	tree := polyglotLinkTree()
	opts := &Options{Policy: experimentPolicy(t, RankingDefault), MaxTokens: 1024}
	m, err := NewFS(tree, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	reqs := []Request{{}, {Focus: []string{"app/app.go"}}, {Text: "the store's Get returns the wrong value"}}
	render := func(step string, fresh bool) {
		t.Helper()
		var n *Map
		if fresh {
			n, err = NewFS(tree, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
		}
		for _, req := range reqs {
			r, err := m.Build(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if fresh {
				want, err := n.Build(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if r.Text != want.Text {
					t.Errorf("%s, %+v: the map differs from a new Map's:\n%s\nwant:\n%s", step, req, r.Text, want.Text)
				}
			}
		}
	}
	render("first", false)
	goFast := 0
	for _, e := range linkEdits {
		edit(t, tree, e.path, e.edit)
		r, err := m.Build(ctx, Request{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Stats.Linked != "updated" {
			t.Errorf("%s: links %s, want updated", e.name, r.Stats.Linked)
		}
		if strings.HasSuffix(e.path, ".go") && lastLinker(m).Relinked() == 1 {
			goFast++
		}
		checkLinker(t, m, e.name)
		render(e.name, !testing.Short())
	}
	if goFast < 4 {
		t.Errorf("%d changes of Go files linked their file alone, want 4 at least", goFast)
	}

	// Random changes: lines of a file doubled, dropped or moved to
	// another file, a few files at a time.
	rng := rand.New(rand.NewPCG(1, 2))
	paths := slices.Sorted(maps.Keys(tree))
	steps := 40
	if testing.Short() {
		steps = 10
	}
	for step := range steps {
		for range 1 + rng.IntN(3) {
			p := paths[rng.IntN(len(paths))]
			lines := strings.Split(string(tree[p].Data), "\n")
			k := rng.IntN(len(lines))
			switch rng.IntN(3) {
			case 0:
				lines = slices.Insert(lines, k, lines[k])
			case 1:
				lines = slices.Delete(lines, k, k+1)
			default:
				q := paths[rng.IntN(len(paths))]
				other := strings.Split(string(tree[q].Data), "\n")
				lines = slices.Insert(lines, k, other[rng.IntN(len(other))])
			}
			tree[p].Data = []byte(strings.Join(lines, "\n"))
			tree[p].ModTime = tree[p].ModTime.Add(time.Second)
		}
		name := fmt.Sprintf("random step %d", step)
		if _, err := m.Build(ctx, Request{}); err != nil {
			t.Fatal(err)
		}
		checkLinker(t, m, name)
		if step%10 == 9 {
			render(name, true)
		}
	}
}

// TestKeptMapAfterEdits keeps one Map open over a tree of several
// languages while files change, come, go and move, and checks after
// each change that its maps are the bytes a new Map makes of the tree,
// for no request, a focus and a request's words, at two budgets.
func TestKeptMapAfterEdits(t *testing.T) {
	tree := polyglotLinkTree()
	opts := &Options{Policy: experimentPolicy(t, RankingDefault)}
	m, err := NewFS(tree, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	move := func(from, to string) func() {
		return func() {
			tree[to] = tree[from]
			tree[to].ModTime = tree[to].ModTime.Add(time.Second)
			delete(tree, from)
		}
	}
	add := func(p, src string) func() {
		return func() { tree[p] = &fstest.MapFile{Data: []byte(src), ModTime: time.Unix(2e9, 0)} }
	}
	remove := func(p string) func() { return func() { delete(tree, p) } }
	change := func(p string, f func(string) string) func() { return func() { edit(t, tree, p, f) } }
	if _, err := m.Build(ctx, Request{}); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name   string
		do     func()
		linked string
		same   bool // the files link as they did: the rank index is the one before
	}{
		{"a Go body", change("store/store.go", replace("return s.db.Query(k)", "return s.db.Query(k + s.Name)")), "updated", true},
		{"a Go comment", change("store/store.go", replace("return s.db.Query(k + s.Name)", "// Keys are names.\n\treturn s.db.Query(k + s.Name)")), "updated", true},
		{"a Go call more", change("store/store.go", replace("return s.db.Query(k + s.Name)", "return s.db.Query(s.db.Query(k) + s.Name)")), "updated", false},
		{"a Python blank line", change("pkg/core.py", replace("return 1", "\n    return 1")), "updated", true},
		{"a Go file added", add("app/extra.go", "package app\n\nimport \"example.com/app/store\"\n\n// Extra is more.\nfunc Extra() string { return store.New().Get(\"e\") }\n"), "made", false},
		{"a Python file added", add("pkg/extra.py", "from pkg.core import helper\n\n\ndef extra():\n    return helper()\n"), "made", false},
		{"a Python file removed", remove("pkg/util.py"), "made", false},
		{"a Go file renamed", move("store/db.go", "store/database.go"), "made", false},
		{"a JavaScript file renamed", move("web/src/button.js", "web/src/btn.js"), "made", false},
		{"a Go file moved to another package", move("app/extra.go", "cmd/extra.go"), "made", false},
		{"a Python body after them", change("pkg/core.py", replace("return 1", "return 2")), "updated", true},
		{"a Java file removed", remove("java/com/ex/Util.java"), "made", false},
		{"a document added", add("docs/more.md", "# More\n\nSee `Extra`.\n"), "made", false},
		{"a Go method after them", change("store/database.go", appendText("\nfunc (d *DB) Close() {}\n")), "updated", false},
		{"a TypeScript call of it", change("web/src/app.ts", replace("render();", "render() + 1;")), "updated", true},
	} {
		before := lastLinked(m).Index
		step.do()
		n, err := NewFS(tree, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, req := range []Request{{}, {Focus: []string{"app/app.go"}}, {Text: "Engine.start returns the wrong value"}} {
			for _, budget := range []int{1024, 4096} {
				req.MaxTokens = budget
				got := keptMatchesNew(t, step.name, m, n, req)
				if req.Text == "" && len(req.Focus) == 0 && budget == 1024 && got.Stats.Linked != step.linked {
					t.Errorf("%s: links %s, want %s", step.name, got.Stats.Linked, step.linked)
				}
			}
		}
		if same := lastLinked(m).Index == before; same != step.same {
			t.Errorf("%s: the rank index is the one before: %v, want %v", step.name, same, step.same)
		}
		n.Close()
	}
}

// keptMatchesNew makes the map for req with m, a Map kept open while its tree
// changed, and with n, a new Map of the tree, reports an error after
// step when they differ, and returns m's.
func keptMatchesNew(t *testing.T, step string, m, n *Map, req Request) *Result {
	t.Helper()
	got, err := m.Build(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, err := n.Build(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != want.Text || !reflect.DeepEqual(got.Files, want.Files) || !reflect.DeepEqual(got.Ranked, want.Ranked) {
		t.Errorf("%s, %+v: the kept Map's map differs from a new Map's:\n%s\nwant:\n%s", step, req, got.Text, want.Text)
	}
	return got
}

// lastLinked returns the link stage's result m keeps.
func lastLinked(m *Map) memo.Linked {
	l, _, _ := m.links.Last()
	return l
}

// lastLinker returns the linker that made the link stage's result m
// keeps, nil when it was read from the disk cache.
func lastLinker(m *Map) *link.Linker {
	_, lk, _ := m.links.Last()
	return lk
}
