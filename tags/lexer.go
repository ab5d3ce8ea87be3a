package tags

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Bounds on the work lex does on one file: huge or minified input is
// tokenised up to these limits, and the tags found so far are returned.
const (
	maxLexBytes  = 2 << 20 // bytes of the file that are lexed
	maxLexTokens = 200_000 // tokens read from the lexer
	lexCheck     = 8       // tokens between two looks at ctx and the clock
)

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
	lastDef string    // name of the last col0Types definition
	heads   []lexHead // the definitions and implementations, for decls
	head    int       // the first token of the current token's line
	col0    int       // the last token up to the current one that starts a line at column 0, or -1
}

// lex returns the tags of a tier-2 file from its lexer's tokens, sorted
// by line: definitions where a defining word, the token's type or its
// place says so (see lexSpec), references for the other names.
func (p *Parser) lex(ctx context.Context, l *language, path string, src []byte) ([]Tag, error) {
	if p.parser == nil {
		return nil, errClosed
	}
	if l.byHand {
		return p.markdown(ctx, path, src)
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
	b := newBudget(p.timeout)
	defer b.release()
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
			if b.spent() {
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
		if k := len(toks) - 1; k >= 0 && t.Type == chroma.Name && toks[k].typ == chroma.Name && toks[k].text == "_" &&
			toks[k].line == startLine && toks[k].col+1 == startCol {
			toks[k].text += text // Pony's lexer splits "_items" in two
			continue
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
	s.sect.col, s.col0 = -1, -1
	if sp.fileKind != "" && !refsOnly {
		if n := componentName(s.path); validName(n) {
			s.tags = append(s.tags, Tag{Path: s.path, Name: n, Kind: Definition, Sub: sp.fileKind, Line: 0})
		}
	}
	for i := range s.toks {
		t := &s.toks[i]
		if t.lineStart {
			s.head = i
			if t.col == 0 {
				s.col0 = i
			}
		}
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
		member := t.typ == chroma.NameBuiltin && s.is(i-1, ".") // "Math.min": a member, not the builtin
		if sp.noRefs || kind != "ref" && !member && !s.isRefType(t.typ) || sp.keys && s.is(i+1, "=") ||
			sp.noRefLines != nil && sp.noRefLines[s.word(s.head)] {
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
// the "(" is not a list of parameters or bindings: it follows no
// defining word, and no defined name but a variable's, whose value it
// computes ("(defvar table (make-hash-table))").
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
	return !s.is(i-2, "(") && !s.is(i-2, "[") && (p.def == "" || variableKinds[p.def]) && !p.used
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
		j := i + 1
		for j < len(s.toks) && sp.skip[s.word(j)] { // "end block data foo"
			j++
		}
		if j < len(s.toks) && s.toks[j].line == t.line && s.isName(s.toks[j].typ) {
			s.toks[j].used = true
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
		s.heads = append(s.heads, lexHead{j, "implementation"})
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
	if !variableKinds[kind] {
		s.heads = append(s.heads, lexHead{i, kind})
	}
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
