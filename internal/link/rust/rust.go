// Package rust resolves Rust: modules, uses, impls, a workspace's crates
// by their Cargo.toml.
package rust

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/tags"
)

// Rust: a module is a file, and the layout says which: lib.rs and main.rs
// are crate roots, and so is a file that no module owns (a test, an
// example, a binary); a.rs and a/mod.rs are the module a of the module
// that owns their directory (mod.rs, lib.rs, main.rs, or the file beside
// the directory). A path starts at crate (the root), self, super, a name
// in scope or a crate: a library of the tree by the name its Cargo.toml
// gives its package (else its directory's name), or from a crate's tests,
// examples and binaries its own library; std, core, alloc and any other
// crate are outside the tree. A name in a module means what the module
// defines, a submodule, what a use imports there (renames too, so
// re-exports are followed), or what a glob import brings (of a module or
// an enum); a plain name none of those give (the prelude's, a local, a
// generic parameter, a macro's item) falls back. T::f() and Self::f()
// mean the associated items of T (methods and constants of its impl
// blocks, in any file, and an enum's variants), self.m() the enclosing
// impl's type's, else its trait's; an item the tree does not give T, and
// x.m() on any other value, fall back to the name. A macro means a macro_rules! of its crate, of the
// crate its path or import names, and from tests, examples and binaries
// of the package's library.

// Rules resolve Rust.
var Rules = &link.Rules{
	Name:      "rust",
	Languages: []string{"rust"},
	Reads:     func(f link.File) bool { return path.Base(f.Path) == "Cargo.toml" },
	New:       func(tree []link.File, mine []int) link.Lang { return newResolver(tree, mine) },
}

// resolver holds the Rust files of a tree.
type resolver struct {
	tree    []link.File
	byPath  map[string]int            // per path of a Rust file: its index
	items   map[int]map[string]rsItem // per file: the items it defines
	members map[string]bool           // the keys of the associated items of the tree
	macros  map[string]bool           // the keys of the macro_rules! of the tree
	libs    map[string]int            // per library's directory name ("-" as "_"): its lib.rs
	files   map[int]*rustFile         // per file, made on first use
	scopes  map[rsTypeUse]string      // per type named in a file: the scope of its members
	impls   map[int][]rsImpl          // per file: its impl and trait blocks, by line, made on first use
}

// rsItem is what kind of item a name defines.
type rsItem uint8

const (
	rsValue  rsItem = 1 << iota // a function, constant or static
	rsType                      // a struct, enum, union, trait or type alias
	rsModule                    // a module
)

// rustFile is what one Rust file imports.
type rustFile struct {
	uses  map[string][]string // local name → the path a use gives it
	globs [][]string          // the paths of glob imports
}

// rsTypeUse is a type as a file names it.
type rsTypeUse struct {
	file int
	text string
}

// rsImpl is the line of an associated item and the block it is in.
type rsImpl struct {
	line int32
	qual string // "Type", "Trait for Type" or "trait Trait"
}

// rsPlace is where a path leads.
type rsPlace uint8

const (
	rsUnknown rsPlace = iota // somewhere the rules cannot tell
	rsInTree                 // to definitions of the tree
	rsOutside                // outside the tree
	rsAbsent                 // nowhere: the name is not in scope
)

// rsTarget is what a path names.
type rsTarget struct {
	at      rsPlace
	keys    []link.Ref // its definitions
	mod     int        // the module's file when it is a module; else -1
	members string     // the scope of its associated items when it is a type
}

// macroScope returns the scope of the macro_rules! of the crate of file
// i.
func (r *resolver) macroScope(i int) string { return "rs.macro:" + r.tree[r.root(i)].Path }

// rustMaxDepth bounds the uses and globs a resolution follows.
const rustMaxDepth = 8

func newResolver(tree []link.File, files []int) *resolver {
	r := &resolver{tree: tree, byPath: make(map[string]int, len(files)), items: make(map[int]map[string]rsItem, len(files)),
		members: make(map[string]bool), macros: make(map[string]bool), libs: make(map[string]int),
		files: make(map[int]*rustFile), scopes: make(map[rsTypeUse]string), impls: make(map[int][]rsImpl)}
	for _, i := range files {
		r.byPath[tree[i].Path] = i
	}
	r.findLibs()
	for _, i := range files {
		set := tree[i].Tags
		items := make(map[string]rsItem)
		for j, t := range set.Tags {
			if t.Kind != tags.Definition {
				continue
			}
			name := set.Str(t.Name)
			switch sub := set.Sub(j); {
			case sub == "macro":
			case set.Qual(j) != "" || sub == "method" || sub == "field" || sub == "variant":
			case sub == "module":
				items[name] |= rsModule
			case sub == "struct", sub == "enum", sub == "union", sub == "trait", sub == "type":
				items[name] |= rsType
			default:
				items[name] |= rsValue
			}
		}
		r.items[i] = items
	}
	for _, i := range files {
		set := tree[i].Tags
		for j, t := range set.Tags {
			switch {
			case t.Kind != tags.Definition:
			case set.Sub(j) == "macro":
				r.macros[r.DefKey(i, j).Key()] = true
			case set.Qual(j) != "":
				r.members[r.DefKey(i, j).Key()] = true
			}
		}
	}
	return r
}

// findLibs finds the libraries of the tree by the names their packages'
// Cargo.toml give them, else by their directories' names.
func (r *resolver) findLibs() {
	named := make(map[int]bool)
	for i, f := range r.tree {
		if path.Base(f.Path) != "Cargo.toml" {
			continue
		}
		lib := r.at(path.Join(path.Dir(f.Path), "src/lib.rs"))
		set := r.tree[i].Tags
		for j, t := range set.Tags {
			if lib >= 0 && t.Kind == tags.Definition && set.Str(t.Name) == "package" && set.Qual(j) != "" {
				r.libs[strings.ReplaceAll(set.Qual(j), "-", "_")] = lib
				named[lib] = true
			}
		}
	}
	// In the order of the paths: of two libraries in directories of the
	// same name, the first is that name's.
	for _, p := range slices.Sorted(maps.Keys(r.byPath)) {
		i := r.byPath[p]
		if dir, ok := strings.CutSuffix(p, "/src/lib.rs"); ok && !named[i] {
			name := strings.ReplaceAll(path.Base(dir), "-", "_")
			if _, ok := r.libs[name]; !ok {
				r.libs[name] = i
			}
		}
	}
}

// file returns what file i imports.
func (r *resolver) file(i int) *rustFile {
	if f, ok := r.files[i]; ok {
		return f
	}
	f := &rustFile{uses: make(map[string][]string)}
	set := r.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || set.Sub(j) != "import" || set.Qual(j) == "" {
			continue
		}
		segs, alias := rustUse(set.Qual(j))
		switch name := set.Str(t.Name); {
		case name == "*":
			if !slices.ContainsFunc(f.globs, func(g []string) bool { return slices.Equal(g, segs) }) {
				f.globs = append(f.globs, segs)
			}
		case alias == "_":
		case alias != "":
			f.uses[alias] = segs
		case len(segs) > 0:
			f.uses[segs[len(segs)-1]] = segs
		}
	}
	r.files[i] = f
	return f
}

// rustUse splits the qualifier of an import into its path and the name
// it is renamed to, if any.
func rustUse(q string) ([]string, string) {
	q = strings.ReplaceAll(q, " :: ", "::")
	var alias string
	if p, a, ok := strings.Cut(q, " as "); ok {
		q, alias = p, a
	}
	return rustSegments(q), alias
}

// rustSegments splits a path as the source spells it into its segments,
// without generic arguments: "Vec::<u8>" → [Vec], "<T as fmt::Write>" →
// [fmt Write], "&'a mut Foo<T>" → [Foo].
func rustSegments(q string) []string {
	q = strings.TrimSpace(q)
	if strings.HasPrefix(q, "<") && strings.HasSuffix(q, ">") {
		q = q[1 : len(q)-1]
		if _, tr, ok := strings.Cut(q, " as "); ok {
			q = tr
		}
	}
	q = strings.TrimLeft(q, "&*")
	for {
		f := strings.Fields(q)
		if len(f) < 2 || !(strings.HasPrefix(f[0], "'") || f[0] == "mut" || f[0] == "dyn" || f[0] == "const") {
			break
		}
		q = strings.Join(f[1:], " ")
	}
	var b strings.Builder
	depth := 0
	for _, c := range q {
		switch {
		case c == '<':
			depth++
		case c == '>':
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	var out []string
	for seg := range strings.SplitSeq(b.String(), "::") {
		if seg = strings.TrimSpace(seg); seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// at returns the Rust file at p, or -1.
func (r *resolver) at(p string) int {
	if i, ok := r.byPath[p]; ok {
		return i
	}
	return -1
}

// owner returns the file of the module that owns the directory dir: the
// mod.rs, lib.rs or main.rs in it, or the file beside it; -1 for none.
func (r *resolver) owner(dir string) int {
	for _, b := range []string{"mod.rs", "lib.rs", "main.rs"} {
		if i := r.at(path.Join(dir, b)); i >= 0 {
			return i
		}
	}
	if dir == "" || dir == "." {
		return -1
	}
	return r.at(dir + ".rs")
}

// parent returns the file of the module whose submodule file i is, or -1
// for a crate root.
func (r *resolver) parent(i int) int {
	p := r.tree[i].Path
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch base {
	case "lib.rs", "main.rs":
		return -1
	case "mod.rs":
		dir = path.Dir(dir)
		if dir == "." {
			dir = ""
		}
	}
	if o := r.owner(dir); o != i {
		return o
	}
	return -1
}

// child returns the file of submodule name of the module of file i, or
// -1.
func (r *resolver) child(i int, name string) int {
	p := r.tree[i].Path
	dir := path.Dir(p)
	if b := path.Base(p); b != "mod.rs" && b != "lib.rs" && b != "main.rs" && r.parent(i) >= 0 {
		dir = path.Join(dir, strings.TrimSuffix(b, ".rs"))
	}
	if c := r.at(path.Join(dir, name+".rs")); c >= 0 {
		return c
	}
	return r.at(path.Join(dir, name, "mod.rs"))
}

// root returns the crate root of file i.
func (r *resolver) root(i int) int {
	for range rustMaxDepth * 4 {
		p := r.parent(i)
		if p < 0 {
			break
		}
		i = p
	}
	return i
}

// libOf returns the lib.rs of the package of the crate root i, when i is
// not it: the library a package's tests, examples and binaries use by
// the package's name. -1 for none.
func (r *resolver) libOf(i int) int {
	for dir := path.Dir(r.tree[i].Path); ; dir = path.Dir(dir) {
		for _, p := range []string{path.Join(dir, "lib.rs"), path.Join(dir, "src/lib.rs")} {
			if l := r.at(p); l >= 0 {
				if l == i {
					return -1
				}
				return l
			}
		}
		if dir == "." || dir == "/" {
			return -1
		}
	}
}

// rustStd lists the crates of the standard distribution.
var rustStd = link.Words(`std core alloc proc_macro test`)

// typeScope returns the scope of the members of file m's type name.
func (r *resolver) typeScope(m int, name string) string {
	return "rs.m:" + r.tree[m].Path + ":" + name
}

// lookup resolves name in the module of file m: what it defines, a
// submodule, what it imports or a glob import brings.
func (r *resolver) lookup(m int, name string, depth int) rsTarget {
	if k := r.items[m][name]; k != 0 {
		t := rsTarget{at: rsInTree, keys: []link.Ref{{Name: name, Scope: "rs:" + r.tree[m].Path}}, mod: -1}
		if k&rsModule != 0 {
			if t.mod = r.child(m, name); t.mod < 0 {
				t.mod = m // an inline module: its items are the file's
			}
		}
		if k&rsType != 0 {
			t.members = r.typeScope(m, name)
		}
		return t
	}
	if c := r.child(m, name); c >= 0 {
		return rsTarget{at: rsInTree, mod: c}
	}
	if depth >= rustMaxDepth {
		return rsTarget{at: rsUnknown, mod: -1}
	}
	f := r.file(m)
	if p, ok := f.uses[name]; ok {
		return r.resolve(m, p, depth+1)
	}
	at := rsAbsent
	for _, g := range f.globs {
		var t rsTarget
		switch gt := r.resolve(m, g, depth+1); {
		case gt.at == rsInTree && gt.members != "": // an enum's variants
			if t = r.member(gt.members, name); t.at != rsInTree {
				continue
			}
		case gt.at == rsInTree && gt.mod >= 0:
			t = r.lookup(gt.mod, name, depth+1)
		default:
			t = gt
		}
		switch t.at {
		case rsInTree:
			return t
		case rsUnknown:
			at = rsUnknown
		case rsOutside:
			if at == rsAbsent {
				at = rsOutside
			}
		}
	}
	return rsTarget{at: at, mod: -1}
}

// resolve resolves the path segs as file i spells it.
func (r *resolver) resolve(i int, segs []string, depth int) rsTarget {
	unknown := rsTarget{at: rsUnknown, mod: -1}
	if len(segs) == 0 || depth > rustMaxDepth {
		return unknown
	}
	cur, own := -1, false
	switch head := segs[0]; head {
	case "crate", "$crate":
		cur = r.root(i)
	case "self":
		cur = i
	case "super":
		cur = r.parent(i)
	case "Self":
		return unknown
	default:
		if len(segs) == 1 {
			return r.lookup(i, head, depth)
		}
		t := r.lookup(i, head, depth)
		switch {
		case t.at == rsInTree && t.mod >= 0:
			cur = t.mod
		case t.at == rsInTree && t.members != "":
			if len(segs) == 2 {
				return r.member(t.members, segs[1])
			}
			return unknown
		case t.at == rsInTree:
			return unknown
		case t.at == rsOutside:
			return t
		default: // a crate
			if l, ok := r.libs[head]; ok {
				cur = l
			} else if rustStd[head] {
				return rsTarget{at: rsOutside, mod: -1}
			} else if t.at == rsUnknown {
				return unknown // perhaps from a glob import
			} else if l := r.libOf(r.root(i)); l >= 0 {
				cur, own = l, true // perhaps the package's own library
			} else if c := r.child(r.root(i), head); c >= 0 {
				cur = c // a path of the 2015 edition
			} else {
				return rsTarget{at: rsOutside, mod: -1}
			}
		}
	}
	if cur < 0 {
		return unknown
	}
	t := rsTarget{at: rsInTree, mod: cur}
	for k := 1; k < len(segs); k++ {
		seg := segs[k]
		switch {
		case seg == "super":
			if cur = r.parent(cur); cur < 0 {
				return unknown
			}
			t = rsTarget{at: rsInTree, mod: cur}
			continue
		case seg == "self":
			continue
		}
		t = r.lookup(cur, seg, depth+1)
		switch {
		case k == len(segs)-1:
		case t.at == rsInTree && t.mod >= 0:
			cur = t.mod
		case t.at == rsInTree && t.members != "" && k == len(segs)-2:
			t = r.member(t.members, segs[k+1])
			k++
		default:
			if t.at == rsAbsent {
				t.at = rsUnknown
			}
			k = len(segs)
		}
	}
	if own && t.at != rsInTree {
		t.at = rsOutside
	}
	return t
}

// member returns associated item name of the type whose members are in
// scope: unknown when the tree gives it none, for a trait's provided or
// a derived method.
func (r *resolver) member(scope, name string) rsTarget {
	k := link.Ref{Name: name, Scope: scope}
	if r.members[k.Key()] {
		return rsTarget{at: rsInTree, keys: []link.Ref{k}, mod: -1}
	}
	return rsTarget{at: rsUnknown, mod: -1}
}

// typeScopeOf returns the scope of the members of the type file i names
// text ("Foo", "&'a mut Foo<T>", "a::Foo"): of its definition when the
// tree has it, else of its name in the crate.
func (r *resolver) typeScopeOf(i int, text string) string {
	u := rsTypeUse{i, text}
	if s, ok := r.scopes[u]; ok {
		return s
	}
	r.scopes[u] = "" // a cycle ends here
	segs := rustSegments(text)
	s := ""
	if len(segs) > 0 {
		if t := r.resolve(i, segs, 0); t.at == rsInTree && t.members != "" {
			s = t.members
		} else {
			s = "rs.m:~" + r.tree[r.root(i)].Path + ":" + segs[len(segs)-1]
		}
	}
	r.scopes[u] = s
	return s
}

// implScopes returns the scopes of the members of an impl block's type
// and of its trait, from the qualifier of one of its items.
func (r *resolver) implScopes(i int, qual string) (self, trait string) {
	if tr, ok := strings.CutPrefix(qual, "trait "); ok {
		return r.typeScope(i, tr), ""
	}
	if tr, typ, ok := strings.Cut(qual, " for "); ok {
		return r.typeScopeOf(i, typ), r.typeScopeOf(i, tr)
	}
	return r.typeScopeOf(i, qual), ""
}

func (r *resolver) DefKey(i, j int) link.Ref {
	set := r.tree[i].Tags
	name := set.Str(set.Tags[j].Name)
	switch sub, qual := set.Sub(j), set.Qual(j); {
	case sub == "macro":
		return link.Ref{Name: name, Scope: r.macroScope(i)}
	case sub == "variant" && qual != "":
		return link.Ref{Name: name, Scope: r.typeScope(i, qual)}
	case qual != "":
		self, _ := r.implScopes(i, qual)
		return link.Ref{Name: name, Scope: self}
	case sub == "field" || sub == "method":
		return link.Ref{Name: name, Scope: "rs.field:" + r.tree[i].Path}
	}
	return link.Ref{Name: name, Scope: "rs:" + r.tree[i].Path}
}

// enclosing returns the qualifier of the impl or trait block around line
// of file i: that of the last associated item at or before it.
func (r *resolver) enclosing(i int, line int32) string {
	impls, ok := r.impls[i]
	if !ok {
		set := r.tree[i].Tags
		for j, t := range set.Tags {
			if t.Kind == tags.Definition && set.Qual(j) != "" && set.Sub(j) != "variant" {
				impls = append(impls, rsImpl{t.Line, set.Qual(j)})
			}
		}
		r.impls[i] = impls
	}
	k, _ := slices.BinarySearchFunc(impls, line+1, func(m rsImpl, l int32) int { return int(m.line - l) })
	if k == 0 {
		return ""
	}
	return impls[k-1].qual
}

func (r *resolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := r.tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	fallback := link.FallbackRef(name)
	anyMethod := fallback // any definition of the name: the tree's methods are most of them
	var target rsTarget
	switch {
	case sub == "import":
		if name == "*" {
			return out // the names it brings link where they are used
		}
		if qual == "" {
			return append(out, fallback)
		}
		segs, _ := rustUse(qual)
		target = r.resolve(i, segs, 0)
		if target.at == rsAbsent && len(segs) > 1 {
			target.at = rsUnknown // a module of the tree without the name: a macro's item, a cfg'd one
		}
	case sub == "macro":
		return r.macroKeys(out, i, name, qual)
	case qual == ".":
		return append(out, anyMethod)
	case qual == "self":
		return r.selfKeys(out, i, t.Line, name, anyMethod)
	case qual == "":
		target = r.lookup(i, name, 0)
	default:
		segs := rustSegments(qual)
		if len(segs) == 1 && segs[0] == "Self" {
			if sub != "call" {
				anyMethod = fallback
			}
			return r.selfKeys(out, i, t.Line, name, anyMethod)
		}
		target = r.resolve(i, append(segs, name), 0)
		if target.at == rsAbsent {
			target.at = rsUnknown // as for an import
		}
		if target.at == rsUnknown && sub == "call" {
			return append(out, anyMethod)
		}
	}
	switch target.at {
	case rsInTree:
		if len(target.keys) > 0 {
			return append(out, target.keys...)
		}
		return out // a module without its declaration
	case rsOutside:
		return out
	}
	return append(out, fallback)
}

// selfKeys appends the keys of associated item name of the impl or trait
// block around line of file i: its type's, else its trait's, else
// otherwise.
func (r *resolver) selfKeys(out []link.Ref, i int, line int32, name string, otherwise link.Ref) []link.Ref {
	self, trait := r.implScopes(i, r.enclosing(i, line))
	for _, s := range []string{self, trait} {
		if k := (link.Ref{Name: name, Scope: s}); s != "" && r.members[k.Key()] {
			return append(out, k)
		}
	}
	return append(out, otherwise)
}

// macroKeys appends the keys of macro name as file i invokes it, qualified
// by qual: a macro_rules! of the crate the path or an import names, else
// of the file's own crate and, from a crate's tests, examples and
// binaries, of its package's library.
func (r *resolver) macroKeys(out []link.Ref, i int, name, qual string) []link.Ref {
	var crates []int
	segs := rustSegments(qual)
	if qual == "" {
		if p, ok := r.file(i).uses[name]; ok {
			segs = p[:len(p)-1]
		}
	}
	if len(segs) > 0 {
		t := r.resolve(i, segs, 0)
		if l, ok := r.libs[segs[0]]; ok && len(segs) == 1 && t.at == rsAbsent {
			t = rsTarget{at: rsInTree, mod: l}
		}
		switch {
		case t.at == rsInTree && t.mod >= 0:
			crates = append(crates, t.mod)
		case t.at == rsOutside, t.at == rsAbsent:
			return out
		}
	}
	if len(crates) == 0 {
		crates = append(crates, i)
		if l := r.libOf(r.root(i)); l >= 0 {
			crates = append(crates, l)
		}
	}
	for _, c := range crates {
		if k := (link.Ref{Name: name, Scope: r.macroScope(c)}); r.macros[k.Key()] {
			out = append(out, k)
		}
	}
	return out
}
