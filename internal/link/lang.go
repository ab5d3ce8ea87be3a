package link

import (
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/tags"
)

// Language facts the link stage goes by: families, builtins, and which
// files are documents whose code names things.

// langFamily returns the family of the language lang (as tags.Detect
// names it): the languages whose code can use each other's names
// without a binding the tags see, as a page's script uses its
// elements' ids, or Kotlin Java's classes. A language of no family is
// its own.
func langFamily(lang string) string {
	switch lang {
	case "javascript", "typescript", "tsx", "html", "css", "scss", "less", "svelte", "vue":
		return "web"
	case "java", "kotlin", "scala", "groovy", "clojure":
		return "jvm"
	case "c", "cpp", "objectivec", "cuda":
		return "c"
	case "csharp", "fsharp", "vbnet":
		return "dotnet"
	}
	return lang
}

// exportsAll reports whether set lists names in an __all__: it defines
// __all__ and has "export" references.
func exportsAll(set tags.Set) bool {
	all, export := false, false
	for j, t := range set.Tags {
		switch {
		case t.Kind == tags.Definition && set.Str(t.Name) == "__all__":
			all = true
		case t.Kind == tags.Reference && set.Sub(j) == "export":
			export = true
		}
	}
	return all && export
}

// builtins lists, per language, the names whose plain calls ("call"
// references) and type uses ("type" references) mean the language's own
// function or type, not a definition of the tree that shares the name.
var builtins = map[string]map[string]bool{
	"go": Words(`append cap clear close complex copy delete imag len make max min new panic print println real recover
		any bool byte comparable complex128 complex64 error float32 float64 int int16 int32 int64 int8 rune string
		uint uint16 uint32 uint64 uint8 uintptr`),
	"python": Words(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile
		complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash
		help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open
		ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type
		vars zip __import__`),
	"javascript": jsBuiltins,
	"typescript": jsBuiltins,
	"tsx":        jsBuiltins,
}

var jsBuiltins = Words(`setTimeout setInterval clearTimeout clearInterval queueMicrotask structuredClone parseInt
	parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI require fetch String Number
	Boolean Symbol BigInt Object Array`)

// builtinsOf returns the builtins of the language of f, or nil.
func builtinsOf(f File) map[string]bool { return builtins[f.Lang] }

// Builtin reports whether name is one of the builtin functions or types
// of the language lang (Go's, Python's, JavaScript's): a plain call or
// type use of it means the language's, not a definition of the tree.
func Builtin(lang, name string) bool { return builtins[lang][name] }

// builtinUse reports whether a reference of kind sub to name is a use of
// one of the builtins b.
func builtinUse(b map[string]bool, sub, name string) bool {
	return b != nil && (sub == "call" || sub == "type") && b[name]
}

// codeDocument reports whether f is a document whose code blocks give
// references (tags.Parser reads them): a Markdown document. Its
// references link only with Config.Readme and Config.DocCode.
func codeDocument(f File) bool { return f.Lang == "markdown" }

// Readme reports whether the file at rel, a path relative to its root, is
// the README of its root: a Markdown document named README at the root's
// top.
func Readme(rel string) bool {
	if strings.Contains(rel, "/") || tags.Detect(rel, nil) != "markdown" {
		return false
	}
	stem, _, _ := strings.Cut(rel, ".")
	return strings.EqualFold(stem, "readme")
}

// docLinks reports whether the code of the document f links its names
// with the settings c.
func docLinks(c Config, f File) bool {
	return c.DocCode || c.Readme && Readme(f.Rel)
}

// notCodeFamilies are the families of languages whose definitions the
// code of a document does not mean: data, markup, builds and shells.
var notCodeFamilies = Words("bash cmake json make markdown properties toml xml yaml")

// docFamilies returns the families of languages of fams (one per file)
// that the names of a document's code link in: those of code, each once,
// in order; [""] when fams holds no family (links by name alone).
func docFamilies(fams []string) []string {
	var out []string
	for _, f := range fams {
		if f != "" && !notCodeFamilies[f] {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 && !slices.ContainsFunc(fams, func(f string) bool { return f != "" }) {
		return []string{""}
	}
	return out
}
