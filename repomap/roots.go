package repomap

import (
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Roots returns the roots of the map, as NewRoots took them, with FS set.
func (m *Map) Roots() []Root {
	return slices.Clone(m.roots)
}

// DirRoots returns the roots for the directories dirs, named for
// NewRoots. A single directory is one root without a name, so that its
// paths are not prefixed. Several are each named by the base name of
// their absolute path; roots whose base names are the same are told
// apart by the names of the directories above them, joined with "-":
// "src/api" and "lib/api" become "src-api" and "lib-api". It is an error
// to give a directory twice, or the file system's root among several, or
// directories whose names cannot be told apart that way. Dir keeps each
// directory as given.
func DirRoots(dirs ...string) ([]Root, error) {
	switch len(dirs) {
	case 0:
		return nil, fmt.Errorf("repomap: no root")
	case 1:
		return []Root{{Dir: dirs[0]}}, nil
	}
	parts := make([][]string, len(dirs)) // each path's elements, last first
	seen := make(map[string]string)
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("repomap: root %s: %w", d, err)
		}
		if prev, ok := seen[abs]; ok {
			return nil, fmt.Errorf("repomap: roots %s and %s are the same directory", prev, d)
		}
		seen[abs] = d
		rest := filepath.ToSlash(strings.TrimPrefix(abs, filepath.VolumeName(abs)))
		for _, e := range strings.Split(rest, "/") {
			if e != "" {
				parts[i] = append([]string{e}, parts[i]...)
			}
		}
		if len(parts[i]) == 0 {
			return nil, fmt.Errorf("repomap: root %s has no name: the root of the file system cannot be one of several roots", d)
		}
	}
	// depth[i] is how many elements of its path name root i: start with
	// the base name, and add a parent to every name that is shared, as
	// long as some root sharing it has a parent left.
	depth := make([]int, len(dirs))
	name := func(i int) string {
		var es []string
		for k := depth[i] - 1; k >= 0; k-- {
			es = append(es, parts[i][k])
		}
		return strings.Join(es, "-")
	}
	for i := range depth {
		depth[i] = 1
	}
	for {
		byName := make(map[string][]int)
		for i := range dirs {
			byName[name(i)] = append(byName[name(i)], i)
		}
		grew := false
		for _, n := range slices.Sorted(maps.Keys(byName)) {
			group := byName[n]
			if len(group) < 2 {
				continue
			}
			moved := false
			for _, i := range group {
				if depth[i] < len(parts[i]) {
					depth[i]++
					moved = true
				}
			}
			if !moved {
				return nil, fmt.Errorf("repomap: roots %s and %s would both be named %q", dirs[group[0]], dirs[group[1]], n)
			}
			grew = true
		}
		if !grew {
			break
		}
	}
	out := make([]Root, len(dirs))
	for i, d := range dirs {
		out[i] = Root{Name: name(i), Dir: d}
	}
	return out, nil
}

// MapPath returns the path in the map of the file at p. A relative p is
// taken to be a path in the map already ("name/path" with several
// roots) and is returned cleaned and slash-separated; an absolute one is
// made relative to the root on disk that holds it (the innermost, when
// roots nest) and prefixed with that root's name. MapPath reports false
// for an absolute path that no root holds.
func (m *Map) MapPath(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		return cleanPaths([]string{p})[0], true
	}
	p = filepath.Clean(p)
	best, bestLen := "", -1
	for _, r := range m.roots {
		if r.Dir == "" {
			continue
		}
		dir, err := filepath.Abs(r.Dir)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || len(dir) <= bestLen {
			continue
		}
		rel = filepath.ToSlash(rel)
		if r.Name != "" {
			rel = r.Name + "/" + rel
		}
		best, bestLen = rel, len(dir)
	}
	return best, bestLen >= 0
}

// HasFile reports whether p, a slash-separated path in the map (relative
// to its root, or "name/path" with several roots), names a file, not a
// directory, in a root of m, whether or not the map lists it.
func (m *Map) HasFile(p string) bool {
	for _, r := range m.roots {
		rel := p
		if r.Name != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(p, r.Name+"/"); !ok {
				continue
			}
		}
		if r.FS == nil || !fs.ValidPath(rel) {
			continue
		}
		if info, err := fs.Stat(r.FS, rel); err == nil && !info.IsDir() {
			return true
		}
	}
	return false
}
