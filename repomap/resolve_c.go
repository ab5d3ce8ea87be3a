package repomap

import (
	"iter"
	"maps"
	"path"
	"strings"
	"sync"
)

// C and C++: an #include "x.h" means the file it names, looked up next to
// the including file, then as the end of a path in the tree (the shortest
// such path); the header and the sources of the same stem in its
// directory (x.c, x.cpp…) publish its key, so the includer links to
// both. Other names link by name, as before.

// cResolver holds the C and C++ files of a snapshot.
type cResolver struct {
	s      *snapshot
	byPath map[string]bool // the C and C++ files
	extra  map[int]string  // per file: the key of the header it goes with

	// byEnd maps each end of a path of byPath after a slash ("b/c.h" and
	// "c.h" of "a/b/c.h") to the shortest path with that end, the first
	// in order of those as short; made once an include needs it.
	endsOnce sync.Once
	byEnd    map[string]string
}

// includeScope is the scope of the keys of included files.
const includeScope = "c.include:"

func newCResolver(s *snapshot, files []int) *cResolver {
	c := &cResolver{s: s, byPath: make(map[string]bool, len(files)), extra: make(map[int]string)}
	stems := make(map[string][]int) // dir/stem → files
	for _, i := range files {
		p := s.files[i].path
		c.byPath[p] = true
		stems[strings.TrimSuffix(p, path.Ext(p))] = append(stems[strings.TrimSuffix(p, path.Ext(p))], i)
	}
	for _, i := range files {
		p := s.files[i].path
		if !isHeader(p) {
			continue
		}
		key := includeRef(p).key()
		for _, j := range stems[strings.TrimSuffix(p, path.Ext(p))] {
			if _, ok := c.extra[j]; !ok || j == i {
				c.extra[j] = key
			}
		}
	}
	return c
}

// isHeader reports whether p is a C or C++ header.
func isHeader(p string) bool {
	switch path.Ext(p) {
	case ".h", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp":
		return true
	}
	return false
}

// includeRef is what an include of the header at p resolves to, and the
// key under which the header and its sources are published: its stem in
// the include scope.
func includeRef(p string) ref {
	base := path.Base(p)
	return ref{name: strings.TrimSuffix(base, path.Ext(base)), scope: includeScope + p}
}

func (c *cResolver) defKey(i, j int) ref {
	set := c.s.entries[i].tags
	return ref{name: rankName(set.Sub(j), set.Strings[set.Tags[j].Name])}
}

func (c *cResolver) refKeys(out []ref, i, j int) []ref {
	set := c.s.entries[i].tags
	if set.Sub(j) != "include" {
		return append(out, ref{name: set.Strings[set.Tags[j].Name]})
	}
	if h := c.header(c.s.files[i].path, set.Qual(j)); h != "" {
		return append(out, includeRef(h))
	}
	return out
}

// header returns the path of the file an include of name from the file at
// from means, or "".
func (c *cResolver) header(from, name string) string {
	if name == "" {
		return ""
	}
	if p := path.Join(path.Dir(from), name); c.byPath[p] {
		return p
	}
	name = path.Clean(name)
	if c.byPath[name] {
		return name
	}
	c.endsOnce.Do(c.indexEnds)
	return c.byEnd[name]
}

// indexEnds makes c.byEnd. (Looking for the paths that end in an include
// among all of them took 14 of the 15 seconds NuttX's 17,000 C files
// were linked in.)
func (c *cResolver) indexEnds() { c.byEnd = shortestByEnd(maps.Keys(c.byPath)) }

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

// extraKeys returns the keys file i publishes beyond its definitions.
func (c *cResolver) extraKeys(i int) []string {
	if k, ok := c.extra[i]; ok {
		return []string{k}
	}
	return nil
}
