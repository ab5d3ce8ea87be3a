// Package python resolves Python: modules by their dotted paths,
// classes and their bases, pytest fixtures.
package python

import (
	"path"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/modules"
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

// Rules resolve Python.
var Rules = &link.Rules{
	Name:      "python",
	Languages: []string{"python"},
	New:       func(tree []link.File, mine []int) link.Lang { return newResolver(tree, mine) },
}

// Typed are Rules that also take what the source says a variable holds:
// x.m() means the method m of the class F when x = F(…) in the same
// function is the binding of x in effect, or when x is a parameter
// annotated x: F; self.a.m() when the class assigns self.a = F(…). A
// value of a class outside the tree (a builtin's, the standard
// library's) links to nothing; one of a function's result, or of what
// the rules cannot place, falls back as before.
var Typed = &link.Rules{
	Name:      "python.typed",
	Languages: []string{"python"},
	New: func(tree []link.File, mine []int) link.Lang {
		p := newResolver(tree, mine)
		p.typed = true
		return p
	},
}

// resolver holds the Python modules of a tree.
type resolver struct {
	modules.Graph[string]
	mods  map[string]int  // module path ("a/b/c" for a/b/c.py or a/b/c/__init__.py) → file
	dirs  map[string]bool // directories holding Python files, and their parents
	pkgs  map[string]bool // directories with an __init__.py
	roots []string        // import roots, shortest first; "" is the tree's root
	typed bool            // values' members by their bindings (Typed)
	vars  map[int]*fileVars
}

// fileVars are the bindings of the variables of a Python file: tag
// indices of its bind, bindhint and selfbind references.
type fileVars struct {
	local map[string][]int            // by variable, in line order
	attrs map[string]map[string][]int // by class, then attribute of its instances (self.a = F(…))
	funcs []int32                     // the lines of the file's function and method definitions, sorted
}

// target is what an imported name means: a module, by its path, or a
// name in a module.
type target = modules.Target[string]

// moduleOf returns the module path of a Python file: without its
// extension, and without "/__init__" for a package.
func moduleOf(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	if p == "__init__" {
		return ""
	}
	return strings.TrimSuffix(p, "/__init__")
}

func newResolver(tree []link.File, files []int) *resolver {
	p := &resolver{mods: make(map[string]int), dirs: make(map[string]bool), pkgs: make(map[string]bool), vars: make(map[int]*fileVars)}
	p.Graph = modules.Graph[string]{Tree: tree, Files: make(map[int]*modules.File[string], len(files)), Prefix: "py",
		Module: func(m string) (int, bool) { i, ok := p.mods[m]; return i, ok },
		Read:   p.read, Bases: p.basesOf}
	pkgs := p.pkgs
	for _, i := range files {
		fp := tree[i].Path
		m := moduleOf(fp)
		// A .py file wins over its .pyi stub.
		if old, ok := p.mods[m]; !ok || strings.HasSuffix(tree[old].Path, ".pyi") {
			p.mods[m] = i
		}
		for d := link.Dir(fp); d != ""; d = link.Dir(d) {
			p.dirs[d] = true
		}
		if base := path.Base(fp); base == "__init__.py" || base == "__init__.pyi" {
			pkgs[link.Dir(fp)] = true
		}
		set := tree[i].Tags
		p.Files[i] = modules.NewFile(fp, set, func(f *modules.File[string], j int) {
			// A base: the class it is a base of, then where it is.
			if t := set.Tags[j]; t.Kind != tags.Definition && set.Sub(j) == "class" && set.Qual(j) != "" {
				c, _, _ := strings.Cut(set.Qual(j), " ")
				f.Bases[c] = append(f.Bases[c], j)
			}
		})
	}
	roots := map[string]bool{"": true}
	for d := range pkgs {
		if parent := link.Dir(d); !pkgs[parent] || parent == "" {
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

// exists reports whether the module path m is a module or a package
// directory of the tree.
func (p *resolver) exists(m string) bool {
	_, ok := p.mods[m]
	return ok || p.dirs[m]
}

// module resolves a module name as the file i imports it.
func (p *resolver) module(i int, name string) target {
	dir := link.Dir(p.Tree[i].Path)
	if strings.HasPrefix(name, ".") {
		rest := strings.TrimLeft(name, ".")
		for k := 1; k < len(name)-len(rest); k++ {
			if dir == "" {
				return target{At: link.Unknown}
			}
			dir = link.Dir(dir)
		}
		m := link.Join(dir, strings.ReplaceAll(rest, ".", "/"))
		if p.exists(m) {
			return target{Mod: m, At: link.InTree}
		}
		return target{At: link.Unknown}
	}
	rel := strings.ReplaceAll(name, ".", "/")
	first := link.FirstElem(rel)
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
		if _, ok := p.mods[link.Join(root, first)]; !ok {
			continue
		}
		if m := link.Join(root, rel); p.exists(m) {
			return target{Mod: m, At: link.InTree}
		}
		partial = true
	}
	if partial {
		return target{At: link.Unknown}
	}
	return target{At: link.Outside}
}

// read reads what file i imports.
func (p *resolver) read(i int, f *modules.File[string]) {
	set := p.Tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || set.Qual(j) == "" {
			continue
		}
		name := set.Str(t.Name)
		switch set.Sub(j) {
		case "module": // import a.b [as c]
			full, alias, _ := strings.Cut(set.Qual(j), " ")
			if alias != "" {
				f.Binds[alias] = p.module(i, full)
				continue
			}
			first := link.FirstElem(strings.ReplaceAll(full, ".", "/"))
			f.Binds[first] = p.module(i, first)
		case "import": // from m import name [as alias]
			from, alias, _ := strings.Cut(set.Qual(j), " ")
			m := p.module(i, from)
			if name == "*" {
				f.Stars = append(f.Stars, m)
				continue
			}
			if alias == "" {
				alias = name
			}
			f.Binds[alias] = p.member(m, name)
		}
	}
}

// member returns what name in module m is: a submodule, or a name.
func (p *resolver) member(m target, name string) target {
	if m.At != link.InTree {
		return target{At: m.At, Name: name}
	}
	if sub := link.Join(m.Mod, name); p.exists(sub) {
		return target{Mod: sub, At: link.InTree}
	}
	return target{Mod: m.Mod, Name: name, At: link.InTree}
}

// local resolves a plain name used in file i: its own definition, what
// an import binds to it, a name of a "*" import.
func (p *resolver) local(i int, name string) target {
	f := p.File(i)
	if f.Defs[name] {
		return target{Mod: moduleOf(f.Path), Name: name, At: link.InTree}
	}
	if b, ok := f.Binds[name]; ok {
		return b
	}
	if link.Builtin("python", name) {
		return target{At: link.Outside}
	}
	unknown := false
	for _, star := range f.Stars {
		if d, end := p.Definer(target{Mod: star.Mod, Name: name, At: star.At}); d >= 0 {
			return target{Mod: star.Mod, Name: name, At: link.InTree}
		} else if end == link.Unknown {
			unknown = true
		}
	}
	if unknown {
		return target{At: link.Unknown}
	}
	return target{At: link.Outside} // a builtin, a local variable or parameter
}

// attr resolves a dotted name used in file i ("a", "a.b", "mod.Class").
func (p *resolver) attr(i int, q string) target {
	parts := strings.Split(q, ".")
	t := p.local(i, parts[0])
	for _, part := range parts[1:] {
		if t.At != link.InTree {
			return t
		}
		if t.Name != "" {
			return target{At: link.Unknown} // an attribute of a class or value
		}
		t = p.member(t, part)
	}
	return t
}

// basesOf returns the classes of the tree c derives from, and whether
// some base is outside the tree.
func (p *resolver) basesOf(c modules.ClassRef) (in []modules.ClassRef, outside bool) {
	set := p.Tree[c.File].Tags
	for _, j := range p.Files[c.File].Bases[c.Name] {
		name := set.Str(set.Tags[j].Name)
		t := target{At: link.Outside}
		if _, obj, ok := strings.Cut(set.Qual(j), " "); ok {
			t = p.attr(c.File, obj+"."+name)
		} else if name != "object" {
			t = p.local(c.File, name)
		}
		if b, ok := p.Class(t); ok {
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
func (p *resolver) methodKeys(out []link.Ref, from []modules.ClassRef, name string) []link.Ref {
	out, found, outside := p.MethodKeys(out, from, name)
	if found || outside || len(from) == 0 || isDunder(name) {
		return out
	}
	return append(out, valueKey(name))
}

// isDunder reports whether name is a special method's, like __init__.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// fixtureScope is the scope of the key a pytest fixture publishes under
// beside its own, and that a parameter naming it resolves to: pytest
// finds a fixture by its name (in the test's conftest files and
// plugins), so every fixture of the name is a candidate.
const fixtureScope = "py:fixture"

// MoreDefKeys appends the fixture key of a fixture.
func (p *resolver) MoreDefKeys(out []string, i, j int) []string {
	set := p.Tree[i].Tags
	if set.Sub(j) == "fixture" {
		out = append(out, rank.Key(set.Str(set.Tags[j].Name), fixtureScope))
	}
	return out
}

// IsMore reports whether r is a fixture's key, which a fixture publishes
// under beside its own.
func (p *resolver) IsMore(r link.Ref) bool { return r.Scope == fixtureScope }

func (p *resolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := p.Tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	switch sub {
	case "module":
		return out
	case "fixture": // a parameter: the fixtures of its name
		return append(out, link.Ref{Name: name, Scope: fixtureScope})
	case "import":
		if name == "*" || qual == "" {
			return out
		}
		from, _, _ := strings.Cut(qual, " ")
		return p.KeyOf(out, p.member(p.module(i, from), name), name)
	case "class":
		_, qual, _ = strings.Cut(qual, " ") // after the class it is a base of
	}
	if link.IsBinding(sub) { // what a variable holds: no use
		return out
	}
	switch {
	case qual == "" && sub == "member": // the member of an expression
		return append(out, valueKey(name))
	case qual == "":
		return p.KeyOf(out, p.local(i, name), name)
	case qual == "self" || qual == "cls":
		if c, ok := p.Enclosing(i, t.Line); ok {
			return p.methodKeys(out, []modules.ClassRef{c}, name)
		}
	case strings.HasPrefix(qual, "super("):
		if c, ok := p.Enclosing(i, t.Line); ok {
			bases, outside := p.basesOf(c)
			if len(bases) == 0 && outside {
				return out
			}
			return p.methodKeys(out, bases, name)
		}
	default:
		if sub == "member" && p.typed {
			if cs, known := p.valueClasses(i, j, qual); known && len(cs) == 0 {
				return out
			} else if known {
				return p.methodKeys(out, cs, name)
			}
		}
		first, _, _ := strings.Cut(qual, ".")
		if b, ok := p.File(i).Binds[first]; ok && b.At == link.Outside {
			return out // a module or name imported from outside the tree
		}
		q := p.attr(i, qual)
		if q.At == link.InTree && q.Name == "" { // a module
			return p.KeyOf(out, target{Mod: q.Mod, Name: name, At: link.InTree}, name)
		}
		if c, ok := p.Class(q); ok {
			return p.methodKeys(out, []modules.ClassRef{c}, name)
		}
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

// varsOf returns the bindings of file i, made on first use.
func (p *resolver) varsOf(i int) *fileVars {
	if v, ok := p.vars[i]; ok {
		return v
	}
	v := &fileVars{local: make(map[string][]int), attrs: make(map[string]map[string][]int)}
	set := p.Tree[i].Tags
	for j, t := range set.Tags {
		sub := set.Sub(j)
		switch {
		case t.Kind == tags.Definition && (sub == "function" || sub == "method" || sub == "fixture"):
			v.funcs = append(v.funcs, t.Line)
		case t.Kind == tags.Reference && (sub == "bind" || sub == "bindhint" || sub == "bindlit"):
			x := set.Str(t.Name)
			v.local[x] = append(v.local[x], j)
		case t.Kind == tags.Reference && (sub == "selfbind" || sub == "selfbindlit"):
			if c, ok := p.Enclosing(i, t.Line); ok {
				a := set.Str(t.Name)
				if v.attrs[c.Name] == nil {
					v.attrs[c.Name] = make(map[string][]int)
				}
				v.attrs[c.Name][a] = append(v.attrs[c.Name][a], j)
			}
		}
	}
	slices.Sort(v.funcs)
	p.vars[i] = v
	return v
}

// binding returns the bindings that say what the operand q of reference
// j of file i holds: a variable's in effect there, or those of an
// attribute of self in the enclosing class.
func (p *resolver) binding(i, j int, q string) []int {
	set := p.Tree[i].Tags
	line := set.Tags[j].Line
	v := p.varsOf(i)
	if a, ok := strings.CutPrefix(q, "self."); ok && !strings.Contains(a, ".") {
		if c, ok := p.Enclosing(i, line); ok {
			return v.attrs[c.Name][a]
		}
		return nil
	}
	if strings.Contains(q, ".") {
		return nil
	}
	if b, ok := v.inEffect(set, q, line); ok {
		return []int{b}
	}
	return nil
}

// UseContext: what self.m(), cls.m() and super().m() mean depends on
// the class around the use, and with Typed what x.m() means on the
// binding of x in effect: a use resolves once per class (ClassContext)
// or binding (its first tag index, plus one); 0 for neither.
func (p *resolver) UseContext(i, j int) int32 {
	set := p.Tree[i].Tags
	q := set.Qual(j)
	if set.Tags[j].Kind != tags.Reference || q == "" {
		return 0
	}
	if q == "self" || q == "cls" || strings.HasPrefix(q, "super(") {
		return p.ClassContext(i, set.Tags[j].Line)
	}
	if !p.typed || set.Sub(j) != "member" {
		return 0
	}
	if bs := p.binding(i, j, q); len(bs) > 0 {
		return int32(bs[0]) + 1
	}
	return 0
}

// valueClasses returns the classes of the tree whose instance the
// operand q of reference j of file i is, as its bindings say, and
// whether they tell: known with no classes is a value of a class outside
// the tree.
func (p *resolver) valueClasses(i, j int, q string) (_ []modules.ClassRef, known bool) {
	bs := p.binding(i, j, q)
	if len(bs) == 0 {
		return nil, false
	}
	return p.boundClasses(i, bs)
}

// inEffect returns the binding of variable x in effect on line: the
// last at or before it (a parameter's may be on the line itself) with
// no function begun between them.
func (v *fileVars) inEffect(set tags.Set, x string, line int32) (int, bool) {
	bs := v.local[x]
	k := len(bs)
	for k > 0 {
		bl := set.Tags[bs[k-1]].Line
		if bl < line || bl == line && set.Sub(bs[k-1]) == "bindhint" {
			break
		}
		k--
	}
	if k == 0 {
		return 0, false
	}
	b := bs[k-1]
	bl := set.Tags[b].Line
	// A function defined after the binding, up to the use, holds the use.
	f, _ := slices.BinarySearch(v.funcs, bl+1)
	if f < len(v.funcs) && v.funcs[f] <= line {
		return 0, false
	}
	return b, true
}

// boundClasses returns the classes the bindings bs of file i bind to (a
// binding's qualifier names the class or the callee, "F" or "m.F"):
// known when each binds to a class of the tree or to a name outside it.
func (p *resolver) boundClasses(i int, bs []int) (_ []modules.ClassRef, known bool) {
	set := p.Tree[i].Tags
	var out []modules.ClassRef
	for _, b := range bs {
		if sub := set.Sub(b); sub == "bindlit" || sub == "selfbindlit" {
			continue // a literal: of no class of the tree
		}
		q := set.Qual(b)
		if q == "" {
			return nil, false
		}
		first, _, dotted := strings.Cut(q, ".")
		t := p.attr(i, q)
		if c, ok := p.Class(t); ok {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
			continue
		}
		// Outside is also what local says of a local variable or a
		// parameter (self too): only a name imported from outside the
		// tree, or a builtin, is known to be.
		if _, imported := p.File(i).Binds[first]; t.At != link.Outside || !imported && (dotted || !link.Builtin("python", first)) {
			return nil, false
		}
	}
	return out, true
}
