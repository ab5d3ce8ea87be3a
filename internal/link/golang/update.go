package golang

import (
	"slices"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/rank"
)

// After a Go file changed, the Go rules resolve the references of the
// other files as before when what they read of the changed file is as it
// was. They read a file through the tables its tags fill (fileTables),
// its package clause, the module roots and directories its imports name,
// and, following a table's entry, the type the entry gives: the result
// of a function, the type of a field, of a method's result or of a
// package-level variable, which the rules find from the file's imports
// and bindings. That is a file's goView. A Map kept open links again only
// the changed files' references when their views are unchanged (an edit
// inside a function, a new function or method, a comment), and the
// references of every Go file when not.

// goView is what the Go rules read of one Go file when they resolve the
// references of another.
type goView struct {
	pkg      string                // the name of its package clause, with a mark for none
	keys     [numGoTables][]string // the keys it puts in each table, sorted, each once
	roots    []string              // module paths its imports show (importRoots)
	imported []string              // directories of the tree it imports (importDirs)
	given    []goGiven             // per key of the tables but goTypes whose entry is the file's, in order: the type it gives
}

// goGiven is the type an entry of a table gives: the scope of its
// methods, and whether the rules can tell (as varType returns them).
type goGiven struct {
	scope string
	ok    bool
}

// sameAs reports whether v and w are the same view.
func (v *goView) sameAs(w *goView) bool {
	for t := range v.keys {
		if !slices.Equal(v.keys[t], w.keys[t]) {
			return false
		}
	}
	return v.pkg == w.pkg && slices.Equal(v.roots, w.roots) && slices.Equal(v.imported, w.imported) && slices.Equal(v.given, w.given)
}

// sortedSet returns ss sorted, each once.
func sortedSet(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}

// view returns the view of Go file i as g sees it now; with given, the
// types its entries give too.
func (g *resolver) view(i int, given bool) goView {
	var v goView
	name, ok := g.pkgName(i)
	v.pkg = name
	if !ok {
		v.pkg = "\x00none"
	}
	g.fileTables(i, g.pkg[i], func(t goTable, key string, _ int) { v.keys[t] = append(v.keys[t], key) })
	for t := range v.keys {
		v.keys[t] = sortedSet(v.keys[t])
	}
	g.importRoots(i, func(root string) { v.roots = append(v.roots, root) })
	v.roots = sortedSet(v.roots)
	g.importDirs(i, func(dir string) { v.imported = append(v.imported, dir) })
	v.imported = sortedSet(v.imported)
	if !given {
		return v
	}
	for t := goResults; t < numGoTables; t++ {
		m := g.table(t)
		for _, key := range v.keys[t] {
			d, ok := m[key]
			if !ok || d.i != i {
				continue // another file's entry
			}
			name := rank.Ident(key)
			scope := key[min(len(name)+1, len(key)):]
			switch t {
			case goResults:
				s, ok := g.funcResult(scope, name)
				v.given = append(v.given, goGiven{s, ok})
			case goFields:
				s, ok := g.fieldType(scope, name)
				v.given = append(v.given, goGiven{s, ok})
			case goMResults:
				s, ok := g.methodResult(scope, name)
				v.given = append(v.given, goGiven{s, ok})
			case goPkgVars:
				// What a binding gives depends on how deep varType is
				// when it reaches it.
				for depth := 1; depth <= maxBindings; depth++ {
					g.depth = depth
					s, ok := g.boundType(d)
					v.given = append(v.given, goGiven{s, ok})
				}
				g.depth = 0
			}
		}
	}
	return v
}

// Update makes g the Go rules of tree, the same files as g's
// after the Go files changed changed, and reports whether the references
// of the other files resolve as before, which is when the views of the
// changed files are as they were. When it reports false, g is not to be
// used again: the rules are to be made anew.
func (g *resolver) Update(tree []link.File, changed []int) bool {
	before := make([]goView, len(changed))
	for k, i := range changed {
		before[k] = g.view(i, true)
	}
	g.tree = tree
	for _, i := range changed {
		delete(g.imports, i)
		delete(g.vars, i)
	}
	g.bound.file = -1
	for k, i := range changed {
		v := g.view(i, false)
		v.given = before[k].given
		if !v.sameAs(&before[k]) {
			return false
		}
	}
	// The same keys: each entry of a changed file holds its new tag.
	for _, i := range changed {
		g.fileTables(i, g.pkg[i], func(t goTable, key string, j int) {
			if t == goTypes {
				return
			}
			m := g.table(t)
			if d, ok := m[key]; ok && d.i == i {
				m[key] = goDef{i, j}
			}
		})
	}
	for k, i := range changed {
		if v := g.view(i, true); !slices.Equal(v.given, before[k].given) {
			return false
		}
	}
	return true
}
