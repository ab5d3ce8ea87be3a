package link

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/tags"
)

// Java: a package is what a file's package declaration names, or for a
// file without one its directory; the files of a package see each other's
// types wherever they are (main and test source sets). A type name means,
// in this order, the type a single-type import names, a type of the
// file's own package, a type of a package imported on demand ("a.b.*", or
// the nested types of "a.b.C.*"), a nested type of a type imported by
// name; a type of java.lang or of the common JDK packages that none of
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
// of resolve_pkg.go; this file reads Java's imports and declarations.

// javaLang is what Java gives the shared rules.
var javaLang = pkgLang{
	prefix: "java",
	isType: javaType,
	isBase: func(sub, qual string) bool { return qual == "extends" || sub == "implementation" },
	std:    javaJDK,
	root:   javaObject,
	file:   javaFile,
}

// newJavaResolver returns the resolver of the Java files of s. With
// rules (the ranking change kotlin), the Kotlin files kotlin are among
// files and read by Kotlin's rules (resolve_kotlin.go), in the same
// packages. Without, the packages they declare are packages of the tree
// too: what Java files import from them falls back to names.
func newJavaResolver(tree []File, files, kotlin []int, rules bool) *javaResolver {
	if rules {
		langs := make(map[int]*pkgLang, len(kotlin))
		for _, i := range kotlin {
			langs[i] = &kotlinLang
		}
		return &javaResolver{newPkgResolverLangs(tree, files, &javaLang, langs, declaredPackage)}
	}
	r := newPkgResolver(tree, files, &javaLang, declaredPackage)
	for _, i := range kotlin {
		if p := declaredPackage(tree[i].Tags); p != "" {
			r.pkgs[p] = true
		}
	}
	return &javaResolver{r}
}

// javaResolver holds the Java files of a snapshot, and with the ranking
// change kotlin its Kotlin files.
type javaResolver struct{ *pkgResolver }

// javaType reports whether a definition of kind sub is a type.
func javaType(sub string) bool {
	switch sub {
	case "class", "interface", "enum", "record":
		return true
	}
	return false
}

// javaFile reads what Java file i imports and declares.
func javaFile(r *pkgResolver, i int) *pkgFile { return jvmFile(r, i, javaImport) }

// jvmFile reads what Java or Kotlin file i imports, as imports reads an
// import (sub "import") or an import on demand ("package"), and the
// declared types of its names.
func jvmFile(r *pkgResolver, i int, imports func(f *pkgFile, sub, name, qual string)) *pkgFile {
	f := newPkgFile()
	set := r.tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference {
			continue
		}
		name, qual := set.Str(t.Name), set.Qual(j)
		switch sub := set.Sub(j); {
		case sub == "import", sub == "package":
			imports(f, sub, name, qual)
		case sub == "type" && javaValue(qual):
			f.vars[qual] = append(f.vars[qual], j)
		}
	}
	return f
}

// javaImport records in f what an import of a Java file imports: a
// reference of kind sub to name, qualified by what it imports ("a.b.C",
// "static a.b.C.m").
func javaImport(f *pkgFile, sub, name, qual string) {
	static := strings.HasPrefix(qual, "static ")
	full := strings.TrimPrefix(qual, "static ")
	switch {
	case sub == "import" && static:
		if k := strings.LastIndexByte(full, '.'); k > 0 {
			f.statics[name] = full[:k]
		}
	case sub == "import" && qual != "":
		f.single[name] = full
	case sub == "package" && static:
		f.sdemand = append(f.sdemand, full)
	case sub == "package" && qual != "":
		f.demand = append(f.demand, full)
	}
}

// javaValue reports whether a qualifier names a value: a lower-case name.
func javaValue(q string) bool {
	c, _ := utf8.DecodeRuneInString(q)
	return q != "" && q != "this" && q != "super" && (unicode.IsLower(c) || c == '_' || c == '$')
}

func (r *javaResolver) refKeys(out []Ref, i, j int) []Ref {
	if r.isKotlin(i) {
		return r.kotlinRefKeys(out, i, j)
	}
	set := r.tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	fallback := Ref{Name: name, Scope: FallbackScope, Fallback: true}
	switch sub {
	case "import":
		if qual == "" {
			break
		}
		full := strings.TrimPrefix(qual, "static ")
		if full == qual { // import a.b.C
			n, at := r.named(full)
			switch at {
			case placeInTree:
				return r.typeKeys(out, []pkgName{n})
			case placeOutside:
				return out
			}
			break
		}
		// import static a.b.C.m
		k := strings.LastIndexByte(full, '.')
		n, at := r.named(full[:max(k, 0)])
		switch at {
		case placeInTree:
			if keys, found, _ := r.memberKeys(out, r.types[n], name); found {
				return keys
			}
		case placeOutside:
			return out
		}
	case "package":
		full := strings.TrimPrefix(qual, "static ")
		switch {
		case qual == "":
		case full != qual: // import static a.b.C.*
			if n, at := r.named(full); at == placeInTree {
				return r.typeKeys(out, []pkgName{n})
			} else if at == placeOutside {
				return out
			}
		default:
			return r.demandKeys(out, name, full)
		}
	case "call":
		return r.callKeys(out, i, j, name, qual)
	default: // a type: class, implementation, annotation, type
		if keys, done := r.typeRefKeys(out, i, name); done {
			return keys
		}
	}
	return append(out, fallback)
}

// demandKeys appends the keys of an import on demand of full, a
// reference to name: "a.b" of "import a.b.*", the package, or "a.b.C" of
// "import a.b.C.*", the type; nothing when full is outside the tree.
func (r *javaResolver) demandKeys(out []Ref, name, full string) []Ref {
	if r.pkgs[full] {
		return append(out, Ref{Name: name, Scope: r.pkgScope(full)})
	}
	if n, at := r.named(full); at == placeInTree {
		return r.typeKeys(out, []pkgName{n})
	}
	return out
}

// callKeys appends the keys of a call of name, reference j of file i,
// qualified by qual.
func (r *javaResolver) callKeys(out []Ref, i, j int, name, qual string) []Ref {
	fallback := Ref{Name: name, Scope: FallbackScope, Fallback: true}
	var keys []Ref
	done := false
	switch {
	case qual == "" || qual == "this":
		keys, done = r.ownKeys(out, i, name, qual == "")
	case qual == "super":
		keys, done = r.superKeys(out, i, name)
	case qual == "." || qual == "::" || !javaValue(qual) && strings.ToUpper(qual) == qual:
		// An expression, or a constant's value.
	default: // x.m() on a declared name, C.m() on a type
		var ns []pkgName
		var at pkgPlace
		if javaValue(qual) {
			ns, at = r.varType(i, j, qual)
		} else {
			ns, at = r.typeOf(i, qual)
		}
		switch at {
		case placeOutside:
			return out
		case placeInTree:
			keys, done = r.typeMemberKeys(out, r.typeFiles(ns), name)
		}
	}
	if done {
		return keys
	}
	return append(out, fallback)
}

// javaObject lists the methods of java.lang.Object.
var javaObject = set(`equals hashCode toString getClass clone finalize notify notifyAll wait`)

// javaJDK lists the types of java.lang, which every file sees, and the
// most common ones of java.util, java.io and java.util.function, which a
// file imports on demand: a use of one the tree does not place means the
// JDK's.
var javaJDK = set(`Object String StringBuilder StringBuffer CharSequence Integer Long Short Byte Double Float
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

// javaRules resolve Java, and with Config.Kotlin Kotlin too, in one
// package model: the two use each other's classes. Without, they read
// the Kotlin files' package clauses.
var javaRules = &rules{
	name:   "java",
	claims: func(f File, c Config) bool { return f.Lang == "java" || f.Lang == "kotlin" && c.Kotlin },
	reads:  func(f File, c Config) bool { return f.Lang == "kotlin" && !c.Kotlin },
	make: func(tree []File, mine []int, c Config) langResolver {
		var kotlin []int
		for i, f := range tree {
			if f.Lang == "kotlin" {
				kotlin = append(kotlin, i)
			}
		}
		return newJavaResolver(tree, mine, kotlin, c.Kotlin)
	},
}

// isMore reports whether r is the key every member of a type publishes
// under beside its own.
func (r *javaResolver) isMore(k Ref) bool { return k.Scope == jvmMembersScope }
