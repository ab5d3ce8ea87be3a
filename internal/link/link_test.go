package link_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
)

// resolveOnly resolves by the default rules, and does nothing more.
var resolveOnly = link.Config{Resolve: true, Rules: langs.Default(), Fallback: policy.Default().Link.Fallback}

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
	got := linktest.Edges(t, tree, policy.Default().Link)
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
	if got := linktest.Edges(t, tree, resolveOnly); !slices.Contains(got, lua) {
		t.Errorf("without family, edges lack %q:\n%s", lua, strings.Join(got, "\n"))
	}
	if refs := linktest.Refs(t, tree, policy.Default().Link, "a/a.go"); !slices.Contains(refs, link.NameKey("Shared", link.FallbackScope, "go")) {
		t.Errorf("a/a.go refs %q, want the fallback key of Shared", refs)
	}
}

// TestLinkFamily checks Config.Family: a reference that links
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
	has := func(edges []string, e string) bool { return slices.Contains(edges, e) }
	family := resolveOnly
	family.Family = true
	off, on := linktest.Edges(t, tree, resolveOnly), linktest.Edges(t, tree, family)
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

// TestKeysShared: the references of files to one key hold one string,
// whether the rules resolve them or they link by name: a tree's keys
// are used by many files each.
func TestKeysShared(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":   {Data: []byte("module example.com/m\n")},
		"b/b.go":   {Data: []byte("package b\n\nfunc New() int { return 1 }\n")},
		"a/a.go":   {Data: []byte("package a\n\nimport \"example.com/m/b\"\n\nfunc A() int { return b.New() }\n")},
		"c/c.go":   {Data: []byte("package c\n\nimport \"example.com/m/b\"\n\nfunc C() int { return b.New() + b.New() }\n")},
		"d/d.py":   {Data: []byte("def run():\n    return helper()\n")},
		"e/e.py":   {Data: []byte("def go():\n    return helper()\n")},
		"f/help.c": {Data: []byte("int helper(void) { return 0; }\n")},
	}
	for _, c := range []struct {
		name string
		cfg  link.Config
	}{{"by rules", resolveOnly}, {"by name", link.Config{}}} {
		l := link.Link(linktest.Files(t, tree), c.cfg)
		where := make(map[string]*byte) // the bytes of each key
		shared := 0
		for _, f := range l.Files {
			for _, k := range f.Refs {
				p, ok := where[k]
				if !ok {
					where[k] = unsafe.StringData(k)
					continue
				}
				if p != unsafe.StringData(k) {
					t.Errorf("%s: %s's reference to %q is a string of its own", c.name, f.Path, k)
				}
				shared++
			}
		}
		if shared == 0 {
			t.Errorf("%s: no key is used by two files: %+v", c.name, l.Files)
		}
	}
}
