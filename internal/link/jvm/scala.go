package jvm

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/pkgscope"
	"github.com/repomap-dev/repomap/tags"
)

// Scala: a file's package is what its package clauses name together
// ("package a.b", or "package a" then "package b" for a.b), its
// directory's without one; chained clauses see the types of each
// package they open (a.b's and a's), a single clause only its own. A
// type name (a class, a trait, an object, an enum, a type alias) means,
// in this order, the type an import names ("import a.b.C",
// "import a.b.{C, D => E}"), a type of the file's packages, of a package
// or object imported whole ("import a.b._", Scala 3's "import a.b.*"), a
// nested type of an imported one; an import's path may start at one of
// the file's packages. A type of scala.* or java.Lang (and the common
// collections) that none of those place, and a name no Scala file of the
// tree defines as a type, link to nothing, and so does an import from
// outside the tree. Members (defs, vals) are in the scope of the file that
// defines them, so a class and its companion object share theirs: m() and
// this.m() mean the m of the file or of its parents in the tree (an
// anonymous class's "new T(…) { … }" counts T among them), else one
// imported ("import a.b.C.m", "import a.b.C._") or of a package object
// of the file's packages; super.m() the parents'; C.m() on an object the
// m of C's file; C(…) the class or object C (a case class's or a
// companion's apply); p.m() on a package p its object m or its package
// object's m, and p.c.m() (or C.c.m()) the m of object c; x.m() the m of
// x's declared type where the file says it ("val x: T", "val x = new
// T(…)", "val x = T(…)", a parameter), nothing when that type is outside
// the tree. A method of Any or of a
// case class (toString, copy…) that none defines links to nothing. What
// the rules cannot place falls back to names.

// Scala resolves Scala: packages, imports, package objects.
var Scala = &link.Rules{
	Name:      "scala",
	Languages: []string{"scala"},
	New:       func(tree []link.File, mine []int) link.Lang { return newScalaResolver(tree, mine) },
}

// scalaResolver holds the Scala files of a tree.
type scalaResolver struct {
	*pkgscope.Resolver
	rules pkgscope.Language
}

func newScalaResolver(tree []link.File, files []int) *scalaResolver {
	r := &scalaResolver{}
	r.rules = pkgscope.Language{
		Prefix: "scala",
		IsType: scalaType,
		IsBase: func(sub, qual string) bool { return qual == "extends" || qual == "new" || sub == "implementation" },
		Std:    scalaStd,
		Root:   scalaAny,
		Closed: true,
		Read:   r.readFile,
	}
	r.Resolver = pkgscope.New(tree, files, &r.rules, func(set tags.Set) string {
		ps := scalaPackages(set)
		if len(ps) == 0 {
			return scalaEmpty
		}
		return ps[0]
	})
	return r
}

// scalaEmpty is the package of the files without a package clause, such
// as sbt's build files and those of its project directory.
const scalaEmpty = "<empty>"

// pkgObject returns the package object of package p.
func pkgObject(p string) pkgscope.TypeName {
	parent, last := scalaEmpty, p
	if k := strings.LastIndexByte(p, '.'); k >= 0 {
		parent, last = p[:k], p[k+1:]
	}
	return pkgscope.TypeName{Pkg: parent, Name: last}
}

// scalaPackages returns the packages a file's package clauses open,
// innermost first ("a.b", "a" for "package a" then "package b").
func scalaPackages(set tags.Set) []string {
	var out []string
	p := ""
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "package" && set.Qual(j) != "" {
			if p != "" {
				p += "."
			}
			p += set.Qual(j)
			out = append([]string{p}, out...)
		}
	}
	return out
}

// scalaType reports whether a definition of kind sub is a type.
func scalaType(sub string) bool {
	switch sub {
	case "class", "object", "trait", "enum", "type":
		return true
	}
	return false
}

// scalaName reports whether a qualifier is a name: a value's, an
// object's, "this" or "super".
func scalaName(q string) bool {
	if q == "" {
		return false
	}
	for _, c := range q {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' && c != '$' {
			return false
		}
	}
	return true
}

// scalaValue reports whether a name is a value's: it starts in lower case.
func scalaValue(q string) bool {
	c, _ := utf8.DecodeRuneInString(q)
	return q != "this" && q != "super" && scalaName(q) && (unicode.IsLower(c) || c == '_')
}

// scalaImport is an import of one name, read from its qualifier.
type scalaImport struct {
	path  string // "a.b.C": what it imports
	alias string // the name it gives, "" for the path's last
	whole bool   // "a.b._": all of path
}

// parseScalaImport reads the qualifier of import reference name: the
// import's text on one line ("import a.b.C", "import a.b._"), or a
// selector's path ("a b") and rename ("a b => E", "a b as E").
func parseScalaImport(name, qual string) scalaImport {
	if text, ok := strings.CutPrefix(qual, "import "); ok {
		text = strings.Join(strings.Fields(text), "")
		if p, ok := strings.CutSuffix(text, "._"); ok {
			return scalaImport{path: p, whole: true}
		}
		if p, ok := strings.CutSuffix(text, ".*"); ok {
			return scalaImport{path: p, whole: true}
		}
		return scalaImport{path: text}
	}
	f := strings.Fields(qual)
	var u scalaImport
	if n := len(f); n >= 3 && (f[n-2] == "=>" || f[n-2] == "as") {
		u.alias, f = f[n-1], f[:n-2]
	}
	if len(f) > 0 {
		u.path = strings.Join(f, ".") + "." + name
	}
	return u
}

// abs returns the dotted name path as file i means it: as written, else
// relative to one of its packages.
func (r *scalaResolver) abs(i int, path string) string {
	if _, _, ok := r.Split(path); ok || r.Pkgs[path] {
		return path
	}
	head, _, _ := strings.Cut(path, ".")
	for _, p := range r.File(i).Own {
		if r.Pkgs[p+"."+head] || len(r.Types[pkgscope.TypeName{Pkg: p, Name: head}]) > 0 {
			return p + "." + path
		}
	}
	return path
}

// readFile reads what Scala file i imports and declares.
func (r *scalaResolver) readFile(p *pkgscope.Resolver, i int) *pkgscope.File {
	f := pkgscope.NewFile()
	set := p.Tree[i].Tags
	f.Own = scalaPackages(set)
	if len(f.Own) == 0 {
		f.Own = []string{scalaEmpty}
	}
	p.Files[i] = f // abs reads own
	for j, t := range set.Tags {
		if t.Kind != tags.Reference {
			continue
		}
		name, qual := set.Str(t.Name), set.Qual(j)
		switch sub := set.Sub(j); {
		case sub == "import":
			u := parseScalaImport(name, qual)
			if u.path == "" {
				continue
			}
			full := r.abs(i, u.path)
			as := cmp.Or(u.alias, name)
			if scalaValue(name) {
				if k := strings.LastIndexByte(full, '.'); k > 0 {
					f.Statics[as] = full[:k] // "import a.b.C.m", or a package
				}
			} else {
				f.Single[as] = full
			}
		case sub == "package":
			if u := parseScalaImport(name, qual); u.whole {
				full := r.abs(i, u.path)
				f.Demand = append(f.Demand, full)
				f.StaticDemand = append(f.StaticDemand, full) // an object's members
			}
		case (sub == "type" || sub == "class") && scalaValue(qual):
			f.Vars[qual] = append(f.Vars[qual], j)
		case sub == "call" && strings.HasSuffix(qual, " ="):
			f.Vars[strings.TrimSuffix(qual, " =")] = append(f.Vars[strings.TrimSuffix(qual, " =")], j)
		}
	}
	return f
}

func (r *scalaResolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := r.Tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	fallback := link.FallbackRef(name)
	switch sub {
	case "import", "package":
		u := parseScalaImport(name, qual)
		if u.path == "" {
			break
		}
		full := r.abs(i, u.path)
		if r.Pkgs[full] {
			out = append(out, link.Ref{Name: name, Scope: r.PkgScope(full)})
			if n, at := r.Named(full); at == link.InTree { // and its package object
				out = r.TypeKeys(out, []pkgscope.TypeName{n})
			}
			return out
		}
		if keys, done := r.NamedKeys(out, full); done {
			return keys
		}
		if k := strings.LastIndexByte(full, '.'); k > 0 && scalaValue(name) {
			// "import a.b.C.m": a member of C.
			if n, at := r.Named(full[:k]); at == link.InTree {
				if keys, found, _ := r.MemberKeys(out, r.Types[n], name); found {
					return keys
				}
			}
		}
	case "call":
		return r.callKeys(out, i, j, name, qual)
	default: // a type: class, implementation, annotation, type
		if qual == "." && len(r.File(i).Vars[name]) > 0 {
			return out // a value, not a type
		}
		if keys, done := r.TypeRefKeys(out, i, name); done {
			return keys
		}
	}
	return append(out, fallback)
}

// callKeys appends the keys of a call of name, reference j of file i,
// qualified by qual.
func (r *scalaResolver) callKeys(out []link.Ref, i, j int, name, qual string) []link.Ref {
	c := pkgscope.Call{Name: name, Recv: pkgscope.Other}
	switch {
	case qual == "" || qual == "this" || strings.HasSuffix(qual, " ="):
		if qual == "this" {
			c.Recv = pkgscope.Own
			break
		}
		// "C(…)": the apply of a case class or an object.
		ns, at := r.TypeOf(i, name)
		first, _ := utf8.DecodeRuneInString(name)
		switch {
		case at == link.InTree:
			return r.TypeKeys(out, ns)
		case at == link.Outside && unicode.IsUpper(first):
			return out
		}
		// m(): the file's or its parents', an import's, else a package
		// object's.
		if keys, done := r.MemberCallKeys(out, i, pkgscope.Call{Name: name, Recv: pkgscope.Own, Plain: true}); done {
			return keys
		}
		if keys, found := r.pkgObjectKeys(out, i, name); found {
			return keys
		}
	case qual == "super":
		c.Recv = pkgscope.Super
	case strings.Count(qual, ".") == 1 && qual != ".":
		// "a.b.m()" on a path of the tree: b's m.
		head, _, _ := strings.Cut(qual, ".")
		if len(r.File(i).Vars[head]) > 0 {
			break
		}
		if ns, at := r.TypeOf(i, head); !r.Pkgs[r.abs(i, head)] && at != link.InTree {
			break
		} else if at == link.InTree {
			qual = ns[0].Pkg + "." + qual
		}
		if n, at := r.Named(r.abs(i, qual)); at == link.InTree {
			c.Recv, c.Types, c.At = pkgscope.Typed, []pkgscope.TypeName{n}, at
		}
	case !scalaName(qual):
		// Another expression: "a.b().c()".
	case len(r.File(i).Vars[qual]) == 0 && r.Pkgs[r.abs(i, qual)]:
		// "p.m()" on a package: its object m, or its package object's m.
		p := r.abs(i, qual)
		if n := (pkgscope.TypeName{Pkg: p, Name: name}); len(r.Types[n]) > 0 {
			return r.TypeKeys(out, []pkgscope.TypeName{n})
		}
		c.Recv, c.Types, c.At = pkgscope.Typed, []pkgscope.TypeName{pkgObject(p)}, link.InTree
	default: // x.m() on a declared name, C.m() on an object
		c.Recv = pkgscope.Typed
		c.Types, c.At = r.ReceiverType(i, j, qual)
		if c.At != link.InTree && len(r.File(i).Vars[qual]) == 0 && scalaValue(qual) {
			// A value whose type the file does not say.
			if scalaAny[name] {
				return out
			}
			c.Recv = pkgscope.Other
		}
	}
	return r.CallKeys(out, i, c)
}

// pkgObjectKeys appends the keys of member name of the package objects
// of the packages file i opens or imports whole.
func (r *scalaResolver) pkgObjectKeys(out []link.Ref, i int, name string) (_ []link.Ref, found bool) {
	f := r.File(i)
	for _, ps := range [][]string{f.Own, f.Demand} {
		for _, p := range ps {
			var ok bool
			out, ok, _ = r.MemberKeys(out, r.Types[pkgObject(p)], name)
			found = found || ok
		}
	}
	return out, found
}

// scalaAny lists the methods of Any and AnyRef, and those a case class
// has without defining them.
var scalaAny = link.Words(`toString equals hashCode getClass isInstanceOf asInstanceOf eq ne synchronized wait notify
	notifyAll clone finalize copy productArity productElement productIterator productPrefix canEqual`)

// scalaStd lists the types of scala.*, scala.collection, java.Lang and
// the common JDK packages, which a file sees without importing them or
// imports from outside the tree: a use of one the tree does not place
// means the library's.
var scalaStd = func() map[string]bool {
	m := link.Words(`Any AnyRef AnyVal Nothing Null Unit Boolean Byte Short Int Long Float Double Char String Symbol
		Option Some None Either Left Right Try Success Failure List Nil Seq IndexedSeq LinearSeq Vector Map Set
		Array ArrayBuffer ListBuffer Buffer Iterator Iterable IterableOnce LazyList Stream Range Tuple1 Tuple2
		Tuple3 Function0 Function1 Function2 PartialFunction Ordering Ordered Numeric Integral Fractional Equiv
		BigInt BigDecimal StringBuilder Product Serializable Equals Enumeration App DummyImplicit ClassTag
		TypeTag Manifest Regex Duration FiniteDuration Deadline Future Promise ExecutionContext Await
		SortedMap SortedSet TreeMap TreeSet HashMap HashSet ListMap ListSet Queue Stack ArrayDeque View
		MatchError NotImplementedError NoSuchElementException Dynamic Selectable deprecated inline
		specialized tailrec transient volatile unchecked throws implicitNotFound nowarn SerialVersionUID`)
	for n := range javaJDK {
		m[n] = true
	}
	return m
}()
