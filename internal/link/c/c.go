// Package c resolves C and C++, which include each other: an include
// means the header it names.
package c

import (
	"maps"
	"path"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
)

// C and C++: an #include "x.h" means the file it names, looked up next to
// the including file, then as the end of a path in the tree (the shortest
// such path); the header and the sources of the same stem in its
// directory (x.c, x.cpp…) publish its key, so the includer links to
// both. Other names link by name, as before.

// Rules resolve C and C++.
var Rules = &link.Rules{
	Name:      "c",
	Languages: []string{"c", "cpp"},
	New:       func(tree []link.File, mine []int) link.Lang { return newResolver(tree, mine) },
}

// resolver holds the C and C++ files of a tree.
type resolver struct {
	tree   []link.File
	byPath map[string]bool // the C and C++ files
	extra  map[int]string  // per file: the key of the header it goes with

	// byEnd maps each end of a path of byPath to the shortest path with
	// that end (link.ShortestByEnd), made once an include needs it.
	byEnd map[string]string
}

// includeScope is the scope of the keys of included files.
const includeScope = "c.include:"

func newResolver(tree []link.File, files []int) *resolver {
	c := &resolver{tree: tree, byPath: make(map[string]bool, len(files)), extra: make(map[int]string)}
	stems := make(map[string][]int) // dir/stem → files
	for _, i := range files {
		p := tree[i].Path
		c.byPath[p] = true
		stems[strings.TrimSuffix(p, path.Ext(p))] = append(stems[strings.TrimSuffix(p, path.Ext(p))], i)
	}
	for _, i := range files {
		p := tree[i].Path
		if !isHeader(p) {
			continue
		}
		key := includeRef(p).Key()
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
func includeRef(p string) link.Ref {
	base := path.Base(p)
	return link.Ref{Name: strings.TrimSuffix(base, path.Ext(base)), Scope: includeScope + p}
}

func (c *resolver) DefKey(i, j int) link.Ref {
	set := c.tree[i].Tags
	return link.Ref{Name: link.RankName(set.Sub(j), set.Str(set.Tags[j].Name))}
}

func (c *resolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := c.tree[i].Tags
	if set.Sub(j) != "include" {
		return append(out, link.Ref{Name: set.Str(set.Tags[j].Name)})
	}
	if h := c.header(c.tree[i].Path, set.Qual(j)); h != "" {
		return append(out, includeRef(h))
	}
	return out
}

// header returns the path of the file an include of name from the file at
// from means, or "".
func (c *resolver) header(from, name string) string {
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
	if c.byEnd == nil {
		// (Looking for the paths that end in an include among all of
		// them took 14 of the 15 seconds NuttX's 17,000 C files were
		// linked in.)
		c.byEnd = link.ShortestByEnd(maps.Keys(c.byPath))
	}
	return c.byEnd[name]
}

// ExtraKeys returns the keys file i publishes beyond its definitions.
func (c *resolver) ExtraKeys(i int) []string {
	if k, ok := c.extra[i]; ok {
		return []string{k}
	}
	return nil
}
