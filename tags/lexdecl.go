package tags

import (
	"context"
	"fmt"

	"github.com/alecthomas/chroma/v2"
)

// The outline of a tier-2 file has declarations only, found in its
// tokens as far as they tell them: a definition's signature runs from
// its name over the rows its parentheses and brackets stay open on, up
// to a "{" or ";" outside them; a "{" that opens right there, on the
// signature's last row or alone on the next, is its body, which ends at
// the matching "}". It has no scope rows: the Aider style shows a tier-2
// file's rows of interest alone, as without an outline.

// lexOutline returns the outline of a tier-2 file: the declarations its
// tokens tell. A language whose definitions are headings or keys
// (Markdown, properties) has none.
func (p *Parser) lexOutline(ctx context.Context, l *language, path string, src []byte) (o *Outline, err error) {
	defer func() {
		if r := recover(); r != nil {
			o, err = nil, fmt.Errorf("tags: lex %s: %w: %v", path, errLexerPanic, r)
		}
	}()
	if p.parser == nil {
		return nil, errClosed
	}
	spec := lexSpecs[l.name]
	if spec == nil || spec.noRefs || spec.wholeNames {
		return nil, ErrNoOutline
	}
	toks, err := p.tokens(ctx, spec, l, path, src)
	if err != nil {
		return nil, fmt.Errorf("tags: outline %s: %w", path, err)
	}
	s := &lexState{spec: spec, path: path, toks: toks}
	s.run(false)
	return &Outline{decls: s.decls()}, nil
}

// decls returns the declarations of the definitions and implementations
// that s found (heads), in the order of their rows.
func (s *lexState) decls() []decl {
	// The row of the "}" that closes the first "{" of each token.
	closes := make(map[int]int32)
	var open []int
	for i, t := range s.toks {
		if !punctuation(t.typ) {
			continue
		}
		for _, c := range t.text {
			switch c {
			case '{':
				open = append(open, i)
			case '}':
				if n := len(open); n > 0 {
					if _, ok := closes[open[n-1]]; !ok {
						closes[open[n-1]] = int32(t.line)
					}
					open = open[:n-1]
				}
			}
		}
	}
	var out []decl
	var stack []int // the declarations around the next one, innermost last
	// A "{" opens a body when it ends its row, or anywhere outside
	// parentheses in a language of braces: elsewhere ("init() -> {ok,
	// State}.") it may open a value.
	opens := func(k int) bool {
		return s.spec.braces || k+1 == len(s.toks) || s.toks[k+1].line > s.toks[k].line
	}
	for _, h := range s.heads {
		i := h.tok
		row := s.toks[i].line
		last, depth, body := row, 0, -1
		// A container's parentheses hold its members (SQL's columns), a
		// function's its parameters: only a function's signature runs
		// over the rows they are open on.
		container := containerKinds[h.kind] || sqlObjects[h.kind]
		k := i + 1
	scan:
		for ; k < len(s.toks); k++ {
			t := s.toks[k]
			if t.line > last && (depth == 0 || container) {
				break // a new row with nothing open: the signature ended
			}
			if t.line-row >= HeaderMax {
				last = row // no end in sight: the name's row alone
				break
			}
			if punctuation(t.typ) {
				for _, c := range t.text {
					switch c {
					case '(', '[':
						depth++
					case ')', ']':
						depth = max(depth-1, 0)
					case '{', ';':
						if depth == 0 {
							if c == '{' && opens(k) {
								body = k
							}
							last = t.line
							break scan
						}
					}
				}
			}
			last = t.line
		}
		if body < 0 && k < len(s.toks) && s.toks[k].line == last+1 && punctuation(s.toks[k].typ) &&
			s.toks[k].text == "{" && opens(k) {
			body = k // a brace alone on the next row
		}
		end := int32(last)
		if c, ok := closes[body]; ok && body >= 0 {
			end = max(end, c)
		}
		if end == int32(row) {
			continue // one row: shown alone anyway
		}
		d := decl{start: int32(row), sig: int32(row), sigEnd: int32(last), end: end, parent: -1, doc: -1, docEnd: -1}
		for len(stack) > 0 && out[stack[len(stack)-1]].end < d.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			d.parent = int32(stack[len(stack)-1])
		}
		if len(out) > 0 && out[len(out)-1].start > d.start {
			continue // out of order (a qualified name's parts): keep the rows sorted
		}
		out = append(out, d)
		stack = append(stack, len(out)-1)
	}
	return out
}

// sqlObjects are the kinds of SQL's objects whose parentheses hold
// members: a table's columns.
var sqlObjects = set("table", "view", "index", "sequence", "domain", "schema", "database")

// lexHead is a token that names a definition, or an implementation
// ("extension Foo"), of the kind given.
type lexHead struct {
	tok  int
	kind string
}

// punctuation tells whether tokens of type t are punctuation, as the
// lexer's nesting of braces counts them.
func punctuation(t chroma.TokenType) bool {
	return t.InCategory(chroma.Punctuation) || t.InCategory(chroma.Operator) || t.InCategory(chroma.Text)
}
