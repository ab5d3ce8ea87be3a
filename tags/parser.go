package tags

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/repomap-dev/repomap/queries"
)

// Parser extracts tags from source files. It holds one tree-sitter parser
// and, for each language it has met, the compiled tags query. A Parser is
// not safe for concurrent use; give each goroutine its own.
type Parser struct {
	timeout time.Duration
	parser  *ts.Parser
	cursor  *ts.QueryCursor
	queries map[string]*compiled
	raw     []rawTag // reused between files
}

// ParserOptions configures a Parser. The zero value is ready to use.
type ParserOptions struct {
	// Timeout bounds the time spent parsing one file; a file that takes
	// longer gives ErrTimeout. Zero means no limit.
	Timeout time.Duration
}

// compiled is a language's grammar with its compiled tags query.
type compiled struct {
	lang     *ts.Language
	query    *ts.Query
	captures []capture // by capture index
}

// capture is what a capture name of a tags query means.
type capture struct {
	kind   Kind // 0 for captures that are not tags
	sub    string
	ignore bool // @ignore: the node is no tag, whatever later patterns say
}

// rawTag is a capture before duplicates are removed.
type rawTag struct {
	start, end uint
	pattern    uint
	capture    uint32
	line       int
}

// NewParser returns a Parser. Close it when done.
func NewParser(opts *ParserOptions) *Parser {
	useLibcAllocator()
	p := &Parser{
		parser:  ts.NewParser(),
		cursor:  ts.NewQueryCursor(),
		queries: make(map[string]*compiled),
	}
	if opts != nil {
		p.timeout = opts.Timeout
	}
	return p
}

// Close releases the parser's tree-sitter objects. It is safe to call
// more than once.
func (p *Parser) Close() error {
	if p.parser == nil {
		return nil
	}
	for _, c := range p.queries {
		c.query.Close()
	}
	p.cursor.Close()
	p.parser.Close()
	p.parser, p.cursor, p.queries = nil, nil, nil
	return nil
}

// compile returns the compiled query of the named language, compiling it
// on first use.
func (p *Parser) compile(name string) (*compiled, error) {
	if c, ok := p.queries[name]; ok {
		return c, nil
	}
	l := lookup(name)
	if l == nil || l.grammar == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedLanguage, name)
	}
	src, err := queries.FS.ReadFile(l.queryFile())
	if err != nil {
		return nil, fmt.Errorf("tags: read query for %s: %w", name, err)
	}
	c, err := compileQuery(ts.NewLanguage(l.grammar()), l.queryFile(), string(src))
	if err != nil {
		return nil, err
	}
	p.queries[name] = c
	return c, nil
}

// compileQuery compiles a tags query; file names it in errors.
func compileQuery(lang *ts.Language, file, src string) (*compiled, error) {
	q, qerr := ts.NewQuery(lang, src)
	if qerr != nil {
		return nil, &QueryError{File: file, Row: int(qerr.Row), Column: int(qerr.Column), Message: qerr.Message}
	}
	names := q.CaptureNames()
	c := &compiled{lang: lang, query: q, captures: make([]capture, len(names))}
	for i, n := range names {
		switch {
		case strings.HasPrefix(n, "name.definition."):
			c.captures[i] = capture{kind: Definition, sub: strings.TrimPrefix(n, "name.definition.")}
		case strings.HasPrefix(n, "name.reference."):
			c.captures[i] = capture{kind: Reference, sub: strings.TrimPrefix(n, "name.reference.")}
		case n == "ignore":
			c.captures[i] = capture{ignore: true}
		}
	}
	return c, nil
}

// errClosed is returned by the methods of a closed Parser.
var errClosed = errors.New("tags: parser is closed")

// parse parses src as the named language. The caller closes the tree.
func (p *Parser) parse(ctx context.Context, name string, src []byte) (*ts.Tree, *compiled, error) {
	if p.parser == nil {
		return nil, nil, errClosed
	}
	c, err := p.compile(name)
	if err != nil {
		return nil, nil, err
	}
	if err := p.parser.SetLanguage(c.lang); err != nil {
		return nil, nil, fmt.Errorf("tags: set language %s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var deadline time.Time
	if p.timeout > 0 {
		deadline = time.Now().Add(p.timeout)
	}
	timedOut := false
	progress := func(ts.ParseState) bool {
		if ctx.Err() != nil {
			return true
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			timedOut = true
			return true
		}
		return false
	}
	n := len(src)
	tree := p.parser.ParseWithOptions(func(i int, _ ts.Point) []byte {
		if i < n {
			return src[i:]
		}
		return nil
	}, nil, &ts.ParseOptions{ProgressCallback: progress})
	if tree == nil {
		p.parser.Reset()
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if timedOut {
			return nil, nil, ErrTimeout
		}
		return nil, nil, fmt.Errorf("tags: parse failed")
	}
	return tree, c, nil
}

// Parse returns the tags of the file at path, whose content is src, sorted
// by line and then by position in the line. The path, slash-separated and
// relative to the map's root, and the content pick the language (see
// Detect); the path is copied into each tag. Parse returns
// ErrUnsupportedLanguage for a file Detect does not know, ErrTimeout when
// the parser's timeout passed, and the context's error when ctx is done. A
// file with syntax errors still gives the tags of the parts that parse.
func (p *Parser) Parse(ctx context.Context, path string, src []byte) ([]Tag, error) {
	name := Detect(path, src)
	if name == "" {
		return nil, fmt.Errorf("%w: %s", ErrUnsupportedLanguage, path)
	}
	if p.parser == nil {
		return nil, errClosed
	}
	l := lookup(name)
	if l.grammar == nil {
		return p.lex(ctx, l, path, src)
	}
	tree, c, err := p.parse(ctx, name, src)
	if err != nil {
		return nil, fmt.Errorf("tags: parse %s: %w", path, err)
	}
	defer tree.Close()

	raw := p.raw[:0]
	root := tree.RootNode()
	matches := p.cursor.Matches(c.query, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, cp := range m.Captures {
			if cc := c.captures[cp.Index]; cc.kind == 0 && !cc.ignore {
				continue
			}
			raw = append(raw, rawTag{
				start:   cp.Node.StartByte(),
				end:     cp.Node.EndByte(),
				pattern: m.PatternIndex,
				capture: cp.Index,
				line:    int(cp.Node.StartPosition().Row),
			})
		}
	}
	p.raw = raw
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("tags: parse %s: %w", path, err)
	}

	// One node is one tag: where several patterns captured it, the first
	// pattern of the query wins.
	slices.SortFunc(raw, func(a, b rawTag) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.pattern, b.pattern))
	})
	out := make([]Tag, 0, len(raw))
	refs := false
	for i, r := range raw {
		if i > 0 && raw[i-1].start == r.start && raw[i-1].end == r.end {
			continue
		}
		cap := c.captures[r.capture]
		if cap.ignore || r.end > uint(len(src)) || r.start >= r.end {
			continue
		}
		name := string(src[r.start:r.end])
		if l.rename != nil {
			name = l.rename(cap.sub, name)
		}
		if name == "" || name == "_" || strings.ContainsAny(name, "\n\r") {
			continue
		}
		out = append(out, Tag{Path: path, Name: name, Kind: cap.kind, Sub: cap.sub, Line: r.line})
		refs = refs || cap.kind == Reference
	}
	if !refs && l.lexer != "" {
		// The query has no references for this file: take the names the
		// lexer sees, so the file still links to what it uses.
		more, err := p.lexRefs(ctx, l, path, src)
		if err != nil {
			return nil, err
		}
		out = mergeByLine(out, more)
	}
	return out, nil
}
