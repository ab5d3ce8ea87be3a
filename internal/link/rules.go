package link

import (
	"iter"
	"path"
	"slices"
	"strings"
)

// Rules are the rules of one group of languages: the languages whose
// files they resolve, and how to make them for a tree. Each group has a
// package of its own (golang, python, js, c, jvm, csharp, rust, below
// this one) that exports its Rules, and package langs lists them, as
// go/analysis lists its passes in a suite. A Config says which rules
// resolve; a file whose language no rules claim links by name.
type Rules struct {
	// Name tells the rules apart in a Config's fingerprint.
	Name string
	// Languages are the languages of the files the rules resolve, as
	// tags.Detect names them; no two rules of a Config share one.
	Languages []string
	// Reads, if set, reports whether the rules read f, a file they do
	// not resolve (a project file, another language's package clauses):
	// when it changes, they are made anew.
	Reads func(f File) bool
	// New returns the rules for files, of which they resolve those
	// numbered mine.
	New func(files []File, mine []int) Lang
}

// MarshalText returns the name of r, which stands for r in a Config's
// fingerprint.
func (r *Rules) MarshalText() ([]byte, error) { return []byte(r.Name), nil }

// claims reports whether r resolves the files of language lang.
func (r *Rules) claims(lang string) bool { return slices.Contains(r.Languages, lang) }

// Lang is what a Rules value makes for the files of a tree: the keys of
// their definitions and references. Files are numbered as in the slice
// given to Rules.New, and j numbers the tags of file i.
type Lang interface {
	// DefKey returns the key definition j of file i publishes under.
	DefKey(i, j int) Ref
	// RefKeys appends to out the keys reference j of file i resolves
	// to; none when it can only mean something outside the tree.
	RefKeys(out []Ref, i, j int) []Ref
}

// The optional methods of a Lang.
type (
	// MoreDefKeyer's definitions can publish under more keys than the
	// one DefKey gives: MoreDefKeys appends them to out; IsMore reports
	// whether a key its references resolve to is one of those, which a
	// definition publishes only when some reference uses it.
	MoreDefKeyer interface {
		MoreDefKeys(out []string, i, j int) []string
		IsMore(r Ref) bool
	}
	// ExtraKeyer's files publish keys beyond their definitions, never
	// shown: C's headers, which their includers link to as a whole.
	ExtraKeyer interface{ ExtraKeys(i int) []string }
	// Contexter's references resolve by more than their name, kind and
	// qualifier: UseContext returns that more (the binding of a Go
	// variable in effect where it is used), so that the uses of a file
	// that agree on all four are resolved once.
	Contexter interface{ UseContext(i, j int) int32 }
	// Updater can take a change of some of its files in place: Update
	// reports whether it did, for the files changed of files. When it
	// reports false, the Lang is not used again.
	Updater interface {
		Update(files []File, changed []int) bool
	}
)

// Place is where a name or a module resolves.
type Place uint8

const (
	Unknown Place = iota // somewhere the rules cannot tell: the name falls back
	InTree               // to definitions of the tree
	Outside              // outside the tree: the name links to nothing
)

// FallbackRef returns the key of a use of name the rules cannot place: every
// definition of the name, at the fallback weight.
func FallbackRef(name string) Ref { return Ref{Name: name, Scope: FallbackScope, Fallback: true} }

// maxInherited bounds the nodes an inherited member lookup visits.
const maxInherited = 64

// InheritedKeys appends the keys of member name of the nodes from
// (classes, or files of types) and of the nodes they inherit from,
// breadth first, visiting 64 at most: on each line of inheritance, the
// nearest node that defines it (has) gives its key, in scope. found tells
// whether any does; outside whether bases reported a base outside the
// tree.
func InheritedKeys[N comparable](out []Ref, from []N, name string, has func(N) bool, scope func(N) string, bases func(N) ([]N, bool)) (_ []Ref, found, outside bool) {
	// Few nodes are met: slices on the stack serve for the queue and the
	// set of those seen.
	var queueBuf, seenBuf [8]N
	queue, seen := append(queueBuf[:0], from...), seenBuf[:0]
	for len(queue) > 0 && len(seen) < maxInherited {
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

// Paths. The rules of most languages place files by their slash paths,
// relative to the tree's root.

// Dir returns the directory of the file at p, "" for the root.
func Dir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// Join joins a directory and a path below it, either of them "" for
// none.
func Join(dir, rel string) string {
	if dir == "" {
		return rel
	}
	if rel == "" {
		return dir
	}
	return dir + "/" + rel
}

// FirstElem returns the first element of a slash-separated path.
func FirstElem(p string) string {
	before, _, _ := strings.Cut(p, "/")
	return before
}

// ShortestByEnd maps each end of a path of paths after a slash ("b/c"
// and "c" of "a/b/c") to the shortest path with that end, the first in
// order of those as short.
func ShortestByEnd(paths iter.Seq[string]) map[string]string {
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

// Words returns the set of the words of s, separated by white space: the
// lists of names rules keep (a standard library's types).
func Words(s string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
