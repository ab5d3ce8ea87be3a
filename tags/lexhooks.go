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

// caseOf returns the index of "type" when token i names a case of the
// union type whose declaration starts with it at column 0, or -1. The
// case follows one of seps, and every line of the declaration up to it
// starts with one of them ("type Msg\n    = Added Item\n    | Removed").
func (s *lexState) caseOf(i int, seps ...string) int {
	isSep := func(j int) bool { return slices.ContainsFunc(seps, func(p string) bool { return s.is(j, p) }) }
	if i == 0 || !isSep(i-1) {
		return -1
	}
	for j := i - 1; j >= 0; j-- {
		switch t := s.toks[j]; {
		case !t.lineStart:
		case t.col == 0:
			if s.word(j) == "type" {
				return j
			}
			return -1
		case !isSep(j):
			return -1
		}
	}
	return -1
}

// elmHook makes constructors of the cases of a custom type.
func elmHook(s *lexState, i int) string {
	if s.toks[i].typ != chroma.KeywordType {
		return ""
	}
	if h := s.caseOf(i, "=", "|"); h >= 0 && s.word(h+1) != "alias" {
		return "constructor"
	}
	return ""
}

// fsharpHook makes constructors of the cases of a union type, one a line
// after "|".
func fsharpHook(s *lexState, i int) string {
	if t := s.toks[i]; (t.typ == chroma.Name || t.typ == chroma.NameClass) && s.caseOf(i, "|") >= 0 && s.toks[i-1].lineStart {
		return "constructor"
	}
	return ""
}

// gleamHook makes constructors of the variants in the braces of a custom
// type: "pub type Item {\n  Item(sku: String)\n}".
func gleamHook(s *lexState, i int) string {
	t := s.toks[i]
	if t.typ != chroma.NameClass || !t.lineStart || len(s.scope) != 1 || s.paren > 0 {
		return ""
	}
	h := s.col0
	if h >= 0 && s.word(h) == "pub" {
		h++
	}
	if h >= 0 && h < i && s.word(h) == "type" {
		return "constructor"
	}
	return ""
}

// erlangHook drops the atoms that name nothing: an atom is a reference
// when it is called ("min(") or given an arity ("add_value/3"), not as a
// value ("ok", "{restock, Sku}") or a record's field; so is the module of
// "-behaviour(gen_server)".
func erlangHook(s *lexState, i int) string {
	if s.toks[i].typ == chroma.Name && !s.startsWith(i+1, "(") && !s.is(i+1, "/") &&
		!(i >= 2 && s.is(i-1, "(") && (s.word(i-2) == "behaviour" || s.word(i-2) == "behavior")) {
		return "-"
	}
	return ""
}

// fortranHook takes the name after "::" of "type, extends(base) :: name"
// and "integer, parameter, public :: n".
func fortranHook(s *lexState, i int) string {
	if !s.isName(s.toks[i].typ) || !s.is(i-1, "::") {
		return ""
	}
	h := s.head
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

// gdscriptHook makes variables of the vars of an inner class's body: a
// "var" that starts its line below "class Name:" at column 0, as far
// indented as the first line of the class's body, not deeper in a
// function.
func gdscriptHook(s *lexState, i int) string {
	if s.toks[i].typ != chroma.Name || i == 0 || s.word(i-1) != "var" || !s.toks[i-1].lineStart {
		return ""
	}
	h := s.col0
	if h < 0 || s.word(h) != "class" {
		return ""
	}
	body := h + 1
	for body < i && !s.toks[body].lineStart {
		body++
	}
	if s.toks[i-1].col == s.toks[body].col {
		return "variable"
	}
	return ""
}

// graphqlHook makes the fields of a type's body definitions, and names a
// directive without its "@": defined after "directive", referred to
// elsewhere.
func graphqlHook(s *lexState, i int) string {
	t := &s.toks[i]
	if t.typ == chroma.NameDecorator {
		t.text = strings.TrimPrefix(t.text, "@")
		if i > 0 && s.word(i-1) == "directive" {
			return "directive"
		}
		return "ref"
	}
	if t.typ != chroma.NameProperty || s.paren > 0 || len(s.scope) != 1 || !s.scope[0] {
		return ""
	}
	if s.is(i+1, ":") || s.startsWith(i+1, "(") {
		return "field"
	}
	return ""
}

// objcHook takes the methods after their return type ("- (int)count"),
// properties, and C functions at the top of the file.
func objcHook(s *lexState, i int) string {
	t := s.toks[i]
	if !s.isName(t.typ) {
		return ""
	}
	h := s.head
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

// perlHook makes the variables of "our" definitions, and drops the
// bare words that are hash keys: "{items}" and "items => 1" quote the
// word, they name nothing.
func perlHook(s *lexState, i int) string {
	t := s.toks[i]
	switch {
	case t.typ == chroma.NameVariable && i >= 2 && strings.Contains("$@%", s.toks[i-1].text) &&
		s.toks[i-1].typ == chroma.NameVariable && s.word(i-2) == "our":
		return "variable"
	case t.typ != chroma.Name:
		return ""
	case s.is(i+1, "=>") || s.is(i+1, "=") && s.is(i+2, ">") && s.toks[i+2].col == s.toks[i+1].col+1,
		s.is(i-1, "{") && s.is(i+1, "}"):
		return "-"
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

// solidityHook makes fields of the variables declared in the body of a
// contract or struct: "uint256 count;", "mapping(…) private items;".
func solidityHook(s *lexState, i int) string {
	t := s.toks[i]
	n := len(s.scope)
	if t.typ != chroma.Name || n == 0 || !s.scope[n-1] || s.funcs > 0 || s.paren > 0 || i == 0 ||
		!s.is(i+1, ";") && !s.is(i+1, "=") {
		return ""
	}
	if p := s.toks[i-1]; p.typ.InCategory(chroma.Keyword) || p.typ == chroma.Name || s.is(i-1, ")") {
		return "field"
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
// of a qualified name, and the columns of CREATE TABLE. A keyword after
// "." is a column ("i.count"), and a name after AS is an alias: no tag.
func sqlHook(s *lexState, i int) string {
	t := s.toks[i]
	if s.is(i, "(") && i > 0 && sqlCreated(s, i-1) == "table" {
		sqlColumns(s, i)
		return ""
	}
	if t.typ.InCategory(chroma.Keyword) && s.is(i-1, ".") {
		return "ref"
	}
	if !s.isName(t.typ) {
		return ""
	}
	if i > 0 && s.word(i-1) == "as" {
		return "-"
	}
	return sqlCreated(s, i)
}

// sqlColumnWords start the entries of CREATE TABLE's list that are
// constraints, not columns.
var sqlColumnWords = set("constraint", "primary", "foreign", "unique", "check", "key", "index", "exclude", "like", "period")

// sqlColumns marks the first word of each entry of the list that opens
// at token i as a column definition, whether the lexer takes it for a
// name or a keyword ("count").
func sqlColumns(s *lexState, i int) {
	depth, first := 0, true
	for j := i; j < len(s.toks); j++ {
		switch {
		case s.is(j, "("):
			depth++
		case s.is(j, ")"):
			if depth--; depth == 0 {
				return
			}
		case s.is(j, ",") && depth == 1:
			first = true
		case s.is(j, ";") || s.word(j) == "create":
			return // the statement ends, the list unclosed
		case first && depth == 1:
			first = false
			t := &s.toks[j]
			if s.isName(t.typ) || t.typ.InCategory(chroma.Keyword) && !sqlColumnWords[s.word(j)] {
				t.def = "column"
			}
		}
	}
}

// sqlCreated returns the kind of object that token i names when it is
// the name of CREATE TABLE, VIEW…, or "".
func sqlCreated(s *lexState, i int) string {
	if !s.isName(s.toks[i].typ) || s.is(i+1, ".") {
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

// swiftHook makes constants of the cases of an enum, and drops the
// argument labels of a parameter list: "of" in "price(of sku: String)".
func swiftHook(s *lexState, i int) string {
	t := s.toks[i]
	if t.typ != chroma.Name || i == 0 {
		return ""
	}
	n := len(s.scope)
	switch {
	case s.word(i-1) == "case" && n > 0 && s.scope[n-1] && s.funcs == 0:
		return "constant"
	case s.paren > 0 && i+2 < len(s.toks) && s.toks[i+1].typ == chroma.Name && s.is(i+2, ":") &&
		(s.is(i-1, "(") || s.is(i-1, ",")):
		return "-"
	}
	return ""
}

// vimHook takes the name of a user command: "command! -nargs=+ Name".
func vimHook(s *lexState, i int) string {
	if s.toks[i].typ != chroma.NameOther {
		return ""
	}
	h := s.head
	if w := s.word(h); w != "command" && w != "com" {
		return ""
	}
	j := h + 1
	if s.is(j, "!") {
		j++
	}
	for j < i && strings.HasPrefix(s.toks[j].text, "-") { // an option: "-nargs=+", "-bang"
		j++
		for j < i && s.toks[j].col == s.toks[j-1].col+len(s.toks[j-1].text) {
			j++
		}
	}
	if j == i {
		return "command"
	}
	return ""
}

// vueHook keeps the components among the tags of a template, and takes
// the type aliases of a script ("type Row = …"), whose "type" the lexer
// knows as no keyword.
func vueHook(s *lexState, i int) string {
	t := s.toks[i]
	if t.typ == chroma.NameOther && t.text == "type" && s.funcs == 0 && i+2 < len(s.toks) &&
		s.toks[i+1].typ == chroma.NameOther && s.is(i+2, "=") {
		s.toks[i+1].def = "type"
		return "-"
	}
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
