package jvm

import (
	"maps"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/pkgscope"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Kotlin, with Rules (with Java, Kotlin links by name): packages,
// imports, supertypes and the members of types are Java's (package
// pkgscope, java.go), in one resolver, and Java and Kotlin files of a
// tree use each other's types. What Kotlin adds: the top-level functions and properties
// of a package (not members of a type) are in the package's scope, like
// its types, so the files of a package see each other's. A name means, in
// this order, what an import names ("import a.b.C", "import a.b.foo", and
// "import a.b.C as D" under D: a type, a top-level function or property,
// or a member of an object or a companion object), what the file's own
// package defines, what a package imported on demand defines ("a.b.*").
// A plain call m() means a member of the file's types or of their
// supertypes in the tree, else a top-level function as above; a
// capitalized one (Order(…)) a constructor, the type. this.m() as m(),
// super.m() the supertypes'; C.m() on a type or an object the m of C's
// file and its supertypes (companion objects are members of the file),
// C.D() a nested type; x.m() the m of x's declared type where the file
// declares x (a property, a parameter, a constructor parameter, a local,
// and "val x = T(…)"). A member none of those types defines may be an
// extension function: a top-level function in scope of that name. A name
// of the standard library (kotlin.*, java.Lang and the common JDK types)
// that none of the rules places means nothing, and so does a member
// found nowhere along supertypes of which some are outside the tree.
// Other values' members (a.b().c(), it.m()) mean an extension function in
// scope, else every member of that name of a Java or Kotlin type of the
// tree (measured against falling back to every definition of the name:
// the same focus and message recall, a better overview); names no rule
// places fall back.

// kotlinLang is what Kotlin gives the shared rules; its scopes are
// Java's.
var kotlinLang = pkgscope.Language{
	Prefix: javaLang.Prefix,
	IsType: kotlinType,
	IsBase: func(sub, _ string) bool { return sub == "class" || sub == "implementation" }, // after a class's colon: a class called, an interface not
	Std:    kotlinJVM,
	Root:   javaObject,
	Read:   kotlinFile,
	Top:    kotlinTop,
}

// kotlinType reports whether a definition of kind sub is a type: Java's
// kinds, objects and type aliases.
func kotlinType(sub string) bool { return javaType(sub) || sub == "object" || sub == "type" }

// isKotlin reports whether file i is read by Kotlin's rules.
func (r *javaResolver) isKotlin(i int) bool { return r.Langs[i] == &kotlinLang }

// kotlinTop reports whether definition j of a Kotlin file's tags is a
// top-level function or property: those are not qualified by the type
// that holds them, as members are.
func kotlinTop(set tags.Set, j int) bool {
	switch set.Sub(j) {
	case "function", "constant", "variable":
		return set.Qual(j) == ""
	}
	return false
}

// kotlinFile reads what Kotlin file i imports and declares.
func kotlinFile(r *pkgscope.Resolver, i int) *pkgscope.File { return jvmFile(r, i, kotlinImport) }

// kotlinImport records in f what an import of a Kotlin file imports: a
// reference of kind sub to name, qualified as the query qualifies it.
func kotlinImport(f *pkgscope.File, sub, name, qual string) {
	switch {
	case qual == "":
	case sub == "package": // import a.b.*
		f.Demand = append(f.Demand, qual)
	default: // import a.b.C, import a.b.C as D
		full, local, renamed := strings.Cut(qual, " as ")
		if !renamed {
			local = name
		}
		f.Single[local] = full
	}
}

func (r *javaResolver) kotlinRefKeys(out []link.Ref, i, j int) []link.Ref {
	set := r.Tree[i].Tags
	name, sub, qual := set.Str(set.Tags[j].Name), set.Sub(j), set.Qual(j)
	switch sub {
	case "import":
		if qual == "" {
			break
		}
		full, _, _ := strings.Cut(qual, " as ")
		if keys, at := r.importKeys(out, full); at != link.Unknown {
			return keys // nothing outside the tree
		}
	case "package":
		if qual != "" { // import a.b.*, import a.b.C.*
			return r.demandKeys(out, name, qual)
		}
	case "call":
		return r.kotlinCallKeys(out, i, j, name, qual)
	default: // a type: class, implementation, annotation, type
		if keys, ok := r.TypeRefKeys(out, i, name); ok {
			return keys
		}
	}
	return append(out, link.FallbackRef(name))
}

// importKeys appends the keys of what the dotted name full, as an import
// gives it, names: a type (nested or not), a top-level function or
// property, or a member of a type (an object's, a companion object's).
func (r *javaResolver) importKeys(out []link.Ref, full string) ([]link.Ref, link.Place) {
	p, rest, ok := r.Split(full)
	if !ok {
		return out, link.Outside
	}
	last := rest[len(rest)-1]
	n := pkgscope.TypeName{Pkg: p, Name: last}
	found := false
	if len(r.Types[n]) > 0 {
		out = append(out, link.Ref{Name: last, Scope: r.TypeScope(p)})
		found = true
	}
	if len(rest) == 1 && len(r.Tops[n]) > 0 {
		out = append(out, link.Ref{Name: last, Scope: r.TopScope(p)})
		found = true
	}
	if found {
		return out, link.InTree
	}
	if len(rest) > 1 {
		// a.b.C.m, a.b.C.Companion.m
		owner := rest[len(rest)-2]
		if owner == "Companion" && len(rest) > 2 {
			owner = rest[len(rest)-3]
		}
		if keys, found, _ := r.MemberKeys(out, r.Types[pkgscope.TypeName{Pkg: p, Name: owner}], last); found {
			return keys, link.InTree
		}
	}
	return out, link.Unknown
}

// topKeys appends the keys of the top-level function or property name
// as file i sees it: imported by name, else of its own package, else of
// the packages it imports on demand.
func (r *javaResolver) topKeys(out []link.Ref, i int, name string) ([]link.Ref, link.Place) {
	f := r.File(i)
	if full, ok := f.Single[name]; ok {
		return r.importKeys(out, full)
	}
	if own := (pkgscope.TypeName{Pkg: r.Pkg[i], Name: name}); len(r.Tops[own]) > 0 {
		return append(out, link.Ref{Name: name, Scope: r.TopScope(own.Pkg)}), link.InTree
	}
	at := link.Unknown
	for _, d := range f.Demand {
		if len(r.Tops[pkgscope.TypeName{Pkg: d, Name: name}]) > 0 {
			out = append(out, link.Ref{Name: name, Scope: r.TopScope(d)})
			at = link.InTree
		}
	}
	return out, at
}

// kotlinCallKeys appends the keys of a call of name, reference j of
// Kotlin file i, qualified by qual.
func (r *javaResolver) kotlinCallKeys(out []link.Ref, i, j int, name, qual string) []link.Ref {
	fallback := link.FallbackRef(name)
	switch {
	case strings.HasPrefix(qual, "this@"): // a labelled this: an outer class's
		qual = "this"
	case strings.HasPrefix(qual, "super<"): // super<Base>
		qual = "super"
	}
	var from []int // the files whose types' members name may be
	outside := false
	switch {
	case qual == "" && capitalized(name):
		// A constructor, or a function named like one.
		if keys, ok := r.TypeRefKeys(out, i, name); ok {
			return keys
		}
		from = []int{i}
	case qual == "" || qual == "this":
		from = []int{i}
	case qual == "super":
		bases, o := r.BasesOf(i)
		if len(bases) == 0 && o {
			return out
		}
		from = bases
	case qual == "." || qual == "?." || !javaValue(qual) && strings.ToUpper(qual) == qual:
		// Another expression's member, or a constant's.
		return r.valueKeys(out, i, name)
	default: // x.m() on a declared name, C.m() on a type or an object
		ns, at := r.kotlinReceiver(i, j, qual)
		switch at {
		case link.Outside:
			outside = true
		case link.Unknown:
			return r.valueKeys(out, i, name)
		}
		if !javaValue(qual) && capitalized(name) {
			// Outer.Inner(…): a nested type.
			var nested []pkgscope.TypeName
			for _, n := range ns {
				if len(r.Types[pkgscope.TypeName{Pkg: n.Pkg, Name: name}]) > 0 {
					nested = append(nested, pkgscope.TypeName{Pkg: n.Pkg, Name: name})
				}
			}
			if len(nested) > 0 {
				return r.TypeKeys(out, nested)
			}
		}
		from = r.TypeFiles(ns)
	}
	keys, found, o := r.MemberKeys(out, from, name)
	if found {
		return keys
	}
	// An extension function, or for a plain call a top-level one.
	keys, at := r.topKeys(out, i, name)
	switch {
	case at == link.InTree:
		return keys
	case at == link.Outside, outside, o, kotlinStd[name]:
		return out
	}
	return append(out, fallback)
}

// kotlinReceiver resolves the type of qual, the receiver of reference j
// of Kotlin file i: a value's declared type (unknown when the file
// declares none), or the type qual names.
func (r *javaResolver) kotlinReceiver(i, j int, qual string) ([]pkgscope.TypeName, link.Place) {
	if javaValue(qual) {
		return r.VarType(i, j, qual)
	}
	return r.TypeOf(i, qual)
}

// UseContext: in a Kotlin file, a call on a declared name means the
// members of the type of the declaration in effect where it is, the tag
// index of that declaration plus one (0 for other references, and for
// Java files, whose calls resolve once per file).
func (r *javaResolver) UseContext(i, j int) int32 {
	set := r.Tree[i].Tags
	if !r.isKotlin(i) || set.Sub(j) != "call" || !javaValue(set.Qual(j)) {
		return 0
	}
	return int32(r.VarDecl(i, j, set.Qual(j)) + 1)
}

// valueKeys appends the keys of member name of a value whose type the
// rules do not know: an extension function in scope, else nothing for a
// name imported from outside the tree or of the standard library, else
// every member of that name of a Java or Kotlin type of the tree.
func (r *javaResolver) valueKeys(out []link.Ref, i int, name string) []link.Ref {
	keys, at := r.topKeys(out, i, name)
	switch {
	case at == link.InTree:
		return keys
	case at == link.Outside, kotlinStd[name]:
		return out
	}
	return append(out, link.Ref{Name: name, Scope: jvmMembersScope})
}

// capitalized reports whether name begins with an upper-case letter.
func capitalized(name string) bool {
	c, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(c)
}

// kotlinJVM is what a Kotlin file on the JVM sees unimported: Kotlin's
// standard library and the JDK's common types.
var kotlinJVM = func() map[string]bool {
	m := maps.Clone(kotlinStd)
	maps.Copy(m, javaJDK)
	return m
}()

// kotlinStd lists the names of Kotlin's standard library that every file
// sees (kotlin, kotlin.collections, kotlin.text, kotlin.io, kotlin.ranges,
// kotlin.sequences, kotlin.comparisons, kotlin.jvm, and java.Lang on the
// JVM, which javaJDK has): types, functions and the extension functions
// every value has. A use of one that the tree does not place means the
// library's.
var kotlinStd = link.Words(`Any Unit Nothing String Int Long Short Byte Double Float Boolean Char Number UInt ULong
	UShort UByte Array IntArray LongArray ShortArray ByteArray CharArray FloatArray DoubleArray BooleanArray
	UIntArray ULongArray UByteArray List MutableList ArrayList Map MutableMap HashMap LinkedHashMap Set
	MutableSet HashSet LinkedHashSet Collection MutableCollection Iterable MutableIterable Iterator
	MutableIterator ListIterator MutableListIterator Sequence Pair Triple Comparable Comparator CharSequence
	StringBuilder Appendable Regex MatchResult IntRange LongRange CharRange IntProgression ClosedRange Lazy
	Result Enum Annotation Function KClass Throwable Exception Error RuntimeException IllegalArgumentException
	IllegalStateException NullPointerException UnsupportedOperationException IndexOutOfBoundsException
	NoSuchElementException ConcurrentModificationException ArithmeticException NumberFormatException
	ClassCastException AssertionError NotImplementedError KotlinNullPointerException Deprecated
	DeprecationLevel ReplaceWith Suppress PublishedApi OptIn RequiresOptIn SinceKotlin DslMarker
	JvmStatic JvmField JvmOverloads JvmName JvmSynthetic JvmInline JvmDefault JvmMultifileClass
	JvmSuppressWildcards JvmWildcard Throws Volatile Synchronized Transient Strictfp
	println print readLine readln require requireNotNull check checkNotNull error TODO assert
	listOf listOfNotNull mutableListOf arrayListOf emptyList mapOf mutableMapOf hashMapOf linkedMapOf
	emptyMap setOf mutableSetOf hashSetOf linkedSetOf emptySet sequenceOf emptySequence generateSequence
	arrayOf arrayOfNulls emptyArray intArrayOf longArrayOf byteArrayOf charArrayOf shortArrayOf
	floatArrayOf doubleArrayOf booleanArrayOf lazy lazyOf repeat buildString buildList buildMap buildSet
	sequence iterator maxOf minOf compareBy compareValues compareValuesBy enumValues enumValueOf
	synchronized run with runCatching suspend
	let also apply takeIf takeUnless use to toString equals hashCode
	map mapNotNull mapIndexed flatMap filter filterNot filterNotNull filterIsInstance forEach
	forEachIndexed onEach any all none count first firstOrNull last lastOrNull single singleOrNull
	find indexOf contains containsKey isEmpty isNotEmpty isNullOrEmpty orEmpty isBlank isNotBlank
	isNullOrBlank fold reduce sum sumOf joinToString associate associateBy associateWith groupBy
	partition zip sorted sortedBy sortedWith sortedDescending reversed distinct distinctBy take
	takeWhile drop dropWhile plus minus toList toMutableList toSet toMutableSet toMap toMutableMap
	toTypedArray asSequence asList withIndex getOrElse getOrNull getOrPut getOrDefault
	trim trimIndent trimMargin split substring startsWith endsWith replace lowercase uppercase
	padStart padEnd removePrefix removeSuffix toInt toLong toShort toByte toChar toDouble toFloat
	toIntOrNull toLongOrNull until downTo step coerceAtLeast coerceAtMost coerceIn
	copyOf copyOfRange fill size add addAll remove removeAll clear put get set iterator`)

// jvmMembersScope is the scope under which every member of a Java or
// Kotlin type publishes too, for the members of values whose type the
// rules do not know.
const jvmMembersScope = "jvm.members"

// MoreDefKeys: with Kotlin's rules, a member of a Java or Kotlin type
// publishes under jvmMembersScope too.
func (r *javaResolver) MoreDefKeys(out []string, i, j int) []string {
	if len(r.Langs) == 0 {
		return out
	}
	set, lang := r.Tree[i].Tags, r.LangOf(i)
	switch sub := set.Sub(j); {
	case sub == "package", lang.IsType(sub), sub == "constructor", lang.Top != nil && lang.Top(set, j):
		return out
	}
	return append(out, rank.Key(set.Str(set.Tags[j].Name), jvmMembersScope))
}
