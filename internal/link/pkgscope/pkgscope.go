// Package pkgscope holds the rules that the languages whose names live
// in packages of types share: Java, Kotlin and Scala (package jvm) and
// C# (package csharp).
package pkgscope

import (
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/tags"
)

// The rules Java, Kotlin, Scala and C# share: a package (a namespace) holds
// types, which the files of the package see wherever they are, and which
// other files see through imports; members (methods, fields, properties)
// are in the scope of the file that defines them, and a type's members
// are those of the files that define the type (a partial class has
// several) and, along its supertypes in the tree, of theirs. What a
// language adds is read into a File by its own rules: which packages
// a file sees without an import (its own, and C#'s parents), what it
// imports, and the declared types of its names. The files of a second
// language can share a resolver and its packages (Kotlin's Java's), each
// read by its own language's rules under the first's scopes.

// Language is what the shared rules take from one language.
type Language struct {
	Prefix string                // of the scopes' names: "java", "cs", "scala"
	IsType func(sub string) bool // whether a definition of kind sub is a type
	// IsBase reports whether a reference of kind sub, qualified by qual,
	// names a supertype of the types of its file.
	IsBase func(sub, qual string) bool
	Std    map[string]bool // the standard library's types every file sees
	Root   map[string]bool // the methods every class inherits from the Root class
	// Closed: a type name no file of the language defines is outside the
	// tree (Java's files see Kotlin's types, C#'s see only their own).
	Closed bool
	// Read reads what file i of r imports and declares.
	Read func(r *Resolver, i int) *File
	// Top, if set, reports whether definition j of set is neither a type
	// nor a member but in its package's scope as types are (Kotlin's
	// top-level functions and properties).
	Top func(set tags.Set, j int) bool
}

// Resolver holds the files of one language whose scopes are
// packages.
type Resolver struct {
	Tree      []link.File
	Lang      *Language               // the rules of the files, and the prefix of all scopes
	Langs     map[int]*Language       // per file of another language: its rules
	Pkg       map[int]string          // per file: its package ("a.b", or "/dir" without a declaration)
	Pkgs      map[string]bool         // the packages of the tree
	Types     map[TypeName][]int      // per type in its package: the files that define it
	Tops      map[TypeName][]int      // per top-level definition in its package (Language.Top): the files that define it
	TypeNames map[string]bool         // the names of the types of the tree
	mems      map[int]map[string]bool // per file: the members it defines
	Files     map[int]*File           // per file, made on first use
	bases     map[int][]int           // per file: the files of its supertypes in the tree, made on first use
	out       map[int]bool            // per file: whether some supertype is outside the tree
}

// TypeName is a type in a package.
type TypeName struct{ Pkg, Name string }

// File is what one file imports and declares.
type File struct {
	Own          []string          // the packages whose types the file sees unimported, its own first
	Single       map[string]string // simple name → the name a single-type import gives it ("a.b.C")
	Demand       []string          // names imported on demand ("a.b" of "a.b.*")
	Statics      map[string]string // member name → the type an import takes it from ("a.b.C")
	StaticDemand []string          // types whose members are imported on demand ("import static a.b.C.*")
	Vars         map[string][]int  // per declared name: its type references, in line order
}

// NewFile returns an empty File.
func NewFile() *File {
	return &File{Single: make(map[string]string), Statics: make(map[string]string), Vars: make(map[string][]int)}
}

// New returns the resolver of files, numbered in tree, read by the
// rules lang, whose packages pkgOf gives ("" for none: the file's directory is its package).
func New(tree []link.File, files []int, lang *Language, pkgOf func(tags.Set) string) *Resolver {
	return NewLangs(tree, files, lang, nil, pkgOf)
}

// NewLangs is New for files of which those in langs are read by the rules given there rather than by lang's.
func NewLangs(tree []link.File, files []int, lang *Language, langs map[int]*Language, pkgOf func(tags.Set) string) *Resolver {
	r := &Resolver{Tree: tree, Lang: lang, Langs: langs, Pkg: make(map[int]string, len(files)), Pkgs: make(map[string]bool),
		Types: make(map[TypeName][]int), Tops: make(map[TypeName][]int), TypeNames: make(map[string]bool), mems: make(map[int]map[string]bool),
		Files: make(map[int]*File), bases: make(map[int][]int), out: make(map[int]bool)}
	for _, i := range files {
		set, fl := tree[i].Tags, r.LangOf(i)
		p := pkgOf(set)
		if p == "" {
			p = "/" + link.Dir(tree[i].Path)
		}
		r.Pkg[i] = p
		r.Pkgs[p] = true
		mems := make(map[string]bool)
		for j, t := range set.Tags {
			if t.Kind != tags.Definition {
				continue
			}
			name := set.Str(t.Name)
			switch {
			case fl.IsType(set.Sub(j)):
				r.TypeNames[name] = true
				addFile(r.Types, TypeName{p, name}, i)
			case fl.Top != nil && fl.Top(set, j):
				addFile(r.Tops, TypeName{p, name}, i)
			case set.Sub(j) != "package" && set.Sub(j) != "constructor":
				mems[name] = true
			}
		}
		r.mems[i] = mems
	}
	return r
}

// addFile adds file i to the files of n in m, once.
func addFile(m map[TypeName][]int, n TypeName, i int) {
	if !slices.Contains(m[n], i) {
		m[n] = append(m[n], i)
	}
}

// LangOf returns the rules of file i.
func (r *Resolver) LangOf(i int) *Language {
	if l, ok := r.Langs[i]; ok {
		return l
	}
	return r.Lang
}

// TypeScope returns the scope of the types of package p.
func (r *Resolver) TypeScope(p string) string { return r.Lang.Prefix + ":" + p }

// TopScope returns the scope of the top-level definitions (Language.Top)
// of package p.
func (r *Resolver) TopScope(p string) string { return r.Lang.Prefix + ".top:" + p }

// PkgScope returns the scope under which package p's declarations
// publish its name, for the imports of all of it.
func (r *Resolver) PkgScope(p string) string { return r.Lang.Prefix + ".pkg:" + p }

// Members returns the scope of the members of file i.
func (r *Resolver) Members(i int) string { return r.Lang.Prefix + ".m:" + r.Tree[i].Path }

func (r *Resolver) DefKey(i, j int) link.Ref {
	set := r.Tree[i].Tags
	name := set.Str(set.Tags[j].Name)
	lang := r.LangOf(i)
	switch sub := set.Sub(j); {
	case sub == "package":
		return link.Ref{Name: name, Scope: r.PkgScope(r.Pkg[i])}
	case lang.IsType(sub), sub == "constructor":
		return link.Ref{Name: name, Scope: r.TypeScope(r.Pkg[i])}
	case lang.Top != nil && lang.Top(set, j):
		return link.Ref{Name: name, Scope: r.TopScope(r.Pkg[i])}
	}
	return link.Ref{Name: name, Scope: r.Members(i)}
}

// File returns what file i imports and declares.
func (r *Resolver) File(i int) *File {
	if f, ok := r.Files[i]; ok {
		return f
	}
	f := r.LangOf(i).Read(r, i)
	if len(f.Own) == 0 {
		f.Own = []string{r.Pkg[i]}
	}
	r.Files[i] = f
	return f
}

// Split splits a dotted name into a package of the tree and what follows
// it ("a.b.C.D" → "a.b", ["C", "D"]), the longest package that fits.
func (r *Resolver) Split(full string) (string, []string, bool) {
	parts := strings.Split(full, ".")
	for k := len(parts) - 1; k > 0; k-- {
		if p := strings.Join(parts[:k], "."); r.Pkgs[p] {
			return p, parts[k:], true
		}
	}
	return "", nil, false
}

// Named resolves the dotted name of a type, as an import gives it: the
// type, nested or not, in its package.
func (r *Resolver) Named(full string) (TypeName, link.Place) {
	p, rest, ok := r.Split(full)
	if !ok {
		return TypeName{}, link.Outside
	}
	n := TypeName{p, rest[len(rest)-1]}
	if len(r.Types[n]) == 0 {
		return TypeName{}, link.Unknown
	}
	return n, link.InTree
}

// TypeOf resolves the type name used in file i: the types it can mean, or
// where it is when none of the tree. In this order: the type a
// single-type import names, a type of a package the file sees unimported,
// of a package imported on demand (or a nested type of a type imported on
// demand), a nested type of a type imported by name; a standard type none
// of those place is outside the tree.
func (r *Resolver) TypeOf(i int, name string) ([]TypeName, link.Place) {
	f := r.File(i)
	if full, ok := f.Single[name]; ok {
		n, at := r.Named(full)
		if at != link.InTree {
			return nil, at
		}
		return []TypeName{n}, link.InTree
	}
	for _, p := range f.Own {
		if own := (TypeName{p, name}); len(r.Types[own]) > 0 {
			return []TypeName{own}, link.InTree
		}
	}
	var out []TypeName
	for _, d := range f.Demand {
		if n := (TypeName{d, name}); len(r.Types[n]) > 0 {
			out = append(out, n) // "a.b.*"
		} else if p, _, ok := r.Split(d); ok && len(r.Types[TypeName{p, name}]) > 0 && !slices.Contains(out, TypeName{p, name}) {
			out = append(out, TypeName{p, name}) // "a.b.C.*": C's nested types
		}
	}
	if len(out) == 0 {
		// A nested type of a type imported by name ("Outer.Inner").
		for _, full := range f.Single {
			if p, _, ok := r.Split(full); ok && len(r.Types[TypeName{p, name}]) > 0 && !slices.Contains(out, TypeName{p, name}) {
				out = append(out, TypeName{p, name})
			}
		}
		slices.SortFunc(out, func(a, b TypeName) int { return strings.Compare(a.Pkg, b.Pkg) })
	}
	if len(out) > 0 {
		return out, link.InTree
	}
	if lang := r.LangOf(i); lang.Std[name] || lang.Closed && !r.TypeNames[name] {
		return nil, link.Outside
	}
	return nil, link.Unknown
}

// TypeRefKeys appends the keys of the type name as file i uses it; done
// is false when the rules cannot place it.
func (r *Resolver) TypeRefKeys(out []link.Ref, i int, name string) (_ []link.Ref, done bool) {
	ns, at := r.TypeOf(i, name)
	switch at {
	case link.InTree:
		return r.TypeKeys(out, ns), true
	case link.Outside:
		return out, true
	}
	return out, false
}

// ReceiverType resolves the receiver x of x.m(), reference j of file i:
// the declared type of x where the file declares it, else the type x.
func (r *Resolver) ReceiverType(i, j int, x string) ([]TypeName, link.Place) {
	if len(r.File(i).Vars[x]) > 0 {
		return r.VarType(i, j, x)
	}
	return r.TypeOf(i, x)
}

// TypeKeys appends the keys of the types ns.
func (r *Resolver) TypeKeys(out []link.Ref, ns []TypeName) []link.Ref {
	for _, n := range ns {
		out = append(out, link.Ref{Name: n.Name, Scope: r.TypeScope(n.Pkg)})
	}
	return out
}

// TypeFiles returns the files that define the types ns.
func (r *Resolver) TypeFiles(ns []TypeName) []int {
	var out []int
	for _, n := range ns {
		for _, f := range r.Types[n] {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// selfFiles returns the files whose members file i's own code sees as
// its class's: the file and the other files that define its types (the
// parts of a partial class).
func (r *Resolver) selfFiles(i int) []int {
	out := []int{i}
	set := r.Tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && r.LangOf(i).IsType(set.Sub(j)) {
			for _, f := range r.Types[TypeName{r.Pkg[i], set.Str(t.Name)}] {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// BasesOf returns the files of the supertypes of the types of file i that
// the tree defines, and whether some supertype is outside it.
func (r *Resolver) BasesOf(i int) ([]int, bool) {
	if b, ok := r.bases[i]; ok {
		return b, r.out[i]
	}
	r.bases[i] = nil // a cycle of supertypes ends here
	set, lang := r.Tree[i].Tags, r.LangOf(i)
	var in []int
	outside := false
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || !lang.IsBase(set.Sub(j), set.Qual(j)) {
			continue
		}
		ns, at := r.TypeOf(i, set.Str(t.Name))
		if at != link.InTree {
			outside = true
			continue
		}
		for _, f := range r.TypeFiles(ns) {
			if f != i && !slices.Contains(in, f) {
				in = append(in, f)
			}
		}
	}
	r.bases[i], r.out[i] = in, outside
	return in, outside
}

// MemberKeys appends the keys of member name of the files from and of
// the files of their supertypes: on each line of inheritance, the nearest
// that defines it. found tells whether any does; outside whether a
// supertype outside the tree was met, or name is a method of the root
// class that every class inherits.
func (r *Resolver) MemberKeys(out []link.Ref, from []int, name string) (_ []link.Ref, found, outside bool) {
	out, found, outside = link.InheritedKeys(out, from, name, func(f int) bool { return r.mems[f][name] }, r.Members, r.BasesOf)
	return out, found, outside || r.Lang.Root[name]
}

// staticKeys appends the keys of member name as the static imports of
// File i give it.
func (r *Resolver) staticKeys(out []link.Ref, i int, name string) ([]link.Ref, bool) {
	f := r.File(i)
	var from []string
	if c, ok := f.Statics[name]; ok {
		from = []string{c}
	} else {
		from = f.StaticDemand
	}
	found := false
	for _, c := range from {
		n, at := r.Named(c)
		if at != link.InTree {
			continue
		}
		var ok bool
		out, ok, _ = r.MemberKeys(out, r.Types[n], name)
		found = found || ok
	}
	return out, found
}

// Receiver is what the qualifier of a call of a member names, as the
// rules of a language read it.
type Receiver uint8

const (
	Own   Receiver = iota // m() or this.m(): the members of the file's types and of their supertypes
	Super                 // super.m(), C#'s base.m(): their supertypes'
	Typed                 // x.m() on a declared name, C.m() on a type: Call.Types, at Call.At
	Other                 // what the rules do not follow: a.b().c(), a constant's value
)

// Call is a call of a member as the rules of a language read it.
type Call struct {
	Name  string
	Recv  Receiver
	Plain bool // for Own: unqualified, so that a static import can give it
	// For Typed: the types of the receiver, and where they are.
	Types []TypeName
	At    link.Place
}

// CallKeys appends the keys of c, a call in file i: the member of its
// receiver's types (or supertypes) that defines it; nothing when those
// are outside the tree; the fallback when the rules cannot place it.
func (r *Resolver) CallKeys(out []link.Ref, i int, c Call) []link.Ref {
	if keys, done := r.MemberCallKeys(out, i, c); done {
		return keys
	}
	return append(out, link.FallbackRef(c.Name))
}

// MemberCallKeys is CallKeys without the fallback: done is false when
// the rules cannot place c.
func (r *Resolver) MemberCallKeys(out []link.Ref, i int, c Call) (_ []link.Ref, done bool) {
	switch c.Recv {
	case Own:
		return r.OwnKeys(out, i, c.Name, c.Plain)
	case Super:
		return r.SuperKeys(out, i, c.Name)
	case Typed:
		switch c.At {
		case link.Outside:
			return out, true
		case link.InTree:
			return r.TypeMemberKeys(out, r.TypeFiles(c.Types), c.Name)
		}
	}
	return out, false
}

// NamedKeys appends the keys of the type the dotted name full names, as
// an import gives it: nothing when it is outside the tree; done is false
// when the rules cannot place it.
func (r *Resolver) NamedKeys(out []link.Ref, full string) (_ []link.Ref, done bool) {
	switch n, at := r.Named(full); at {
	case link.InTree:
		return r.TypeKeys(out, []TypeName{n}), true
	case link.Outside:
		return out, true
	}
	return out, false
}

// OwnKeys appends the keys of an unqualified call of name in file i, or
// of one on this: the members of the file's types and their supertypes,
// else (unqualified) a static import's. done is false when the rules
// cannot place it.
func (r *Resolver) OwnKeys(out []link.Ref, i int, name string, unqualified bool) (_ []link.Ref, done bool) {
	keys, found, outside := r.MemberKeys(out, r.selfFiles(i), name)
	if found {
		return keys, true
	}
	if unqualified {
		if keys, found := r.staticKeys(out, i, name); found {
			return keys, true
		}
	}
	return out, outside // outside: inherited from a supertype outside the tree
}

// SuperKeys appends the keys of a call of name on the supertypes of file
// i's types.
func (r *Resolver) SuperKeys(out []link.Ref, i int, name string) (_ []link.Ref, done bool) {
	bases, outside := r.BasesOf(i)
	if len(bases) == 0 {
		return out, outside || r.Lang.Root[name]
	}
	return r.TypeMemberKeys(out, bases, name)
}

// TypeMemberKeys appends the keys of member name of the types the files
// from define. done is false when the rules cannot place it.
func (r *Resolver) TypeMemberKeys(out []link.Ref, from []int, name string) (_ []link.Ref, done bool) {
	keys, found, outside := r.MemberKeys(out, from, name)
	if found {
		return keys, true
	}
	return out, outside
}

// VarType resolves the declared type of the name x as reference j of file
// i uses it.
func (r *Resolver) VarType(i, j int, x string) ([]TypeName, link.Place) {
	d := r.VarDecl(i, j, x)
	if d < 0 {
		return nil, link.Unknown
	}
	set := r.Tree[i].Tags
	return r.TypeOf(i, set.Str(set.Tags[d].Name))
}

// VarDecl returns the type reference of the declaration of x in effect
// for reference j of file i: the nearest at or before j's line, else the
// first after it (a field declared below its use); -1 for none.
func (r *Resolver) VarDecl(i, j int, x string) int {
	decls := r.File(i).Vars[x]
	if len(decls) == 0 {
		return -1
	}
	set := r.Tree[i].Tags
	line := set.Tags[j].Line
	d := decls[0]
	for _, k := range decls {
		if set.Tags[k].Line > line {
			break
		}
		d = k
	}
	return d
}

// DeclaredPackage returns the name of the package a file's tags declare
// ("a.b"), or "".
func DeclaredPackage(set tags.Set) string {
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "package" {
			return set.Qual(j)
		}
	}
	return ""
}
