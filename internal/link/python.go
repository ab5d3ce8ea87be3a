package link

import (
	"path"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Python: a module is a file, a package the __init__.py of a directory.
// Absolute imports are looked up from the importing file's directory,
// then from each import root (the tree's root and the parent of every
// top-level package, so src/pkg layouts resolve); relative ones from the
// file's package. "from m import n" means n as module m defines it or
// imports it (a package's __init__ re-exports), or the submodule m.n; a
// "*" import, every name of m. A plain name means the file's own
// definition or what it imports; self.m() and cls.m() a method of the
// enclosing class or of its bases in the tree, super().m() of its bases;
// q.f() the f of the module q names, or the method of the class q names.
// Builtins and the modules outside the tree link to nothing; what else the
// rules cannot place falls back to names.

// pyResolver holds the Python modules of a snapshot.
type pyResolver struct {
	tree  []File
	files map[int]*pyFile
	mods  map[string]int  // module path ("a/b/c" for a/b/c.py or a/b/c/__init__.py) → file
	dirs  map[string]bool // directories holding Python files, and their parents
	pkgs  map[string]bool // directories with an __init__.py
	roots []string        // import roots, shortest first; "" is the tree's root
	found map[pyTarget]pyFound
}

// pyFile is what one Python file defines and imports.
type pyFile struct {
	classInfo
	path  string
	defs  map[string]bool     // names defined outside classes
	binds map[string]pyTarget // local names an import binds
	stars []pyTarget          // modules imported with "*"
	done  bool                // binds and stars are made
}

// pyTarget is what an imported name means: a module (name empty) or a
// name in a module.
type pyTarget struct {
	mod  string // module path
	name string
	at   goPlace
}

// pyModule returns the module path of a Python file: without its
// extension, and without "/__init__" for a package.
func pyModule(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	if p == "__init__" {
		return ""
	}
	return strings.TrimSuffix(p, "/__init__")
}

func newPyResolver(tree []File, files []int) *pyResolver {
	p := &pyResolver{tree: tree, files: make(map[int]*pyFile, len(files)), mods: make(map[string]int),
		dirs: make(map[string]bool), pkgs: make(map[string]bool), found: make(map[pyTarget]pyFound)}
	pkgs := p.pkgs
	for _, i := range files {
		fp := tree[i].Path
		m := pyModule(fp)
		// A .py file wins over its .pyi stub.
		if old, ok := p.mods[m]; !ok || strings.HasSuffix(tree[old].Path, ".pyi") {
			p.mods[m] = i
		}
		for d := goDir(fp); d != ""; d = goDir(d) {
			p.dirs[d] = true
		}
		if base := path.Base(fp); base == "__init__.py" || base == "__init__.pyi" {
			pkgs[goDir(fp)] = true
		}
		f := &pyFile{classInfo: newClassInfo(), path: fp, defs: make(map[string]bool)}
		set := tree[i].Tags
		for j, t := range set.Tags {
			name := set.Str(t.Name)
			switch {
			case t.Kind == tags.Definition && set.Sub(j) == "method" && set.Qual(j) != "":
				f.addMethod(set.Qual(j), name, t.Line)
			case t.Kind == tags.Definition:
				f.defs[name] = true
				f.classes[name] = f.classes[name] || set.Sub(j) == "class"
			case set.Sub(j) == "class" && set.Qual(j) != "":
				c, _, _ := strings.Cut(set.Qual(j), " ")
				f.bases[c] = append(f.bases[c], j)
			}
		}
		p.files[i] = f
	}
	roots := map[string]bool{"": true}
	for d := range pkgs {
		if parent := goDir(d); !pkgs[parent] || parent == "" {
			roots[parent] = true
		}
	}
	for r := range roots {
		p.roots = append(p.roots, r)
	}
	slices.SortFunc(p.roots, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return p
}

// join joins a directory and a module path.
func pyJoin(dir, rel string) string {
	if dir == "" {
		return rel
	}
	if rel == "" {
		return dir
	}
	return dir + "/" + rel
}

// exists reports whether the module path m is a module or a package
// directory of the tree.
func (p *pyResolver) exists(m string) bool {
	_, ok := p.mods[m]
	return ok || p.dirs[m]
}

// module resolves a module name as the file i imports it.
func (p *pyResolver) module(i int, name string) pyTarget {
	dir := goDir(p.tree[i].Path)
	if strings.HasPrefix(name, ".") {
		rest := strings.TrimLeft(name, ".")
		for k := 1; k < len(name)-len(rest); k++ {
			if dir == "" {
				return pyTarget{at: goUnknown}
			}
			dir = goDir(dir)
		}
		m := pyJoin(dir, strings.ReplaceAll(rest, ".", "/"))
		if p.exists(m) {
			return pyTarget{mod: m, at: goInTree}
		}
		return pyTarget{at: goUnknown}
	}
	rel := strings.ReplaceAll(name, ".", "/")
	first := firstElem(rel)
	partial := false
	// A directory that is no package is on the path of its scripts
	// and tests.
	roots := p.roots
	if !p.pkgs[dir] {
		roots = append([]string{dir}, roots...)
	}
	for k, root := range roots {
		if k > 0 && root == roots[0] {
			continue
		}
		// The first part of the name must be a module or a package
		// with an __init__.py: any directory would take the standard
		// library's names for the tree's test data.
		if _, ok := p.mods[pyJoin(root, first)]; !ok {
			continue
		}
		if m := pyJoin(root, rel); p.exists(m) {
			return pyTarget{mod: m, at: goInTree}
		}
		partial = true
	}
	if partial {
		return pyTarget{at: goUnknown}
	}
	return pyTarget{at: goOutside}
}

// file returns what file i defines and imports.
func (p *pyResolver) file(i int) *pyFile {
	f := p.files[i]
	if f.done {
		return f
	}
	f.done = true
	f.binds = make(map[string]pyTarget)
	set := p.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || set.Qual(j) == "" {
			continue
		}
		name := set.Str(t.Name)
		switch set.Sub(j) {
		case "module": // import a.b [as c]
			full, alias, _ := strings.Cut(set.Qual(j), " ")
			if alias != "" {
				f.binds[alias] = p.module(i, full)
				continue
			}
			first := firstElem(strings.ReplaceAll(full, ".", "/"))
			f.binds[first] = p.module(i, first)
		case "import": // from m import name [as alias]
			from, alias, _ := strings.Cut(set.Qual(j), " ")
			m := p.module(i, from)
			if name == "*" {
				f.stars = append(f.stars, m)
				continue
			}
			if alias == "" {
				alias = name
			}
			f.binds[alias] = p.member(m, name)
		}
	}
	return f
}

// member returns what name in module m is: a submodule, or a name.
func (p *pyResolver) member(m pyTarget, name string) pyTarget {
	if m.at != goInTree {
		return pyTarget{at: m.at, name: name}
	}
	if sub := pyJoin(m.mod, name); p.exists(sub) {
		return pyTarget{mod: sub, at: goInTree}
	}
	return pyTarget{mod: m.mod, name: name, at: goInTree}
}

// pyMaxHops bounds the chains of re-exports followed.
const pyMaxHops = 8

// definer follows a name in a module through re-exports to the file
// that defines it. It returns that file and true, or where the chain
// left the tree.
func (p *pyResolver) definer(t pyTarget, hops int) (int, pyTarget, bool) {
	if t.at != goInTree || t.name == "" || hops > pyMaxHops {
		return -1, t, false
	}
	// Each name of a module is looked up once; one met again on its own
	// chain (imports in a cycle) is not found.
	if v, ok := p.found[t]; ok {
		return v.file, v.t, v.ok
	}
	p.found[t] = pyFound{-1, pyTarget{at: goUnknown}, false}
	d, at, ok := p.follow(t, hops)
	p.found[t] = pyFound{d, at, ok}
	return d, at, ok
}

// pyFound is the result of a definer lookup.
type pyFound struct {
	file int
	t    pyTarget
	ok   bool
}

// follow is definer's step: the module's definition, import or "*"
// imports.
func (p *pyResolver) follow(t pyTarget, hops int) (int, pyTarget, bool) {
	i, ok := p.mods[t.mod]
	if !ok {
		return -1, pyTarget{at: goUnknown}, false
	}
	f := p.file(i)
	if f.defs[t.name] {
		return i, t, true
	}
	if b, ok := f.binds[t.name]; ok {
		return p.definer(b, hops+1)
	}
	for _, star := range f.stars {
		if d, at, ok := p.definer(pyTarget{mod: star.mod, name: t.name, at: star.at}, hops+1); ok {
			return d, at, ok
		}
	}
	return -1, pyTarget{at: goUnknown}, false
}

// local resolves a plain name used in file i: its own definition, what
// an import binds to it, a name of a "*" import.
func (p *pyResolver) local(i int, name string) pyTarget {
	f := p.file(i)
	if f.defs[name] {
		return pyTarget{mod: pyModule(f.path), name: name, at: goInTree}
	}
	if b, ok := f.binds[name]; ok {
		return b
	}
	if builtins["python"][name] {
		return pyTarget{at: goOutside}
	}
	unknown := false
	for _, star := range f.stars {
		if _, t, ok := p.definer(pyTarget{mod: star.mod, name: name, at: star.at}, 0); ok {
			return pyTarget{mod: star.mod, name: name, at: goInTree}
		} else if t.at == goUnknown {
			unknown = true
		}
	}
	if unknown {
		return pyTarget{at: goUnknown}
	}
	return pyTarget{at: goOutside} // a builtin, a local variable or parameter
}

// attr resolves a dotted name used in file i ("a", "a.b", "mod.Class").
func (p *pyResolver) attr(i int, q string) pyTarget {
	parts := strings.Split(q, ".")
	t := p.local(i, parts[0])
	for _, part := range parts[1:] {
		if t.at != goInTree {
			return t
		}
		if t.name != "" {
			return pyTarget{at: goUnknown} // an attribute of a class or value
		}
		t = p.member(t, part)
	}
	return t
}

// keyOf appends the key of a name in a module, through its re-exports;
// when the rules cannot place it, the fallback of name, the name used.
func (p *pyResolver) keyOf(out []Ref, t pyTarget, name string) []Ref {
	switch t.at {
	case goInTree:
		if t.name == "" {
			return out // a module: it has no definition to link to
		}
		if d, _, ok := p.definer(t, 0); ok {
			return append(out, Ref{Name: t.name, Scope: "py:" + p.tree[d].Path})
		}
	case goOutside:
		return out
	}
	if t.name == "" && t.mod != "" {
		return out
	}
	return append(out, Ref{Name: name, Scope: FallbackScope, Fallback: true})
}

// class returns the class a target names, if the tree defines it.
func (p *pyResolver) class(t pyTarget) (classRef, bool) {
	d, _, ok := p.definer(t, 0)
	if !ok || !p.files[d].classes[t.name] {
		return classRef{}, false
	}
	return classRef{d, t.name}, true
}

// basesOf returns the classes of the tree c derives from, and whether
// some base is outside the tree.
func (p *pyResolver) basesOf(c classRef) (in []classRef, outside bool) {
	set := p.tree[c.file].Tags
	for _, j := range p.files[c.file].bases[c.name] {
		name := set.Str(set.Tags[j].Name)
		t := pyTarget{at: goOutside}
		if _, obj, ok := strings.Cut(set.Qual(j), " "); ok {
			t = p.attr(c.file, obj+"."+name)
		} else if name != "object" {
			t = p.local(c.file, name)
		}
		if b, ok := p.class(t); ok {
			in = append(in, b)
		} else if name != "object" {
			outside = true
		}
	}
	return in, outside
}

// methodKeys appends the keys of method name of the classes from and
// their bases. When none defines it, a name the classes outside the tree
// may define links to nothing, and one they cannot falls back.
func (p *pyResolver) methodKeys(out []Ref, from []classRef, name string) []Ref {
	w := classWalk{
		info:    func(i int) *classInfo { return &p.files[i].classInfo },
		scope:   func(c classRef) string { return methodScope("py", p.files[c.file].path, c.name) },
		basesOf: p.basesOf,
	}
	out, found, outside := w.methodKeys(out, from, name)
	if found || outside || len(from) == 0 || isDunder(name) {
		return out
	}
	return append(out, p.valueKey(name))
}

// isDunder reports whether name is a special method's, like __init__.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// enclosing returns the class around line in file i.
func (p *pyResolver) enclosing(i int, line int32) (classRef, bool) {
	c, ok := p.files[i].enclosing(line)
	return classRef{i, c}, ok
}

func (p *pyResolver) defKey(i, j int) Ref { return fileDefKey(p.tree, i, j, "py") }

// pyFixtureScope is the scope of the key a pytest fixture publishes
// under beside its own, and that a parameter naming it resolves to:
// pytest finds a fixture by its name (in the test's conftest files and
// plugins), so every fixture of the name is a candidate.
const pyFixtureScope = "py:fixture"

// moreDefKeys appends the fixture key of a fixture.
func (p *pyResolver) moreDefKeys(out []string, i, j int) []string {
	set := p.tree[i].Tags
	if set.Sub(j) == "fixture" {
		out = append(out, rank.Key(set.Str(set.Tags[j].Name), pyFixtureScope))
	}
	return out
}

func (p *pyResolver) refKeys(out []Ref, i, j int) []Ref {
	set := p.tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	switch sub {
	case "module":
		return out
	case "fixture": // a parameter: the fixtures of its name
		return append(out, Ref{Name: name, Scope: pyFixtureScope})
	case "import":
		if name == "*" || qual == "" {
			return out
		}
		from, _, _ := strings.Cut(qual, " ")
		return p.keyOf(out, p.member(p.module(i, from), name), name)
	case "class":
		_, qual, _ = strings.Cut(qual, " ") // after the class it is a base of
	}
	switch {
	case qual == "" && sub == "member": // the member of an expression
		return append(out, p.valueKey(name))
	case qual == "":
		return p.keyOf(out, p.local(i, name), name)
	case qual == "self" || qual == "cls":
		if c, ok := p.enclosing(i, t.Line); ok {
			return p.methodKeys(out, []classRef{c}, name)
		}
	case strings.HasPrefix(qual, "super("):
		if c, ok := p.enclosing(i, t.Line); ok {
			bases, outside := p.basesOf(c)
			if len(bases) == 0 && outside {
				return out
			}
			return p.methodKeys(out, bases, name)
		}
	default:
		first, _, _ := strings.Cut(qual, ".")
		if b, ok := p.file(i).binds[first]; ok && b.at == goOutside {
			return out // a module or name imported from outside the tree
		}
		q := p.attr(i, qual)
		if q.at == goInTree && q.name == "" { // a module
			return p.keyOf(out, pyTarget{mod: q.mod, name: name, at: goInTree}, name)
		}
		if c, ok := p.class(q); ok {
			return p.methodKeys(out, []classRef{c}, name)
		}
	}
	if sub == "member" {
		return append(out, p.valueKey(name))
	}
	return append(out, Ref{Name: name, Scope: FallbackScope, Fallback: true})
}

// valueKey is the key of a use of method name on a value whose class the
// rules do not know: the fallback. (A scope of all methods, as Go has,
// was measured too: it lowered recall at 1024 tokens.)
func (p *pyResolver) valueKey(name string) Ref {
	return Ref{Name: name, Scope: FallbackScope, Fallback: true}
}

// pythonRules resolve Python: modules by their dotted paths, classes and
// their bases, pytest fixtures.
var pythonRules = &rules{
	name:   "python",
	claims: func(f File, _ Config) bool { return f.Lang == "python" },
	make:   func(tree []File, mine []int, _ Config) langResolver { return newPyResolver(tree, mine) },
}

// isMore reports whether r is a fixture's key, which a fixture publishes
// under beside its own.
func (p *pyResolver) isMore(r Ref) bool { return r.Scope == pyFixtureScope }
