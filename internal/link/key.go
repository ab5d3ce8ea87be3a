package link

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/rank"
)

// Keys. The link stage ties a reference to a definition when the
// reference resolves to a key the definition publishes under. A key is
// a name and a scope (rank.Key: "name", or "name\x00scope"), in one
// grammar:
//
//	key    = name [ NUL scope ]
//	scope  = "~" [ "|" family ]       a name match the rules could not place (FallbackScope)
//	       | "~names"                  a resolved reference's link by name too (NamesScope)
//	       | "~doc" [ "|" family ]     a name in a document's code (DocScope)
//	       | "|" family                a link by name within a family of languages
//	       | rules [ "." kind ] ":" place [ ":" qualifier ]
//
// The last form is a language's own: rules names its rules (go, py, js,
// c, java, cs, rs, scala), kind what the place is (pkg, method, m, top,
// field, macro, include, ext…), place a path or a package, and qualifier
// a class or a type. A key without a scope links every definition of the
// name to every reference, as Aider does. Only the rules that made a
// scope read it back; the scopes of the first four forms are the link
// stage's own, and policy weighs them (ClassOf). Of the languages' own,
// two kinds are classes of their own: Go's "go:" package scopes, whose
// lower-case names are Private, and its "go.member:" scopes, the
// Candidates of a member used on a value of an unknown type, which share
// their weight (Split).

// The link stage's own scopes.
const (
	// FallbackScope is the scope of the keys under which the references
	// the rules could not place link to every definition of their name.
	FallbackScope = "~"
	// NamesScope is the scope of the keys under which resolved
	// references also link by name, with Config.Names.
	NamesScope = "~names"
	// DocScope is the scope of the keys under which the names of
	// documents' code link to every definition of the name.
	DocScope = "~doc"
	// FamilyScope separates, in the scope of a key by name, the scope
	// from the family of languages it is for (NameKey).
	FamilyScope = "|"
)

// keyOf returns the bytes of NameKey(name, scope, fam), in lk's buffer:
// valid until its next call.
func (lk *Linker) keyOf(name, scope, fam string) []byte {
	b := append(lk.key[:0], name...)
	if scope != "" || fam != "" {
		b = append(append(b, 0), scope...)
		if fam != "" {
			b = append(append(b, FamilyScope...), fam...)
		}
	}
	lk.key = b
	return b
}

// NameKey returns the key of a link by name to name: a plain one (scope
// empty) or a fallback (FallbackScope), for files of the family of
// languages fam, or for any file when fam is empty.
func NameKey(name, scope, fam string) string {
	if fam == "" {
		if scope == "" {
			return name
		}
		return rank.Key(name, scope)
	}
	return rank.Key(name, scope+FamilyScope+fam)
}

// RankName is the name a definition of kind sub goes by in the ranking. A
// heading of a document goes by a name no identifier has, so that code
// that happens to use the heading's words does not tie itself to the
// document.
func RankName(sub, name string) string {
	if sub == "heading" {
		return "#" + name
	}
	return name
}

// QualIdent returns the last identifier of a qualifier as tags record it
// (tags.Set.Qual): the type of a Go receiver ("Point" of "p *Point"),
// the innermost class of a Python method ("Inner" of "Outer.Inner").
func QualIdent(q string) string {
	isIdent := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	end := strings.LastIndexFunc(q, isIdent) + 1
	return q[strings.LastIndexFunc(q[:end], func(r rune) bool { return !isIdent(r) })+1 : end]
}

// GraphOnly reports whether definitions of kind sub link files in the
// ranking without being shown: every Go file of a package defines the
// package's name, which ties the files that use the package to it, but a
// package clause says nothing the path does not.
func GraphOnly(sub string) bool { return sub == "package" }

// Class is what a key is, as the ranking weighs it.
type Class int

// The classes of keys.
const (
	Resolved   Class = iota // a key of a language's rules, or a plain link by name
	Fallback                // a name match the rules could not place (FallbackScope)
	Names                   // a resolved reference's link by name too (NamesScope)
	Doc                     // a name in a document's code (DocScope)
	Private                 // a resolved key of a name its package keeps to itself (Go's lower-case names)
	Candidates              // the members of one name a reference on a value of an unknown type can mean (Split)
)

// ClassOf returns the class of key.
func ClassOf(key string) Class {
	name, scope, _ := strings.Cut(key, "\x00")
	switch {
	case scope == DocScope || strings.HasPrefix(scope, DocScope+FamilyScope):
		return Doc
	case scope == FallbackScope || strings.HasPrefix(scope, FallbackScope+FamilyScope):
		return Fallback
	case scope == NamesScope:
		return Names
	case strings.HasPrefix(scope, goMemberPrefix):
		return Candidates
	case goPrivate(scope, name):
		return Private
	}
	return Resolved
}

// Split reports whether the definitions key links to share its weight
// (rank.Input.Split): the candidates of a use the rules could not place
// on one of them, as a method called on a Go value whose type they do not
// know, which links to every method of its name of the packages its file
// reaches (Candidates).
func Split(key string) bool { return ClassOf(key) == Candidates }

// goMemberPrefix begins the scopes of the methods and fields of the
// types of a Go package (package golang's member scopes).
const goMemberPrefix = "go.member:"

// goPrivate reports whether a key of scope and name is of a name a Go
// package keeps to itself: in the scope of a Go package (package golang
// names them "go:" and a number), not exported.
func goPrivate(scope, name string) bool {
	return strings.HasPrefix(scope, "go:") && name != "" && !unicode.IsUpper(rune(name[0])) && name[0] < utf8.RuneSelf
}
