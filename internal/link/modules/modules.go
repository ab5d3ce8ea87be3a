// Package modules holds what the rules of Python and of JavaScript and
// TypeScript share: a module is a file, whose names other modules import,
// through chains of imports and re-exports, from the file that defines
// them; a class's methods are in the scope of the class, and a use of one
// on an instance of a class of the tree means the method of that class or
// of the nearest of its bases that defines one.
package modules

import (
	"slices"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/tags"
)

// Target is what an imported name means: a module (Name empty) or a name
// of one. Mod names the module as the rules of its language do (Python's
// by its path, JavaScript's by its file's number).
type Target[M comparable] struct {
	Mod  M
	Name string
	At   link.Place
}

// File is what one module defines and imports.
type File[M comparable] struct {
	ClassInfo
	Path  string
	Defs  map[string]bool      // names defined, methods of classes aside
	Binds map[string]Target[M] // local names its imports bind, made on first use
	Stars []Target[M]          // modules whose every name it imports or re-exports ("*")
	// Imports tells that the file imports or re-exports something (for
	// the rules that need it).
	Imports bool
	read    bool // Binds and Stars are made
}

// NewFile returns the File of the module at path, whose tags are set: its
// definitions and its classes' methods. each, if not nil, is then called
// with every tag of the file, in order, to read what else the rules take
// (a class's bases).
func NewFile[M comparable](path string, set tags.Set, each func(f *File[M], j int)) *File[M] {
	f := &File[M]{ClassInfo: newClassInfo(), Path: path, Defs: make(map[string]bool)}
	for j, t := range set.Tags {
		if t.Kind == tags.Definition {
			name := set.Str(t.Name)
			if set.Sub(j) == "method" && set.Qual(j) != "" {
				f.addMethod(set.Qual(j), name, t.Line)
			} else {
				f.Defs[name] = true
				f.Classes[name] = f.Classes[name] || set.Sub(j) == "class"
			}
		}
		if each != nil {
			each(f, j)
		}
	}
	return f
}

// Graph is the modules of one language in a tree, and how names lead
// from one to another.
type Graph[M comparable] struct {
	// Tree is the files of the tree, Files those of the language.
	Tree  []link.File
	Files map[int]*File[M]
	// Prefix begins the scopes of the keys of the modules' names: "py",
	// "js".
	Prefix string
	// Module returns the file of the module m, if the tree has it.
	Module func(m M) (int, bool)
	// Read reads the imports of file i into f's Binds and Stars, on its
	// first use.
	Read func(i int, f *File[M])
	// Bases returns the classes of the tree c derives from, and whether
	// some base is outside the tree.
	Bases func(c ClassRef) (in []ClassRef, outside bool)

	found map[Target[M]]found // Definer's answers
}

// found is what Definer found for a target.
type found struct {
	file int
	end  link.Place
}

// File returns what file i defines and imports.
func (g *Graph[M]) File(i int) *File[M] {
	f := g.Files[i]
	if !f.read {
		f.read = true
		f.Binds = make(map[string]Target[M])
		g.Read(i, f)
	}
	return f
}

// maxHops bounds the chains of re-exports followed.
const maxHops = 8

// Definer follows a name of a module through its imports and re-exports
// to the file that defines it, and returns that file, or -1 and where the
// chain left the tree (Unknown where it went round or grew too long).
func (g *Graph[M]) Definer(t Target[M]) (int, link.Place) { return g.definer(t, 0) }

func (g *Graph[M]) definer(t Target[M], hops int) (int, link.Place) {
	if t.At != link.InTree || t.Name == "" || hops > maxHops {
		return -1, t.At
	}
	// Each name of a module is looked up once; one met again on its own
	// chain (imports in a cycle) is not found.
	if g.found == nil {
		g.found = make(map[Target[M]]found)
	}
	if v, ok := g.found[t]; ok {
		return v.file, v.end
	}
	g.found[t] = found{-1, link.Unknown}
	d, end := g.follow(t, hops)
	g.found[t] = found{d, end}
	return d, end
}

// follow is Definer's step: the module's definition, import or "*"
// import.
func (g *Graph[M]) follow(t Target[M], hops int) (int, link.Place) {
	i, ok := g.Module(t.Mod)
	if !ok {
		return -1, link.Unknown
	}
	f := g.File(i)
	if f.Defs[t.Name] {
		return i, link.InTree
	}
	if b, ok := f.Binds[t.Name]; ok {
		return g.definer(b, hops+1)
	}
	for _, star := range f.Stars {
		if d, end := g.definer(Target[M]{Mod: star.Mod, Name: t.Name, At: star.At}, hops+1); d >= 0 {
			return d, end
		}
	}
	return -1, link.Unknown
}

// KeyOf appends the key of a name of a module, through its re-exports;
// nothing for a module or a name outside the tree; when the rules cannot
// place it, the fallback of name, the name used.
func (g *Graph[M]) KeyOf(out []link.Ref, t Target[M], name string) []link.Ref {
	switch t.At {
	case link.Outside:
		return out
	case link.InTree:
		if t.Name == "" {
			return out // a module: it has no definition to link to
		}
		if d, _ := g.Definer(t); d >= 0 {
			return append(out, link.Ref{Name: t.Name, Scope: g.Prefix + ":" + g.Files[d].Path})
		}
	}
	return append(out, link.FallbackRef(name))
}

// Class returns the class a target names, if the tree defines it.
func (g *Graph[M]) Class(t Target[M]) (ClassRef, bool) {
	d, _ := g.Definer(t)
	if d < 0 || !g.Files[d].Classes[t.Name] {
		return ClassRef{}, false
	}
	return ClassRef{d, t.Name}, true
}

// MethodKeys appends the keys of method name of the classes from and of
// their bases: on each line of inheritance, the nearest that defines it.
// found tells whether any does; outside whether a base outside the tree
// was met.
func (g *Graph[M]) MethodKeys(out []link.Ref, from []ClassRef, name string) (_ []link.Ref, found, outside bool) {
	return link.InheritedKeys(out, from, name,
		func(c ClassRef) bool { return g.Files[c.File].Methods[c.Name][name] },
		func(c ClassRef) string { return MethodScope(g.Prefix, g.Files[c.File].Path, c.Name) },
		g.Bases)
}

// Enclosing returns the class around line of file i.
func (g *Graph[M]) Enclosing(i int, line int32) (ClassRef, bool) {
	c, ok := g.Files[i].enclosing(line)
	return ClassRef{i, c}, ok
}

// ClassContext returns what a use of self or this on line of file i
// resolves by beside its name and qualifier (for a resolver's
// UseContext): the class around it, as a number below zero; 0 outside a
// class. A use in one class must not take what one in another means.
func (g *Graph[M]) ClassContext(i int, line int32) int32 {
	f := g.Files[i]
	c, ok := f.enclosing(line)
	if !ok {
		return 0
	}
	return -f.number[c] - 1
}

// DefKey returns the key of definition j of file i: a method qualified by
// its class is in the scope of the class's methods, anything else in the
// file's.
func (g *Graph[M]) DefKey(i, j int) link.Ref {
	set := g.Tree[i].Tags
	name := set.Str(set.Tags[j].Name)
	if set.Sub(j) == "method" && set.Qual(j) != "" {
		return link.Ref{Name: name, Scope: MethodScope(g.Prefix, g.Tree[i].Path, set.Qual(j))}
	}
	return link.Ref{Name: name, Scope: g.Prefix + ":" + g.Tree[i].Path}
}

// MethodScope returns the scope of the methods of class in the file at
// p, for the language whose scopes prefix begins.
func MethodScope(prefix, p, class string) string { return prefix + ".method:" + p + ":" + class }

// ClassRef names a class: the file that defines it and its name.
type ClassRef struct {
	File int
	Name string
}

// ClassInfo is what the classes of one file define.
type ClassInfo struct {
	Classes map[string]bool            // the names the file defines: whether each is a class's
	Methods map[string]map[string]bool // per class: its methods
	Bases   map[string][]int           // per class: its base references, tag indices
	classAt []methodLine               // method definitions by line
	number  map[string]int32           // per class with methods: its number, in the order of its first method
}

// methodLine is the line of a method definition and its class.
type methodLine struct {
	line  int32
	class string
}

func newClassInfo() ClassInfo {
	return ClassInfo{Classes: make(map[string]bool), Methods: make(map[string]map[string]bool),
		Bases: make(map[string][]int), number: make(map[string]int32)}
}

// addMethod records method name of class, defined at line; methods are
// added in the order of their lines.
func (c *ClassInfo) addMethod(class, name string, line int32) {
	if c.Methods[class] == nil {
		c.Methods[class] = make(map[string]bool)
		c.number[class] = int32(len(c.number))
	}
	c.Methods[class][name] = true
	c.classAt = append(c.classAt, methodLine{line, class})
}

// enclosing returns the class of the last method defined at or before
// line: the class a use of self or this there is an instance of.
func (c *ClassInfo) enclosing(line int32) (string, bool) {
	k, _ := slices.BinarySearchFunc(c.classAt, line+1, func(m methodLine, l int32) int { return int(m.line - l) })
	if k == 0 {
		return "", false
	}
	return c.classAt[k-1].class, true
}
