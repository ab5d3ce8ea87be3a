package link

import (
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/tags"
)

// The rules Java, C# and Scala share: a package (a namespace) holds
// types, which the files of the package see wherever they are, and which
// other files see through imports; members (methods, fields, properties)
// are in the scope of the file that defines them, and a type's members
// are those of the files that define the type (a partial class has
// several) and, along its supertypes in the tree, of theirs. What a
// language adds is read into a pkgFile by its own rules: which packages
// a file sees without an import (its own, and C#'s parents), what it
// imports, and the declared types of its names. The files of a second
// language can share a resolver and its packages (Kotlin's Java's), each
// read by its own language's rules under the first's scopes.

// pkgLang is what the shared rules take from one language.
type pkgLang struct {
	prefix string                // of the scopes' names: "java", "cs", "scala"
	isType func(sub string) bool // whether a definition of kind sub is a type
	// isBase reports whether a reference of kind sub, qualified by qual,
	// names a supertype of the types of its file.
	isBase func(sub, qual string) bool
	std    map[string]bool // the standard library's types every file sees
	root   map[string]bool // the methods every class inherits from the root class
	// closed: a type name no file of the language defines is outside the
	// tree (Java's files see Kotlin's types, C#'s see only their own).
	closed bool
	// file reads what file i of r imports and declares.
	file func(r *pkgResolver, i int) *pkgFile
	// top, if set, reports whether definition j of set is neither a type
	// nor a member but in its package's scope as types are (Kotlin's
	// top-level functions and properties).
	top func(set tags.Set, j int) bool
}

// pkgResolver holds the files of one language whose scopes are
// packages.
type pkgResolver struct {
	tree      []File
	lang      *pkgLang                // the rules of the files, and the prefix of all scopes
	langs     map[int]*pkgLang        // per file of another language: its rules
	pkg       map[int]string          // per file: its package ("a.b", or "/dir" without a declaration)
	pkgs      map[string]bool         // the packages of the tree
	types     map[pkgName][]int       // per type in its package: the files that define it
	tops      map[pkgName][]int       // per top-level definition in its package (pkgLang.top): the files that define it
	typeNames map[string]bool         // the names of the types of the tree
	mems      map[int]map[string]bool // per file: the members it defines
	files     map[int]*pkgFile        // per file, made on first use
	bases     map[int][]int           // per file: the files of its supertypes in the tree, made on first use
	out       map[int]bool            // per file: whether some supertype is outside the tree
}

// pkgName is a type in a package.
type pkgName struct{ pkg, name string }

// pkgFile is what one file imports and declares.
type pkgFile struct {
	own     []string          // the packages whose types the file sees unimported, its own first
	single  map[string]string // simple name → the name a single-type import gives it ("a.b.C")
	demand  []string          // names imported on demand ("a.b" of "a.b.*")
	statics map[string]string // member name → the type an import takes it from ("a.b.C")
	sdemand []string          // types whose members are imported on demand ("import static a.b.C.*")
	vars    map[string][]int  // per declared name: its type references, in line order
}

func newPkgFile() *pkgFile {
	return &pkgFile{single: make(map[string]string), statics: make(map[string]string), vars: make(map[string][]int)}
}

// newPkgResolver returns the resolver of files, whose packages pkgOf
// gives ("" for none: the file's directory is its package).
func newPkgResolver(tree []File, files []int, lang *pkgLang, pkgOf func(tags.Set) string) *pkgResolver {
	return newPkgResolverLangs(tree, files, lang, nil, pkgOf)
}

// newPkgResolverLangs is newPkgResolver for files of which those in
// langs are read by the rules given there rather than by lang's.
func newPkgResolverLangs(tree []File, files []int, lang *pkgLang, langs map[int]*pkgLang, pkgOf func(tags.Set) string) *pkgResolver {
	r := &pkgResolver{tree: tree, lang: lang, langs: langs, pkg: make(map[int]string, len(files)), pkgs: make(map[string]bool),
		types: make(map[pkgName][]int), tops: make(map[pkgName][]int), typeNames: make(map[string]bool), mems: make(map[int]map[string]bool),
		files: make(map[int]*pkgFile), bases: make(map[int][]int), out: make(map[int]bool)}
	for _, i := range files {
		set, fl := tree[i].Tags, r.langOf(i)
		p := pkgOf(set)
		if p == "" {
			p = "/" + goDir(tree[i].Path)
		}
		r.pkg[i] = p
		r.pkgs[p] = true
		mems := make(map[string]bool)
		for j, t := range set.Tags {
			if t.Kind != tags.Definition {
				continue
			}
			name := set.Str(t.Name)
			switch {
			case fl.isType(set.Sub(j)):
				r.typeNames[name] = true
				addFile(r.types, pkgName{p, name}, i)
			case fl.top != nil && fl.top(set, j):
				addFile(r.tops, pkgName{p, name}, i)
			case set.Sub(j) != "package" && set.Sub(j) != "constructor":
				mems[name] = true
			}
		}
		r.mems[i] = mems
	}
	return r
}

// addFile adds file i to the files of n in m, once.
func addFile(m map[pkgName][]int, n pkgName, i int) {
	if !slices.Contains(m[n], i) {
		m[n] = append(m[n], i)
	}
}

// langOf returns the rules of file i.
func (r *pkgResolver) langOf(i int) *pkgLang {
	if l, ok := r.langs[i]; ok {
		return l
	}
	return r.lang
}

// typeScope returns the scope of the types of package p.
func (r *pkgResolver) typeScope(p string) string { return r.lang.prefix + ":" + p }

// topScope returns the scope of the top-level definitions (pkgLang.top)
// of package p.
func (r *pkgResolver) topScope(p string) string { return r.lang.prefix + ".top:" + p }

// pkgScope returns the scope under which package p's declarations
// publish its name, for the imports of all of it.
func (r *pkgResolver) pkgScope(p string) string { return r.lang.prefix + ".pkg:" + p }

// members returns the scope of the members of file i.
func (r *pkgResolver) members(i int) string { return r.lang.prefix + ".m:" + r.tree[i].Path }

func (r *pkgResolver) defKey(i, j int) Ref {
	set := r.tree[i].Tags
	name := set.Str(set.Tags[j].Name)
	lang := r.langOf(i)
	switch sub := set.Sub(j); {
	case sub == "package":
		return Ref{Name: name, Scope: r.pkgScope(r.pkg[i])}
	case lang.isType(sub), sub == "constructor":
		return Ref{Name: name, Scope: r.typeScope(r.pkg[i])}
	case lang.top != nil && lang.top(set, j):
		return Ref{Name: name, Scope: r.topScope(r.pkg[i])}
	}
	return Ref{Name: name, Scope: r.members(i)}
}

// file returns what file i imports and declares.
func (r *pkgResolver) file(i int) *pkgFile {
	if f, ok := r.files[i]; ok {
		return f
	}
	f := r.langOf(i).file(r, i)
	if len(f.own) == 0 {
		f.own = []string{r.pkg[i]}
	}
	r.files[i] = f
	return f
}

// pkgPlace is where a name resolves: to types of the tree, outside it,
// or nowhere the rules know.
type pkgPlace uint8

const (
	placeUnknown pkgPlace = iota
	placeInTree
	placeOutside
)

// split splits a dotted name into a package of the tree and what follows
// it ("a.b.C.D" → "a.b", ["C", "D"]), the longest package that fits.
func (r *pkgResolver) split(full string) (string, []string, bool) {
	parts := strings.Split(full, ".")
	for k := len(parts) - 1; k > 0; k-- {
		if p := strings.Join(parts[:k], "."); r.pkgs[p] {
			return p, parts[k:], true
		}
	}
	return "", nil, false
}

// named resolves the dotted name of a type, as an import gives it: the
// type, nested or not, in its package.
func (r *pkgResolver) named(full string) (pkgName, pkgPlace) {
	p, rest, ok := r.split(full)
	if !ok {
		return pkgName{}, placeOutside
	}
	n := pkgName{p, rest[len(rest)-1]}
	if len(r.types[n]) == 0 {
		return pkgName{}, placeUnknown
	}
	return n, placeInTree
}

// typeOf resolves the type name used in file i: the types it can mean, or
// where it is when none of the tree. In this order: the type a
// single-type import names, a type of a package the file sees unimported,
// of a package imported on demand (or a nested type of a type imported on
// demand), a nested type of a type imported by name; a standard type none
// of those place is outside the tree.
func (r *pkgResolver) typeOf(i int, name string) ([]pkgName, pkgPlace) {
	f := r.file(i)
	if full, ok := f.single[name]; ok {
		n, at := r.named(full)
		if at != placeInTree {
			return nil, at
		}
		return []pkgName{n}, placeInTree
	}
	for _, p := range f.own {
		if own := (pkgName{p, name}); len(r.types[own]) > 0 {
			return []pkgName{own}, placeInTree
		}
	}
	var out []pkgName
	for _, d := range f.demand {
		if n := (pkgName{d, name}); len(r.types[n]) > 0 {
			out = append(out, n) // "a.b.*"
		} else if p, _, ok := r.split(d); ok && len(r.types[pkgName{p, name}]) > 0 && !slices.Contains(out, pkgName{p, name}) {
			out = append(out, pkgName{p, name}) // "a.b.C.*": C's nested types
		}
	}
	if len(out) == 0 {
		// A nested type of a type imported by name ("Outer.Inner").
		for _, full := range f.single {
			if p, _, ok := r.split(full); ok && len(r.types[pkgName{p, name}]) > 0 && !slices.Contains(out, pkgName{p, name}) {
				out = append(out, pkgName{p, name})
			}
		}
		slices.SortFunc(out, func(a, b pkgName) int { return strings.Compare(a.pkg, b.pkg) })
	}
	if len(out) > 0 {
		return out, placeInTree
	}
	if lang := r.langOf(i); lang.std[name] || lang.closed && !r.typeNames[name] {
		return nil, placeOutside
	}
	return nil, placeUnknown
}

// typeRefKeys appends the keys of the type name as file i uses it; done
// is false when the rules cannot place it.
func (r *pkgResolver) typeRefKeys(out []Ref, i int, name string) (_ []Ref, done bool) {
	ns, at := r.typeOf(i, name)
	switch at {
	case placeInTree:
		return r.typeKeys(out, ns), true
	case placeOutside:
		return out, true
	}
	return out, false
}

// receiverType resolves the receiver x of x.m(), reference j of file i:
// the declared type of x where the file declares it, else the type x.
func (r *pkgResolver) receiverType(i, j int, x string) ([]pkgName, pkgPlace) {
	if len(r.file(i).vars[x]) > 0 {
		return r.varType(i, j, x)
	}
	return r.typeOf(i, x)
}

// typeKeys appends the keys of the types ns.
func (r *pkgResolver) typeKeys(out []Ref, ns []pkgName) []Ref {
	for _, n := range ns {
		out = append(out, Ref{Name: n.name, Scope: r.typeScope(n.pkg)})
	}
	return out
}

// typeFiles returns the files that define the types ns.
func (r *pkgResolver) typeFiles(ns []pkgName) []int {
	var out []int
	for _, n := range ns {
		for _, f := range r.types[n] {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// selfFiles returns the files whose members file i's own code sees as
// its class's: the file and the other files that define its types (the
// parts of a partial class).
func (r *pkgResolver) selfFiles(i int) []int {
	out := []int{i}
	set := r.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && r.langOf(i).isType(set.Sub(j)) {
			for _, f := range r.types[pkgName{r.pkg[i], set.Str(t.Name)}] {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// basesOf returns the files of the supertypes of the types of file i that
// the tree defines, and whether some supertype is outside it.
func (r *pkgResolver) basesOf(i int) ([]int, bool) {
	if b, ok := r.bases[i]; ok {
		return b, r.out[i]
	}
	r.bases[i] = nil // a cycle of supertypes ends here
	set, lang := r.tree[i].Tags, r.langOf(i)
	var in []int
	outside := false
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || !lang.isBase(set.Sub(j), set.Qual(j)) {
			continue
		}
		ns, at := r.typeOf(i, set.Str(t.Name))
		if at != placeInTree {
			outside = true
			continue
		}
		for _, f := range r.typeFiles(ns) {
			if f != i && !slices.Contains(in, f) {
				in = append(in, f)
			}
		}
	}
	r.bases[i], r.out[i] = in, outside
	return in, outside
}

// memberKeys appends the keys of member name of the files from and of
// the files of their supertypes: on each line of inheritance, the nearest
// that defines it. found tells whether any does; outside whether a
// supertype outside the tree was met, or name is a method of the root
// class that every class inherits.
func (r *pkgResolver) memberKeys(out []Ref, from []int, name string) (_ []Ref, found, outside bool) {
	out, found, outside = inheritedKeys(out, from, name, func(f int) bool { return r.mems[f][name] }, r.members, r.basesOf)
	return out, found, outside || r.lang.root[name]
}

// staticKeys appends the keys of member name as the static imports of
// file i give it.
func (r *pkgResolver) staticKeys(out []Ref, i int, name string) ([]Ref, bool) {
	f := r.file(i)
	var from []string
	if c, ok := f.statics[name]; ok {
		from = []string{c}
	} else {
		from = f.sdemand
	}
	found := false
	for _, c := range from {
		n, at := r.named(c)
		if at != placeInTree {
			continue
		}
		var ok bool
		out, ok, _ = r.memberKeys(out, r.types[n], name)
		found = found || ok
	}
	return out, found
}

// ownKeys appends the keys of an unqualified call of name in file i, or
// of one on this: the members of the file's types and their supertypes,
// else (unqualified) a static import's. done is false when the rules
// cannot place it.
func (r *pkgResolver) ownKeys(out []Ref, i int, name string, unqualified bool) (_ []Ref, done bool) {
	keys, found, outside := r.memberKeys(out, r.selfFiles(i), name)
	if found {
		return keys, true
	}
	if unqualified {
		if keys, found := r.staticKeys(out, i, name); found {
			return keys, true
		}
	}
	return out, outside // outside: inherited from a supertype outside the tree
}

// superKeys appends the keys of a call of name on the supertypes of file
// i's types.
func (r *pkgResolver) superKeys(out []Ref, i int, name string) (_ []Ref, done bool) {
	bases, outside := r.basesOf(i)
	if len(bases) == 0 {
		return out, outside || r.lang.root[name]
	}
	return r.typeMemberKeys(out, bases, name)
}

// typeMemberKeys appends the keys of member name of the types the files
// from define. done is false when the rules cannot place it.
func (r *pkgResolver) typeMemberKeys(out []Ref, from []int, name string) (_ []Ref, done bool) {
	keys, found, outside := r.memberKeys(out, from, name)
	if found {
		return keys, true
	}
	return out, outside
}

// varType resolves the declared type of the name x as reference j of file
// i uses it.
func (r *pkgResolver) varType(i, j int, x string) ([]pkgName, pkgPlace) {
	d := r.varDecl(i, j, x)
	if d < 0 {
		return nil, placeUnknown
	}
	set := r.tree[i].Tags
	return r.typeOf(i, set.Str(set.Tags[d].Name))
}

// varDecl returns the type reference of the declaration of x in effect
// for reference j of file i: the nearest at or before j's line, else the
// first after it (a field declared below its use); -1 for none.
func (r *pkgResolver) varDecl(i, j int, x string) int {
	decls := r.file(i).vars[x]
	if len(decls) == 0 {
		return -1
	}
	set := r.tree[i].Tags
	line := set.Tags[j].Line
	d := decls[0]
	for _, k := range decls {
		if set.Tags[k].Line > line {
			break
		}
		d = k
	}
	return d
}

// declaredPackage returns the name of the package a file's tags declare
// ("a.b"), or "".
func declaredPackage(set tags.Set) string {
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "package" {
			return set.Qual(j)
		}
	}
	return ""
}
