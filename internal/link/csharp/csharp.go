// Package csharp resolves C#: namespaces, usings (a project file's too),
// extension methods.
package csharp

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/pkgscope"
	"github.com/repomap-dev/repomap/tags"
)

// C#: a file's namespace is the one it declares ("namespace A.B { … }",
// "namespace A.B;", a namespace nested in another), the global namespace
// without one; the code of namespace A.B sees the types of A.B, of A and
// of the global namespace, wherever they are. A type name means, in this
// order, the type an alias names ("using X = A.B.C;"), a type of the
// file's namespace or of its parents, of a namespace a using directive
// names ("using A.B;", and the nested types of "using static A.B.C;"), a
// nested type of an aliased one; a type of the BCL that none of those
// place links to nothing, and so does a namespace outside the tree
// ("using System.Linq;"). A "global using" counts in every file, and a
// project file's <Using Include="A.B" /> in the files below it.
// "[Foo]" means Foo or FooAttribute. Members (methods, properties,
// fields, constants) are in the scope of the file that defines them: M()
// and this.M() mean the M of the file's types (all the parts of a
// partial class) or of their bases in the tree, else one a "using
// static" brings; base.M() the bases'; C.M() on a type C the M of C's
// files and its bases; x.M() the M of x's declared type where the file
// declares x (a field, a property, a local "T x = …" or "var x = new
// T(…)", a parameter) and, when the type has none, an extension method
// ("this T x" first) of the file's namespaces or of those it uses. A
// method of Object that none of them defines, and a member of a type
// outside the tree that no extension method of the tree gives, link to
// nothing. What the rules cannot place falls back to names.

// Rules resolve C#.
var Rules = &link.Rules{
	Name:      "csharp",
	Languages: []string{"csharp"},
	Reads:     func(f link.File) bool { return strings.HasSuffix(f.Path, ".csproj") },
	New: func(tree []link.File, mine []int) link.Lang {
		var csproj []int
		for i, f := range tree {
			if f.Lang == "xml" && strings.HasSuffix(f.Path, ".csproj") {
				csproj = append(csproj, i)
			}
		}
		return newCSharpResolver(tree, mine, csproj)
	},
}

// csharpResolver holds the C# files of a tree.
type csharpResolver struct {
	*pkgscope.Resolver
	rules   pkgscope.Language
	global  *pkgscope.File             // what the "global using" directives of the tree bring
	project []csProject                // the project files' usings, by directory
	exts    map[pkgscope.TypeName]bool // the extension methods of each namespace
	heads   map[string]bool            // the first names of the tree's namespaces
	nsAlias map[int]map[string]string
}

// csGlobal is the namespace of the types a file declares outside any
// namespace.
const csGlobal = "global::"

// csProject is what a project file's <Using> items bring the C# files
// below its directory.
type csProject struct {
	dir    string   // "" for the root
	usings []string // as directives: "global using static A.B;"
}

// newCSharpResolver returns the resolver of the C# files of s, which see
// the <Using> items of the project files csproj.
func newCSharpResolver(tree []link.File, files, csproj []int) *csharpResolver {
	r := &csharpResolver{global: pkgscope.NewFile(), exts: make(map[pkgscope.TypeName]bool), heads: make(map[string]bool),
		nsAlias: make(map[int]map[string]string)}
	r.rules = pkgscope.Language{
		Prefix: "cs",
		IsType: csType,
		IsBase: func(_, qual string) bool { return qual == ":" },
		Std:    csBCL,
		Root:   csObject,
		Closed: true,
		Read:   r.readFile,
	}
	r.Resolver = pkgscope.New(tree, files, &r.rules, csNamespace)
	for p := range r.Pkgs {
		head, _, _ := strings.Cut(p, ".")
		r.heads[head] = true
	}
	for _, i := range csproj {
		set := tree[i].Tags
		p := csProject{dir: link.Dir(tree[i].Path)}
		for j, t := range set.Tags {
			if t.Kind == tags.Reference && set.Sub(j) == "using" && set.Qual(j) != "" {
				u := "global using " + set.Qual(j) + ";"
				if ns, ok := strings.CutSuffix(set.Qual(j), " Static"); ok {
					u = "global using static " + ns + ";"
				}
				p.usings = append(p.usings, u)
			}
		}
		if len(p.usings) > 0 {
			r.project = append(r.project, p)
		}
	}
	for _, i := range files {
		set := tree[i].Tags
		for j, t := range set.Tags {
			switch {
			case t.Kind == tags.Definition && set.Sub(j) == "method" && set.Qual(j) == "this":
				r.exts[pkgscope.TypeName{Pkg: r.Pkg[i], Name: set.Str(t.Name)}] = true
			case t.Kind == tags.Reference && set.Sub(j) == "import" && strings.HasPrefix(set.Qual(j), "global "):
				r.using(r.global, i, set.Qual(j))
			}
		}
	}
	return r
}

// csNamespace returns the namespace a file's tags declare, the innermost
// of the first nesting ("A.B" of "namespace A { namespace B { … } }"), or
// the global namespace.
func csNamespace(set tags.Set) string {
	ns := ""
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && set.Sub(j) == "package" {
			q := strings.ReplaceAll(set.Qual(j), " ", ".")
			if ns != "" && !strings.HasPrefix(q, ns+".") {
				break
			}
			ns = q
		}
	}
	if ns == "" {
		return csGlobal
	}
	return ns
}

// csType reports whether a definition of kind sub is a type.
func csType(sub string) bool {
	switch sub {
	case "class", "struct", "interface", "enum", "record", "type":
		return true
	}
	return false
}

// csValue reports whether a qualifier names a value or a type: a name,
// not "this", "base" or an expression's ".".
func csValue(q string) bool {
	c, _ := utf8.DecodeRuneInString(q)
	return q != "this" && q != "base" && (unicode.IsLetter(c) || c == '_' || c == '@')
}

// readFile reads what C# file i imports and declares.
func (r *csharpResolver) readFile(p *pkgscope.Resolver, i int) *pkgscope.File {
	f := pkgscope.NewFile()
	f.Demand = slices.Clone(r.global.Demand)
	f.StaticDemand = slices.Clone(r.global.StaticDemand)
	for k, v := range r.global.Single {
		f.Single[k] = v
	}
	for ns := p.Pkg[i]; ; {
		f.Own = append(f.Own, ns)
		k := strings.LastIndexByte(ns, '.')
		if k < 0 {
			break
		}
		ns = ns[:k]
	}
	if f.Own[len(f.Own)-1] != csGlobal {
		f.Own = append(f.Own, csGlobal)
	}
	for _, proj := range r.project {
		if d := proj.dir; d == "" || d == "." || strings.HasPrefix(p.Tree[i].Path, d+"/") {
			for _, u := range proj.usings {
				r.using(f, i, u)
			}
		}
	}
	set := p.Tree[i].Tags
	for j, t := range set.Tags {
		if t.Kind != tags.Reference {
			continue
		}
		qual := set.Qual(j)
		switch sub := set.Sub(j); {
		case sub == "import" && !strings.HasPrefix(qual, "global "):
			r.using(f, i, qual)
		case (sub == "type" || sub == "class") && csValue(qual):
			f.Vars[qual] = append(f.Vars[qual], j)
		}
	}
	return f
}

// usingDirective is a using directive, read from its text.
type usingDirective struct {
	static bool
	alias  string // "X" of "using X = A.B.C;"
	target string // "A.B.C"
}

// parseUsing reads a using directive's text ("global using static A.B;").
func parseUsing(text string) usingDirective {
	var u usingDirective
	rest := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "global "))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "using "))
	if s, ok := strings.CutPrefix(rest, "static "); ok {
		u.static, rest = true, strings.TrimSpace(s)
	}
	if a, t, ok := strings.Cut(rest, "="); ok {
		u.alias, rest = strings.TrimSpace(a), t
	}
	u.target = strings.Join(strings.Fields(rest), "")
	return u
}

// using records in f what the using directive qual (its text) of file i
// brings.
func (r *csharpResolver) using(f *pkgscope.File, i int, qual string) {
	u := parseUsing(qual)
	switch {
	case u.target == "":
	case u.alias != "" && r.Pkgs[u.target]:
		if r.nsAlias[i] == nil {
			r.nsAlias[i] = make(map[string]string)
		}
		r.nsAlias[i][u.alias] = u.target
	case u.alias != "":
		f.Single[u.alias] = u.target
	case u.static:
		f.StaticDemand = append(f.StaticDemand, u.target)
		f.Demand = append(f.Demand, u.target) // its nested types
	default:
		f.Demand = append(f.Demand, u.target)
	}
}

func (r *csharpResolver) RefKeys(out []link.Ref, i, j int) []link.Ref {
	set := r.Tree[i].Tags
	t := set.Tags[j]
	name, sub, qual := set.Str(t.Name), set.Sub(j), set.Qual(j)
	fallback := link.FallbackRef(name)
	switch sub {
	case "import":
		u := parseUsing(qual)
		if u.target == "" {
			break
		}
		if r.Pkgs[u.target] {
			return append(out, link.Ref{Name: name, Scope: r.PkgScope(u.target)})
		}
		if keys, done := r.NamedKeys(out, u.target); done {
			return keys
		}
	case "call":
		return r.callKeys(out, i, j, name, qual)
	case "attribute":
		for _, n := range []string{name + "Attribute", name} {
			if ns, at := r.TypeOf(i, n); at == link.InTree {
				return r.TypeKeys(out, ns)
			}
		}
		if csBCL[name] || csBCL[name+"Attribute"] || !r.TypeNames[name] && !r.TypeNames[name+"Attribute"] {
			return out
		}
	default: // a type: class, implementation, type
		if qual == "." && len(r.File(i).Vars[name]) > 0 {
			return out // a property's or a field's value, not a type
		}
		if keys, done := r.TypeRefKeys(out, i, name); done {
			return keys
		}
		if qual == "." && (r.heads[name] || r.nsAlias[i][name] != "") {
			return out // a namespace: "Shop.Model.Order.Of()"
		}
	}
	return append(out, fallback)
}

// callKeys appends the keys of a call of name, reference j of file i,
// qualified by qual.
func (r *csharpResolver) callKeys(out []link.Ref, i, j int, name, qual string) []link.Ref {
	c := pkgscope.Call{Name: name, Recv: pkgscope.Typed}
	switch {
	case qual == "" || qual == "this":
		c.Recv, c.Plain = pkgscope.Own, qual == ""
	case qual == "base":
		c.Recv = pkgscope.Super
	case !csValue(qual):
		c.Recv = pkgscope.Other // another expression: "a.B().C()"
	default: // x.M() on a declared name, C.M() on a type
		c.Types, c.At = r.ReceiverType(i, j, qual)
		switch {
		case c.At != link.InTree && len(r.File(i).Vars[qual]) == 0 && !unicode.IsUpper(rune(qual[0])):
			// A value whose type the file does not say.
			if keys, ok := r.extKeys(out, i, name); ok || csObject[name] {
				return keys
			}
			c.Recv = pkgscope.Other
		case c.At == link.Outside:
			keys, _ := r.extKeys(out, i, name)
			return keys
		case c.At == link.InTree:
			// The type's member, else an extension method.
			if keys, done := r.MemberCallKeys(out, i, c); done {
				return keys
			}
			if keys, ok := r.extKeys(out, i, name); ok {
				return keys
			}
			c.Recv = pkgscope.Other
		}
	}
	return r.CallKeys(out, i, c)
}

// extKeys appends the keys of the extension methods named name that file
// i sees: those of its namespaces and of the namespaces it uses.
func (r *csharpResolver) extKeys(out []link.Ref, i int, name string) ([]link.Ref, bool) {
	f := r.File(i)
	found := false
	for _, ns := range [][]string{f.Own, f.Demand} {
		for _, p := range ns {
			if r.exts[pkgscope.TypeName{Pkg: p, Name: name}] {
				out = append(out, link.Ref{Name: name, Scope: csExtScope(p)})
				found = true
			}
		}
	}
	return out, found
}

// csExtScope returns the scope of the extension methods of namespace p.
func csExtScope(p string) string { return csExtPrefix + p }

// csExtPrefix begins the scopes of C#'s extension methods.
const csExtPrefix = "cs.ext:"

// MoreDefKeys publishes an extension method under its namespace's
// extension methods too.
func (r *csharpResolver) MoreDefKeys(out []string, i, j int) []string {
	set := r.Tree[i].Tags
	if set.Sub(j) == "method" && set.Qual(j) == "this" {
		out = append(out, link.Ref{Name: set.Str(set.Tags[j].Name), Scope: csExtScope(r.Pkg[i])}.Key())
	}
	return out
}

// csObject lists the methods of System.Object.
var csObject = link.Words(`ToString Equals GetHashCode GetType MemberwiseClone ReferenceEquals Finalize`)

// csBCL lists the most common types of the BCL (System, System.IO,
// System.Text, System.Collections.Generic, System.Linq,
// System.Threading.Tasks…), which a file sees through its using
// directives: a use of one the tree does not place means the BCL's.
var csBCL = link.Words(`Object String Int16 Int32 Int64 UInt16 UInt32 UInt64 Boolean Byte SByte Char Double Single Decimal
	IntPtr UIntPtr DateTime DateTimeOffset DateOnly TimeOnly TimeSpan Guid Uri Version Type Array Enum Attribute
	Delegate MulticastDelegate Nullable Lazy Tuple ValueTuple Func Action Predicate Comparison Converter
	EventHandler EventArgs Exception SystemException ArgumentException ArgumentNullException
	ArgumentOutOfRangeException InvalidOperationException InvalidCastException NotSupportedException
	NotImplementedException ObjectDisposedException NullReferenceException OperationCanceledException
	TaskCanceledException TimeoutException AggregateException FormatException IndexOutOfRangeException
	KeyNotFoundException OverflowException DivideByZeroException OutOfMemoryException StackOverflowException
	IOException FileNotFoundException DirectoryNotFoundException UnauthorizedAccessException
	Console Math Convert Environment GC Activator BitConverter Buffer Random StringComparer StringComparison
	IDisposable IAsyncDisposable IEquatable IComparable IComparer IEqualityComparer ICloneable IFormattable
	IFormatProvider IServiceProvider IObservable IObserver IProgress Progress Span ReadOnlySpan Memory
	ReadOnlyMemory ArraySegment StringBuilder Encoding Regex Match CultureInfo
	List Dictionary HashSet Queue Stack LinkedList SortedDictionary SortedList SortedSet KeyValuePair
	IEnumerable IEnumerator ICollection IList IDictionary IReadOnlyList IReadOnlyCollection IReadOnlyDictionary
	ISet IReadOnlySet EqualityComparer Comparer ConcurrentDictionary ConcurrentQueue ConcurrentBag
	ConcurrentStack BlockingCollection ImmutableArray ImmutableList ImmutableDictionary Enumerable Queryable
	IQueryable IOrderedEnumerable IGrouping ILookup ReadOnlyCollection Collection ObservableCollection
	Task ValueTask TaskCompletionSource TaskScheduler TaskFactory CancellationToken CancellationTokenSource
	CancellationTokenRegistration SemaphoreSlim Interlocked Monitor Mutex Thread ThreadPool Timer Stopwatch
	Volatile ManualResetEventSlim AsyncLocal ThreadLocal Parallel IAsyncEnumerable IAsyncEnumerator
	ConfiguredTaskAwaitable Channel Debug Debugger Trace File FileInfo Path Directory DirectoryInfo Stream
	MemoryStream FileStream StreamReader StreamWriter TextReader TextWriter BinaryReader BinaryWriter
	StringReader StringWriter Expression MethodInfo PropertyInfo FieldInfo ParameterInfo ConstructorInfo
	MemberInfo Assembly BindingFlags HttpClient HttpRequestMessage HttpResponseMessage HttpStatusCode
	JsonSerializer ObsoleteAttribute Obsolete SerializableAttribute Serializable FlagsAttribute Flags
	AttributeUsage AttributeTargets MethodImpl MethodImplOptions CallerMemberName CallerFilePath
	CallerLineNumber NotNull MaybeNull AllowNull DisallowNull NotNullWhen MaybeNullWhen NotNullIfNotNull
	DoesNotReturn DebuggerStepThrough DebuggerDisplay DebuggerHidden DebuggerNonUserCode Conditional
	EditorBrowsable EditorBrowsableState ExcludeFromCodeCoverage GeneratedCode CompilerGenerated
	InternalsVisibleTo StructLayout DllImport MarshalAs`)

// IsMore reports whether k is the key of an extension method, which its
// definition publishes under beside its own.
func (r *csharpResolver) IsMore(k link.Ref) bool { return strings.HasPrefix(k.Scope, csExtPrefix) }
