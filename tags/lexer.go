package tags

import (
	"context"
	"fmt"
)

// lexerLanguages are the tier-2 languages: no grammar, tags from a lexer.
var lexerLanguages = []*language{}

// lex returns the tags of a tier-2 file from its lexer's tokens.
func (p *Parser) lex(ctx context.Context, l *language, path string, src []byte) ([]Tag, error) {
	return nil, fmt.Errorf("%w: %s has no lexer yet", ErrUnsupportedLanguage, l.name)
}

// lexRefs returns references to the names a tier-1 file's lexer sees.
func (p *Parser) lexRefs(ctx context.Context, l *language, path string, src []byte) ([]Tag, error) {
	return nil, nil
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
