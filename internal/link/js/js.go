// Package js resolves JavaScript and TypeScript, which import each
// other: modules by their paths and a workspace's package names.
package js

import (
	"path"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/modules"
	"github.com/repomap-dev/repomap/tags"
)

// JavaScript and TypeScript (JSX and TSX too): a module is a file. A
// relative import names the file with that path, with one of the
// languages' extensions added, or with a .js one swapped for a
// TypeScript one, or the index file of that directory; other specifiers
// name packages, outside the tree, except a path alias or a package of a
// workspace, which fall back to names. "import {a as b} from m" means a
// as m defines it, imports it or re-exports it ("export {a} from",
// "export * from"); a default import means the definition of its local
// name in m; require() binds the module. A plain name means the file's
// own definition or what it imports; this.m() a method of the enclosing
// class or of its bases in the tree, super.m() of its bases; q.f() the f
// of the module q names (a namespace, a require(), or a default export
// made of the module's functions) or a static method of the class q
// names. Builtins and packages link to nothing; what else the rules cannot
// place falls back to names, and so does any unresolved name in a file
// that imports nothing (a script sharing globals).

// Rules resolve JavaScript and TypeScript.
var Rules = &link.Rules{
	Name:      "javascript",
	Languages: []string{"javascript", "typescript", "tsx"},
	Reads:     func(f link.File) bool { return path.Base(f.Path) == "package.json" },
	New:       func(tree []link.File, mine []int) link.Lang { return newResolver(tree, mine) },
}

// resolver holds the JavaScript and TypeScript modules of a tree.
type resolver struct {
	modules.Graph[int]
	byPath    map[string]int  // path → file
	workspace map[string]bool // base names of the directories with a package.json
}

// target is what an imported name means: a module, by its file's
// number, or a name of one.
type target = modules.Target[int]

// outside and unknown are the targets of modules outside the tree and of
// those the rules cannot place.
var (
	outside = target{Mod: -1, At: link.Outside}
	unknown = target{Mod: -1, At: link.Unknown}
)

// exts are the extensions an import may leave out, in the order they
// are tried.
var exts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// globals are the global objects of browsers and Node whose members
// a program calls.
var globals = link.Words(`JSON Math console Promise Reflect Proxy Date RegExp Error Map Set WeakMap WeakSet Intl URL
	URLSearchParams window document globalThis self navigator process Buffer Object Array String Number Symbol
	BigInt Atomics`)

func newResolver(tree []link.File, files []int) *resolver {
	r := &resolver{byPath: make(map[string]int), workspace: make(map[string]bool)}
	r.Graph = modules.Graph[int]{Tree: tree, Files: make(map[int]*modules.File[int], len(files)), Prefix: "js",
		Module: func(m int) (int, bool) { return m, true },
		Read:   r.read, Bases: r.basesOf}
	for _, f := range tree {
		if path.Base(f.Path) == "package.json" {
			r.workspace[path.Base(link.Dir(f.Path))] = true
		}
	}
	for _, i := range files {
		r.byPath[tree[i].Path] = i
		set := tree[i].Tags
		classLine := make(map[int32]string)
		r.Files[i] = modules.NewFile(tree[i].Path, set, func(f *modules.File[int], j int) {
			t := set.Tags[j]
			switch {
			case t.Kind == tags.Definition:
				if set.Sub(j) == "class" {
					classLine[t.Line] = set.Str(t.Name)
				}
			case set.Sub(j) == "class":
				// A base: a class reference on the line of a class.
				if c, ok := classLine[t.Line]; ok {
					f.Bases[c] = append(f.Bases[c], j)
				}
			case set.Sub(j) == "import" || set.Sub(j) == "require":
				f.Imports = true
			}
		})
	}
	return r
}

// module resolves a module specifier as file i imports it.
func (r *resolver) module(i int, spec string) target {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return r.bare(spec)
	}
	p := path.Join(link.Dir(r.Tree[i].Path), spec)
	if p == ".." || strings.HasPrefix(p, "../") {
		return outside
	}
	if p == "." {
		p = ""
	}
	if k, ok := r.find(p); ok {
		return target{Mod: k, At: link.InTree}
	}
	return unknown
}

// find returns the file a path without or with an extension names.
func (r *resolver) find(p string) (int, bool) {
	if k, ok := r.byPath[p]; ok {
		return k, true
	}
	stems := []string{p}
	switch ext := path.Ext(p); ext {
	case ".js", ".jsx", ".mjs", ".cjs":
		// TypeScript imports its own files by the name they compile to.
		stems = append(stems, strings.TrimSuffix(p, ext))
	}
	for _, stem := range stems {
		for _, ext := range exts {
			if k, ok := r.byPath[stem+ext]; ok {
				return k, true
			}
		}
	}
	for _, ext := range exts {
		if k, ok := r.byPath[link.Join(p, "index"+ext)]; ok {
			return k, true
		}
	}
	return -1, false
}

// bare places a specifier that is no relative path: a path alias ("@/x",
// "~/x", "#x") or a package of the workspace is unknown, any other
// package outside the tree.
func (r *resolver) bare(spec string) target {
	if strings.HasPrefix(spec, "@/") || strings.HasPrefix(spec, "~/") || strings.HasPrefix(spec, "#") {
		return unknown
	}
	name := spec
	if strings.HasPrefix(name, "@") {
		_, name, _ = strings.Cut(name, "/")
	}
	if r.workspace[link.FirstElem(name)] {
		return unknown
	}
	return outside
}

// read reads what file i imports.
func (r *resolver) read(i int, f *modules.File[int]) {
	set := r.Tree[i].Tags
	for j, t := range set.Tags {
		sub := set.Sub(j)
		if t.Kind != tags.Reference || set.Qual(j) == "" || sub != "import" && sub != "require" {
			continue
		}
		name := set.Str(t.Name)
		fields := strings.Fields(set.Qual(j))
		if len(fields) == 0 {
			continue // a blank specifier
		}
		m := r.module(i, fields[len(fields)-1])
		pre := fields[:len(fields)-1]
		switch {
		case sub == "require", len(pre) > 0 && pre[0] == "*": // the module as a whole
			m.Name = ""
			f.Binds[name] = m
		case name == "*":
			f.Stars = append(f.Stars, m)
		case len(pre) == 1: // an alias
			f.Binds[pre[0]] = target{Mod: m.Mod, Name: name, At: m.At}
		default:
			f.Binds[name] = target{Mod: m.Mod, Name: name, At: m.At}
		}
	}
}

// local resolves a plain name used in file i.
func (r *resolver) local(i int, name string) target {
	f := r.File(i)
	if f.Defs[name] {
		return target{Mod: i, Name: name, At: link.InTree}
	}
	if b, ok := f.Binds[name]; ok {
		return b
	}
	if link.Builtin("javascript", name) || f.Imports {
		return outside // a builtin, a global, a local variable
	}
	return unknown
}

// basesOf returns the classes of the tree c extends, and whether it
// extends one outside the tree.
func (r *resolver) basesOf(c modules.ClassRef) (in []modules.ClassRef, outside bool) {
	set := r.Tree[c.File].Tags
	for _, j := range r.Files[c.File].Bases[c.Name] {
		name := set.Str(set.Tags[j].Name)
		t := r.local(c.File, name)
		if q := set.Qual(j); q != "" {
			t = r.member(c.File, q, name)
		}
		if b, ok := r.Class(t); ok {
			in = append(in, b)
		} else {
			outside = true
		}
	}
	return in, outside
}

// member resolves q.name used in file i to a name of a module, when q
// names a module or a value a module exports.
func (r *resolver) member(i int, q, name string) target {
	first, _, dotted := strings.Cut(q, ".")
	if b, ok := r.File(i).Binds[first]; ok && b.At == link.Outside || globals[first] {
		return outside
	}
	if dotted {
		return unknown
	}
	t := r.local(i, q)
	if t.At != link.InTree {
		return unknown // a value
	}
	if t.Name == "" {
		return target{Mod: t.Mod, Name: name, At: link.InTree}
	}
	// A value a module exports, or a default export that is no
	// definition: its members are taken to be the module's (export
	// default {get, post}).
	d, _ := r.Definer(t)
	if d < 0 {
		d = t.Mod
	}
	return target{Mod: d, Name: name, At: link.InTree}
}

// methodKeys appends the keys of method name of the classes from and
// their bases, or its fallback when none defines it.
func (r *resolver) methodKeys(out []link.Ref, from []modules.ClassRef, name string) []link.Ref {
	out, found, _ := r.MethodKeys(out, from, name)
	if found {
		return out
	}
	return append(out, valueKey(name))
}

// UseContext: what this.m() and super.m() mean depends on the class
// around the use.
func (r *resolver) UseContext(i, j int) int32 {
	set := r.Tree[i].Tags
	if q := set.Qual(j); set.Tags[j].Kind == tags.Reference && (q == "this" || q == "super") {
		return r.ClassContext(i, set.Tags[j].Line)
	}
	return 0
}

func (r *resolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := r.Tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	switch {
	case sub == "require":
		return out
	case sub == "import":
		if qual == "" {
			return append(out, link.FallbackRef(name))
		}
		b := r.File(i).Binds
		fields := strings.Fields(qual)
		if name == "*" || len(fields) == 0 || fields[0] == "*" {
			return out
		}
		if len(fields) == 2 {
			return r.KeyOf(out, b[fields[0]], name)
		}
		return r.KeyOf(out, b[name], name)
	case qual == "" && sub == "member": // the member of an expression
		return append(out, valueKey(name))
	case qual == "":
		return r.KeyOf(out, r.local(i, name), name)
	case qual == "this" || qual == "super":
		c, ok := r.Enclosing(i, t.Line)
		if !ok {
			break
		}
		from := []modules.ClassRef{c}
		if qual == "super" {
			from, _ = r.basesOf(from[0])
		}
		return r.methodKeys(out, from, name)
	case sub == "member":
		if c, ok := r.Class(r.local(i, qual)); ok && !strings.Contains(qual, ".") {
			return r.methodKeys(out, []modules.ClassRef{c}, name) // a static method
		}
		fallthrough
	default:
		m := r.member(i, qual, name)
		if sub == "member" && m.At == link.Unknown {
			return append(out, valueKey(name))
		}
		return r.KeyOf(out, m, name)
	}
	if sub == "member" {
		return append(out, valueKey(name))
	}
	return append(out, link.FallbackRef(name))
}

// valueKey is the key of a use of method name on a value whose class the
// rules do not know: the fallback. (A scope of all methods, as Go has,
// was measured too: it lowered recall at 1024 tokens.)
func valueKey(name string) link.Ref { return link.FallbackRef(name) }
