package repomap

import (
	"slices"
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
// What the rules cannot place falls back to names.
//
// Kotlin files are of the same model and the same packages, so that Java
// and Kotlin files of a tree use each other's types both ways; what Kotlin
// adds (top-level functions and properties, renamed imports, extension
// functions, objects) is in resolve_kotlin.go.

// jvmResolver holds the Java and Kotlin files of a snapshot.
type jvmResolver struct {
	s      *snapshot
	kotlin map[int]bool            // the Kotlin files
	pkg    map[int]string          // per file: its package ("a.b", or "/dir" without a declaration)
	pkgs   map[string]bool         // the packages of the tree
	types  map[javaName][]int      // per type in its package: the files that define it
	tops   map[javaName][]int      // per Kotlin top-level function or property in its package: the files that define it
	mems   map[int]map[string]bool // per file: the members it defines
	mscope map[int]string          // per file: the scope of its members
	files  map[int]*javaFile       // per file, made on first use
	bases  map[int][]int           // per file: the files of its supertypes in the tree, made on first use
	out    map[int]bool            // per file: whether some supertype is outside the tree
}

// javaName is a type in a package.
type javaName struct{ pkg, name string }

// javaFile is what one Java file imports and declares.
type javaFile struct {
	single  map[string]string // simple name → the name a single-type import gives it ("a.b.C")
	demand  []string          // names imported on demand ("a.b" of "a.b.*")
	statics map[string]string // member name → the type a static import takes it from ("a.b.C")
	sdemand []string          // types whose members are imported on demand ("import static a.b.C.*")
	vars    map[string][]int  // per declared name: its type references, in line order
}

// newJVMResolver returns the resolver of the Java and Kotlin files of s.
func newJVMResolver(s *snapshot, files []int) *jvmResolver {
	r := &jvmResolver{s: s, kotlin: make(map[int]bool), pkg: make(map[int]string, len(files)), pkgs: make(map[string]bool),
		types: make(map[javaName][]int), tops: make(map[javaName][]int), mems: make(map[int]map[string]bool), mscope: make(map[int]string),
		files: make(map[int]*javaFile), bases: make(map[int][]int), out: make(map[int]bool)}
	for _, i := range files {
		set := s.entries[i].tags
		kt := tags.Detect(s.files[i].path, nil) == "kotlin"
		if kt {
			r.kotlin[i] = true
		}
		p := declaredPackage(set)
		if p == "" {
			p = "/" + goDir(s.files[i].path)
		}
		r.pkg[i] = p
		r.pkgs[p] = true
		mems := make(map[string]bool)
		for j, t := range set.Tags {
			if t.Kind != tags.Definition {
				continue
			}
			name := set.Strings[t.Name]
			switch {
			case javaType(set.Sub(j)):
				addFile(r.types, javaName{p, name}, i)
			case kt && kotlinTop(set, j):
				addFile(r.tops, javaName{p, name}, i)
			case set.Sub(j) != "package" && set.Sub(j) != "constructor":
				mems[name] = true
			}
		}
		r.mems[i] = mems
		r.mscope[i] = "java.m:" + s.files[i].path
	}
	return r
}

// addFile adds file i to the files of n in m, once.
func addFile(m map[javaName][]int, n javaName, i int) {
	if !slices.Contains(m[n], i) {
		m[n] = append(m[n], i)
	}
}

// declaredPackage returns the name of the package a file's tags declare
// ("a.b"), or "".
func declaredPackage(set tags.Set) string {
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "package" {
			return set.Qual(j)
		}
	}
	return ""
}

// javaType reports whether a definition of kind sub is a type (Kotlin's
// objects and type aliases too).
func javaType(sub string) bool {
	switch sub {
	case "class", "interface", "enum", "record", "object", "type":
		return true
	}
	return false
}

// javaScope returns the scope of the types of package p.
func javaScope(p string) string { return "java:" + p }

// javaMembers returns the scope of the members of file i.
func (r *jvmResolver) javaMembers(i int) string { return r.mscope[i] }

func (r *jvmResolver) defKey(i, j int) ref {
	set := r.s.entries[i].tags
	name := set.Strings[set.Tags[j].Name]
	switch sub := set.Sub(j); {
	case sub == "package":
		return ref{name: name, scope: "java.pkg:" + r.pkg[i]}
	case javaType(sub), sub == "constructor" && !r.kotlin[i]:
		return ref{name: name, scope: javaScope(r.pkg[i])}
	case r.kotlin[i] && kotlinTop(set, j):
		return ref{name: name, scope: kotlinScope(r.pkg[i])}
	}
	return ref{name: name, scope: r.javaMembers(i)}
}

// file returns what file i imports and declares.
func (r *jvmResolver) file(i int) *javaFile {
	if f, ok := r.files[i]; ok {
		return f
	}
	f := &javaFile{single: make(map[string]string), statics: make(map[string]string), vars: make(map[string][]int)}
	set := r.s.entries[i].tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference {
			continue
		}
		name, qual := set.Strings[t.Name], set.Qual(j)
		if r.kotlin[i] && (set.Sub(j) == "import" || set.Sub(j) == "package") {
			kotlinImport(f, set.Sub(j), name, qual)
			continue
		}
		static := strings.HasPrefix(qual, "static ")
		full := strings.TrimPrefix(qual, "static ")
		switch sub := set.Sub(j); {
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
		case sub == "type" && javaValue(qual):
			f.vars[qual] = append(f.vars[qual], j)
		}
	}
	r.files[i] = f
	return f
}

// javaValue reports whether a qualifier names a value: a lower-case name.
func javaValue(q string) bool {
	c, _ := utf8.DecodeRuneInString(q)
	return q != "" && q != "this" && q != "super" && (unicode.IsLower(c) || c == '_' || c == '$')
}

// javaPlace is where a name resolves: to types of the tree, outside it,
// or nowhere the rules know.
type javaPlace uint8

const (
	javaUnknown javaPlace = iota
	javaInTree
	javaOutside
)

// split splits a dotted name into a package of the tree and what follows
// it ("a.b.C.D" → "a.b", "C.D"), the longest package that fits.
func (r *jvmResolver) split(full string) (string, string, bool) {
	for k := strings.LastIndexByte(full, '.'); k > 0; k = strings.LastIndexByte(full[:k], '.') {
		if p := full[:k]; r.pkgs[p] {
			return p, full[k+1:], true
		}
	}
	return "", "", false
}

// lastName returns the last name of a dotted name.
func lastName(dotted string) string { return dotted[strings.LastIndexByte(dotted, '.')+1:] }

// named resolves the dotted name of a type, as an import gives it: the
// type, nested or not, in its package.
func (r *jvmResolver) named(full string) (javaName, javaPlace) {
	p, rest, ok := r.split(full)
	if !ok {
		return javaName{}, javaOutside
	}
	n := javaName{p, lastName(rest)}
	if len(r.types[n]) == 0 {
		return javaName{}, javaUnknown
	}
	return n, javaInTree
}

// typeOf resolves the type name used in file i: the types it can mean, or
// where it is when none of the tree.
func (r *jvmResolver) typeOf(i int, name string) ([]javaName, javaPlace) {
	f := r.file(i)
	if full, ok := f.single[name]; ok {
		n, at := r.named(full)
		if at != javaInTree {
			return nil, at
		}
		return []javaName{n}, javaInTree
	}
	if own := (javaName{r.pkg[i], name}); len(r.types[own]) > 0 {
		return []javaName{own}, javaInTree
	}
	var out []javaName
	for _, d := range f.demand {
		if n := (javaName{d, name}); len(r.types[n]) > 0 {
			out = append(out, n) // "a.b.*"
		} else if p, _, ok := r.split(d); ok && len(r.types[javaName{p, name}]) > 0 {
			out = append(out, javaName{p, name}) // "a.b.C.*": C's nested types
		}
	}
	if len(out) == 0 {
		// A nested type of a type imported by name ("Outer.Inner").
		for _, full := range f.single {
			if p, _, ok := r.split(full); ok && len(r.types[javaName{p, name}]) > 0 && !slices.Contains(out, javaName{p, name}) {
				out = append(out, javaName{p, name})
			}
		}
		slices.SortFunc(out, func(a, b javaName) int { return strings.Compare(a.pkg, b.pkg) })
	}
	if len(out) > 0 {
		return out, javaInTree
	}
	if javaJDK[name] || r.kotlin[i] && kotlinStd[name] {
		return nil, javaOutside
	}
	return nil, javaUnknown
}

// typeKeys appends the keys of the types ns.
func typeKeys(out []ref, ns []javaName) []ref {
	for _, n := range ns {
		out = append(out, ref{name: n.name, scope: javaScope(n.pkg)})
	}
	return out
}

// typeFiles returns the files that define the types ns.
func (r *jvmResolver) typeFiles(ns []javaName) []int {
	var out []int
	for _, n := range ns {
		for _, f := range r.types[n] {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// basesOf returns the files of the supertypes of the types of file i that
// the tree defines, and whether some supertype is outside it.
func (r *jvmResolver) basesOf(i int) ([]int, bool) {
	if b, ok := r.bases[i]; ok {
		return b, r.out[i]
	}
	r.bases[i] = nil // a cycle of supertypes ends here
	set := r.s.entries[i].tags
	var in []int
	outside := false
	for j, t := range set.Tags {
		if t.Kind != tags.Reference || !r.supertype(i, j) {
			continue
		}
		ns, at := r.typeOf(i, set.Strings[t.Name])
		if at != javaInTree {
			outside = true
			continue
		}
		for _, f := range r.typeFiles(ns) {
			if f != i && !slices.Contains(in, f) {
				in = append(in, f)
			}
		}
	}
	r.bases[i], r.out[i] = in, outside
	return in, outside
}

// supertype reports whether reference j of file i names a supertype:
// after "extends" or "implements" in Java, in Kotlin after the colon of a
// class (a class called, an interface not).
func (r *jvmResolver) supertype(i, j int) bool {
	set := r.s.entries[i].tags
	if set.Sub(j) == "implementation" {
		return true
	}
	if r.kotlin[i] {
		return set.Sub(j) == "class"
	}
	return set.Qual(j) == "extends"
}

// memberKeys appends the keys of member name of the files from and of
// the files of their supertypes: on each line of inheritance, the nearest
// that defines it. found tells whether any does; outside whether a
// supertype outside the tree was met.
func (r *jvmResolver) memberKeys(out []ref, from []int, name string) (_ []ref, found, outside bool) {
	out, found, outside = inheritedKeys(out, from, name, func(f int) bool { return r.mems[f][name] }, r.javaMembers, r.basesOf)
	// Every class inherits Object's methods.
	return out, found, outside || javaObject[name]
}

// javaObject lists the methods of java.lang.Object.
var javaObject = set(`equals hashCode toString getClass clone finalize notify notifyAll wait`)

// staticKeys appends the keys of member name as the static imports of
// file i give it.
func (r *jvmResolver) staticKeys(out []ref, i int, name string) ([]ref, bool) {
	f := r.file(i)
	var from []string
	if c, ok := f.statics[name]; ok {
		from = []string{c}
	} else {
		from = f.sdemand
	}
	found := false
	for _, c := range from {
		n, at := r.named(c)
		if at != javaInTree {
			continue
		}
		var ok bool
		out, ok, _ = r.memberKeys(out, r.types[n], name)
		found = found || ok
	}
	return out, found
}

func (r *jvmResolver) refKeys(out []ref, i, j int) []ref {
	if r.kotlin[i] {
		return r.kotlinRefKeys(out, i, j)
	}
	set := r.s.entries[i].tags
	t := set.Tags[j]
	name, sub, qual := set.Strings[t.Name], set.Sub(j), set.Qual(j)
	fallback := ref{name: name, scope: fallbackScope, fallback: true}
	switch sub {
	case "import":
		if qual == "" {
			break
		}
		full := strings.TrimPrefix(qual, "static ")
		if full == qual { // import a.b.C
			n, at := r.named(full)
			switch at {
			case javaInTree:
				return typeKeys(out, []javaName{n})
			case javaOutside:
				return out
			}
			break
		}
		// import static a.b.C.m
		k := strings.LastIndexByte(full, '.')
		n, at := r.named(full[:max(k, 0)])
		switch at {
		case javaInTree:
			if keys, found, _ := r.memberKeys(out, r.types[n], name); found {
				return keys
			}
		case javaOutside:
			return out
		}
	case "package":
		full := strings.TrimPrefix(qual, "static ")
		switch {
		case qual == "":
		case full != qual: // import static a.b.C.*
			if n, at := r.named(full); at == javaInTree {
				return typeKeys(out, []javaName{n})
			} else if at == javaOutside {
				return out
			}
		default:
			return r.demandKeys(out, name, full)
		}
	case "call":
		return r.callKeys(out, i, j, name, qual)
	default: // a type: class, implementation, annotation, type
		if keys, ok := r.typeRefKeys(out, i, name); ok {
			return keys
		}
	}
	return append(out, fallback)
}

// demandKeys appends the keys of an import on demand of full, a
// reference to name: "a.b" of "import a.b.*", the package, or "a.b.C" of
// "import a.b.C.*", the type; nothing when full is outside the tree.
func (r *jvmResolver) demandKeys(out []ref, name, full string) []ref {
	if r.pkgs[full] {
		return append(out, ref{name: name, scope: "java.pkg:" + full})
	}
	if n, at := r.named(full); at == javaInTree {
		return typeKeys(out, []javaName{n})
	}
	return out
}

// typeRefKeys appends the keys of the types the type name used in file i
// means, and reports whether the rules place it: in the tree or outside.
func (r *jvmResolver) typeRefKeys(out []ref, i int, name string) ([]ref, bool) {
	switch ns, at := r.typeOf(i, name); at {
	case javaInTree:
		return typeKeys(out, ns), true
	case javaOutside:
		return out, true
	}
	return out, false
}

// callKeys appends the keys of a call of name, reference j of file i,
// qualified by qual.
func (r *jvmResolver) callKeys(out []ref, i, j int, name, qual string) []ref {
	fallback := ref{name: name, scope: fallbackScope, fallback: true}
	var from []int
	switch {
	case qual == "" || qual == "this":
		keys, found, outside := r.memberKeys(out, []int{i}, name)
		if found {
			return keys
		}
		if qual == "" {
			if keys, found := r.staticKeys(out, i, name); found {
				return keys
			}
		}
		if outside {
			return out // inherited from a supertype outside the tree
		}
		return append(out, fallback)
	case qual == "super":
		bases, outside := r.basesOf(i)
		if len(bases) == 0 && outside {
			return out
		}
		from = bases
	case qual == "." || qual == "::" || !javaValue(qual) && strings.ToUpper(qual) == qual:
		// An expression, or a constant's value.
		return append(out, fallback)
	default: // x.m() on a declared name, C.m() on a type
		ns, at := r.receiverType(i, j, qual)
		switch at {
		case javaOutside:
			return out
		case javaUnknown:
			return append(out, fallback)
		}
		from = r.typeFiles(ns)
	}
	keys, found, outside := r.memberKeys(out, from, name)
	switch {
	case found:
		return keys
	case outside:
		return out
	}
	return append(out, fallback)
}

// receiverType resolves the type of qual, the receiver of reference j of
// file i: a declared name's type, or the type it names.
func (r *jvmResolver) receiverType(i, j int, qual string) ([]javaName, javaPlace) {
	if javaValue(qual) {
		return r.varType(i, j, qual)
	}
	return r.typeOf(i, qual)
}

// varType resolves the declared type of the name x as reference j of file
// i uses it.
func (r *jvmResolver) varType(i, j int, x string) ([]javaName, javaPlace) {
	d := r.varDecl(i, j, x)
	if d < 0 {
		return nil, javaUnknown
	}
	set := r.s.entries[i].tags
	return r.typeOf(i, set.Strings[set.Tags[d].Name])
}

// varDecl returns the type reference of the declaration of x in effect
// for reference j of file i: the nearest at or before j's line, else the
// first after it (a field declared below its use); -1 for none.
func (r *jvmResolver) varDecl(i, j int, x string) int {
	decls := r.file(i).vars[x]
	if len(decls) == 0 {
		return -1
	}
	set := r.s.entries[i].tags
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

// useContext: a call on a declared name means the members of the type
// of the declaration in effect where it is, the tag index of that
// declaration plus one (0 for other references).
func (r *jvmResolver) useContext(i, j int) int32 {
	set := r.s.entries[i].tags
	if set.Sub(j) != "call" || !javaValue(set.Qual(j)) {
		return 0
	}
	return int32(r.varDecl(i, j, set.Qual(j)) + 1)
}

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
