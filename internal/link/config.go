package link

// Config says how the link stage ties references to definitions. The
// zero Config links every reference to every definition of its name, as
// Aider does; policy.Default holds repomap's.
type Config struct {
	// Resolve resolves references by each language's rules; a reference
	// the rules cannot place links to every definition of its name, at
	// the Fallback weight.
	Resolve bool
	// Rules are the rules of the languages Resolve resolves by (package
	// langs lists them); the files of other languages link by name.
	Rules []*Rules
	// Family, with Resolve, keeps links by name within a family of
	// languages: the languages whose code can use each other's names
	// without a binding the tags see (a page's script and its elements'
	// ids, Kotlin and Java).
	Family bool
	// Fallback is the weight of the edges of name matches the rules
	// could not place, relative to a resolved one.
	Fallback float64
	// Names, when positive, links a resolved reference by its name too,
	// at this weight.
	Names float64
	// Builtins drops calls of a language's builtin functions and uses of
	// its builtin types.
	Builtins bool
	// Fixtures links a parameter of a Python test or fixture to the
	// pytest fixtures of its name; Exports makes a name that a Python
	// module's __all__ lists a use of it there; Hints makes the names of
	// a Python type annotation uses of them.
	Fixtures, Exports, Hints bool
	// Readme links the names the code of each root's README uses;
	// DocCode those of every Markdown document's code. Such links weigh
	// only where the ranking says (policy.Config.DocMaps).
	Readme, DocCode bool
}

// Links reports whether references of kind sub link files: the
// parameters that name fixtures only with Fixtures, the names of an
// __all__ only with Exports, Python's type annotations only with Hints;
// the bindings of Python's variables never.
func (c Config) Links(sub string) bool {
	switch sub {
	case "fixture":
		return c.Fixtures
	case "export":
		return c.Exports
	case "hint":
		return c.Hints
	}
	return !IsBinding(sub) // what a Python variable holds, for the rules alone
}

// IsBinding reports whether references of kind sub say what a Python
// variable holds (x = F(…), self.a = F(…), x: T, x = [], self.a = {}):
// no use of a name, for the rules alone.
func IsBinding(sub string) bool {
	switch sub {
	case "bind", "selfbind", "bindhint", "bindlit", "selfbindlit":
		return true
	}
	return false
}
