package tags

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
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
	{name: "markdown", exts: []string{".md", ".markdown", ".mdown", ".mkd"}, lexer: "markdown"},
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

// Bounds on the work lex does on one file: huge or minified input is
// tokenised up to these limits, and the tags found so far are returned.
const (
	maxLexBytes  = 2 << 20 // bytes of the file that are lexed
	maxLexTokens = 200_000 // tokens read from the lexer
	lexCheck     = 8       // tokens between two looks at ctx and the clock
)

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
	// noRefs: the language has no references (Markdown, properties).
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
			"defdelegate", "function", "defexception", "exception", "@type", "type", "@typep", "type",
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
	},
	"fortran": {
		defs: words("program", "program", "module", "module", "submodule", "module", "subroutine", "subroutine",
			"function", "function", "interface", "interface", "type", "type", "parameter", "constant",
			"block", "block", "common", "block"),
		skip:     set("::"),
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
	},
	"gdscript": {
		defs: words("func", "function", "class", "class", "class_name", "class", "signal", "signal",
			"enum", "enum", "const", "constant"),
		topDefs: words("var", "variable"),
		skip:    set("static"),
		stop:    set("self", "super"),
	},
	"gleam": {
		defs:      words("fn", "function", "type", "type", "const", "constant"),
		skip:      set("pub", "opaque"),
		lineStart: true,
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
	"markdown": {
		defTypes:   typeKinds(chroma.GenericHeading, "heading", chroma.GenericSubheading, "heading"),
		noRefs:     true,
		wholeNames: true,
		hook:       markdownHook,
	},
	"matlab": {
		defs:     words("function", "function", "classdef", "class"),
		sections: words("properties", "property", "events", "event", "enumeration", "constant"),
		defTypes: typeKinds(chroma.NameFunction, "function"),
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

// genericDefs are the words after which lexRefs takes the name for a
// definition's, not a reference.
var genericDefs = set("def", "class", "function", "func", "fn", "struct", "interface", "enum", "trait",
	"module", "namespace", "sub", "proc", "macro", "type", "object", "record", "union", "defmodule",
	"defn", "defun", "local", "val", "var", "let", "const")

// containerKinds are the kinds of definition whose body holds members,
// not statements: a variable there is a field, not a local.
var containerKinds = set("class", "struct", "enum", "interface", "protocol", "actor", "contract",
	"library", "module", "namespace", "trait", "message", "service", "type", "input", "record",
	"union", "primitive", "implementation", "package", "object")

// variableKinds are the kinds of definition that open no scope.
var variableKinds = set("variable", "constant", "property", "field", "binding", "event", "error")

// tok is one significant token: comments and white space are dropped.
type tok struct {
	typ       chroma.TokenType
	text      string // trimmed of white space
	line, col int    // of the first character of text; col in bytes
	lineStart bool   // the first significant token of its line
	def       string // a defining word before it made it this definition
	used      bool   // part of a name already tagged
}

// lexState is the state of turning one file's tokens into tags.
type lexState struct {
	spec  *lexSpec
	path  string
	toks  []tok
	tags  []Tag
	scope []bool // the "{" scopes: true for a type's body
	funcs int    // scopes in scope that are not a type's body
	paren int    // depth of "(" and "["
	open  bool   // the last definition opens a type's body at the next "{"
	sect  struct {
		kind      string
		col       int // the column of the section's entries, -1 before the first
		keywordAt int // column of the section's word
	}
	lastDef string // name of the last col0Types definition
}

// lex returns the tags of a tier-2 file from its lexer's tokens, sorted
// by line: definitions where a defining word, the token's type or its
// place says so (see lexSpec), references for the other names.
func (p *Parser) lex(ctx context.Context, l *language, path string, src []byte) ([]Tag, error) {
	if p.parser == nil {
		return nil, errClosed
	}
	spec := lexSpecs[l.name]
	if spec == nil {
		return nil, fmt.Errorf("%w: %s has no lexer spec", ErrUnsupportedLanguage, l.name)
	}
	return p.lexTags(ctx, spec, l, path, src, false)
}

// lexRefs returns references to the names a tier-1 file's lexer sees,
// sorted by line, for a language whose query has no references. The
// names after words that define ("def", "class"…) are left out.
func (p *Parser) lexRefs(ctx context.Context, l *language, path string, src []byte) ([]Tag, error) {
	spec := lexSpecs[l.name]
	if spec == nil {
		spec = &lexSpec{}
	}
	return p.lexTags(ctx, spec, l, path, src, true)
}

// lexTags runs the lexer and turns its tokens into tags. A panic, in
// chroma or here, is an error wrapping errLexerPanic.
func (p *Parser) lexTags(ctx context.Context, spec *lexSpec, l *language, path string, src []byte, refsOnly bool) (tags []Tag, err error) {
	defer func() {
		if r := recover(); r != nil {
			tags, err = nil, fmt.Errorf("tags: lex %s: %w: %v", path, errLexerPanic, r)
		}
	}()
	toks, err := p.tokens(ctx, spec, l, path, src)
	if err != nil {
		return nil, fmt.Errorf("tags: lex %s: %w", path, err)
	}
	s := &lexState{spec: spec, path: path, toks: toks}
	s.run(refsOnly)
	return s.tags, nil
}

// errLexerPanic wraps a panic inside the lexer.
var errLexerPanic = errors.New("lexer failed")

// tokens runs the language's lexer on src and returns its significant
// tokens, at most maxLexTokens of them from the first maxLexBytes.
func (p *Parser) tokens(ctx context.Context, spec *lexSpec, l *language, file string, src []byte) ([]tok, error) {
	name := l.lexer
	if alt, ok := spec.lexerFor[strings.ToLower(path.Ext(file))]; ok {
		name = alt
	}
	lx := lexers.Get(name)
	if lx == nil {
		return nil, fmt.Errorf("%w: no lexer %q for %s", ErrUnsupportedLanguage, name, l.name)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var deadline time.Time
	if p.timeout > 0 {
		deadline = time.Now().Add(p.timeout)
	}
	it, err := lx.Tokenise(&chroma.TokeniseOptions{State: "root"}, lexText(src))
	if err != nil {
		return nil, err
	}
	var toks []tok
	line, col := 0, 0
	lastLine := -1
	for n := 0; ; n++ {
		if n%lexCheck == 0 && n > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				return nil, ErrTimeout
			}
		}
		if n >= maxLexTokens {
			break
		}
		t := it()
		if t == chroma.EOF {
			break
		}
		v := t.Value
		// Skip leading white space, so that the token's line and column
		// are those of its first visible character.
		i := 0
		for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r' || v[i] == '\f') {
			if v[i] == '\n' {
				line, col = line+1, 0
			} else {
				col++
			}
			i++
		}
		startLine, startCol := line, col
		for _, c := range []byte(v[i:]) {
			if c == '\n' {
				line, col = line+1, 0
			} else {
				col++
			}
		}
		text := strings.TrimRight(v[i:], " \t\r\n\f")
		if text == "" || significance(t.Type) == 0 {
			continue
		}
		first := startLine != lastLine
		lastLine = line
		if significance(t.Type) == 1 && len(toks) > 0 && significance(toks[len(toks)-1].typ) == 1 {
			continue // one string token stands for a run of them
		}
		toks = append(toks, tok{typ: t.Type, text: text, line: startLine, col: startCol, lineStart: first})
	}
	return toks, nil
}

// lexText returns the part of src that is lexed, as a string. A carriage
// return becomes a space, so that only "\n" ends a line as for
// tree-sitter and the lexers' rules see Unix line ends.
func lexText(src []byte) string {
	if len(src) > maxLexBytes {
		src = src[:maxLexBytes]
		if i := bytes.LastIndexByte(src, '\n'); i > 0 {
			src = src[:i+1]
		}
	}
	return strings.ReplaceAll(string(src), "\r", " ")
}

// significance is 0 for tokens that are dropped (comments, white space),
// 1 for string literals (kept, a run as one, to separate the tokens around
// them) and 2 for the others.
func significance(t chroma.TokenType) int {
	switch {
	case t == chroma.TextWhitespace, t.InCategory(chroma.Comment):
		return 0
	case t == chroma.LiteralStringSymbol:
		return 2 // a Lisp symbol can be a name
	case t.InSubCategory(chroma.LiteralString):
		return 1
	}
	return 2
}

// isName tells whether a token of type t can name a definition.
func (s *lexState) isName(t chroma.TokenType) bool {
	return t.InCategory(chroma.Name) && t != chroma.NameTag && t != chroma.NameDecorator || slices.Contains(s.spec.nameTypes, t)
}

// isRefType tells whether a token of type t is a reference.
func (s *lexState) isRefType(t chroma.TokenType) bool {
	if slices.Contains(s.spec.noRefTypes, t) {
		return false
	}
	switch t {
	case chroma.Name, chroma.NameOther, chroma.NameClass, chroma.NameFunction, chroma.NameNamespace,
		chroma.NameConstant, chroma.NameException:
		return true
	}
	return slices.Contains(s.spec.refTypes, t)
}

// word returns the text of token i as a defining word.
func (s *lexState) word(i int) string {
	w := s.toks[i].text
	if s.spec.fold {
		w = strings.ToLower(w)
	}
	return w
}

// is tells whether token i exists and is the punctuation or operator p.
func (s *lexState) is(i int, p string) bool {
	if i < 0 || i >= len(s.toks) {
		return false
	}
	t := s.toks[i]
	return t.text == p && (t.typ.InCategory(chroma.Punctuation) || t.typ.InCategory(chroma.Operator) ||
		t.typ.InCategory(chroma.Text) || t.typ == chroma.KeywordDeclaration || t.typ == chroma.NameFunction)
}

// startsWith tells whether token i is punctuation or an operator that
// starts with p.
func (s *lexState) startsWith(i int, p string) bool {
	if i < 0 || i >= len(s.toks) {
		return false
	}
	t := s.toks[i]
	return strings.HasPrefix(t.text, p) && (t.typ.InCategory(chroma.Punctuation) || t.typ.InCategory(chroma.Operator) || t.typ.InCategory(chroma.Text))
}

// top tells whether token i is at the top of the file or in a type's
// body: outside every function body.
func (s *lexState) top(i int) bool {
	if s.spec.braces {
		return s.funcs == 0
	}
	for !s.toks[i].lineStart && (s.spec.skip[s.word(i-1)] || s.toks[i-1].typ == chroma.NameDecorator) {
		i-- // "static var", "@export var"
	}
	return s.toks[i].lineStart && s.toks[i].col == 0
}

// run turns the tokens into tags: definitions and references, or with
// refsOnly the references alone.
func (s *lexState) run(refsOnly bool) {
	sp := s.spec
	s.sect.col = -1
	if sp.fileKind != "" && !refsOnly {
		if n := componentName(s.path); validName(n) {
			s.tags = append(s.tags, Tag{Path: s.path, Name: n, Kind: Definition, Sub: sp.fileKind, Line: 0})
		}
	}
	for i := range s.toks {
		t := &s.toks[i]
		if t.typ.InCategory(chroma.Punctuation) || t.typ.InCategory(chroma.Operator) || t.typ.InCategory(chroma.Text) {
			s.punct(t.text)
		}
		if !refsOnly {
			s.section(i)
			s.defining(i)
		} else if j := i + 1; genericDefs[s.word(i)] && j < len(s.toks) && s.isName(s.toks[j].typ) &&
			t.typ.InCategory(chroma.Keyword) {
			s.toks[j].used = true // the name a definition gives is no reference
		}
		if t.used {
			continue
		}
		kind := t.def
		if kind == "" && !refsOnly {
			kind = s.defKind(i)
		}
		if kind == "-" {
			continue
		}
		if kind != "" && kind != "ref" {
			if n := s.name(i); n != "" {
				s.define(i, n, kind)
			}
			continue
		}
		if sp.noRefs || kind != "ref" && !s.isRefType(t.typ) || sp.keys && s.is(i+1, "=") ||
			sp.noRefLines != nil && sp.noRefLines[s.word(s.lineHead(i))] {
			continue
		}
		sub := "name"
		if s.call(i) {
			sub = "call"
		}
		for _, n := range s.names(i) {
			s.tags = append(s.tags, Tag{Path: s.path, Name: n, Kind: Reference, Sub: sub, Line: t.line})
		}
	}
	slices.SortStableFunc(s.tags, func(a, b Tag) int { return a.Line - b.Line })
}

// call tells whether token i is called: "f(" or, in Lisp, "(f" where
// the "(" is not a list of parameters or bindings.
func (s *lexState) call(i int) bool {
	if s.spec.noCalls {
		return false
	}
	if !s.spec.lisp {
		return s.startsWith(i+1, "(")
	}
	if !s.is(i-1, "(") || i < 2 {
		return false
	}
	p := s.toks[i-2]
	return !s.is(i-2, "(") && !s.is(i-2, "[") && p.def == "" && !p.used
}

// punct follows the nesting of braces and parentheses.
func (s *lexState) punct(p string) {
	for _, c := range p {
		switch c {
		case '{':
			inType := s.open
			if len(s.scope) < 1000 {
				s.scope = append(s.scope, inType)
			}
			if !inType {
				s.funcs++
			}
			s.open = false
		case '}':
			if n := len(s.scope); n > 0 {
				if !s.scope[n-1] {
					s.funcs--
				}
				s.scope = s.scope[:n-1]
			}
		case ';':
			if s.paren == 0 {
				s.open = false
			}
		case '(', '[':
			s.paren++
		case ')', ']':
			if s.paren > 0 {
				s.paren--
			}
		}
	}
}

// depth is the nesting of braces and parentheses at the current token.
func (s *lexState) depth() int { return len(s.scope) + s.paren }

// defining looks at token i as a defining word, and marks the name after
// it as a definition (or an implementation reference).
func (s *lexState) defining(i int) {
	sp := s.spec
	t := s.toks[i]
	if t.used || t.def != "" || significance(t.typ) != 2 {
		return
	}
	if sp.kwOnly && !t.typ.InCategory(chroma.Keyword) || sp.lisp && !s.is(i-1, "(") {
		return
	}
	w := s.word(i)
	kind, ok := sp.defs[w]
	if !ok {
		if kind, ok = sp.topDefs[w]; ok && !s.top(i) {
			return
		}
	}
	impl := !ok && sp.impls[w]
	if !ok && !impl {
		return
	}
	// "end function foo" ends a definition: foo is no tag.
	if i > 0 && s.toks[i-1].line == t.line && strings.EqualFold(s.toks[i-1].text, "end") {
		if i+1 < len(s.toks) && s.toks[i+1].line == t.line && s.isName(s.toks[i+1].typ) {
			s.toks[i+1].used = true
		}
		return
	}
	if sp.lineStart && !t.lineStart {
		j := i - 1
		for j >= 0 && s.toks[j].line == t.line && sp.skip[s.word(j)] {
			j--
		}
		if j >= 0 && s.toks[j].line == t.line {
			return
		}
	}
	j := i + 1
	parens := false
	for j < len(s.toks) && (sp.skip[s.word(j)] || sp.lisp && (s.is(j, "(") || s.is(j, "["))) {
		parens = parens || s.is(j, "(")
		j++
	}
	if j >= len(s.toks) || !s.isName(s.toks[j].typ) || s.toks[j].used || s.toks[j].def != "" {
		return
	}
	for k := i + 1; k < j; k++ {
		s.toks[k].used = true // "rec" in "let rec f"
	}
	// A qualified name: "Shop.Inventory", "this.Restock".
	for s.joins(j+1) && j+2 < len(s.toks) && s.isName(s.toks[j+2].typ) {
		s.toks[j].used = true
		j += 2
	}
	if impl {
		s.toks[j].def = "-" // a reference, below
		if n := s.name(j); n != "" {
			s.toks[j].used = true
			s.tags = append(s.tags, Tag{Path: s.path, Name: n, Kind: Reference, Sub: "implementation", Line: s.toks[j].line})
		}
		s.open = true
		s.toks[i].used = true // the word itself is no reference
		return
	}
	if kind == "binding" {
		kind = s.binding(j, parens)
	}
	s.toks[j].def = kind
	s.toks[i].used = true
}

// joins tells whether token i joins the parts of a qualified name.
func (s *lexState) joins(i int) bool {
	if s.spec.join == nil {
		return s.is(i, ".")
	}
	return i < len(s.toks) && s.spec.join[s.toks[i].text] && significance(s.toks[i].typ) == 2
}

// binding is the kind of a definition by "let" or "define": a function
// when parameters follow the name or the name is in parentheses, a
// variable otherwise.
func (s *lexState) binding(j int, parens bool) string {
	if s.spec.lisp {
		if parens {
			return "function"
		}
		return "variable"
	}
	if j+1 < len(s.toks) && (s.is(j+1, "=") || s.is(j+1, ":") || s.toks[j+1].line != s.toks[j].line) {
		return "variable"
	}
	return "function"
}

// section follows Nim-style sections: "type" alone on its line, then
// indented definitions.
func (s *lexState) section(i int) {
	sp := s.spec
	if len(sp.sections) == 0 {
		return
	}
	t := &s.toks[i]
	if s.sect.kind != "" && t.lineStart {
		switch {
		case t.col <= s.sect.keywordAt:
			s.sect.kind = ""
		case s.sect.col < 0:
			s.sect.col = t.col
			fallthrough
		case t.col == s.sect.col:
			if s.isName(t.typ) && t.def == "" {
				t.def = s.sect.kind
			}
		}
	}
	_, top := sp.topDefs[s.word(i)]
	if kind, ok := sp.sections[s.word(i)]; ok && t.lineStart && (t.col == 0 || !top) &&
		(i+1 == len(s.toks) || s.toks[i+1].line != t.line || s.is(i+1, "(")) {
		s.sect.kind, s.sect.col, s.sect.keywordAt = kind, -1, t.col
	}
}

// defKind returns the kind of definition token i is by its type or
// position, "-" for no tag, or "".
func (s *lexState) defKind(i int) string {
	sp := s.spec
	t := s.toks[i]
	if sp.hook != nil {
		if k := sp.hook(s, i); k != "" {
			return k
		}
	}
	if k, ok := sp.defTypes[t.typ]; ok {
		return k
	}
	if k, ok := sp.col0Types[t.typ]; ok && t.col == 0 {
		if n := s.name(i); n != "" && n == s.lastDef {
			return "-"
		}
		return k
	}
	if k, ok := sp.assign[t.typ]; ok && s.is(i+1, cmp.Or(sp.assignOp, "=")) && !s.is(i-1, ".") &&
		(sp.assignDepth < 0 || s.depth() <= sp.assignDepth) {
		return k
	}
	return ""
}

// define adds the definition n of token i.
func (s *lexState) define(i int, n, kind string) {
	t := s.toks[i]
	s.tags = append(s.tags, Tag{Path: s.path, Name: n, Kind: Definition, Sub: kind, Line: t.line})
	if _, ok := s.spec.col0Types[t.typ]; ok && t.col == 0 {
		s.lastDef = n
	} else {
		s.lastDef = ""
	}
	if !variableKinds[kind] {
		s.open = containerKinds[kind]
	}
}

// name returns the name token i defines: the last part of a qualified
// name, cleaned; "" when it is not a name.
func (s *lexState) name(i int) string {
	if s.spec.wholeNames {
		n := strings.TrimSpace(s.toks[i].text)
		if n == "" || n == "_" || strings.ContainsAny(n, "\n\r") {
			return ""
		}
		return n
	}
	n := cleanName(s.toks[i].text)
	if s.spec.sep != "" {
		if k := strings.LastIndexAny(n, s.spec.sep); k >= 0 && k+1 < len(n) {
			n = n[k+1:]
		}
	}
	if !validName(n) || s.stopped(n) {
		return ""
	}
	return n
}

// stopped tells whether n is a stop name.
func (s *lexState) stopped(n string) bool {
	if s.spec.fold {
		n = strings.ToLower(n)
	}
	return s.spec.stop[n]
}

// names returns the names token i refers to: each part of a qualified
// name.
func (s *lexState) names(i int) []string {
	if s.spec.wholeNames {
		if n := s.name(i); n != "" {
			return []string{n}
		}
		return nil
	}
	n := cleanName(s.toks[i].text)
	var parts []string
	if s.spec.sep != "" {
		parts = strings.FieldsFunc(n, func(r rune) bool { return strings.ContainsRune(s.spec.sep, r) })
	} else {
		parts = []string{n}
	}
	out := parts[:0]
	for _, p := range parts {
		if validName(p) && !s.stopped(p) {
			out = append(out, p)
		}
	}
	return out
}

// cleanName trims a token's text to the name in it: "#item" is item,
// ":pkg" is pkg, "restock:" is restock, "Get-Count([int" is Get-Count.
func cleanName(n string) string {
	n = strings.TrimLeft(n, "#:'`")
	if k := strings.IndexAny(n, "([{<,; \t\n\r\"="); k >= 0 {
		n = n[:k]
	}
	return strings.TrimRight(n, ":")
}

// validName tells whether n can be a tag's name: a word with a letter,
// not starting with a digit, without white space.
func validName(n string) bool {
	if n == "" || n == "_" || strings.ContainsAny(n, " \t\n\r") {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(n); unicode.IsDigit(r) || r == utf8.RuneError || r == '-' || r == '.' {
		return false
	}
	return strings.IndexFunc(n, unicode.IsLetter) >= 0
}

// Hooks of the languages whose definitions the tables cannot say.

// lineHead returns the index of the first token on token i's line.
func (s *lexState) lineHead(i int) int {
	for i > 0 && !s.toks[i].lineStart {
		i--
	}
	return i
}

// fortranHook takes the name after "::" of "type, extends(base) :: name"
// and "integer, parameter, public :: n".
func fortranHook(s *lexState, i int) string {
	if !s.isName(s.toks[i].typ) || !s.is(i-1, "::") {
		return ""
	}
	h := s.lineHead(i)
	if s.word(h) == "type" && s.is(h+1, ",") {
		return "type"
	}
	for j := h; j < i; j++ {
		if s.word(j) == "parameter" {
			return "constant"
		}
	}
	return ""
}

// graphqlHook makes the fields of a type's body definitions.
func graphqlHook(s *lexState, i int) string {
	t := s.toks[i]
	if t.typ != chroma.NameProperty || s.paren > 0 || len(s.scope) != 1 || !s.scope[0] {
		return ""
	}
	if s.is(i+1, ":") || s.startsWith(i+1, "(") {
		return "field"
	}
	return ""
}

// markdownHook names a heading by its text.
func markdownHook(s *lexState, i int) string {
	t := &s.toks[i]
	if t.typ == chroma.GenericHeading || t.typ == chroma.GenericSubheading {
		h := strings.TrimSpace(strings.TrimLeft(t.text, "#"))
		h = strings.TrimSpace(strings.TrimRight(h, "#"))
		if h == "" {
			return "-"
		}
		t.text = h
		return "heading"
	}
	return "-"
}

// objcHook takes the methods after their return type ("- (int)count"),
// properties, and C functions at the top of the file.
func objcHook(s *lexState, i int) string {
	t := s.toks[i]
	if !s.isName(t.typ) {
		return ""
	}
	h := s.lineHead(i)
	head := s.toks[h].text
	switch {
	case (head == "-" || head == "+") && s.is(i-1, ")"):
		if h+1 < i && s.is(h+1, "(") && !slices.ContainsFunc(s.toks[h+2:i-1], func(t tok) bool { return t.text == "(" }) {
			return "method"
		}
	case head == "-" || head == "+":
		if t.typ == chroma.NameFunction {
			return "-" // a later part of a selector
		}
	case head == "@property" && s.is(i+1, ";"):
		return "property"
	case len(s.scope) == 0 && s.paren == 0 && s.startsWith(i+1, "(") && i > 0:
		p := s.toks[i-1]
		if s.isName(p.typ) && p.typ != chroma.NameBuiltin || p.typ == chroma.KeywordType || p.text == "*" {
			return "function"
		}
	}
	return ""
}

// powershellHook takes the methods of a class.
func powershellHook(s *lexState, i int) string {
	t := s.toks[i]
	n := len(s.scope)
	if t.typ == chroma.Name && n > 0 && s.scope[n-1] && s.funcs == 0 && s.paren == 0 && s.startsWith(i+1, "(") {
		return "method"
	}
	return ""
}

// sqlKinds are the objects of CREATE, and sqlWords the words that may come
// between CREATE, the object and its name.
var (
	sqlKinds = words("table", "table", "view", "view", "index", "index", "function", "function",
		"procedure", "procedure", "trigger", "trigger", "type", "type", "sequence", "sequence",
		"schema", "schema", "domain", "domain", "database", "database", "macro", "macro")
	sqlWords = set("or", "replace", "alter", "temp", "temporary", "unique", "materialized", "global", "local",
		"unlogged", "recursive", "virtual", "external", "if", "not", "exists", "definer", "algorithm",
		"undefined", "merge", "sql", "security", "invoker", "clustered", "nonclustered", "fulltext", "spatial")
)

// sqlHook takes the name of CREATE TABLE, VIEW, FUNCTION…: the last part
// of a qualified name.
func sqlHook(s *lexState, i int) string {
	t := s.toks[i]
	if !s.isName(t.typ) || s.is(i+1, ".") {
		return ""
	}
	j := i - 1
	for s.is(j, ".") && j > 0 && s.isName(s.toks[j-1].typ) {
		j -= 2
	}
	for j >= 0 && sqlWords[s.word(j)] {
		j--
	}
	if j < 0 {
		return ""
	}
	kind, ok := sqlKinds[s.word(j)]
	if !ok {
		return ""
	}
	for j--; j >= 0 && sqlWords[s.word(j)]; j-- {
	}
	if j >= 0 && s.word(j) == "create" {
		return kind
	}
	return ""
}

// scssHook makes ".name" a class definition, "%name" a placeholder one,
// and the names after @extend and @include references.
func scssHook(s *lexState, i int) string {
	t := s.toks[i]
	switch t.typ {
	case chroma.NameDecorator: // @include name
		return "ref"
	case chroma.NameClass:
		if i+1 < len(s.toks) && strings.HasPrefix(s.toks[i+1].text, "#{") {
			return "-" // ".icon-#{$name}": no name of its own
		}
		for j := i - 1; j >= 0 && j >= i-2 && s.toks[j].line == t.line; j-- {
			if s.toks[j].text == "@extend" {
				return "ref"
			}
		}
		switch {
		case s.is(i-1, "%") || s.toks[max(i-1, 0)].text == "%":
			return "placeholder"
		case s.toks[max(i-1, 0)].text == "." && s.toks[max(i-1, 0)].typ == chroma.NameClass || s.is(i-1, "."):
			return "class"
		}
	}
	return ""
}

// vueHook keeps the components among the tags of a template.
func vueHook(s *lexState, i int) string {
	t := s.toks[i]
	if t.typ != chroma.NameTag {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(t.text); unicode.IsUpper(r) {
		return "ref"
	}
	return "-"
}

// componentName is the name of a Vue component in the file at p:
// "stock-table.vue" is StockTable.
func componentName(p string) string {
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	var b strings.Builder
	for _, part := range strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		r, n := utf8.DecodeRuneInString(part)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(part[n:])
	}
	return b.String()
}

// mergeByLine merges two lists of tags sorted by line into one.
func mergeByLine(a, b []Tag) []Tag {
	if len(b) == 0 {
		return a
	}
	out := make([]Tag, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Line < a[0].Line {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// objcMarks are marks of Objective-C in the head of a ".m" file (MATLAB
// otherwise) or a ".h" header (C or C++ otherwise).
var objcMarks = regexp.MustCompile(`(?m)^[ \t]*(@(interface|implementation|protocol|end|property|class|import)\b|#import[ \t]*[<"])`)
