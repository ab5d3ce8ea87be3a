// Package golang resolves Go: packages by import path within the module,
// a package's scope shared by its files, methods by their receivers'
// types.
package golang

import (
	"cmp"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Go: a package is a directory (its external tests, package x_test, are a
// package of their own); an unqualified call, type or literal means the
// file's own package or, when exported, one it imports with "."; q.F
// means the package imported as q, and nothing when F is not exported;
// an import means the package it names. Builtins and the packages outside
// the tree link to nothing. x.M() on a value means a
// method or field of x's type where the tree says what x holds (a
// receiver, a parameter or var of a named type, x := T{}, x := &T{},
// x, ok := y.(T), x := F() or x := y.M() for a function or method whose
// result is a named type, x := y.f, a package-level var of the package;
// with Options.Fields, x := y.f.M() and x := F().f too),
// as the binding in effect at the use says; nothing when that type is
// outside the tree, a builtin or an interface literal; and a method or
// field of any type where the tree does not say.

// Rules resolve Go.
var Rules = With(Options{})

// Options are the changes to the Go rules that are more precise by the
// type checker but lower the history's figures, chi's overview above
// all (docs/resolution.md): none is in the default.
type Options struct {
	// Reach links a member used on a value of a type the rules do not
	// know only to the members of that name of the types of the
	// packages its file reaches, its own and those it imports, which
	// share the weight of its edges (link.Split), not to those of every
	// type of the tree.
	Reach bool
	// NoPackages links an import and a package qualifier to nothing
	// rather than to the package's clauses: by the type checker, a
	// package's name is declared by the import in the file that uses
	// it.
	NoPackages bool
	// Fields follows fields where the rules know the type that has
	// them: x := y.f.M() binds x to the result of the method M of the
	// type of y's field f, x := F().f binds x to the type of the field f
	// of what F gives, and x := y.f and x := F().f link that use of f
	// to the field. Without it, x := y.f.M() and x := F().f bind x to
	// what the rules do not know, and those uses of f link nothing.
	Fields bool
}

// With returns the Rules with the options o (Rules for none); the same
// options give the same Rules.
func With(o Options) *link.Rules { return variants[o] }

// OptionsOf returns the options of r when it is one of With's Rules.
func OptionsOf(r *link.Rules) (Options, bool) {
	for o, v := range variants {
		if v == r {
			return o, true
		}
	}
	return Options{}, false
}

// variants are the Rules of every set of options, named "go" and the
// options': "go.reach.nopkg".
var variants = func() map[Options]*link.Rules {
	m := make(map[Options]*link.Rules)
	for _, reach := range []bool{false, true} {
		for _, noPkg := range []bool{false, true} {
			for _, fields := range []bool{false, true} {
				o := Options{Reach: reach, NoPackages: noPkg, Fields: fields}
				name := "go"
				for _, part := range []struct {
					on   bool
					name string
				}{{reach, ".reach"}, {noPkg, ".nopkg"}, {fields, ".fields"}} {
					if part.on {
						name += part.name
					}
				}
				m[o] = &link.Rules{
					Name:      name,
					Languages: []string{"go"},
					New: func(tree []link.File, mine []int) link.Lang {
						g := newResolver(tree, mine)
						g.narrow, g.noPkg, g.followFields = o.Reach, o.NoPackages, o.Fields
						return g
					},
				}
			}
		}
	}
	return m
}()

// resolver holds the Go packages of a tree.
type resolver struct {
	tree     []link.File
	pkg      map[int]string     // per Go file: its package's scope
	name     map[string]string  // per directory: the name of its package
	dirs     map[string]bool    // directories with Go files
	imports  map[int]goImports  // per Go file, made on first use
	paths    map[string]goWhere // per import path, made on first use
	byEnd    map[string]string  // per end of a directory's path: the shortest such directory (shortestByEnd), made on first use
	roots    map[string]bool    // module paths seen, whose root is the tree's root
	types    map[string]bool    // rank.Key(type, package scope) of each type the tree defines
	results  map[string]goDef   // by rank.Key(function, package scope): its definition, when a named type is its result
	fields   map[string]goDef   // by rank.Key(field, its struct's goMethods): its definition, when a named type is its type
	mresults map[string]goDef   // by rank.Key(method, its type's goMethods): its methodresult reference
	pkgVars  map[string]goDef   // by rank.Key(variable, package scope): the binding of a package-level variable
	depth    int                // how deep varType is in the bindings it follows
	bound    struct {           // for useContext: per qualifier of the file, whether its variable has bindings there
		file int
		has  map[uint32]bool
	}
	noPkg        bool              // a use of a package links to nothing (Options.NoPackages)
	narrow       bool              // members of unknown types: only those of the packages a file reaches (Options.Reach)
	followFields bool              // fields bind and link (Options.Fields)
	vars         map[int]goVars    // per Go file, made on first use, of the files the last file's uses read (UseContext)
	test         map[int]bool      // per Go file: a test file of its directory's package (not package x_test)
	importedDirs map[string]bool   // the directories some file imports
	scopes       map[string]string // per directory: its scope (dirScope)
}

// goTestFiles returns the scope of what the test files of the package in
// dir define: only the package and its external tests see it.
func (g *resolver) testFiles(dir string) string { return g.dirScope(dir) + ":testfiles" }

// dirScope returns the scope of the package in dir: "go:" and a short
// name of the directory, so that keys stay short (the ranking sorts and
// hashes them).
func (g *resolver) dirScope(dir string) string {
	if sc, ok := g.scopes[dir]; ok {
		return sc
	}
	sc := "go:" + strconv.Itoa(len(g.scopes))
	g.scopes[dir] = sc
	return sc
}

// sees appends to out the keys of name in the package in dir, as file i
// sees it: with what the package's test files define when i is one of
// them or of its external tests.
func (g *resolver) sees(out []link.Ref, i int, dir, name string) []link.Ref {
	sc := g.dirScope(dir)
	out = append(out, link.Ref{Name: name, Scope: sc})
	if p := g.pkg[i]; g.test[i] && p == sc || p == sc+":test" {
		out = append(out, link.Ref{Name: name, Scope: g.testFiles(dir)})
	}
	return out
}

// goDef is definition or reference j of file i.
type goDef struct{ i, j int }

// goVars is what the variables of one Go file hold, as far as the file
// says: where each is bound, and where each function starts, since a
// binding holds from its line to the next function.
type goVars struct {
	binds map[string][]goDef // by variable name, in line order
	funcs []int32            // the lines of the functions and methods
	ends  []int32            // the lines where function literals end
}

// goWhere is where an imported package is.
type goWhere struct {
	dir string
	at  link.Place
}

// goImports is what one Go file imports.
type goImports struct {
	local map[string]goWhere // by local name
	dots  []string           // directories of the tree imported with "."
}

// goMember is the scope of the methods and fields of all Go types; with
// Options.Reach, it begins the scope of those of the types of one package
// (memberScope).
const goMember = "go.member"

// memberScope returns the scope of the methods and fields of the types of
// the package whose scope is pkg, with Options.Reach.
func memberScope(pkg string) string { return goMember + ":" + strings.TrimPrefix(pkg, "go:") }

// memberKey returns the key of method or field name defined in file i.
// One defined in a test file is in its directory's pool of test members
// (testMembers): only the test build of that directory compiles it; an
// unexported one in its package's pool (ownMembers): no other package
// can use it.
func (g *resolver) memberKey(i int, name string) link.Ref {
	switch {
	case !g.narrow && isTestFile(g.tree[i].Path):
		return link.Ref{Name: name, Scope: g.testMembers(i)}
	case !g.narrow && !token.IsExported(name):
		return link.Ref{Name: name, Scope: g.ownMembers(i)}
	case !g.narrow:
		return link.Ref{Name: name, Scope: goMember}
	case g.test[i]:
		return link.Ref{Name: name, Scope: memberScope(g.pkg[i]) + ":testfiles"}
	}
	return link.Ref{Name: name, Scope: memberScope(g.pkg[i])}
}

// unknownMember appends to out the keys of member name of a value of a
// type the rules do not know, used in file i: that of any type's; with
// Options.Reach, those of the types of its own package and of the
// packages of the tree it imports, with those of their test files where
// file i is compiled with them. A package the file does not import is
// not reached: it cannot name a type of it, though a value of one can
// come to it through a package between them.
func (g *resolver) unknownMember(out []link.Ref, i int, name string) []link.Ref {
	if !g.narrow {
		switch {
		case token.IsExported(name):
			out = append(out, link.Ref{Name: name, Scope: goMember})
		case !strings.HasSuffix(g.pkg[i], ":test"):
			// Not of an external test: the package's own.
			out = append(out, link.Ref{Name: name, Scope: g.ownMembers(i)})
		}
		if isTestFile(g.tree[i].Path) {
			out = append(out, link.Ref{Name: name, Scope: g.testMembers(i)})
		}
		return out
	}
	own := memberScope(g.pkg[i])
	out = append(out, link.Ref{Name: name, Scope: own})
	if g.test[i] {
		out = append(out, link.Ref{Name: name, Scope: own + ":testfiles"})
	}
	im := g.importsOf(i)
	dirs := slices.Clone(im.dots)
	for _, w := range im.local {
		if w.at == link.InTree {
			dirs = append(dirs, w.dir)
		}
	}
	slices.Sort(dirs)
	for _, d := range slices.Compact(dirs) {
		if sc := g.dirScope(d); sc != g.pkg[i] {
			out = append(out, link.Ref{Name: name, Scope: memberScope(sc)})
			if g.pkg[i] == sc+":test" {
				out = append(out, link.Ref{Name: name, Scope: memberScope(sc) + ":testfiles"})
			}
		}
	}
	return out
}

// testMembers is the scope of the methods and fields that the test files
// of file i's directory define, without Options.Reach: those of any
// type, as goMember, but seen only from the test files of that
// directory (of the package and of its external tests), which are all
// that a test build compiles with them; no other package's file, and no
// file of the package that is not a test, can use them.
func (g *resolver) testMembers(i int) string {
	return goMember + ":testfiles:" + strings.TrimPrefix(g.dirScope(link.Dir(g.tree[i].Path)), "go:")
}

// ownMembers is the scope of the unexported methods and fields that
// the files of file i's package but its tests define, without
// Options.Reach: only the package itself (its test files too) can use
// them.
func (g *resolver) ownMembers(i int) string {
	return goMember + ":own:" + strings.TrimPrefix(g.dirScope(link.Dir(g.tree[i].Path)), "go:")
}

// isTestFile reports whether the Go file at path is a test file, of its
// package or of its external tests.
func isTestFile(path string) bool { return strings.HasSuffix(path, "_test.go") }

func newResolver(tree []link.File, files []int) *resolver {
	g := &resolver{tree: tree, pkg: make(map[int]string, len(files)), name: make(map[string]string),
		dirs: make(map[string]bool), imports: make(map[int]goImports), paths: make(map[string]goWhere),
		roots: make(map[string]bool), types: make(map[string]bool), results: make(map[string]goDef),
		fields: make(map[string]goDef), mresults: make(map[string]goDef), pkgVars: make(map[string]goDef), vars: make(map[int]goVars), test: make(map[int]bool),
		importedDirs: make(map[string]bool), scopes: make(map[string]string)}
	g.bound.file, g.bound.has = -1, make(map[uint32]bool)
	names := make(map[string]int) // files per directory and package name
	for _, i := range files {
		dir := link.Dir(tree[i].Path)
		g.dirs[dir] = true
		scope := g.dirScope(dir)
		if name, ok := g.pkgName(i); ok {
			if strings.HasSuffix(name, "_test") {
				scope += ":test"
			} else {
				g.test[i] = isTestFile(tree[i].Path)
				names[dir+"\x00"+name]++
			}
		}
		g.pkg[i] = scope
		g.fileTables(i, scope, func(t goTable, key string, j int) {
			if t == goTypes {
				g.types[key] = true
			} else {
				g.table(t)[key] = goDef{i, j}
			}
		})
	}
	// A directory's package is the one most of its files name (a
	// generator beside it may be package main), the first by name of a
	// tie.
	most := make(map[string]int)
	for k, n := range names {
		dir, name, _ := strings.Cut(k, "\x00")
		if old, ok := g.name[dir]; !ok || n > most[dir] || n == most[dir] && name < old {
			g.name[dir], most[dir] = name, n
		}
	}
	for _, i := range files {
		g.importRoots(i, func(root string) { g.roots[root] = true })
	}
	for _, i := range files {
		g.importDirs(i, func(dir string) { g.importedDirs[dir] = true })
	}
	return g
}

// pkgName returns the name of the package clause of Go file i, if it
// has one.
func (g *resolver) pkgName(i int) (string, bool) {
	set := g.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "package" {
			return set.Str(t.Name), true
		}
	}
	return "", false
}

// goTable names the tables of the Go rules that the tags of each file
// fill, and that the rules read to resolve other files' references.
type goTable int

const (
	goTypes    goTable = iota // types: the keys of types
	goResults                 // results
	goFields                  // fields
	goMResults                // mresults
	goPkgVars                 // pkgVars
	numGoTables
)

// table returns the table t holding tags, all but goTypes.
func (g *resolver) table(t goTable) map[string]goDef {
	switch t {
	case goResults:
		return g.results
	case goFields:
		return g.fields
	case goMResults:
		return g.mresults
	}
	return g.pkgVars
}

// fileTables calls put with what Go file i, of the package whose scope
// is scope, puts in the tables: the table, the key, and the tag it
// holds there (for goTypes, none), in the order of the tags, so that of
// a key put twice the later one stands.
func (g *resolver) fileTables(i int, scope string, put func(t goTable, key string, j int)) {
	g.pkgVarTags(i, scope, put)
	set := g.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Definition {
			if set.Sub(j) == "methodresult" {
				if typ, rest, ok := strings.Cut(set.Qual(j), " "); ok {
					method, _, _ := strings.Cut(rest, " ")
					put(goMResults, rank.Key(method, goMethods(scope, typ)), j)
				}
			}
			continue
		}
		switch set.Sub(j) {
		case "struct", "interface", "type":
			put(goTypes, rank.Key(set.Str(t.Name), scope), j)
		case "function":
			if set.Qual(j) != "" {
				put(goResults, rank.Key(set.Str(t.Name), scope), j)
			}
		case "field":
			if typ, _, ok := strings.Cut(set.Qual(j), " "); ok {
				put(goFields, rank.Key(set.Str(t.Name), goMethods(scope, typ)), j)
			}
		}
	}
}

// importRoots calls found with each module path the imports of Go file
// i show: an import path that is a prefix with a dot in its first
// element, then a directory of the tree, names the module whose root is
// the tree's root.
func (g *resolver) importRoots(i int, found func(root string)) {
	set := g.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || set.Sub(j) != "package" {
			continue
		}
		// So does the path before an internal package of the tree,
		// which only the tree's own packages may import.
		_, p := splitImport(set.Qual(j))
		for k := len(p) - 1; k > 0; k-- {
			if p[k] == '/' && g.dirs[p[k+1:]] &&
				(strings.Contains(link.FirstElem(p[:k]), ".") || strings.HasPrefix(p[k+1:], "internal/")) {
				found(p[:k])
			}
		}
	}
}

// importDirs calls found with the directory of each package of the tree
// that Go file i imports.
func (g *resolver) importDirs(i int, found func(dir string)) {
	set := g.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind == tags.Reference && set.Sub(j) == "package" && set.Qual(j) != "" {
			if _, p := splitImport(set.Qual(j)); g.where(p).at == link.InTree {
				found(g.where(p).dir)
			}
		}
	}
}

// pkgVarTags calls put with the bindings of the package-level variables
// of Go file i, whose package's scope is scope: those on the line of the
// variable's definition.
func (g *resolver) pkgVarTags(i int, scope string, put func(t goTable, key string, j int)) {
	set := g.tree[i].Tags
	type at struct {
		name string
		line int32
	}
	var defs map[at]bool
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "variable" {
			if defs == nil {
				defs = make(map[at]bool)
			}
			defs[at{set.Str(t.Name), t.Line}] = true
		}
	}
	if defs == nil {
		return
	}
	for j, t := range set.Tags {
		switch set.Sub(j) {
		case "vartype", "varcall", "varnone", "varfield":
			x, _, _ := strings.Cut(set.Qual(j), " ")
			if t.Kind == tags.Reference && defs[at{x, t.Line}] {
				put(goPkgVars, rank.Key(x, scope), j)
			}
		}
	}
}

// splitImport splits the qualifier of a Go import, "path" or "name path".
func splitImport(q string) (name, p string) {
	if name, p, ok := strings.Cut(q, " "); ok {
		return name, p
	}
	return "", q
}

// where returns where the package of an import path is.
func (g *resolver) where(p string) goWhere {
	w, ok := g.paths[p]
	if !ok {
		w = g.find(p)
		g.paths[p] = w
	}
	return w
}

// find looks for the directory of an import path: the directory of that
// path; else a copy of it under a vendor directory (the shortest); else
// the longest directory the path ends in; else the root, for a module
// path. A path with no dot in its first element that is none of these is
// of the standard library.
func (g *resolver) find(p string) goWhere {
	if p == "" {
		return goWhere{at: link.Outside}
	}
	if g.dirs[p] {
		return goWhere{p, link.InTree}
	}
	if g.byEnd == nil {
		g.byEnd = link.ShortestByEnd(maps.Keys(g.dirs))
	}
	if best, ok := g.byEnd[p]; ok {
		return goWhere{best, link.InTree}
	}
	for k := 0; k < len(p); k++ {
		if p[k] == '/' && g.dirs[p[k+1:]] {
			return goWhere{p[k+1:], link.InTree}
		}
	}
	if g.dirs[""] && g.roots[p] {
		return goWhere{"", link.InTree}
	}
	if strings.Contains(link.FirstElem(p), ".") {
		return goWhere{p, link.Unknown}
	}
	return goWhere{at: link.Outside}
}

// importsOf returns what file i imports.
func (g *resolver) importsOf(i int) goImports {
	if im, ok := g.imports[i]; ok {
		return im
	}
	im := goImports{local: make(map[string]goWhere)}
	unaliasedUnknown := false
	set := g.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || set.Sub(j) != "package" || set.Qual(j) == "" {
			continue
		}
		alias, p := splitImport(set.Qual(j))
		w := g.where(p)
		if w.at == link.Unknown && g.dirs[""] && cmp.Or(alias, importName(p)) == g.name[""] {
			// A module path the tree does not show, imported under the
			// name of the root's package: the module of the root.
			w = goWhere{"", link.InTree}
		}
		if alias == "" && w.at == link.Unknown {
			unaliasedUnknown = true
		}
		switch {
		case alias == "_":
		case alias == ".":
			if w.at == link.InTree {
				im.dots = append(im.dots, w.dir)
			}
		case alias != "":
			im.local[alias] = w
		case w.at == link.InTree && g.name[w.dir] != "":
			im.local[g.name[w.dir]] = w
		default:
			im.local[importName(p)] = w
		}
	}
	if r := g.name[""]; unaliasedUnknown && r != "" {
		if _, ok := im.local[r]; !ok {
			// A package imported by a path the tree does not show goes by
			// the name of its package clause, which may not be its path's:
			// a use of the root package's name means the root.
			im.local[r] = goWhere{"", link.InTree}
		}
	}
	g.imports[i] = im
	return im
}

// importName is the name a package imported from p goes by when its
// package clause is unknown: the last element of the path, without a
// major version (".../v2"), a ".v3" suffix or a "go-" prefix.
func importName(p string) string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	if k := strings.Index(base, ".v"); k > 0 {
		base = base[:k]
	}
	return strings.TrimPrefix(base, "go-")
}

// goMethods returns the scope of the methods and fields of the type
// named typ of the package whose scope is pkg.
func goMethods(pkg, typ string) string {
	return goMethodsPrefix + strings.TrimPrefix(pkg, "go:") + "." + typ
}

// goMethodsPrefix begins the scopes of the methods and fields of a type.
const goMethodsPrefix = "go.method:"

// MoreDefKeys: a method or field publishes under its type's scope too.
func (g *resolver) MoreDefKeys(out []string, i, j int) []string {
	set := g.tree[i].Tags
	switch set.Sub(j) {
	case "method", "field":
		// A method's qualifier ends in its type, a field's starts with it.
		q := set.Qual(j)
		typ := q[strings.LastIndexByte(q, ' ')+1:]
		if set.Sub(j) == "field" {
			typ, _, _ = strings.Cut(q, " ")
		}
		if typ != "" {
			out = append(out, rank.Key(set.Str(set.Tags[j].Name), goMethods(g.pkg[i], typ)))
		}
	}
	return out
}

func (g *resolver) DefKey(i, j int) link.Ref {
	set := g.tree[i].Tags
	name := set.Str(set.Tags[j].Name)
	switch set.Sub(j) {
	case "method", "field":
		return g.memberKey(i, name)
	case "package":
		// The package clause of a package the tree imports (of its test
		// files, for its external tests alone, as only their build
		// compiles them); another is linked to nothing and goes with the
		// package's other names, as the definitions of one name count
		// once.
		if dir := link.Dir(g.tree[i].Path); !strings.HasSuffix(name, "_test") && g.importedDirs[dir] {
			if g.test[i] {
				return link.Ref{Name: name, Scope: g.pkgScope(dir) + ":testfiles"}
			}
			return link.Ref{Name: name, Scope: g.pkgScope(dir)}
		}
	}
	if g.test[i] {
		return link.Ref{Name: name, Scope: g.testFiles(link.Dir(g.tree[i].Path))}
	}
	return link.Ref{Name: name, Scope: g.pkg[i]}
}

// pkgRefs appends what a use of the package in dir, in file i, resolves
// to: its package clause, and that of its test files for an external
// test of the package.
func (g *resolver) pkgRefs(out []link.Ref, i int, dir string) []link.Ref {
	if g.noPkg {
		return out
	}
	out = append(out, link.Ref{Name: g.name[dir], Scope: g.pkgScope(dir)})
	if g.pkg[i] == g.dirScope(dir)+":test" {
		out = append(out, link.Ref{Name: g.name[dir], Scope: g.pkgScope(dir) + ":testfiles"})
	}
	return out
}

// pkgScope returns the scope of the package clauses of the package in dir.
func (g *resolver) pkgScope(dir string) string {
	return "go.pkg:" + strings.TrimPrefix(g.dirScope(dir), "go:")
}

func (g *resolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := g.tree[i].Tags
	name, sub, qual := set.Str(set.Tags[j].Name), set.Sub(j), set.Qual(j)
	switch sub {
	case "package":
		if qual != "" { // an import
			_, p := splitImport(qual)
			if w := g.where(p); w.at == link.InTree && g.name[w.dir] != "" {
				return g.pkgRefs(out, i, w.dir)
			}
			return out
		}
		// The package of a qualified type.
		if w, ok := g.importsOf(i).local[name]; ok && w.at == link.InTree && g.name[w.dir] != "" {
			return g.pkgRefs(out, i, w.dir)
		}
		return out
	case "closureend", "varnone":
		return out
	case "varfield", "varcallfield":
		// x := y.f and x := F().f bind x. As a use of f they link
		// nothing (linked, the fields lowered the history's recall on
		// chi and bubbletea), but with Options.Fields: to the field f of
		// the type of y or of what F gives, where the rules know it.
		if !g.followFields {
			return out
		}
		var scope string
		var ok bool
		if sub == "varfield" {
			scope, ok = g.varType(i, j, after(qual))
		} else {
			scope, ok = g.calledType(i, j)
		}
		if ok && scope != "" {
			out = append(out, link.Ref{Name: name, Scope: scope})
		}
		return out
	case "typedmember", "resultmember":
		q, typ := "", qual
		if a, b, ok := strings.Cut(qual, " "); ok {
			q, typ = a, b
		}
		var scope string
		var ok bool
		if sub == "typedmember" {
			scope, ok = g.namedType(i, typ, q)
		} else {
			scope, ok = g.callType(i, j, typ, q)
		}
		return g.typedKeys(out, i, name, scope, ok)
	case "vartype", "varcall", "closurevar", "methodresult":
		// The type or function a variable is bound to: the variable's
		// name comes first in the qualifier; a method's result type: its
		// receiver's type and its name.
		if _, q, ok := strings.Cut(qual, " "); ok {
			qual = q
		} else {
			qual = ""
		}
		if sub == "methodresult" {
			qual = after(qual)
		}
		fallthrough
	case "call", "type", "literal", "member":
		if qual != "" {
			if w, ok := g.importsOf(i).local[qual]; ok {
				switch w.at {
				case link.InTree:
					if !token.IsExported(name) {
						return out
					}
					return g.sees(out, i, w.dir, name)
				case link.Unknown:
					return append(out, link.FallbackRef(name))
				}
				return out // outside the tree
			}
			if sub == "member" || strings.Contains(qual, " ") {
				// x.M(), or y.f.M() as x := y.f.M() calls it.
				return g.memberKeys(out, i, j, name, qual)
			}
			if sub == "varcall" {
				// x := y.M(): a method of y's type, where the file says
				// what y holds.
				if scope, ok := g.varType(i, j, qual); ok {
					return g.typedKeys(out, i, name, scope, true)
				}
			}
			return append(out, link.FallbackRef(name))
		}
		if sub == "member" {
			return g.unknownMember(out, i, name)
		}
		out = append(out, link.Ref{Name: name, Scope: g.pkg[i]})
		if g.test[i] {
			out = append(out, link.Ref{Name: name, Scope: g.testFiles(link.Dir(g.tree[i].Path))})
		}
		for _, d := range g.importsOf(i).dots {
			if token.IsExported(name) {
				out = g.sees(out, i, d, name)
			}
		}
		return out
	}
	return append(out, link.FallbackRef(name))
}

// memberKeys appends the keys of x.name, reference j of file i, where x
// names no import (or x.f.name, x.f.g.name: x is "x f g"): the methods
// and fields of x's type, or of its fields' types, where the tree says
// what x holds; else those of any type.
func (g *resolver) memberKeys(out []link.Ref, i, j int, name, x string) []link.Ref {
	scope, ok := g.chainType(i, j, x)
	return g.typedKeys(out, i, name, scope, ok)
}

// chainType returns what varType returns for x, a variable, or for the
// field of a variable that x names as "x f" (x.f), "x f g" (x.f.g).
func (g *resolver) chainType(i, j int, x string) (string, bool) {
	x, fields, _ := strings.Cut(x, " ")
	scope, ok := g.varType(i, j, x)
	for fields != "" && ok && scope != "" {
		var field string
		field, fields, _ = strings.Cut(fields, " ")
		scope, ok = g.fieldType(scope, field)
	}
	return scope, ok
}

// typedKeys appends the key of the method or field name of the type whose
// methods' scope is scope, used in file i: none for a builtin type or one
// outside the tree (scope ""), those of unknownMember when the type is
// not known (!ok).
func (g *resolver) typedKeys(out []link.Ref, i int, name, scope string, ok bool) []link.Ref {
	switch {
	case !ok:
		return g.unknownMember(out, i, name)
	case scope == "":
		return out
	}
	return append(out, link.Ref{Name: name, Scope: scope})
}

// callType returns the scope of the methods of what a call of f, as
// reference j of file i names it (qualified by q when q is not ""),
// gives: the type f names, or the result of the function f, or where q
// is a variable, of its type's method f.
func (g *resolver) callType(i, j int, f, q string) (string, bool) {
	pkg := g.pkg[i]
	if _, imported := g.importsOf(i).local[q]; q != "" && !imported {
		scope, ok := g.chainType(i, j, q)
		if !ok || scope == "" {
			return "", ok
		}
		return g.methodResult(scope, f)
	}
	if q != "" {
		var ok bool
		if pkg, ok = g.imported(i, q); !ok || pkg == "" {
			return "", ok
		}
	} else if d, ok := g.dotted(i, f); ok {
		pkg = d
	}
	if g.types[rank.Key(f, pkg)] {
		return goMethods(pkg, f), true
	}
	return g.funcResult(pkg, f)
}

// dotted returns the scope of the package that file i imports with "."
// and that defines name, when its own package does not.
func (g *resolver) dotted(i int, name string) (string, bool) {
	if !token.IsExported(name) || g.typeOrResult(name, g.pkg[i]) {
		return "", false
	}
	for _, d := range g.importsOf(i).dots {
		if sc := g.dirScope(d); g.typeOrResult(name, sc) {
			return sc, true
		}
	}
	return "", false
}

// typeOrResult reports whether the package whose scope is pkg defines a
// type name or a function name whose result is a named type.
func (g *resolver) typeOrResult(name, pkg string) bool {
	k := rank.Key(name, pkg)
	_, ok := g.results[k]
	return ok || g.types[k]
}

// varType returns the scope of the methods of the type variable x holds
// at reference j of file i: "" for a type outside the tree or a builtin
// one, and false when the file does not say.
func (g *resolver) varType(i, j int, x string) (string, bool) {
	if g.depth >= maxBindings {
		return "", false
	}
	g.depth++
	defer func() { g.depth-- }()
	b, ok := g.binding(i, j, x)
	if !ok {
		return "", false
	}
	return g.boundType(b)
}

// boundType returns what varType returns for a variable whose binding
// in effect is b.
func (g *resolver) boundType(b goDef) (string, bool) {
	set := g.tree[b.i].Tags
	switch set.Sub(b.j) {
	case "varcall":
		return g.resultType(b.i, b.j)
	case "varnone":
		return "", true
	case "varfield":
		scope, ok := g.varType(b.i, b.j, after(set.Qual(b.j)))
		if !ok || scope == "" {
			return "", ok
		}
		return g.fieldType(scope, set.Str(set.Tags[b.j].Name))
	case "varcallfield":
		scope, ok := g.calledType(b.i, b.j)
		if !ok || scope == "" {
			return "", ok
		}
		return g.fieldType(scope, set.Str(set.Tags[b.j].Name))
	}
	return g.namedType(b.i, set.Str(set.Tags[b.j].Name), after(set.Qual(b.j)))
}

// calledType returns the scope of the methods of what the call gives of
// which reference j of file i, x := F().f or x := q.F().f, is a field.
func (g *resolver) calledType(i, j int) (string, bool) {
	f := after(g.tree[i].Tags.Qual(j))
	q, fn, ok := strings.Cut(f, " ")
	if !ok {
		q, fn = "", f
	}
	return g.callType(i, j, fn, q)
}

// UseContext: what a use of a variable's member means depends on the
// binding of the variable in effect, the tag index of that binding plus
// one (0 for none).
func (g *resolver) UseContext(i, j int) int32 {
	set := g.tree[i].Tags
	sub := set.Sub(j)
	switch sub {
	case "member", "resultmember", "varcall", "varfield":
	default:
		return 0
	}
	if g.bound.file != i {
		// The link stage asks for the contexts of a file's uses before
		// it resolves them: the variables of the files read for the one
		// before are not needed again (on nine copies of the Go standard
		// library, keeping them all held 87 MB at the link stage's peak).
		g.bound.file = i
		clear(g.bound.has)
		clear(g.vars)
	}
	// Whether the operand has bindings in the file, per qualifier.
	memo := set.Tags[j].Qual << 1
	if sub == "varcall" || sub == "varfield" {
		memo |= 1
	}
	has, ok := g.bound.has[memo]
	if !ok {
		x, _, _ := strings.Cut(set.Qual(j), " ")
		if memo&1 != 0 {
			x = after(set.Qual(j))
		}
		_, imported := g.importsOf(i).local[x]
		has = x != "" && !imported && len(g.varsOf(i).binds[x]) > 0
		g.bound.has[memo] = has
	}
	if !has {
		return 0
	}
	x, _, _ := strings.Cut(set.Qual(j), " ")
	if memo&1 != 0 {
		x = after(set.Qual(j))
	}
	if b, ok := g.localBinding(i, j, x); ok {
		return int32(b.j + 1)
	}
	return 0
}

// binding returns the binding of the variable x in effect at reference j
// of file i: the file's own, else that of a package-level variable of
// its package; false when the tree shows none.
func (g *resolver) binding(i, j int, x string) (goDef, bool) {
	if b, ok := g.localBinding(i, j, x); ok {
		return b, true
	}
	b, ok := g.pkgVars[rank.Key(x, g.pkg[i])]
	return b, ok
}

// localBinding returns the binding of the variable x in effect at
// reference j of file i in that file's functions, false when there is
// none.
func (g *resolver) localBinding(i, j int, x string) (goDef, bool) {
	v := g.varsOf(i)
	binds := v.binds[x]
	set := g.tree[i].Tags
	line := set.Tags[j].Line
	// The last binding at or before the reference, in the same function.
	k, _ := slices.BinarySearchFunc(binds, line+1, func(b goDef, l int32) int { return cmp.Compare(set.Tags[b.j].Line, l) })
	if k == 0 {
		return goDef{}, false
	}
	f, _ := slices.BinarySearch(v.funcs, line+1)
	start := int32(-1)
	if f > 0 {
		start = v.funcs[f-1]
	}
	// A function literal's parameter holds after its line, up to the end
	// of the first literal that ends after it.
	for ; k > 0; k-- {
		bl := set.Tags[binds[k-1].j].Line
		if bl < start {
			return goDef{}, false
		}
		if set.Sub(binds[k-1].j) != "closurevar" {
			break
		}
		e, _ := slices.BinarySearch(v.ends, bl)
		if bl < line && (e == len(v.ends) || v.ends[e] >= line) {
			break
		}
	}
	if k == 0 {
		return goDef{}, false
	}
	return binds[k-1], true
}

// maxBindings bounds the bindings varType follows, one through another
// (x := y.M(), y := z.N()…), as x := x.M() would follow itself.
const maxBindings = 8

// after returns what follows the first space of q, or "".
func after(q string) string {
	_, rest, _ := strings.Cut(q, " ")
	return rest
}

// varsOf returns what the variables of file i hold, made on first use.
func (g *resolver) varsOf(i int) goVars {
	if v, ok := g.vars[i]; ok {
		return v
	}
	v := goVars{binds: make(map[string][]goDef)}
	set := g.tree[i].Tags
	for j, t := range set.Tags {
		switch sub := set.Sub(j); {
		case t.Kind == tags.Definition && (sub == "function" || sub == "method"):
			v.funcs = append(v.funcs, t.Line)
		case t.Kind == tags.Reference && sub == "closureend":
			v.ends = append(v.ends, t.Line)
		case t.Kind == tags.Reference && sub == "varcall" && link.Builtin("go", set.Str(t.Name)) && set.Qual(j) != "" && !strings.Contains(set.Qual(j), " "):
			// new(T) binds to T, make to nothing of the tree.
		case t.Kind == tags.Reference && !g.followFields && (sub == "varcall" && strings.Count(set.Qual(j), " ") > 1 || sub == "varcallfield"):
			// x := y.f.M() and x := F().f bind x only with
			// Options.Fields.
		case t.Kind == tags.Reference && (sub == "vartype" || sub == "varcall" || sub == "closurevar" || sub == "varnone" || sub == "varfield" || sub == "varcallfield"):
			x, _, _ := strings.Cut(set.Qual(j), " ")
			v.binds[x] = append(v.binds[x], goDef{i, j})
		}
	}
	slices.Sort(v.funcs)
	slices.Sort(v.ends)
	for _, b := range v.binds {
		slices.SortStableFunc(b, func(a, c goDef) int { return cmp.Compare(set.Tags[a.j].Line, set.Tags[c.j].Line) })
	}
	g.vars[i] = v
	return v
}

// namedType returns the scope of the methods of the type typ as file i
// names it, qualified by the package q when q is not "": "" for a type
// outside the tree or a builtin one, false when the rules cannot tell
// (a type parameter, a package they cannot place).
func (g *resolver) namedType(i int, typ, q string) (string, bool) {
	if q == "" {
		if g.types[rank.Key(typ, g.pkg[i])] {
			return goMethods(g.pkg[i], typ), true
		}
		if d, ok := g.dotted(i, typ); ok {
			return goMethods(d, typ), true
		}
		if link.Builtin("go", typ) {
			return "", true
		}
		return "", false
	}
	pkg, ok := g.imported(i, q)
	if !ok || pkg == "" {
		return "", ok
	}
	if g.types[rank.Key(typ, pkg)] {
		return goMethods(pkg, typ), true
	}
	return "", false
}

// imported returns the scope of the package file i imports as q: "" for
// one outside the tree, false when the rules cannot place it.
func (g *resolver) imported(i int, q string) (string, bool) {
	w, ok := g.importsOf(i).local[q]
	switch {
	case !ok || w.at == link.Unknown:
		return "", false
	case w.at == link.Outside:
		return "", true
	}
	return g.dirScope(w.dir), true
}

// resultType returns the scope of the methods of what the call, reference
// j of file i, gives.
func (g *resolver) resultType(i, j int) (string, bool) {
	set := g.tree[i].Tags
	return g.callType(i, j, set.Str(set.Tags[j].Name), after(set.Qual(j)))
}

// methodResult returns the scope of the methods of the result of the
// method name of the type whose methods' scope is typ.
func (g *resolver) methodResult(typ, name string) (string, bool) {
	d, ok := g.mresults[rank.Key(name, typ)]
	if !ok {
		return "", false
	}
	set := g.tree[d.i].Tags
	return g.namedType(d.i, set.Str(set.Tags[d.j].Name), after(after(set.Qual(d.j))))
}

// funcResult returns the scope of the methods of the result of the
// function name of the package whose scope is pkg.
func (g *resolver) funcResult(pkg, name string) (string, bool) {
	d, ok := g.results[rank.Key(name, pkg)]
	if !ok {
		return "", false
	}
	dset := g.tree[d.i].Tags
	q := dset.Qual(d.j)
	if pkg, typ, ok := strings.Cut(q, " "); ok {
		return g.namedType(d.i, typ, pkg)
	}
	return g.namedType(d.i, q, "")
}

// fieldType returns the scope of the methods of the type of the field
// named field of the type whose methods' scope is typ.
func (g *resolver) fieldType(typ, field string) (string, bool) {
	d, ok := g.fields[rank.Key(field, typ)]
	if !ok {
		return "", false
	}
	q := after(g.tree[d.i].Tags.Qual(d.j))
	if pkg, t, ok := strings.Cut(q, " "); ok {
		return g.namedType(d.i, t, pkg)
	}
	return g.namedType(d.i, q, "")
}

// IsMore reports whether r is a key of the methods and fields of a type,
// which its definitions publish under beside their own.
func (g *resolver) IsMore(r link.Ref) bool { return strings.HasPrefix(r.Scope, goMethodsPrefix) }
