package repomap

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// The link stage resolves each reference to the keys of the definitions
// it can mean (rank.Key: a name in a scope), from what the tags, the
// imports and the layout of the tree say, and each definition publishes
// under its keys. A language with rules gives its own scopes; a reference
// its rules cannot place falls back to every definition of its name, at
// the fallback weight. Languages without rules link by name, as before.

// A ref is one key a reference resolves to, as its identifier and
// scope, so that the link stage makes each key's string once.
type ref struct {
	name, scope string
	fallback    bool // a name match the rules could not place
}

// key returns the key of r.
func (r ref) key() string { return rank.Key(r.name, r.scope) }

// langResolver holds the rules of one language for the files of a
// snapshot.
type langResolver interface {
	// defKey returns the key definition j of file i publishes under.
	defKey(i, j int) ref
	// refKeys appends to out the keys reference j of file i resolves to;
	// none when it can only mean something outside the tree.
	refKeys(out []ref, i, j int) []ref
}

// resolver picks the rules of each file's language.
type resolver struct {
	s    *snapshot
	lang []langResolver // per file; nil: link by name
}

// newResolver returns the resolver of the files of s.
func newResolver(s *snapshot) *resolver {
	r := &resolver{s: s, lang: make([]langResolver, len(s.files))}
	byLang := make(map[string][]int)
	for i, f := range s.files {
		switch l := tags.Detect(f.path, nil); {
		case l == "go", l == "python":
			byLang[l] = append(byLang[l], i)
		case jsLanguages[l]: // they import each other
			byLang["javascript"] = append(byLang["javascript"], i)
		case l == "c", l == "cpp": // they include each other
			byLang["c"] = append(byLang["c"], i)
		}
	}
	for l, files := range byLang {
		var lr langResolver
		switch l {
		case "go":
			lr = newGoResolver(s, files)
		case "python":
			lr = newPyResolver(s, files)
		case "javascript":
			lr = newJSResolver(s, files)
		case "c":
			lr = newCResolver(s, files)
		}
		for _, i := range files {
			r.lang[i] = lr
		}
	}
	return r
}

// extraKeys returns the keys file i publishes beyond its definitions:
// for a language whose rules link files as a whole, such as C's
// includes. They are never shown.
func (r *resolver) extraKeys(i int) []string {
	if x, ok := r.lang[i].(interface{ extraKeys(int) []string }); ok {
		return x.extraKeys(i)
	}
	return nil
}

// defKey returns the key of definition j of file i.
func (r *resolver) defKey(i, j int) ref {
	set := r.s.entries[i].tags
	if l := r.lang[i]; l != nil {
		return l.defKey(i, j)
	}
	return ref{name: rankName(set.Sub(j), set.Strings[set.Tags[j].Name])}
}

// refKeys appends the keys of reference j of file i to out.
func (r *resolver) refKeys(out []ref, i, j int) []ref {
	if l := r.lang[i]; l != nil {
		return l.refKeys(out, i, j)
	}
	set := r.s.entries[i].tags
	return append(out, ref{name: set.Strings[set.Tags[j].Name]})
}

// resolves reports whether file i has rules of its own.
func (r *resolver) resolves(i int) bool { return r.lang[i] != nil }

// fallbackScope is the scope of the keys under which the references the
// rules could not place link to every definition of their name.
const fallbackScope = "~"

// fallbackKey is the key a reference to name falls back to.
func fallbackKey(name string) string { return rank.Key(name, fallbackScope) }

// keyWeight returns the weight of the edges of each key for the ranking
// rk: the fallback weight for name matches the rules could not place, and
// with overviewPrivate below 1, for a map for no request, that weight for
// the names a package keeps to itself (Go's lower-case names), so that a
// repository's overview leads with the API its packages share.
func keyWeight(rk ranking, overview bool) func(string) float64 {
	if !rk.resolve {
		return nil
	}
	return func(key string) float64 {
		name, scope, _ := strings.Cut(key, "\x00")
		switch {
		case scope == fallbackScope:
			return rk.fallback
		case overview && rk.private > 0 && strings.HasPrefix(scope, "go:") && name != "" && !unicode.IsUpper(rune(name[0])) && name[0] < utf8.RuneSelf:
			return rk.private
		}
		return 1
	}
}

// Go: a package is a directory (its external tests, package x_test, are a
// package of their own); an unqualified call, type or literal means the
// file's own package or one it imports with "."; q.F means the package
// imported as q; x.M() on a value means a method or field of any type;
// an import means the package it names. Builtins and the packages outside
// the tree link to nothing.

// goResolver holds the Go packages of a snapshot.
type goResolver struct {
	s        *snapshot
	pkg      map[int]string     // per Go file: its package's scope
	name     map[string]string  // per directory: the name of its package
	dirs     map[string]bool    // directories with Go files
	imports  map[int]goImports  // per Go file, made on first use
	paths    map[string]goWhere // per import path, made on first use
	roots    map[string]bool    // module paths seen, whose root is the tree's root
	scopes   map[string]string  // per directory: its scope, "go:" + dir
	imported map[string]bool    // the directories some file imports
}

// goWhere is where an imported package is.
type goWhere struct {
	dir string
	at  goPlace
}

// scope returns the scope of the package in dir, making its string once.
func (g *goResolver) scope(dir string) string {
	sc, ok := g.scopes[dir]
	if !ok {
		sc = "go:" + dir
		g.scopes[dir] = sc
	}
	return sc
}

// goPlace tells a package of the tree from one outside it.
type goPlace uint8

const (
	goInTree  goPlace = iota + 1
	goOutside         // the standard library, or a module the tree does not hold
	goUnknown         // a module path the rules could not place: uses fall back to names
)

// goImports is what one Go file imports.
type goImports struct {
	local map[string]goWhere // by local name
	dots  []string           // directories of the tree imported with "."
}

// goMember is the scope of the methods and fields of all Go types.
const goMember = "go.member"

func newGoResolver(s *snapshot, files []int) *goResolver {
	g := &goResolver{s: s, pkg: make(map[int]string, len(files)), name: make(map[string]string),
		dirs: make(map[string]bool), imports: make(map[int]goImports), paths: make(map[string]goWhere),
		roots: make(map[string]bool), scopes: make(map[string]string), imported: make(map[string]bool)}
	for _, i := range files {
		dir := goDir(s.files[i].path)
		g.dirs[dir] = true
		set := s.entries[i].tags
		scope := g.scope(dir)
		for j, t := range set.Tags {
			if t.Kind == tags.Definition && set.Sub(j) == "package" {
				name := set.Strings[t.Name]
				if strings.HasSuffix(name, "_test") {
					scope += ":test"
				} else if old, ok := g.name[dir]; !ok || name < old {
					g.name[dir] = name
				}
				break
			}
		}
		g.pkg[i] = scope
	}
	// Module paths: an import path that is a prefix with a dot in its
	// first element, then a directory of the tree, names the module whose
	// root is the tree's root.
	for _, i := range files {
		set := s.entries[i].tags
		for j, t := range set.Tags {
			if t.Kind != tags.Reference || set.Sub(j) != "package" {
				continue
			}
			_, p := splitImport(set.Qual(j))
			for k := len(p) - 1; k > 0; k-- {
				if p[k] == '/' && g.dirs[p[k+1:]] && strings.Contains(firstElem(p[:k]), ".") {
					g.roots[p[:k]] = true
				}
			}
		}
	}
	for _, i := range files {
		set := s.entries[i].tags
		for j, t := range set.Tags {
			if t.Kind == tags.Reference && set.Sub(j) == "package" && set.Qual(j) != "" {
				if _, p := splitImport(set.Qual(j)); g.where(p).at == goInTree {
					g.imported[g.where(p).dir] = true
				}
			}
		}
	}
	return g
}

// goDir returns the directory of a Go file, "" for the root.
func goDir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// firstElem returns the first element of a slash-separated path.
func firstElem(p string) string {
	before, _, _ := strings.Cut(p, "/")
	return before
}

// splitImport splits the qualifier of a Go import, "path" or "name path".
func splitImport(q string) (name, p string) {
	if name, p, ok := strings.Cut(q, " "); ok {
		return name, p
	}
	return "", q
}

// where returns where the package of an import path is.
func (g *goResolver) where(p string) goWhere {
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
func (g *goResolver) find(p string) goWhere {
	if p == "" {
		return goWhere{at: goOutside}
	}
	if g.dirs[p] {
		return goWhere{p, goInTree}
	}
	best := ""
	for d := range g.dirs {
		if strings.HasSuffix(d, "/"+p) && (best == "" || len(d) < len(best) || len(d) == len(best) && d < best) {
			best = d
		}
	}
	if best != "" {
		return goWhere{best, goInTree}
	}
	for k := 0; k < len(p); k++ {
		if p[k] == '/' && g.dirs[p[k+1:]] {
			return goWhere{p[k+1:], goInTree}
		}
	}
	if g.dirs[""] && g.roots[p] {
		return goWhere{"", goInTree}
	}
	if strings.Contains(firstElem(p), ".") {
		return goWhere{at: goUnknown}
	}
	return goWhere{at: goOutside}
}

// importsOf returns what file i imports.
func (g *goResolver) importsOf(i int) goImports {
	if im, ok := g.imports[i]; ok {
		return im
	}
	im := goImports{local: make(map[string]goWhere)}
	unaliasedUnknown := false
	set := g.s.entries[i].tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || set.Sub(j) != "package" || set.Qual(j) == "" {
			continue
		}
		alias, p := splitImport(set.Qual(j))
		w := g.where(p)
		if w.at == goUnknown && g.dirs[""] && cmp.Or(alias, importName(p)) == g.name[""] {
			// A module path the tree does not show, imported under the
			// name of the root's package: the module of the root.
			w = goWhere{"", goInTree}
		}
		if alias == "" && w.at == goUnknown {
			unaliasedUnknown = true
		}
		switch {
		case alias == "_":
		case alias == ".":
			if w.at == goInTree {
				im.dots = append(im.dots, w.dir)
			}
		case alias != "":
			im.local[alias] = w
		case w.at == goInTree && g.name[w.dir] != "":
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
			im.local[r] = goWhere{"", goInTree}
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

func (g *goResolver) defKey(i, j int) ref {
	set := g.s.entries[i].tags
	name := set.Strings[set.Tags[j].Name]
	switch set.Sub(j) {
	case "method", "field":
		return ref{name: name, scope: goMember}
	case "package":
		// The package clause of a package the tree imports; another is
		// linked to nothing and goes with the package's other names, as
		// the definitions of one name count once.
		if dir := goDir(g.s.files[i].path); !strings.HasSuffix(name, "_test") && g.imported[dir] {
			return ref{name: name, scope: g.pkgScope(dir)}
		}
	}
	return ref{name: name, scope: g.pkg[i]}
}

// pkgRef returns what a use of the package in dir resolves to: its
// package clause.
func (g *goResolver) pkgRef(dir string) ref { return ref{name: g.name[dir], scope: g.pkgScope(dir)} }

// pkgScope returns the scope of the package clauses of the package in dir.
func (g *goResolver) pkgScope(dir string) string { return "go.pkg:" + dir }

func (g *goResolver) refKeys(out []ref, i, j int) []ref {
	set := g.s.entries[i].tags
	name, sub, qual := set.Strings[set.Tags[j].Name], set.Sub(j), set.Qual(j)
	switch sub {
	case "package":
		if qual != "" { // an import
			_, p := splitImport(qual)
			if w := g.where(p); w.at == goInTree && g.name[w.dir] != "" {
				return append(out, g.pkgRef(w.dir))
			}
			return out
		}
		// The package of a qualified type.
		if w, ok := g.importsOf(i).local[name]; ok && w.at == goInTree && g.name[w.dir] != "" {
			return append(out, g.pkgRef(w.dir))
		}
		return out
	case "call", "type", "literal", "member":
		if qual != "" {
			if w, ok := g.importsOf(i).local[qual]; ok {
				switch w.at {
				case goInTree:
					return append(out, ref{name: name, scope: g.scope(w.dir)})
				case goUnknown:
					return append(out, ref{name: name, scope: fallbackScope, fallback: true})
				}
				return out // outside the tree
			}
			if sub == "member" {
				return append(out, ref{name: name, scope: goMember})
			}
			return append(out, ref{name: name, scope: fallbackScope, fallback: true})
		}
		if sub == "member" {
			return append(out, ref{name: name, scope: goMember})
		}
		out = append(out, ref{name: name, scope: g.pkg[i]})
		for _, d := range g.importsOf(i).dots {
			out = append(out, ref{name: name, scope: g.scope(d)})
		}
		return out
	}
	return append(out, ref{name: name, scope: fallbackScope, fallback: true})
}

// Classes, for the languages whose methods are qualified by their class:
// obj.m() on an instance of a class of the tree means the m of that class
// or of the nearest of its bases that defines one.

// classRef names a class: the file that defines it and its name.
type classRef struct {
	file int
	name string
}

// classInfo is what the classes of one file define.
type classInfo struct {
	classes map[string]bool            // classes defined
	methods map[string]map[string]bool // per class: its methods
	bases   map[string][]int           // per class: its base references, tag indices
	classAt []methodLine               // method definitions by line
}

// methodLine is the line of a method definition and its class.
type methodLine struct {
	line  int32
	class string
}

func newClassInfo() classInfo {
	return classInfo{classes: make(map[string]bool), methods: make(map[string]map[string]bool),
		bases: make(map[string][]int)}
}

// addMethod records method name of class, defined at line; methods are
// added in the order of their lines.
func (c *classInfo) addMethod(class, name string, line int32) {
	if c.methods[class] == nil {
		c.methods[class] = make(map[string]bool)
	}
	c.methods[class][name] = true
	c.classAt = append(c.classAt, methodLine{line, class})
}

// enclosing returns the class of the last method defined at or before
// line: the class a use of self or this there is an instance of.
func (c *classInfo) enclosing(line int32) (string, bool) {
	k, _ := slices.BinarySearchFunc(c.classAt, line+1, func(m methodLine, l int32) int { return int(m.line - l) })
	if k == 0 {
		return "", false
	}
	return c.classAt[k-1].class, true
}

// maxClasses bounds the classes a method lookup visits.
const maxClasses = 64

// classWalk looks methods up in the classes of one language.
type classWalk struct {
	info    func(file int) *classInfo
	scope   func(c classRef) string                        // the scope of c's methods
	basesOf func(c classRef) (in []classRef, outside bool) // its bases in the tree; whether some are not
}

// methodKeys appends the keys of method name of the classes from and of
// their bases: on each line of inheritance, the nearest that defines it.
// found tells whether any does; outside whether a base outside the tree
// was met.
func (w classWalk) methodKeys(out []ref, from []classRef, name string) (_ []ref, found, outside bool) {
	seen := make(map[classRef]bool)
	queue := slices.Clone(from)
	for len(queue) > 0 && len(seen) < maxClasses {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		if w.info(c.file).methods[c.name][name] {
			out = append(out, ref{name: name, scope: w.scope(c)})
			found = true
			continue
		}
		bases, out2 := w.basesOf(c)
		outside = outside || out2
		queue = append(queue, bases...)
	}
	return out, found, outside
}

// fileDefKey returns the key of definition j of file i in a language
// whose scopes are files (prefix names the language): a method qualified
// by its class is in the scope of the class's methods, anything else in
// the file's.
func fileDefKey(s *snapshot, i, j int, prefix string) ref {
	set := s.entries[i].tags
	name := set.Strings[set.Tags[j].Name]
	if set.Sub(j) == "method" && set.Qual(j) != "" {
		return ref{name: name, scope: methodScope(prefix, s.files[i].path, set.Qual(j))}
	}
	return ref{name: name, scope: prefix + ":" + s.files[i].path}
}

// methodScope returns the scope of the methods of class in file p.
func methodScope(prefix, p, class string) string { return prefix + ".method:" + p + ":" + class }
