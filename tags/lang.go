package tags

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tscss "github.com/tree-sitter/tree-sitter-css/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tshaskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"
	tshtml "github.com/tree-sitter/tree-sitter-html/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"
	tsjulia "github.com/tree-sitter/tree-sitter-julia/bindings/go"
	tsocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	tshcl "github.com/tree-sitter-grammars/tree-sitter-hcl/bindings/go"
	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tsmake "github.com/tree-sitter-grammars/tree-sitter-make/bindings/go"
	tssvelte "github.com/tree-sitter-grammars/tree-sitter-svelte/bindings/go"
	tstoml "github.com/tree-sitter-grammars/tree-sitter-toml/bindings/go"
	tsxml "github.com/tree-sitter-grammars/tree-sitter-xml/bindings/go"
	tsyaml "github.com/tree-sitter-grammars/tree-sitter-yaml/bindings/go"
	tszig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"

	tsdart "github.com/UserNobody14/tree-sitter-dart/bindings/go"
	tsgroovy "github.com/dekobon/tree-sitter-groovy/bindings/go"
	tsr "github.com/r-lib/tree-sitter-r/bindings/go"
)

// language is one supported language: a tree-sitter grammar with its tags
// query (tier 1), or a lexer (tier 2).
type language struct {
	name    string
	exts    []string // lower-case, with the dot
	files   []string // base names that are this language whatever their extension
	shebang []string // interpreters named on a #! line of a file without extension
	grammar func() unsafe.Pointer

	// lexer names the chroma lexer of a tier-2 language (grammar nil), or
	// of a tier-1 language whose query has no reference patterns: its
	// references then come from the lexer's name tokens.
	lexer string
	// byHand is set for Markdown, whose tags are read line by line
	// (Parser.markdown) in place of a lexer.
	byHand bool

	// query, when set, lists the query files that make up the language's
	// tags query, in order; see queryFiles.
	query []string

	// rename, when set, turns the text of a captured node of the kind
	// renamed into the tag's name; "" drops the tag. The names of other
	// kinds are the nodes' text.
	rename  func(text string) string
	renamed string

	// mend, when set, rewrites a file's source before the grammar parses
	// it, to step around a construct that the language allows and the
	// grammar cannot parse (see kotlinMend). It changes only whitespace
	// and keeps the length and the number of newlines, so the tree's byte
	// offsets are the file's and its rows are too but for the words it
	// moves; the query reads the names from the file's own bytes. It
	// returns src itself when there is nothing to mend.
	mend func(src []byte) []byte
}

// source returns what the grammar of l parses for the file src.
func (l *language) source(src []byte) []byte {
	if l.mend == nil {
		return src
	}
	return l.mend(src)
}

// queryFiles names the files of queries.FS whose concatenation is the
// language's tags query: by default the one named after the language.
func (l *language) queryFiles() []string {
	if l.query != nil {
		return l.query
	}
	return []string{l.name + "-tags.scm"}
}

// grammarLanguages are the tier-1 languages, parsed with tree-sitter.
var grammarLanguages = []*language{
	{name: "bash", exts: []string{".sh", ".bash", ".zsh", ".ksh"}, files: []string{".bashrc", ".bash_profile", ".zshrc", ".profile"}, shebang: []string{"sh", "bash", "zsh", "ksh", "dash"}, grammar: tsbash.Language},
	{name: "c", exts: []string{".c"}, grammar: tsc.Language, rename: includeName, renamed: "include"},
	{name: "cpp", exts: []string{".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".ino"}, grammar: tscpp.Language, rename: includeName, renamed: "include"},
	{name: "csharp", exts: []string{".cs", ".csx"}, grammar: tscsharp.Language},
	{name: "css", exts: []string{".css"}, grammar: tscss.Language},
	{name: "dart", exts: []string{".dart"}, grammar: tsdart.Language},
	{name: "go", exts: []string{".go"}, grammar: tsgo.Language, rename: goName, renamed: "package"},
	{name: "groovy", exts: []string{".groovy", ".gradle", ".gvy"}, files: []string{"Jenkinsfile"}, shebang: []string{"groovy"}, grammar: tsgroovy.Language},
	{name: "haskell", exts: []string{".hs"}, shebang: []string{"runhaskell", "runghc"}, grammar: tshaskell.Language},
	{name: "hcl", exts: []string{".hcl", ".tf", ".tfvars"}, grammar: tshcl.Language},
	{name: "html", exts: []string{".html", ".htm", ".xhtml"}, grammar: tshtml.Language},
	{name: "java", exts: []string{".java"}, grammar: tsjava.Language},
	{name: "javascript", exts: []string{".js", ".jsx", ".mjs", ".cjs"}, shebang: []string{"node", "nodejs", "deno", "bun"}, grammar: tsjs.Language},
	{name: "json", exts: []string{".json", ".jsonc"}, grammar: tsjson.Language},
	{name: "julia", exts: []string{".jl"}, shebang: []string{"julia"}, grammar: tsjulia.Language},
	{name: "kotlin", exts: []string{".kt", ".kts"}, grammar: tskotlin.Language, mend: kotlinMend},
	{name: "lua", exts: []string{".lua"}, shebang: []string{"lua", "luajit"}, grammar: tslua.Language},
	{name: "make", exts: []string{".mk", ".mak"}, files: []string{"Makefile", "makefile", "GNUmakefile"}, shebang: []string{"make"}, grammar: tsmake.Language},
	{name: "ocaml", exts: []string{".ml"}, shebang: []string{"ocaml"}, grammar: tsocaml.LanguageOCaml},
	{name: "ocaml_interface", exts: []string{".mli"}, grammar: tsocaml.LanguageOCamlInterface},
	{name: "php", exts: []string{".php", ".phtml"}, shebang: []string{"php"}, grammar: tsphp.LanguagePHP},
	{name: "python", exts: []string{".py", ".pyi", ".pyw"}, shebang: []string{"python", "python2", "python3", "pypy", "pypy3"}, grammar: tspython.Language},
	{name: "r", exts: []string{".r"}, shebang: []string{"Rscript"}, grammar: tsr.Language},
	{name: "ruby", exts: []string{".rb", ".rake", ".gemspec", ".ru"}, files: []string{"Rakefile", "Gemfile", "Guardfile", "Vagrantfile"}, shebang: []string{"ruby"}, grammar: tsruby.Language},
	{name: "rust", exts: []string{".rs"}, grammar: tsrust.Language},
	{name: "scala", exts: []string{".scala", ".sc", ".sbt"}, shebang: []string{"scala"}, grammar: tsscala.Language},
	{name: "svelte", exts: []string{".svelte"}, grammar: tssvelte.Language},
	{name: "toml", exts: []string{".toml"}, grammar: tstoml.Language},
	{name: "tsx", exts: []string{".tsx"}, grammar: tsts.LanguageTSX, query: []string{"typescript-tags.scm", "jsx-tags.scm"}},
	{name: "typescript", exts: []string{".ts", ".mts", ".cts"}, grammar: tsts.LanguageTypescript},
	{name: "xml", exts: []string{".xml", ".xsd", ".xsl", ".xslt", ".svg", ".plist", ".csproj", ".fsproj", ".vbproj"}, grammar: tsxml.LanguageXML},
	{name: "yaml", exts: []string{".yaml", ".yml"}, grammar: tsyaml.Language},
	{name: "zig", exts: []string{".zig"}, grammar: tszig.Language},
}

// languages are all supported languages: tier 1, then tier 2.
var languages = slices.Concat(grammarLanguages, lexerLanguages)

func lookup(name string) *language {
	for _, l := range languages {
		if l.name == name {
			return l
		}
	}
	return nil
}

// Detect returns the language of the file at path p, or "" when repomap
// does not map it. head is the start of the file's content, or nil; it
// decides two cases:
//
//   - A file without extension is named by the interpreter on its "#!"
//     line: "#!/usr/bin/env python3" is Python, "#!/bin/sh" is Bash.
//   - A ".h" header is C++ when it has a mark only C++ has (a namespace, a
//     class with a body, a template, "public:" or "private:", a "::"
//     scope, an extern "C" guard) and C otherwise, or without head.
//
// Otherwise the base name (Makefile, Rakefile…) and then the extension,
// whatever its case, decide.
func Detect(p string, head []byte) string {
	base := path.Base(p)
	for _, l := range languages {
		if slices.Contains(l.files, base) {
			return l.name
		}
	}
	ext := strings.ToLower(path.Ext(base))
	if ext == base { // ".bashrc" is a name, not an extension
		ext = ""
	}
	switch {
	case ext == ".h":
		head = head[:min(len(head), headLimit)]
		if objcMark.in(head) {
			return "objectivec"
		}
		for _, m := range cppMarks {
			if m.in(head) {
				return "cpp"
			}
		}
		return "c"
	case ext == ".m":
		if objcMark.in(head[:min(len(head), headLimit)]) {
			return "objectivec"
		}
		return "matlab"
	case ext != "":
		for _, l := range languages {
			if slices.Contains(l.exts, ext) {
				return l.name
			}
		}
		return ""
	}
	return fromShebang(head)
}

// headLimit bounds how much of a file Detect reads.
const headLimit = 64 << 10

// mark is a mark of a language in the head of a file: a regular
// expression, and words one of which every match holds.
type mark struct {
	re    *regexp.Regexp
	words [][]byte
}

// cppMarks are marks of C++ in the head of a ".h" header (C otherwise).
var cppMarks = []mark{
	{regexp.MustCompile(`(?m)^\s*(namespace\s+\w|template\s*<|class\s+\w+[^;]*\{|(public|private|protected)\s*:)`), markWords("namespace", "template", "class", "public", "private", "protected")},
	{regexp.MustCompile(`\w::\w`), markWords("::")},
	{regexp.MustCompile(`extern\s+"C"`), markWords(`"C"`)},
}

// objcMark is the mark of Objective-C in the head of a ".m" file (MATLAB
// otherwise) or a ".h" header (C or C++ otherwise).
var objcMark = mark{regexp.MustCompile(`(?m)^[ \t]*(@(interface|implementation|protocol|end|property|class|import)\b|#import[ \t]*[<"])`), markWords("@", "#import")}

func markWords(ws ...string) [][]byte {
	out := make([][]byte, len(ws))
	for i, w := range ws {
		out[i] = []byte(w)
	}
	return out
}

// in reports whether m's expression matches head: a head without any of
// m's words is not searched. (The search of the heads of
// C headers without a mark of C++, to their end, with one expression for
// all the marks, took 9 of the 57 CPU seconds of a cold map of NuttX's
// 17,000 C files; looking for the words, then for the marks of the words
// found, takes a fraction of it.)
func (m mark) in(head []byte) bool {
	for _, w := range m.words {
		if bytes.Contains(head, w) {
			return m.re.Match(head)
		}
	}
	return false
}

// fromShebang returns the language of the interpreter on a "#!" first
// line, or "".
func fromShebang(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(head[2:min(len(head), 256)], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	interp := path.Base(fields[0])
	if interp == "env" {
		rest := fields[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") { // env -S, env -i
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return ""
		}
		interp = path.Base(rest[0])
	}
	// "python3.12" is python3: drop a version suffix.
	trimmed := strings.TrimRight(interp, "0123456789.")
	for _, l := range languages {
		if slices.Contains(l.shebang, interp) || slices.Contains(l.shebang, trimmed) {
			return l.name
		}
	}
	return ""
}

// goName turns an import path, captured with its quotes, into the name of
// the package it imports: its last element, without a major version
// ("example.com/mod/v2" is mod, "gopkg.in/yaml.v3" is yaml).
func goName(text string) string {
	if len(text) < 2 || text[0] != '"' {
		return text
	}
	p := strings.Trim(text, `"`)
	base := path.Base(p)
	if majorVersion.MatchString(base) && path.Dir(p) != "." {
		base = path.Base(path.Dir(p))
	}
	base = dotVersion.ReplaceAllString(base, "")
	return base
}

// includeName turns the quoted path of a C or C++ #include into the name
// of its reference: the file's base name without its extension.
func includeName(text string) string {
	base := path.Base(strings.Trim(text, `"`))
	if ext := path.Ext(base); ext != "" {
		base = base[:len(base)-len(ext)]
	}
	return base
}

var (
	majorVersion = regexp.MustCompile(`^v[0-9]+$`)
	dotVersion   = regexp.MustCompile(`\.v[0-9]+$`)
)
