package tags

import (
	"github.com/alecthomas/chroma/v2"
)

// lexerLanguages are the tier-2 languages: no grammar, tags from a lexer.
var lexerLanguages = []*language{
	{name: "clojure", exts: []string{".clj", ".cljs", ".cljc", ".edn"}, shebang: []string{"clojure", "clj", "bb"}, lexer: "Clojure"},
	{name: "cmake", exts: []string{".cmake"}, files: []string{"CMakeLists.txt"}, lexer: "CMake"},
	{name: "commonlisp", exts: []string{".lisp", ".lsp", ".cl", ".asd"}, shebang: []string{"sbcl", "clisp", "ecl"}, lexer: "Common Lisp"},
	{name: "crystal", exts: []string{".cr"}, shebang: []string{"crystal"}, lexer: "Crystal"},
	{name: "d", exts: []string{".d", ".di"}, lexer: "D"},
	{name: "elixir", exts: []string{".ex", ".exs"}, shebang: []string{"elixir"}, lexer: "Elixir"},
	{name: "elm", exts: []string{".elm"}, lexer: "Elm"},
	{name: "emacslisp", exts: []string{".el"}, files: []string{".emacs", "_emacs"}, lexer: "EmacsLisp"},
	{name: "erlang", exts: []string{".erl", ".hrl", ".escript"}, files: []string{"rebar.config"}, shebang: []string{"escript"}, lexer: "Erlang"},
	{name: "fortran", exts: []string{".f90", ".f95", ".f03", ".f08", ".f", ".for", ".ftn"}, lexer: "Fortran"},
	{name: "fsharp", exts: []string{".fs", ".fsi", ".fsx"}, lexer: "FSharp"},
	{name: "gdscript", exts: []string{".gd"}, lexer: "GDScript"},
	{name: "gleam", exts: []string{".gleam"}, lexer: "Gleam"},
	{name: "graphql", exts: []string{".graphql", ".graphqls", ".gql"}, lexer: "GraphQL"},
	{name: "markdown", exts: []string{".md", ".markdown", ".mdown", ".mkd"}, byHand: true},
	{name: "matlab", exts: []string{".m"}, lexer: "Matlab"},
	{name: "nim", exts: []string{".nim", ".nims", ".nimble"}, lexer: "Nim"},
	{name: "nix", exts: []string{".nix"}, lexer: "Nix"},
	{name: "objectivec", exts: []string{".mm"}, lexer: "Objective-C"},
	{name: "pascal", exts: []string{".pas", ".dpr", ".dpk", ".lpr"}, lexer: "ObjectPascal"},
	{name: "perl", exts: []string{".pl", ".pm", ".t"}, shebang: []string{"perl"}, lexer: "Perl"},
	{name: "pony", exts: []string{".pony"}, lexer: "Pony"},
	{name: "powershell", exts: []string{".ps1", ".psm1", ".psd1"}, shebang: []string{"pwsh", "powershell"}, lexer: "PowerShell"},
	{name: "properties", exts: []string{".properties"}, lexer: "properties"},
	{name: "protobuf", exts: []string{".proto"}, lexer: "Protocol Buffer"},
	{name: "racket", exts: []string{".rkt", ".rktl", ".rktd"}, shebang: []string{"racket"}, lexer: "Racket"},
	{name: "scss", exts: []string{".scss"}, lexer: "SCSS"},
	{name: "solidity", exts: []string{".sol"}, lexer: "Solidity"},
	{name: "sql", exts: []string{".sql"}, lexer: "SQL"},
	{name: "swift", exts: []string{".swift"}, lexer: "Swift"},
	{name: "vbnet", exts: []string{".vb"}, lexer: "VB.net"},
	{name: "vim", exts: []string{".vim"}, files: []string{".vimrc", "_vimrc", ".gvimrc", "_gvimrc", ".exrc"}, lexer: "VimL"},
	{name: "vue", exts: []string{".vue"}, lexer: "vue"},
}

// lexSpec says how the tokens of one language become tags. Most languages
// need only the tables; a hook handles what they cannot say.
type lexSpec struct {
	// defs maps a defining word (a keyword, or a name the lexer does not
	// know as a keyword, like Solidity's "error") to the kind of the
	// definition whose name comes next: "def foo", "(defun foo".
	defs map[string]string
	// topDefs are defining words whose names are definitions only at the
	// top of the file or in a type's body: "let", "var", "const". With
	// braces, that is outside every function body; otherwise the word
	// must start its line at column 0, after modifiers (skip) and
	// decorators.
	topDefs map[string]string
	// impls are words whose next name is a reference "implementation" and
	// whose body is a type's body: Swift's "extension Foo".
	impls map[string]bool
	// sections are words that open an indented section of definitions
	// when they end their line or "(" follows them (Nim's "type",
	// MATLAB's "properties"). A section word that is also in topDefs
	// must be at column 0.
	sections map[string]string
	// skip are the words and punctuation that may come between a defining
	// word and its name: modifiers, "::", the "(" of "(define (f x)".
	skip map[string]bool
	// fold makes defining words case-insensitive (SQL, Fortran).
	fold bool
	// lineStart requires a defining word to be the first on its line,
	// after the words in skip.
	lineStart bool

	// defTypes are token types that are definitions by themselves.
	defTypes map[chroma.TokenType]string
	// col0Types are token types that are definitions at column 0; a run of
	// them with the same name (Erlang's clauses, Elm's annotation and
	// equation) is one definition.
	col0Types map[chroma.TokenType]string
	// assign are token types that are definitions when "=" follows, at a
	// nesting depth of at most assignDepth.
	assign      map[chroma.TokenType]string
	assignDepth int

	// nameTypes are token types, besides names, that may be the name of a
	// definition (Elm's type names are KeywordType).
	nameTypes []chroma.TokenType
	// refTypes are the token types of references, besides the default
	// ones (see isRefType); noRefTypes removes defaults.
	refTypes, noRefTypes []chroma.TokenType
	// noRefs: the language has no references (properties).
	noRefs bool
	// sep are the separators of qualified names ("Shop.Inventory",
	// "str/join"): a definition is named by the last part, and each part
	// is a reference. Empty keeps qualified names whole.
	sep string
	// stop are names that are never tags (lower-case with fold).
	stop map[string]bool
	// keys: a name that "=" follows and that is no definition is no
	// reference either: it is a key (Nix attributes, protobuf fields).
	keys bool
	// noCalls: a "(" after a name does not make it a call (SQL's
	// "INSERT INTO t (a, b)").
	noCalls bool
	// noRefLines are the words that start lines without references (Vim's
	// "set" and "highlight" name options and groups).
	noRefLines map[string]bool
	// join are the separators of a qualified name made of several tokens,
	// "." unless set: a defining word names the last part.
	join map[string]bool
	// assignOp is the operator of assign, "=" unless set.
	assignOp string
	// braces tracks "{" and "}" to tell a type's body from a function's.
	braces bool
	// lisp: a defining word comes right after "(", a name right after
	// "(" is a call, and "(" and "[" may come between a defining word and
	// its name.
	lisp bool
	// kwOnly: defining words are keyword tokens, never names.
	kwOnly bool
	// wholeNames: a name is the token's whole text, spaces and all
	// (Markdown headings, property keys).
	wholeNames bool
	// fileKind, when set, makes the file define its own name (a Vue
	// component) at line 0.
	fileKind string

	// hook, when set, is asked first about each token that no defining
	// word claimed: it returns a definition kind, "ref" for a reference,
	// "-" for a token that is no tag, or "" to let the tables decide.
	hook func(s *lexState, i int) string
	// lexerFor picks another chroma lexer by extension.
	lexerFor map[string]string
}

// lexSpecs are the specs of the languages with a lexer, by language name.
var lexSpecs = map[string]*lexSpec{
	"cmake": {
		defs:      words("function", "function", "macro", "macro"),
		topDefs:   words("set", "variable", "option", "option"),
		skip:      set("("),
		fold:      true,
		nameTypes: types(chroma.LiteralString),
		refTypes:  types(chroma.NameBuiltin, chroma.NameVariable),
		// Commands of the language itself.
		stop: set("if", "elseif", "else", "endif", "foreach", "endforeach", "while", "endwhile", "break",
			"continue", "return", "function", "endfunction", "macro", "endmacro", "block", "endblock",
			"set", "unset", "list", "string", "math", "message", "option", "include", "project",
			"cmake_minimum_required", "cmake_policy", "cmake_parse_arguments", "get_filename_component"),
	},
	"clojure": {
		defs: words("def", "variable", "defonce", "variable", "defn", "function", "defn-", "function",
			"defmacro", "macro", "defmulti", "function", "defmethod", "method", "defprotocol", "protocol",
			"defrecord", "record", "deftype", "type", "definterface", "interface", "defstruct", "struct",
			"ns", "namespace"),
		skip:     set("^:private", "^:dynamic"),
		refTypes: types(chroma.NameVariable),
		sep:      "./",
		stop:     set("this", "%", "&"),
		lisp:     true,
	},
	"commonlisp": {
		defs: words("defun", "function", "defmacro", "macro", "defgeneric", "function", "defmethod", "method",
			"defclass", "class", "defstruct", "struct", "deftype", "type", "define-condition", "condition",
			"defvar", "variable", "defparameter", "variable", "defconstant", "constant", "defpackage", "package",
			"define-compiler-macro", "macro", "define-symbol-macro", "macro"),
		nameTypes: types(chroma.LiteralStringSymbol),
		refTypes:  types(chroma.NameVariable, chroma.NameVariableGlobal),
		// LOOP's words, which the lexer takes for variables.
		stop: set("nil", "t", "for", "being", "the", "of", "in", "on", "across", "from", "to", "below", "above", "by",
			"collect", "collecting", "append", "sum", "count", "maximize", "minimize", "do", "while", "until",
			"with", "into", "finally", "using", "when", "unless", "if", "and", "else", "end", "repeat", "return",
			"always", "never", "thereis", "hash-key", "hash-keys", "hash-value", "hash-values", "each", "upfrom", "downto"),
		lisp: true,
	},
	"crystal": {
		defs: words("def", "method", "macro", "macro", "fun", "function", "class", "class", "struct", "struct",
			"module", "module", "enum", "enum", "lib", "library", "annotation", "annotation", "alias", "type",
			"record", "struct", "getter", "property", "setter", "property", "property", "property"),
		assign:      typeKinds(chroma.NameConstant, "constant"),
		assignDepth: -1,
		sep:         ":",
		stop:        set("new", "self"),
	},
	"d": {
		defs: words("class", "class", "struct", "struct", "interface", "interface", "union", "union",
			"enum", "enum", "template", "template", "mixin", "template", "module", "module", "alias", "type"),
		defTypes: typeKinds(chroma.NameFunction, "function"),
		skip:     set("static", "final", "abstract", "synchronized"),
		refTypes: types(chroma.NameAttribute),
		braces:   true,
	},
	"elixir": {
		defs: words("defmodule", "module", "defprotocol", "protocol", "def", "function", "defp", "function",
			"defmacro", "macro", "defmacrop", "macro", "defguard", "guard", "defguardp", "guard",
			"defdelegate", "function", "@type", "type", "@typep", "type",
			"@opaque", "type", "@callback", "callback", "@macrocallback", "callback"),
		impls: set("defimpl"),
		sep:   ".",
		stop:  set("__MODULE__"),
	},
	"elm": {
		defs:       words("type", "type", "port", "function", "module", "module"),
		skip:       set("alias"),
		col0Types:  typeKinds(chroma.NameVariable, "function"),
		nameTypes:  types(chroma.KeywordType),
		refTypes:   types(chroma.NameVariable, chroma.KeywordType),
		noRefTypes: types(chroma.NameFunction), // operators
		stop:       set("exposing", "as"),
		hook:       elmHook,
	},
	"emacslisp": {
		defs: words("defun", "function", "defsubst", "function", "defmacro", "macro", "cl-defun", "function",
			"cl-defmacro", "macro", "cl-defgeneric", "function", "cl-defmethod", "method", "cl-defstruct", "struct",
			"defclass", "class", "defvar", "variable", "defvar-local", "variable", "defcustom", "variable",
			"defconst", "constant", "defgroup", "group", "defface", "face", "defalias", "function",
			"define-minor-mode", "mode", "define-derived-mode", "mode", "define-globalized-minor-mode", "mode"),
		refTypes: types(chroma.NameVariable),
		stop:     set("nil", "t"),
		lisp:     true,
	},
	"erlang": {
		defs: words("module", "module", "record", "record", "type", "type", "opaque", "type",
			"define", "macro", "callback", "callback"),
		skip:       set("("),
		col0Types:  typeKinds(chroma.NameFunction, "function"),
		nameTypes:  types(chroma.NameLabel),
		refTypes:   types(chroma.NameLabel),
		noRefTypes: types(chroma.NameConstant),
		hook:       erlangHook,
	},
	"fortran": {
		defs: words("program", "program", "module", "module", "submodule", "module", "subroutine", "subroutine",
			"function", "function", "interface", "interface", "type", "type", "parameter", "constant",
			"block", "block", "common", "block"),
		skip:     set("::", "data", "/"), // "block data name", "common /name/"
		fold:     true,
		stop:     set("in", "out", "inout"),
		hook:     fortranHook,
		lexerFor: map[string]string{".f": "FortranFixed", ".for": "FortranFixed"},
	},
	"fsharp": {
		defs: words("type", "type", "module", "module", "namespace", "namespace", "member", "method",
			"abstract", "method", "override", "method", "default", "method", "exception", "exception"),
		topDefs:  words("let", "binding"),
		skip:     set("rec", "inline", "private", "internal", "public", "mutable", "static", "member"),
		sep:      ".",
		refTypes: types(chroma.NameVariable),
		stop: set("this", "_", "int", "int64", "uint", "float", "double", "decimal", "bool", "char", "byte",
			"string", "unit", "obj"),
		hook: fsharpHook,
	},
	"gdscript": {
		defs: words("func", "function", "class", "class", "class_name", "class", "signal", "signal",
			"enum", "enum", "const", "constant"),
		topDefs: words("var", "variable"),
		skip:    set("static"),
		stop:    set("self", "super"),
		hook:    gdscriptHook,
	},
	"gleam": {
		defs:      words("fn", "function", "type", "type", "const", "constant"),
		skip:      set("pub", "opaque"),
		lineStart: true,
		hook:      gleamHook,
	},
	"graphql": {
		defs: words("type", "type", "interface", "interface", "enum", "enum", "input", "input",
			"scalar", "scalar", "union", "union", "fragment", "fragment", "query", "query",
			"mutation", "mutation", "subscription", "subscription", "directive", "directive"),
		refTypes: types(chroma.NameProperty),
		braces:   true,
		kwOnly:   true,
		hook:     graphqlHook,
	},
	"matlab": {
		defs:     words("function", "function", "classdef", "class"),
		sections: words("properties", "property", "events", "event", "enumeration", "constant"),
		defTypes: typeKinds(chroma.NameFunction, "function"),
		stop:     set("properties", "methods", "events", "enumeration"), // the words of a classdef's blocks
	},
	"nim": {
		defs: words("proc", "procedure", "func", "function", "method", "method", "iterator", "iterator",
			"converter", "converter", "template", "template", "macro", "macro"),
		topDefs:  words("type", "type", "const", "constant", "let", "variable", "var", "variable"),
		sections: words("type", "type", "const", "constant", "let", "variable", "var", "variable"),
		stop:     set("result"),
	},
	"nix": {
		assign:      typeKinds(chroma.Name, "binding"),
		assignDepth: 1,
		keys:        true,
		stop:        set("self", "super"),
	},
	"objectivec": {
		defs:     words("@interface", "class", "@protocol", "protocol", "@implementation", "class", "@class", "-"),
		assign:   typeKinds(chroma.Name, "variable"),
		refTypes: types(chroma.NameLabel),
		braces:   true,
		stop:     set("self", "super", "id", "nil", "YES", "NO", "NULL"),
		hook:     objcHook,
	},
	"pascal": {
		defs: words("unit", "module", "program", "program", "library", "library", "procedure", "procedure",
			"function", "function", "constructor", "constructor", "destructor", "destructor", "property", "property"),
		sections:  words("type", "type", "const", "constant", "resourcestring", "constant"),
		fold:      true,
		nameTypes: types(chroma.Text),
		refTypes:  types(chroma.Text),
		stop: set("class", "record", "object", "interface", "of", "array", "set", "string", "integer", "boolean",
			"cardinal", "byte", "word", "char", "real", "double", "int64", "pointer", "result", "self", "inherited"),
	},
	"perl": {
		defs:       words("sub", "function", "package", "package", "constant", "constant", "format", "-"),
		noRefTypes: types(chroma.NameVariable),
		stop: set("SUPER", "__PACKAGE__", "strict", "warnings", "utf8", "lib", "constant", "parent", "base",
			"vars", "feature", "integer", "overload"),
		hook: perlHook,
	},
	"pony": {
		defs: words("class", "class", "actor", "actor", "primitive", "primitive", "trait", "trait",
			"interface", "interface", "struct", "struct", "type", "type",
			"fun", "method", "be", "behaviour", "new", "constructor"),
		skip: set("ref", "val", "box", "iso", "trn", "tag", "\\nodoc\\"),
		stop: set("this"),
	},
	"powershell": {
		defs:     words("function", "function", "filter", "function", "workflow", "function", "class", "class", "enum", "enum"),
		skip:     set("global:", "script:"),
		fold:     true,
		refTypes: types(chroma.NameBuiltin, chroma.NameProperty),
		braces:   true,
		// Type names of "[string] $s".
		stop: set("string", "int", "long", "bool", "double", "decimal", "char", "byte", "object", "void",
			"array", "hashtable", "switch", "datetime", "timespan", "psobject", "pscustomobject",
			"scriptblock", "regex", "xml", "ordered", "cmdletbinding", "parameter", "outputtype"),
		hook: powershellHook,
	},
	"properties": {
		defTypes:   typeKinds(chroma.NameAttribute, "property"),
		noRefs:     true,
		wholeNames: true,
	},
	"protobuf": {
		defs: words("message", "message", "enum", "enum", "service", "service", "rpc", "rpc", "extend", "-",
			"package", "package"),
		sep:  ".",
		keys: true,
	},
	"racket": {
		defs: words("define", "binding", "define-syntax", "macro", "define-syntax-rule", "macro",
			"define-values", "-", "struct", "struct", "define-struct", "struct",
			"define/public", "method", "define/private", "method", "define/override", "method",
			"define/augment", "method", "define/pubment", "method", "define-logger", "-"),
		lisp: true,
	},
	"scss": {
		defs:        words("@mixin", "mixin", "@function", "function"),
		assign:      typeKinds(chroma.NameVariable, "variable"),
		assignOp:    ":",
		assignDepth: 0,
		refTypes:    types(chroma.NameVariable),
		noRefTypes:  types(chroma.NameClass, chroma.NameConstant),
		braces:      true,
		hook:        scssHook,
	},
	"solidity": {
		defs: words("contract", "contract", "interface", "interface", "library", "library", "struct", "struct",
			"enum", "enum", "event", "event", "error", "error", "modifier", "modifier", "function", "function",
			"constant", "constant", "immutable", "variable", "type", "type"),
		skip:   set("abstract"),
		braces: true,
		stop:   set("emit", "this", "super", "msg"),
		hook:   solidityHook,
	},
	"sql": {
		fold:    true,
		noCalls: true,
		hook:    sqlHook,
	},
	"swift": {
		defs: words("func", "function", "class", "class", "struct", "struct", "enum", "enum",
			"protocol", "protocol", "actor", "actor", "typealias", "type", "associatedtype", "type"),
		topDefs: words("let", "constant", "var", "variable"),
		impls:   set("extension"),
		braces:  true,
		stop:    set("self", "Self", "super"),
		hook:    swiftHook,
	},
	"vbnet": {
		defs: words("sub", "function", "function", "function", "class", "class", "structure", "struct",
			"module", "module", "interface", "interface", "enum", "enum", "namespace", "namespace",
			"property", "property", "event", "event", "const", "constant"),
		skip: set("readonly", "writeonly", "default", "custom", "shadows"),
		fold: true,
		stop: set("me", "mybase", "myclass"),
	},
	"vim": {
		defs:     words("function", "function", "fu", "function", "fun", "function", "func", "function", "def", "function"),
		topDefs:  words("let", "variable", "const", "constant"),
		skip:     set("!"),
		join:     set(":", "#", "."),
		refTypes: types(chroma.NameOther),
		noRefLines: set("set", "se", "setlocal", "setl", "setglobal", "highlight", "hi", "syntax", "syn",
			"autocmd", "au", "filetype", "colorscheme", "language"),
		// Scopes of "s:name", and the commands and words the lexer takes
		// for names.
		stop: set("g", "s", "l", "a", "b", "w", "t", "v", "abort", "range", "dict", "closure", "call",
			"silent", "finish", "echo", "echomsg", "echoerr", "execute", "exe", "normal", "command",
			"nargs", "bang", "bar", "complete", "autocmd", "augroup", "setlocal", "setglobal", "set",
			"map", "noremap", "nnoremap", "vnoremap", "xnoremap", "inoremap", "onoremap", "cnoremap",
			"nmap", "vmap", "xmap", "imap", "omap", "buffer", "expr", "unique", "Plug", "SID", "CR",
			"Esc", "Leader", "LocalLeader", "f", "args", "q", "unlet", "return", "syntax", "highlight"),
		hook: vimHook,
	},
	"vue": {
		defs:    words("function", "function", "class", "class", "interface", "interface", "type", "type", "enum", "enum"),
		topDefs: words("const", "constant", "let", "variable", "var", "variable"),
		skip:    set("async", "*"),
		braces:  true,
		stop: set("from", "as", "of", "string", "number", "boolean", "any", "void", "unknown", "never",
			"object", "undefined", "this", "super", "true", "false", "null"),
		kwOnly:   true,
		fileKind: "component",
		hook:     vueHook,
	},
}

// words makes a map from pairs: word, kind, word, kind…
func words(pairs ...string) map[string]string {
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

func set(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, w := range s {
		m[w] = true
	}
	return m
}

func types(t ...chroma.TokenType) []chroma.TokenType { return t }

// typeKinds makes a map from pairs: token type, kind…
func typeKinds(pairs ...any) map[chroma.TokenType]string {
	m := map[chroma.TokenType]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i].(chroma.TokenType)] = pairs[i+1].(string)
	}
	return m
}
