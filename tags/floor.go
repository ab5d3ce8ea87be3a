package tags

import (
	"context"
	"fmt"
)

// Floor parses the file at path, whose content is src, and runs its
// language's tags query over the tree, taking each capture's span and
// row as Parse does, and does nothing more: no tags are made. It is the
// least work that gives a file's tags with tree-sitter, through the same
// binding and allocator, so that the whole of a map can be measured
// against it (repomap bench --floor). It returns how many nodes the query
// captured, and ErrNoGrammar for a language that a lexer reads.
func (p *Parser) Floor(ctx context.Context, path string, src []byte) (int, error) {
	name := Detect(path, src)
	if name == "" {
		return 0, fmt.Errorf("%w: %s", ErrUnsupportedLanguage, path)
	}
	if p.parser == nil {
		return 0, errClosed
	}
	l := lookup(name)
	if l.grammar == nil {
		return 0, fmt.Errorf("%w: %s", ErrNoGrammar, path)
	}
	c, err := p.compile(name)
	if err != nil {
		return 0, fmt.Errorf("tags: parse %s: %w", path, err)
	}
	tree, b, err := p.parseTimed(ctx, c.lang, l.source(src), nil)
	if err != nil {
		return 0, fmt.Errorf("tags: parse %s: %w", path, err)
	}
	defer tree.Close()
	defer b.release()
	p.cursor.SetTimeoutMicros(micros(b.wall()))
	n := 0
	matches := p.cursor.Matches(c.query, tree.RootNode(), src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, cp := range m.Captures {
			// What Parse takes of each capture.
			cp.Node.StartByte()
			cp.Node.EndByte()
			cp.Node.StartPosition()
			n++
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("tags: parse %s: %w", path, err)
	}
	return n, nil
}
