package link

import (
	"iter"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/rank"
)

// The link stage resolves each reference to the keys of the definitions
// it can mean (rank.Key: a name in a scope), from what the tags, the
// imports and the layout of the tree say, and each definition publishes
// under its keys. A language with rules gives its own scopes; a reference
// its rules cannot place falls back to every definition of its name, at
// the fallback weight. Languages without rules link by name.

// A Ref is one key a reference resolves to, as its identifier and
// scope, so that the link stage makes each key's string once.
type Ref struct {
	Name, Scope string
	Fallback    bool // a name match the rules could not place
}

// Key returns the key of r.
func (r Ref) Key() string { return rank.Key(r.Name, r.Scope) }

// langResolver holds the rules of one group of languages for the files
// of a tree.
type langResolver interface {
	// defKey returns the key definition j of file i publishes under.
	defKey(i, j int) Ref
	// refKeys appends to out the keys reference j of file i resolves to;
	// none when it can only mean something outside the tree.
	refKeys(out []Ref, i, j int) []Ref
}

// The optional methods of a langResolver.
type (
	// moreDefKeyer's definitions can publish under more keys than the
	// one defKey gives: moreDefKeys appends them to out; isMore reports
	// whether a key its references resolve to is one of those, which a
	// definition publishes only when some reference uses it.
	moreDefKeyer interface {
		moreDefKeys(out []string, i, j int) []string
		isMore(r Ref) bool
	}
	// extraKeyer's files publish keys beyond their definitions, never
	// shown: C's headers, which their includers link to as a whole.
	extraKeyer interface{ extraKeys(i int) []string }
	// contexter's references resolve by more than their name, kind and
	// qualifier: useContext returns that more (the binding of a Go
	// variable in effect where it is used), so that the uses of a file
	// that agree on all four are resolved once.
	contexter interface{ useContext(i, j int) int32 }
	// updater can take a change of some of its files in place: update
	// reports whether it did, for the files changed of files.
	updater interface {
		update(files []File, changed []int) bool
	}
)

// rules are the rules of one group of languages.
type rules struct {
	name string
	// claims reports whether the rules resolve the references of f.
	claims func(f File, c Config) bool
	// reads reports whether the rules read the tags of f, which they do
	// not claim (a project file, another language's package clauses).
	reads func(f File, c Config) bool
	// make returns the rules for files, of which they claim mine.
	make func(files []File, mine []int, c Config) langResolver
}

// registry lists the rules of every group of languages.
var registry = []*rules{goRules, pythonRules, jsRules, cRules, javaRules, csharpRules, rustRules, scalaRules}

// Resolver picks the rules of each file's language, by the registry.
type Resolver struct {
	files []File
	cfg   Config
	lang  []langResolver // per file; nil: link by name
	// What made lang: the files of each group of languages, by its rules,
	// and each file's rules (nil for none).
	groups map[*rules][]int
	group  []*rules
}

// NewResolver returns the resolver of files with the settings c.
func NewResolver(files []File, c Config) *Resolver {
	r := &Resolver{files: files, cfg: c, lang: make([]langResolver, len(files)), groups: make(map[*rules][]int), group: make([]*rules, len(files))}
	for i, f := range files {
		for _, rs := range registry {
			if rs.claims(f, c) {
				r.groups[rs] = append(r.groups[rs], i)
				break
			}
		}
	}
	for rs := range r.groups {
		r.build(rs)
	}
	return r
}

// build makes the rules rs for their files.
func (r *Resolver) build(rs *rules) {
	mine := r.groups[rs]
	lr := rs.make(r.files, mine, r.cfg)
	for _, i := range mine {
		r.lang[i], r.group[i] = lr, rs
	}
}

// rebased returns the resolver of files, the same files as r's after the
// files changed changed, and the files beside those whose references it
// may resolve otherwise than r, in order. The rules of each group that
// claims or reads a changed file are made again, but those that take the
// change in place (updater: Go's, when what other files' references see
// of the changed files is as it was); the rules of the other groups are
// r's. r is not used again.
func (r *Resolver) rebased(files []File, changed []int) (*Resolver, []int) {
	n := *r
	n.files, n.lang, n.group = files, slices.Clone(r.lang), slices.Clone(r.group)
	again := make(map[*rules]bool)
	inPlace := make(map[*rules][]int)
	for _, i := range changed {
		if rs := r.group[i]; rs != nil {
			if _, ok := r.lang[i].(updater); ok {
				inPlace[rs] = append(inPlace[rs], i)
			} else {
				again[rs] = true
			}
		}
		for _, rs := range registry {
			if rs.reads != nil && rs.reads(files[i], r.cfg) {
				again[rs] = true
			}
		}
	}
	for rs, ch := range inPlace {
		if !r.lang[ch[0]].(updater).update(files, ch) {
			again[rs] = true
		}
	}
	var more []int
	for _, rs := range registry { // in the registry's order
		if again[rs] {
			if _, ok := n.groups[rs]; ok {
				n.build(rs)
				more = append(more, n.groups[rs]...)
			}
		}
	}
	slices.Sort(more)
	return &n, more
}

// ExtraKeys returns the keys file i publishes beyond its definitions:
// for a language whose rules link files as a whole, such as C's
// includes. They are never shown.
func (r *Resolver) ExtraKeys(i int) []string {
	if x, ok := r.lang[i].(extraKeyer); ok {
		return x.extraKeys(i)
	}
	return nil
}

// DefKey returns the key of definition j of file i.
func (r *Resolver) DefKey(i, j int) Ref {
	if l := r.lang[i]; l != nil {
		return l.defKey(i, j)
	}
	set := r.files[i].Tags
	return Ref{Name: RankName(set.Sub(j), set.Str(set.Tags[j].Name))}
}

// MoreDefKeys appends to out the other keys definition j of file i
// publishes under.
func (r *Resolver) MoreDefKeys(out []string, i, j int) []string {
	if l, ok := r.lang[i].(moreDefKeyer); ok {
		return l.moreDefKeys(out, i, j)
	}
	return out
}

// isMore reports whether k, a key a reference of file i resolves to, is
// one that definitions publish under beside their own (MoreDefKeys): the
// link stage keeps the set of those references use, and a definition
// publishes only those.
func (r *Resolver) isMore(i int, k Ref) bool {
	l, ok := r.lang[i].(moreDefKeyer)
	return ok && l.isMore(k)
}

// RefKeys appends the keys of reference j of file i to out.
func (r *Resolver) RefKeys(out []Ref, i, j int) []Ref {
	if l := r.lang[i]; l != nil {
		return l.refKeys(out, i, j)
	}
	set := r.files[i].Tags
	return append(out, Ref{Name: set.Str(set.Tags[j].Name)})
}

// useContext returns what reference j of file i resolves by beside its
// name, kind and qualifier: references of one file that agree on all
// four resolve alike.
func (r *Resolver) useContext(i, j int) int32 {
	if c, ok := r.lang[i].(contexter); ok {
		return c.useContext(i, j)
	}
	return 0
}

// Resolves reports whether file i has rules of its own.
func (r *Resolver) Resolves(i int) bool { return r.lang[i] != nil }

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
func (w classWalk) methodKeys(out []Ref, from []classRef, name string) (_ []Ref, found, outside bool) {
	return inheritedKeys(out, from, name, func(c classRef) bool { return w.info(c.file).methods[c.name][name] }, w.scope, w.basesOf)
}

// inheritedKeys appends the keys of member name of the nodes from (classes,
// or files of types) and of the nodes they inherit from, breadth first,
// visiting maxClasses at most: on each line of inheritance, the nearest
// node that defines it (has) gives its key, in scope. found tells whether
// any does; outside whether bases reported a base outside the tree.
func inheritedKeys[N comparable](out []Ref, from []N, name string, has func(N) bool, scope func(N) string, bases func(N) ([]N, bool)) (_ []Ref, found, outside bool) {
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
			out = append(out, Ref{Name: name, Scope: scope(c)})
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
func fileDefKey(files []File, i, j int, prefix string) Ref {
	set := files[i].Tags
	name := set.Str(set.Tags[j].Name)
	if set.Sub(j) == "method" && set.Qual(j) != "" {
		return Ref{Name: name, Scope: methodScope(prefix, files[i].Path, set.Qual(j))}
	}
	return Ref{Name: name, Scope: prefix + ":" + files[i].Path}
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
