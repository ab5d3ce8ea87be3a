package repomap

import (
	"github.com/repomap-dev/repomap/internal/policy"
	"iter"
	"maps"
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

// moreDefKeys is a langResolver whose definitions can publish under more
// keys than the one defKey gives.
type moreDefKeys interface {
	// moreDefKeys appends to out the other keys definition j of file i
	// publishes under.
	moreDefKeys(out []string, i, j int) []string
}

// resolver picks the rules of each file's language.
type resolver struct {
	s    *snapshot
	lang []langResolver // per file; nil: link by name
	// What made lang: the files of each group of languages one set of
	// rules reads, by the group's name, and each file's group ("" for
	// none); the Kotlin files and C# project files, which the rules of
	// Java and C# read beside their own.
	groups map[string][]int
	group  []string
	kt     []int
	csproj []int
	kotlin bool
}

// newResolver returns the resolver of the files of s; with rust, Rust's
// rules too, else Rust links by name, with scala, Scala's, and with
// kotlin, Kotlin's (Java's resolver holds them, resolve_kotlin.go).
func newResolver(s *snapshot, rust, scala, kotlin bool) *resolver {
	r := &resolver{s: s, lang: make([]langResolver, len(s.files)), groups: make(map[string][]int), group: make([]string, len(s.files)), kotlin: kotlin}
	byLang := r.groups
	for i, f := range s.files {
		switch l := tags.Detect(f.path, nil); {
		case l == "kotlin" && kotlin: // one package model with Java's, and they use each other
			r.kt = append(r.kt, i)
			byLang["java"] = append(byLang["java"], i)
		case l == "kotlin":
			r.kt = append(r.kt, i)
		case l == "xml" && strings.HasSuffix(f.path, ".csproj"):
			r.csproj = append(r.csproj, i)
		case l == "go", l == "python", l == "java", l == "csharp", l == "rust" && rust, l == "scala" && scala:
			byLang[l] = append(byLang[l], i)
		case jsLanguages[l]: // they import each other
			byLang["javascript"] = append(byLang["javascript"], i)
		case l == "c", l == "cpp": // they include each other
			byLang["c"] = append(byLang["c"], i)
		}
	}
	for l := range byLang {
		r.build(l)
	}
	return r
}

// build makes the rules of the group of languages l for the files of
// r.s.
func (r *resolver) build(l string) {
	s, files := r.s, r.groups[l]
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
	case "java":
		lr = newJavaResolver(s, files, r.kt, r.kotlin)
	case "rust":
		lr = newRustResolver(s, files)
	case "csharp":
		lr = newCSharpResolver(s, files, r.csproj)
	case "scala":
		lr = newScalaResolver(s, files)
	}
	for _, i := range files {
		r.lang[i], r.group[i] = lr, l
	}
}

// rebased returns the resolver of s, a snapshot of the same files as
// r's after the files changed changed, and the files beside those whose
// references it may resolve otherwise than r, in order. The rules of
// each group that reads a changed file are made again for s, but Go's,
// which take the change in place when what other files' references see
// of the changed files is as it was (goResolver.update); the rules of
// the other groups are r's. r is not used again.
func (r *resolver) rebased(s *snapshot, changed []int) (*resolver, []int) {
	n := *r
	n.s, n.lang, n.group = s, slices.Clone(r.lang), slices.Clone(r.group)
	again := make(map[string]bool)
	var goFiles []int
	for _, i := range changed {
		switch g := r.group[i]; g {
		case "":
		case "go":
			goFiles = append(goFiles, i)
		default:
			again[g] = true
		}
		if g := readBy(s.files[i].path, r.kotlin); g != "" {
			again[g] = true
		}
	}
	if len(goFiles) > 0 {
		if g, ok := r.lang[goFiles[0]].(*goResolver); !ok || !g.update(s, goFiles) {
			again["go"] = true
		}
	}
	var more []int
	for _, l := range slices.Sorted(maps.Keys(again)) {
		if _, ok := n.groups[l]; ok {
			n.build(l)
			more = append(more, n.groups[l]...)
		}
	}
	slices.Sort(more)
	return &n, more
}

// readBy returns the group of languages whose rules read the tags of the
// file at p although it is not of the group: a Kotlin file's package for
// Java's, without Kotlin's rules; a C# project's usings for C#'s; a
// Cargo.toml's package name for Rust's; a package.json for the
// JavaScript rules' workspaces.
func readBy(p string, kotlin bool) string {
	switch base := path.Base(p); {
	case !kotlin && tags.Detect(p, nil) == "kotlin":
		return "java"
	case strings.HasSuffix(p, ".csproj"):
		return "csharp"
	case base == "Cargo.toml":
		return "rust"
	case base == "package.json":
		return "javascript"
	}
	return ""
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
	return ref{name: rankName(set.Sub(j), set.Str(set.Tags[j].Name))}
}

// moreDefKeys appends to out the other keys definition j of file i
// publishes under.
func (r *resolver) moreDefKeys(out []string, i, j int) []string {
	if l, ok := r.lang[i].(moreDefKeys); ok {
		return l.moreDefKeys(out, i, j)
	}
	return out
}

// isMoreKey reports whether the key of k is one that definitions publish
// under beside their own (moreDefKeys): the link stage keeps the set of
// those references use, and a definition publishes only those.
func isMoreKey(k ref) bool {
	return strings.HasPrefix(k.scope, goMethodsPrefix) || strings.HasPrefix(k.scope, csExtPrefix) || k.scope == jvmMembersScope || k.scope == pyFixtureScope
}

// refKeys appends the keys of reference j of file i to out.
func (r *resolver) refKeys(out []ref, i, j int) []ref {
	if l := r.lang[i]; l != nil {
		return l.refKeys(out, i, j)
	}
	set := r.s.entries[i].tags
	return append(out, ref{name: set.Str(set.Tags[j].Name)})
}

// useContext returns what reference j of file i resolves by beside its
// name, kind and qualifier: references of one file that agree on all
// four resolve alike.
func (r *resolver) useContext(i, j int) int32 {
	if c, ok := r.lang[i].(interface{ useContext(i, j int) int32 }); ok {
		return c.useContext(i, j)
	}
	return 0
}

// resolves reports whether file i has rules of its own.
func (r *resolver) resolves(i int) bool { return r.lang[i] != nil }

// fallbackScope is the scope of the keys under which the references the
// rules could not place link to every definition of their name.
const fallbackScope = "~"

// namesScope is the scope of the keys under which resolved references
// also link by name, with the ranking change names=W.
const namesScope = "~names"

// keyWeight returns the weight of the edges of each key for the ranking
// rk: the fallback weight for name matches the rules could not place, and
// with overviewPrivate below 1, for a map for no request, that weight for
// the names a package keeps to itself (Go's lower-case names), so that a
// repository's overview leads with the API its packages share.
func keyWeight(rk policy.Config, overview bool) func(string) float64 {
	docs := rk.Link.Readme || rk.Link.DocCode
	if !rk.Link.Resolve && !docs {
		return nil
	}
	return func(key string) float64 {
		name, scope, _ := strings.Cut(key, "\x00")
		switch {
		case docs && (scope == docScope || strings.HasPrefix(scope, docScope+familyScope)):
			if overview || rk.DocMaps {
				return 1
			}
			return 0
		case !rk.Link.Resolve:
		case scope == fallbackScope || strings.HasPrefix(scope, fallbackScope+familyScope):
			return rk.Link.Fallback
		case scope == namesScope:
			return rk.Link.Names
		case overview && rk.Private > 0 && strings.HasPrefix(scope, "go:") && name != "" && !unicode.IsUpper(rune(name[0])) && name[0] < utf8.RuneSelf:
			return rk.Private
		}
		return 1
	}
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
	return inheritedKeys(out, from, name, func(c classRef) bool { return w.info(c.file).methods[c.name][name] }, w.scope, w.basesOf)
}

// inheritedKeys appends the keys of member name of the nodes from (classes,
// or files of types) and of the nodes they inherit from, breadth first,
// visiting maxClasses at most: on each line of inheritance, the nearest
// node that defines it (has) gives its key, in scope. found tells whether
// any does; outside whether bases reported a base outside the tree.
func inheritedKeys[N comparable](out []ref, from []N, name string, has func(N) bool, scope func(N) string, bases func(N) ([]N, bool)) (_ []ref, found, outside bool) {
	// Few nodes are met: slices on the stack serve for the queue and the
	// set of those seen.
	var queueBuf, seenBuf [8]N
	queue, seen := append(queueBuf[:0], from...), seenBuf[:0]
	for len(queue) > 0 && len(seen) < maxClasses {
		c := queue[0]
		queue = queue[1:]
		if slices.Contains(seen, c) {
			continue
		}
		seen = append(seen, c)
		if has(c) {
			out = append(out, ref{name: name, scope: scope(c)})
			found = true
			continue
		}
		more, o := bases(c)
		outside = outside || o
		queue = append(queue, more...)
	}
	return out, found, outside
}

// fileDefKey returns the key of definition j of file i in a language
// whose scopes are files (prefix names the language): a method qualified
// by its class is in the scope of the class's methods, anything else in
// the file's.
func fileDefKey(s *snapshot, i, j int, prefix string) ref {
	set := s.entries[i].tags
	name := set.Str(set.Tags[j].Name)
	if set.Sub(j) == "method" && set.Qual(j) != "" {
		return ref{name: name, scope: methodScope(prefix, s.files[i].path, set.Qual(j))}
	}
	return ref{name: name, scope: prefix + ":" + s.files[i].path}
}

// methodScope returns the scope of the methods of class in file p.
func methodScope(prefix, p, class string) string { return prefix + ".method:" + p + ":" + class }

// shortestByEnd maps each end of a path of paths after a slash ("b/c"
// and "c" of "a/b/c") to the shortest path with that end, the first in
// order of those as short.
func shortestByEnd(paths iter.Seq[string]) map[string]string {
	out := make(map[string]string)
	for p := range paths {
		for k := strings.IndexByte(p, '/'); k >= 0; k = nextSlash(p, k) {
			end := p[k+1:]
			if best, ok := out[end]; !ok || len(p) < len(best) || len(p) == len(best) && p < best {
				out[end] = p
			}
		}
	}
	return out
}

// nextSlash returns the index of the first slash of p after index k, or
// -1.
func nextSlash(p string, k int) int {
	if i := strings.IndexByte(p[k+1:], '/'); i >= 0 {
		return k + 1 + i
	}
	return -1
}
