// Package jvm resolves the languages of the JVM whose rules are written:
// Java and Kotlin, in one package model, as they use each other's
// classes, and Scala.
package jvm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/pkgscope"
	"github.com/repomap-dev/repomap/tags"
)

// Java: a package is what a file's package declaration names, or for a
// file without one its directory; the files of a package see each other's
// types wherever they are (main and test source sets). A type name means,
// in this order, the type a single-type import names, a type of the
// file's own package, a type of a package imported on demand ("a.b.*", or
// the nested types of "a.b.C.*"), a nested type of a type imported by
// name; a type of java.Lang or of the common JDK packages that none of
// those place links to nothing. Nested types are types of their package.
// Members (methods, fields, constants) are in the scope of the file that
// defines them: m() and this.m() mean the m of the file or of the files
// of its supertypes in the tree, else a static import of m; super.m() the
// supertypes'; C.m() for a type C the m of C's file and its supertypes;
// a method of Object that none of them defines links to nothing;
// x.m() the m of x's declared type where the file declares x (a field, a
// local or a parameter) with a type of the tree, nothing when that type is
// outside the tree. An import means the type, member or package it names.
// What the rules cannot place falls back to names. The rules are those
// of package pkgscope; this file reads Java's imports and declarations.

// javaLang is what Java gives the shared rules.
var javaLang = pkgscope.Language{
	Prefix: "java",
	IsType: javaType,
	IsBase: func(sub, qual string) bool { return qual == "extends" || sub == "implementation" },
	Std:    javaJDK,
	Root:   javaObject,
	Read:   javaFile,
}

// Rules resolve Java and Kotlin.
var Rules = &link.Rules{
	Name:      "jvm",
	Languages: []string{"java", "kotlin"},
	New: func(tree []link.File, mine []int) link.Lang {
		return newJavaResolver(tree, mine, kotlinFiles(tree), true)
	},
}

// Java resolves Java alone: Kotlin links by name, and its files' package
// clauses are read.
var Java = &link.Rules{
	Name:      "java",
	Languages: []string{"java"},
	Reads:     func(f link.File) bool { return f.Lang == "kotlin" },
	New: func(tree []link.File, mine []int) link.Lang {
		return newJavaResolver(tree, mine, kotlinFiles(tree), false)
	},
}

// kotlinFiles returns the Kotlin files of tree.
func kotlinFiles(tree []link.File) []int {
	var out []int
	for i, f := range tree {
		if f.Lang == "kotlin" {
			out = append(out, i)
		}
	}
	return out
}

// newJavaResolver returns the resolver of the Java files of tree. With
// rules (Rules), the Kotlin files kotlin are among files and read by
// Kotlin's rules (kotlin.go), in the same packages. Without (Java), the
// packages they declare are packages of the tree too: what Java files
// import from them falls back to names.
func newJavaResolver(tree []link.File, files, kotlin []int, rules bool) *javaResolver {
	if rules {
		langs := make(map[int]*pkgscope.Language, len(kotlin))
		for _, i := range kotlin {
			langs[i] = &kotlinLang
		}
		return &javaResolver{pkgscope.NewLangs(tree, files, &javaLang, langs, pkgscope.DeclaredPackage)}
	}
	r := pkgscope.New(tree, files, &javaLang, pkgscope.DeclaredPackage)
	for _, i := range kotlin {
		if p := pkgscope.DeclaredPackage(tree[i].Tags); p != "" {
			r.Pkgs[p] = true
		}
	}
	return &javaResolver{r}
}

// javaResolver holds the Java files of a tree, and with Rules its
// Kotlin files.
type javaResolver struct{ *pkgscope.Resolver }

// javaType reports whether a definition of kind sub is a type.
func javaType(sub string) bool {
	switch sub {
	case "class", "interface", "enum", "record":
		return true
	}
	return false
}

// javaFile reads what Java file i imports and declares.
func javaFile(r *pkgscope.Resolver, i int) *pkgscope.File { return jvmFile(r, i, javaImport) }

// jvmFile reads what Java or Kotlin file i imports, as imports reads an
// import (sub "import") or an import on demand ("package"), and the
// declared types of its names.
func jvmFile(r *pkgscope.Resolver, i int, imports func(f *pkgscope.File, sub, name, qual string)) *pkgscope.File {
	f := pkgscope.NewFile()
	set := r.Tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference {
			continue
		}
		name, qual := set.Str(t.Name), set.Qual(j)
		switch sub := set.Sub(j); {
		case sub == "import", sub == "package":
			imports(f, sub, name, qual)
		case sub == "type" && javaValue(qual):
			f.Vars[qual] = append(f.Vars[qual], j)
		}
	}
	return f
}

// javaImport records in f what an import of a Java file imports: a
// reference of kind sub to name, qualified by what it imports ("a.b.C",
// "static a.b.C.m").
func javaImport(f *pkgscope.File, sub, name, qual string) {
	static := strings.HasPrefix(qual, "static ")
	full := strings.TrimPrefix(qual, "static ")
	switch {
	case sub == "import" && static:
		if k := strings.LastIndexByte(full, '.'); k > 0 {
			f.Statics[name] = full[:k]
		}
	case sub == "import" && qual != "":
		f.Single[name] = full
	case sub == "package" && static:
		f.StaticDemand = append(f.StaticDemand, full)
	case sub == "package" && qual != "":
		f.Demand = append(f.Demand, full)
	}
}

// javaValue reports whether a qualifier names a value: a lower-case name.
func javaValue(q string) bool {
	c, _ := utf8.DecodeRuneInString(q)
	return q != "" && q != "this" && q != "super" && (unicode.IsLower(c) || c == '_' || c == '$')
}

func (r *javaResolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	if r.isKotlin(i) {
		return r.kotlinRefKeys(out, i, j)
	}
	set := r.Tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	fallback := link.FallbackRef(name)
	switch sub {
	case "import":
		if qual == "" {
			break
		}
		full := strings.TrimPrefix(qual, "static ")
		if full == qual { // import a.b.C
			if keys, done := r.NamedKeys(out, full); done {
				return keys
			}
			break
		}
		// import static a.b.C.m
		k := strings.LastIndexByte(full, '.')
		n, at := r.Named(full[:max(k, 0)])
		switch at {
		case link.InTree:
			if keys, found, _ := r.MemberKeys(out, r.Types[n], name); found {
				return keys
			}
		case link.Outside:
			return out
		}
	case "package":
		full := strings.TrimPrefix(qual, "static ")
		switch {
		case qual == "":
		case full != qual: // import static a.b.C.*
			if keys, done := r.NamedKeys(out, full); done {
				return keys
			}
		default:
			return r.demandKeys(out, name, full)
		}
	case "call":
		return r.callKeys(out, i, j, name, qual)
	default: // a type: class, implementation, annotation, type
		if keys, done := r.TypeRefKeys(out, i, name); done {
			return keys
		}
	}
	return append(out, fallback)
}

// demandKeys appends the keys of an import on demand of full, a
// reference to name: "a.b" of "import a.b.*", the package, or "a.b.C" of
// "import a.b.C.*", the type; nothing when full is outside the tree.
func (r *javaResolver) demandKeys(out []link.Ref, name, full string) []link.Ref {
	if r.Pkgs[full] {
		return append(out, link.Ref{Name: name, Scope: r.PkgScope(full)})
	}
	if n, at := r.Named(full); at == link.InTree {
		return r.TypeKeys(out, []pkgscope.TypeName{n})
	}
	return out
}

// callKeys appends the keys of a call of name, reference j of file i,
// qualified by qual.
func (r *javaResolver) callKeys(out []link.Ref, i, j int, name, qual string) []link.Ref {
	c := pkgscope.Call{Name: name, Recv: pkgscope.Typed}
	switch {
	case qual == "" || qual == "this":
		c.Recv, c.Plain = pkgscope.Own, qual == ""
	case qual == "super":
		c.Recv = pkgscope.Super
	case qual == "." || qual == "::" || !javaValue(qual) && strings.ToUpper(qual) == qual:
		c.Recv = pkgscope.Other // an expression, or a constant's value
	case javaValue(qual): // x.m() on a declared name
		c.Types, c.At = r.VarType(i, j, qual)
	default: // C.m() on a type
		c.Types, c.At = r.TypeOf(i, qual)
	}
	return r.CallKeys(out, i, c)
}

// javaObject lists the methods of java.Lang.Object.
var javaObject = link.Words(`equals hashCode toString getClass clone finalize notify notifyAll wait`)

// javaJDK lists the types of java.Lang, which every file sees, and the
// most common ones of java.util, java.io and java.util.function, which a
// file imports on demand: a use of one the tree does not place means the
// JDK's.
var javaJDK = link.Words(`Object String StringBuilder StringBuffer CharSequence Integer Long Short Byte Double Float
	Boolean Character Number Math StrictMath System Runtime Thread ThreadLocal Runnable Class ClassLoader Enum
	Record Void Iterable Comparable Cloneable AutoCloseable Appendable Readable Process Package Module
	StackTraceElement Throwable Exception RuntimeException Error AssertionError IllegalArgumentException
	IllegalStateException NullPointerException UnsupportedOperationException IndexOutOfBoundsException
	ArrayIndexOutOfBoundsException StringIndexOutOfBoundsException ClassCastException ArithmeticException
	NumberFormatException CloneNotSupportedException InterruptedException SecurityException
	ReflectiveOperationException ClassNotFoundException NoSuchMethodException NoSuchFieldException
	InstantiationException IllegalAccessException LinkageError ExceptionInInitializerError OutOfMemoryError
	StackOverflowError NegativeArraySizeException ArrayStoreException Override Deprecated SuppressWarnings
	FunctionalInterface SafeVarargs
	List ArrayList LinkedList Map HashMap LinkedHashMap TreeMap SortedMap NavigableMap Set HashSet LinkedHashSet
	TreeSet SortedSet NavigableSet Collection Collections Arrays Iterator ListIterator Queue Deque ArrayDeque
	PriorityQueue Optional Objects Date Calendar Locale Properties Random Scanner UUID BitSet EnumMap EnumSet
	IdentityHashMap WeakHashMap Comparator Stack Vector Hashtable Enumeration AbstractList AbstractMap
	AbstractSet AbstractCollection ConcurrentModificationException NoSuchElementException
	InputStream OutputStream Reader Writer File IOException UncheckedIOException Serializable Closeable
	StringReader StringWriter PrintStream PrintWriter BufferedReader BufferedWriter EOFException
	Function BiFunction Supplier Consumer BiConsumer Predicate BiPredicate UnaryOperator BinaryOperator`)

// IsMore reports whether r is the key every member of a type publishes
// under beside its own.
func (r *javaResolver) IsMore(k link.Ref) bool { return k.Scope == jvmMembersScope }
