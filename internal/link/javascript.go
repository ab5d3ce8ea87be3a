package link

import (
	"path"
	"strings"

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

// jsResolver holds the JavaScript and TypeScript modules of a snapshot.
type jsResolver struct {
	tree      []File
	files     map[int]*jsFile
	byPath    map[string]int   // path → file
	workspace map[string]bool  // base names of the directories with a package.json
	found     map[jsTarget]int // definer's answers: the defining file, or -1
}

// jsFile is what one module defines and imports.
type jsFile struct {
	classInfo
	path   string
	defs   map[string]bool     // names defined, methods of classes aside
	binds  map[string]jsTarget // local names an import binds
	stars  []jsTarget          // modules re-exported with "export *"
	module bool                // it imports or re-exports something
	done   bool                // binds and stars are made
}

// jsTarget is what an imported name means: a module (name empty) or a
// name of one.
type jsTarget struct {
	file int
	name string
	at   goPlace
}

// jsExts are the extensions an import may leave out, in the order they
// are tried.
var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsGlobals are the global objects of browsers and Node whose members
// a program calls.
var jsGlobals = set(`JSON Math console Promise Reflect Proxy Date RegExp Error Map Set WeakMap WeakSet Intl URL
	URLSearchParams window document globalThis self navigator process Buffer Object Array String Number Symbol
	BigInt Atomics`)

// jsLanguages are the languages whose files these rules resolve.
var jsLanguages = map[string]bool{"javascript": true, "typescript": true, "tsx": true}

func newJSResolver(tree []File, files []int) *jsResolver {
	r := &jsResolver{tree: tree, files: make(map[int]*jsFile, len(files)), byPath: make(map[string]int),
		workspace: make(map[string]bool), found: make(map[jsTarget]int)}
	for _, f := range tree {
		if path.Base(f.Path) == "package.json" {
			r.workspace[path.Base(goDir(f.Path))] = true
		}
	}
	for _, i := range files {
		r.byPath[tree[i].Path] = i
		f := &jsFile{classInfo: newClassInfo(), path: tree[i].Path, defs: make(map[string]bool)}
		set := tree[i].Tags
		classLine := make(map[int32]string)
		for j, t := range set.Tags {
			name := set.Str(t.Name)
			switch {
			case t.Kind == tags.Definition && set.Sub(j) == "method" && set.Qual(j) != "":
				f.addMethod(set.Qual(j), name, t.Line)
			case t.Kind == tags.Definition:
				f.defs[name] = true
				if set.Sub(j) == "class" {
					f.classes[name] = true
					classLine[t.Line] = name
				}
			case set.Sub(j) == "class":
				// A base: a class reference on the line of a class.
				if c, ok := classLine[t.Line]; ok {
					f.bases[c] = append(f.bases[c], j)
				}
			case set.Sub(j) == "import" || set.Sub(j) == "require":
				f.module = true
			}
		}
		r.files[i] = f
	}
	return r
}

// module resolves a module specifier as file i imports it.
func (r *jsResolver) module(i int, spec string) jsTarget {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return r.bare(spec)
	}
	p := path.Join(goDir(r.tree[i].Path), spec)
	if p == ".." || strings.HasPrefix(p, "../") {
		return jsTarget{file: -1, at: goOutside}
	}
	if p == "." {
		p = ""
	}
	if k, ok := r.find(p); ok {
		return jsTarget{file: k, at: goInTree}
	}
	return jsTarget{file: -1, at: goUnknown}
}

// find returns the file a path without or with an extension names.
func (r *jsResolver) find(p string) (int, bool) {
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
		for _, ext := range jsExts {
			if k, ok := r.byPath[stem+ext]; ok {
				return k, true
			}
		}
	}
	for _, ext := range jsExts {
		if k, ok := r.byPath[pyJoin(p, "index"+ext)]; ok {
			return k, true
		}
	}
	return -1, false
}

// bare places a specifier that is no relative path: a path alias ("@/x",
// "~/x", "#x") or a package of the workspace is unknown, any other
// package outside the tree.
func (r *jsResolver) bare(spec string) jsTarget {
	if strings.HasPrefix(spec, "@/") || strings.HasPrefix(spec, "~/") || strings.HasPrefix(spec, "#") {
		return jsTarget{file: -1, at: goUnknown}
	}
	name := spec
	if strings.HasPrefix(name, "@") {
		_, name, _ = strings.Cut(name, "/")
	}
	if r.workspace[firstElem(name)] {
		return jsTarget{file: -1, at: goUnknown}
	}
	return jsTarget{file: -1, at: goOutside}
}

// file returns what file i defines and imports.
func (r *jsResolver) file(i int) *jsFile {
	f := r.files[i]
	if f.done {
		return f
	}
	f.done = true
	f.binds = make(map[string]jsTarget)
	set := r.tree[i].Tags
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
			m.name = ""
			f.binds[name] = m
		case name == "*":
			f.stars = append(f.stars, m)
		case len(pre) == 1: // an alias
			f.binds[pre[0]] = jsTarget{file: m.file, name: name, at: m.at}
		default:
			f.binds[name] = jsTarget{file: m.file, name: name, at: m.at}
		}
	}
	return f
}

// jsMaxHops bounds the chains of re-exports followed.
const jsMaxHops = 8

// definer follows a name of a module through its imports and re-exports
// to the file that defines it.
func (r *jsResolver) definer(t jsTarget, hops int) (int, bool) {
	if t.at != goInTree || t.name == "" || hops > jsMaxHops {
		return -1, false
	}
	// Each name of a module is looked up once; one met again on its own
	// chain (re-exports in a cycle) is not found.
	if d, ok := r.found[t]; ok {
		return d, d >= 0
	}
	r.found[t] = -1
	d, ok := r.follow(t, hops)
	r.found[t] = d
	return d, ok
}

// follow is definer's step: the module's definition, import or
// "export *".
func (r *jsResolver) follow(t jsTarget, hops int) (int, bool) {
	f := r.file(t.file)
	if f.defs[t.name] {
		return t.file, true
	}
	if b, ok := f.binds[t.name]; ok {
		return r.definer(b, hops+1)
	}
	for _, star := range f.stars {
		if d, ok := r.definer(jsTarget{file: star.file, name: t.name, at: star.at}, hops+1); ok {
			return d, true
		}
	}
	return -1, false
}

// keyOf appends the key of a name of a module, through its re-exports;
// when the rules cannot place it, the fallback of name, the name used.
func (r *jsResolver) keyOf(out []Ref, t jsTarget, name string) []Ref {
	switch {
	case t.at == goOutside:
		return out
	case t.at == goInTree && t.name == "":
		return out // a module: it has no definition to link to
	case t.at == goInTree:
		if d, ok := r.definer(t, 0); ok {
			return append(out, Ref{Name: t.name, Scope: "js:" + r.tree[d].Path})
		}
	}
	return append(out, Ref{Name: name, Scope: FallbackScope, Fallback: true})
}

// local resolves a plain name used in file i.
func (r *jsResolver) local(i int, name string) jsTarget {
	f := r.file(i)
	if f.defs[name] {
		return jsTarget{file: i, name: name, at: goInTree}
	}
	if b, ok := f.binds[name]; ok {
		return b
	}
	if builtins["javascript"][name] || f.module {
		return jsTarget{file: -1, at: goOutside} // a builtin, a global, a local variable
	}
	return jsTarget{file: -1, at: goUnknown}
}

// class returns the class a target names, if the tree defines it.
func (r *jsResolver) class(t jsTarget) (classRef, bool) {
	d, ok := r.definer(t, 0)
	if !ok || !r.files[d].classes[t.name] {
		return classRef{}, false
	}
	return classRef{d, t.name}, true
}

// basesOf returns the classes of the tree c extends, and whether it
// extends one outside the tree.
func (r *jsResolver) basesOf(c classRef) (in []classRef, outside bool) {
	set := r.tree[c.file].Tags
	for _, j := range r.files[c.file].bases[c.name] {
		name := set.Str(set.Tags[j].Name)
		t := r.local(c.file, name)
		if q := set.Qual(j); q != "" {
			t = r.member(c.file, q, name)
		}
		if b, ok := r.class(t); ok {
			in = append(in, b)
		} else {
			outside = true
		}
	}
	return in, outside
}

// member resolves q.name used in file i to a name of a module, when q
// names a module or a value a module exports.
func (r *jsResolver) member(i int, q, name string) jsTarget {
	first, _, dotted := strings.Cut(q, ".")
	if b, ok := r.file(i).binds[first]; ok && b.at == goOutside || jsGlobals[first] {
		return jsTarget{file: -1, at: goOutside}
	}
	if dotted {
		return jsTarget{file: -1, at: goUnknown}
	}
	t := r.local(i, q)
	if t.at != goInTree {
		return jsTarget{file: -1, at: goUnknown} // a value
	}
	if t.name == "" {
		return jsTarget{file: t.file, name: name, at: goInTree}
	}
	// A value a module exports, or a default export that is no
	// definition: its members are taken to be the module's (export
	// default {get, post}).
	d, ok := r.definer(t, 0)
	if !ok {
		d = t.file
	}
	return jsTarget{file: d, name: name, at: goInTree}
}

// methodKeys appends the keys of method name of the classes from and
// their bases, or its fallback when none defines it.
func (r *jsResolver) methodKeys(out []Ref, from []classRef, name string) []Ref {
	w := classWalk{
		info:    func(i int) *classInfo { return &r.files[i].classInfo },
		scope:   func(c classRef) string { return methodScope("js", r.files[c.file].path, c.name) },
		basesOf: r.basesOf,
	}
	out, found, _ := w.methodKeys(out, from, name)
	if found {
		return out
	}
	return append(out, r.valueKey(name))
}

func (r *jsResolver) defKey(i, j int) Ref { return fileDefKey(r.tree, i, j, "js") }

func (r *jsResolver) refKeys(out []Ref, i, j int) []Ref {
	set := r.tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	switch {
	case sub == "require":
		return out
	case sub == "import":
		if qual == "" {
			return append(out, Ref{Name: name, Scope: FallbackScope, Fallback: true})
		}
		b := r.file(i).binds
		fields := strings.Fields(qual)
		if name == "*" || len(fields) == 0 || fields[0] == "*" {
			return out
		}
		if len(fields) == 2 {
			return r.keyOf(out, b[fields[0]], name)
		}
		return r.keyOf(out, b[name], name)
	case qual == "" && sub == "member": // the member of an expression
		return append(out, r.valueKey(name))
	case qual == "":
		return r.keyOf(out, r.local(i, name), name)
	case qual == "this" || qual == "super":
		c, ok := r.files[i].enclosing(t.Line)
		if !ok {
			break
		}
		from := []classRef{{i, c}}
		if qual == "super" {
			from, _ = r.basesOf(from[0])
		}
		return r.methodKeys(out, from, name)
	case sub == "member":
		if c, ok := r.class(r.local(i, qual)); ok && !strings.Contains(qual, ".") {
			return r.methodKeys(out, []classRef{c}, name) // a static method
		}
		fallthrough
	default:
		m := r.member(i, qual, name)
		if sub == "member" && m.at == goUnknown {
			return append(out, r.valueKey(name))
		}
		return r.keyOf(out, m, name)
	}
	if sub == "member" {
		return append(out, r.valueKey(name))
	}
	return append(out, Ref{Name: name, Scope: FallbackScope, Fallback: true})
}

// valueKey is the key of a use of method name on a value whose class the
// rules do not know: the fallback. (A scope of all methods, as Go has,
// was measured too: it lowered recall at 1024 tokens.)
func (r *jsResolver) valueKey(name string) Ref {
	return Ref{Name: name, Scope: FallbackScope, Fallback: true}
}

// jsRules resolve JavaScript and TypeScript, which import each other:
// modules by their paths and a workspace's package names.
var jsRules = &rules{
	name:   "javascript",
	claims: func(f File, _ Config) bool { return jsLanguages[f.Lang] },
	reads:  func(f File, _ Config) bool { return path.Base(f.Path) == "package.json" },
	make:   func(tree []File, mine []int, _ Config) langResolver { return newJSResolver(tree, mine) },
}
