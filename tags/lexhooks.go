package tags

import (
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
)

// Hooks of the languages whose definitions the tables cannot say.

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
