package tags

// #include <stdlib.h>
import "C"

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Parser extracts tags from source files. It holds one tree-sitter parser
// and takes the compiled tags queries from a Queries, its own or one
// shared with other parsers. A Parser is not safe for concurrent use;
// give each goroutine its own.
type Parser struct {
	timeout time.Duration
	parser  *ts.Parser
	cursor  *ts.QueryCursor
	queries *Queries
	ownsQ   bool              // queries is the parser's own, closed with it
	trees   *Trees            // nil, or where trees are kept for the next parse
	raw     []rawTag          // reused between files
	pack    packer            // reused between files
	quals   map[string]string // qualOf's, cleared for each file

	// cancel is the parser's cancellation flag: tree-sitter reads it
	// while it parses, and a parse stops when it is not zero. It is in C
	// memory, as C keeps its address.
	cancel *uintptr
}

// ParserOptions configures a Parser. The zero value is ready to use.
type ParserOptions struct {
	// Timeout bounds the time spent parsing one file, time of the
	// processor spent by the parsing thread where the system tells it
	// (Linux), of the clock elsewhere; a file that takes longer gives
	// ErrTimeout. Zero means no limit.
	Timeout time.Duration

	// Queries, when set, is where the parser takes its compiled tags
	// queries from, so that parsers sharing it compile each language's
	// query once between them. It must outlive the parser. Nil gives the
	// parser queries of its own.
	Queries *Queries

	// Trees, when set, keeps the syntax tree of each file parsed, for
	// the next parse of the file to reuse (see Trees). It must outlive
	// the parser.
	Trees *Trees
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
	qual   bool // @qual: the node qualifies the tags of its match
}

// rawTag is a capture before duplicates are removed.
type rawTag struct {
	start, end uint
	pattern    uint
	capture    uint32
	line       int
	qual       string
}

// NewParser returns a Parser. Close it when done.
func NewParser(opts *ParserOptions) *Parser {
	useLibcAllocator()
	p := &Parser{
		parser: ts.NewParser(),
		cursor: ts.NewQueryCursor(),
		cancel: (*uintptr)(C.calloc(1, C.size_t(unsafe.Sizeof(uintptr(0))))),
	}
	if opts != nil {
		p.timeout, p.queries, p.trees = opts.Timeout, opts.Queries, opts.Trees
	}
	if p.queries == nil {
		p.queries, p.ownsQ = NewQueries(), true
	}
	p.parser.SetCancellationFlag(p.cancel)
	return p
}

// Close releases the parser's tree-sitter objects. It is safe to call
// more than once.
func (p *Parser) Close() error {
	if p.parser == nil {
		return nil
	}
	if p.ownsQ {
		p.queries.Close()
	}
	p.cursor.Close()
	p.parser.SetCancellationFlag(nil)
	p.parser.Close()
	C.free(unsafe.Pointer(p.cancel))
	p.parser, p.cursor, p.queries, p.cancel = nil, nil, nil, nil
	return nil
}

// compile returns the compiled query of the named language.
func (p *Parser) compile(name string) (*compiled, error) { return p.queries.get(name) }

// compileQuery compiles a tags query; file names it in errors.
func compileQuery(lang *ts.Language, file, src string) (*compiled, error) {
	q, qerr := ts.NewQuery(lang, src)
	if qerr != nil {
		return nil, &QueryError{File: file, Row: int(qerr.Row), Column: int(qerr.Column), Message: queryFault(qerr)}
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
		case n == "qual":
			c.captures[i] = capture{qual: true}
		}
	}
	return c, nil
}

// queryFault returns what is wrong in a query as tree-sitter found it:
// the kind of fault, and the name or the source line it is about.
func queryFault(e *ts.QueryError) string {
	switch e.Kind {
	case ts.QueryErrorNodeType:
		return "unknown node type " + e.Message
	case ts.QueryErrorField:
		return "unknown field " + e.Message
	case ts.QueryErrorCapture:
		return "unknown capture @" + e.Message
	case ts.QueryErrorPredicate:
		return "invalid predicate: " + e.Message
	case ts.QueryErrorStructure:
		return "impossible pattern:\n" + e.Message
	case ts.QueryErrorSyntax:
		return "syntax error:\n" + e.Message
	}
	return e.Message
}

// errClosed is returned by the methods of a closed Parser.
var errClosed = errors.New("tags: parser is closed")

// grammar returns the tree-sitter language of the named language, which
// has a grammar.
func grammar(name string) (*ts.Language, error) {
	l := lookup(name)
	if l == nil || l.grammar == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedLanguage, name)
	}
	return ts.NewLanguage(l.grammar()), nil
}

// parseTimed parses src in the grammar lang and returns the tree, which
// the caller closes, and the budget of the parse and whatever follows on
// the tree (nil without a timeout), which the caller releases.
//
// The timeout and ctx reach tree-sitter as its timeout and cancellation
// flag rather than as a progress callback: go-tree-sitter 0.25 never
// releases the handle it makes for ParseOptions, so every parse with a
// callback would leak the callback and all it holds, ctx included. A
// parse that the clock cut short before the budget was spent (a busy
// machine) is resumed where it stopped, as tree-sitter allows, with
// what is left of the budget.
func (p *Parser) parseTimed(ctx context.Context, lang *ts.Language, src []byte, old *ts.Tree) (*ts.Tree, *budget, error) {
	if p.parser == nil {
		return nil, nil, errClosed
	}
	if err := p.parser.SetLanguage(lang); err != nil {
		return nil, nil, fmt.Errorf("tags: set language: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	b := newBudget(p.timeout)
	atomic.StoreUintptr(p.cancel, 0)
	flagged := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		atomic.StoreUintptr(p.cancel, 1)
		close(flagged)
	})
	n := len(src)
	var tree *ts.Tree
	for resumed := 0; ; resumed++ {
		p.parser.SetTimeoutMicros(micros(b.wall()))
		tree = p.parser.ParseWithOptions(func(i int, _ ts.Point) []byte {
			if i < n {
				return src[i:]
			}
			return nil
		}, old, nil)
		if tree != nil || b == nil || ctx.Err() != nil || b.spent() || resumed == maxResumes {
			break
		}
	}
	if !stop() {
		<-flagged // the flag is set: the next parse may clear it
	}
	if tree == nil {
		b.release()
		p.renewParser()
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if p.timeout > 0 {
			return nil, nil, ErrTimeout
		}
		return nil, nil, fmt.Errorf("tags: parse failed")
	}
	return tree, b, nil
}

// maxResumes bounds how many times a parse cut short by the clock is
// resumed within its budget.
const maxResumes = 64

// reparse parses src, the source of the file at path in the language
// name, from the tree Trees keeps of the file, edited to src, when it
// keeps one, or else from scratch.
func (p *Parser) reparse(ctx context.Context, lang *ts.Language, path, name string, src []byte) (*ts.Tree, *budget, error) {
	if p.trees != nil {
		if k := p.trees.take(path, name); k != nil {
			e := edit(k.src, src)
			k.tree.Edit(&e)
			tree, b, err := p.parseTimed(ctx, lang, src, k.tree)
			k.tree.Close()
			if err != nil || !tree.RootNode().HasError() {
				if err == nil {
					p.trees.mu.Lock()
					p.trees.reused++
					p.trees.mu.Unlock()
				}
				return tree, b, err
			}
			tree.Close() // errors: from scratch, as a new parser would
			b.release()
		}
	}
	return p.parseTimed(ctx, lang, src, nil)
}

// renewParser replaces the tree-sitter parser after a parse that was cut
// short. Resetting is not enough: when the cut came while tree-sitter was
// balancing the finished tree, ts_parser_reset leaves its "balancing was
// cancelled" mark set but drops the tree, and the next parse aborts the
// process on an assertion.
func (p *Parser) renewParser() {
	p.parser.SetCancellationFlag(nil)
	p.parser.Close()
	p.parser = ts.NewParser()
	p.parser.SetCancellationFlag(p.cancel)
}

// micros returns d in microseconds, at least one for a positive d; zero
// means no limit to tree-sitter.
func micros(d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64(max(d.Microseconds(), 1))
}

// File is what one parse of a file gives.
type File struct {
	Lang    string   // the language, as Detect names it
	Set     Set      // the tags, as ParseSet returns them
	Outline *Outline // nil for a language without a grammar
}

// Parse returns the tags of the file at path, whose content is src, sorted
// by line and then by position in the line. The path, slash-separated and
// relative to the map's root, and the content pick the language (see
// Detect); the path is copied into each tag. Parse returns
// ErrUnsupportedLanguage for a file Detect does not know, ErrTimeout when
// the parser's timeout passed, and the context's error when ctx is done. A
// file with syntax errors still gives the tags of the parts that parse.
func (p *Parser) Parse(ctx context.Context, path string, src []byte) ([]Tag, error) {
	f, err := p.parse(ctx, path, src, false)
	return f.Set.Unpack(path), err
}

// ParseSet returns the tags Parse returns, in a Set, without making a
// Tag of each: what a map keeps.
func (p *Parser) ParseSet(ctx context.Context, path string, src []byte) (Set, error) {
	f, err := p.parse(ctx, path, src, false)
	return f.Set, err
}

// File returns the tags of the file at path, as Parse does, and its
// Outline, from one parse.
func (p *Parser) File(ctx context.Context, path string, src []byte) (File, error) {
	return p.parse(ctx, path, src, true)
}

func (p *Parser) parse(ctx context.Context, path string, src []byte, outline bool) (f File, err error) {
	// Tags leave the parser here: a name that holds a credential leaves
	// with none, so no output and no cache holds it.
	defer func() { f.Set = withoutSecrets(f.Set) }()
	name := Detect(path, src)
	if name == "" {
		return File{}, fmt.Errorf("%w: %s", ErrUnsupportedLanguage, path)
	}
	if p.parser == nil {
		return File{}, errClosed
	}
	l := lookup(name)
	if l.grammar == nil {
		lexed, err := p.lex(ctx, l, path, src)
		return File{Lang: name, Set: Pack(lexed)}, err
	}
	c, err := p.compile(name)
	if err != nil {
		return File{}, fmt.Errorf("tags: parse %s: %w", path, err)
	}
	parsed := l.source(src)
	tree, b, err := p.reparse(ctx, c.lang, path, name, parsed)
	if err != nil {
		return File{}, fmt.Errorf("tags: parse %s: %w", path, err)
	}
	defer b.release()
	// The outline is made from a copy of the tree on a goroutine of its
	// own while the query runs: a file whose outline is asked for is
	// one a map showed before it changed, and a Map kept open waits for
	// its parse alone (on server.go of net/http, the query takes 15 ms
	// and the outline 6 ms).
	var outlined chan *Outline
	if outline {
		outlined = make(chan *Outline, 1)
		copied := tree.Clone()
		go func() {
			defer copied.Close()
			outlined <- outlineOf(copied, name)
		}()
	}
	set, err := p.query(ctx, tree, c, l, path, src, b)
	if outline {
		f.Outline = <-outlined
	}
	if err != nil {
		tree.Close()
		return File{}, err
	}
	f.Lang, f.Set = name, set
	if p.trees != nil && !tree.RootNode().HasError() {
		p.trees.put(keptTree{path: path, lang: name, src: slices.Clone(parsed), tree: tree})
	} else {
		tree.Close()
	}
	return f, nil
}

// query runs the tags query c on tree and returns the tags.
func (p *Parser) query(ctx context.Context, tree *ts.Tree, c *compiled, l *language, path string, src []byte, b *budget) (Set, error) {
	// The query can take far longer than the parse (time quadratic in the
	// nesting of some trees): the parse's budget bounds it too. It is
	// the cursor's timeout, as the progress callback of
	// MatchesWithOptions lives in memory that go-tree-sitter 0.25 leaves
	// to the garbage collector while C still points to it. A query that
	// the clock cut short before the budget was spent (a busy machine)
	// is run again with what is left of it.
	for again := 0; ; again++ {
		if b.spent() {
			return Set{}, fmt.Errorf("tags: parse %s: %w", path, ErrTimeout)
		}
		limit := b.wall()
		start := time.Now()
		set, err := p.queryWithin(ctx, tree, c, l, path, src, limit)
		if err != nil {
			return Set{}, fmt.Errorf("tags: parse %s: %w", path, err)
		}
		if limit == 0 || time.Since(start) < limit {
			return set, nil
		}
		// The query stopped at its limit, or finished too late to tell.
		if b.spent() || again == maxResumes {
			return Set{}, fmt.Errorf("tags: parse %s: %w", path, ErrTimeout)
		}
	}
}

// queryWithin runs the tags query c on tree, which the cursor stops once
// limit has passed (zero: no limit), and returns the tags.
func (p *Parser) queryWithin(ctx context.Context, tree *ts.Tree, c *compiled, l *language, path string, src []byte, limit time.Duration) (Set, error) {
	p.cursor.SetTimeoutMicros(micros(limit))
	raw := p.raw[:0]
	p.quals = cleared(p.quals)
	root := tree.RootNode()
	matches := p.cursor.Matches(c.query, root, src)
	for k, m := 0, matches.Next(); m != nil; k, m = k+1, matches.Next() {
		if k%256 == 255 && ctx.Err() != nil {
			break
		}
		qual := qualOf(c, m.Captures, src, p.quals)
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
				qual:    qual,
			})
		}
	}
	p.raw = raw
	if err := ctx.Err(); err != nil {
		return Set{}, err
	}

	// One node is one tag: where several patterns captured it, the first
	// pattern of the query wins.
	slices.SortFunc(raw, func(a, b rawTag) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.pattern, b.pattern))
	})
	k := &p.pack
	k.reset(len(raw))
	refs := false
	for i, r := range raw {
		if i > 0 && raw[i-1].start == r.start && raw[i-1].end == r.end {
			continue
		}
		cap := c.captures[r.capture]
		if cap.ignore || r.end > uint(len(src)) || r.start >= r.end {
			continue
		}
		var name uint32
		// A name is not empty, not the blank identifier, on one line.
		if b := src[r.start:r.end]; l.rename != nil && cap.sub == l.renamed {
			str := l.rename(string(b))
			if str == "" || str == "_" || strings.ContainsAny(str, "\n\r") {
				continue
			}
			name = k.intern(str)
		} else {
			if string(b) == "_" || bytes.ContainsAny(b, "\n\r") {
				continue
			}
			name = k.internBytes(b)
		}
		k.add(name, cap.sub, cap.kind, r.line, r.qual)
		refs = refs || cap.kind == Reference
	}
	set := k.done()
	if !refs && l.lexer != "" {
		// The query has no references for this file: take the names the
		// lexer sees, so the file still links to what it uses.
		more, err := p.lexRefs(ctx, l, path, src)
		if err != nil {
			return Set{}, err
		}
		if len(more) > 0 {
			set = Pack(mergeByLine(set.Unpack(path), more))
		}
	}
	return set, nil
}

// qualOf returns the text of a match's @qual captures, in capture order,
// joined by spaces, with the quotes of string literals taken off; "" when
// the match has none or their text spans lines. The text of one capture
// is made once per file (quals), most matches' qualifier being one of a
// few names.
func qualOf(c *compiled, cps []ts.QueryCapture, src []byte, quals map[string]string) string {
	var q string
	for _, cp := range cps {
		if !c.captures[cp.Index].qual {
			continue
		}
		start, end := cp.Node.StartByte(), cp.Node.EndByte()
		if end > uint(len(src)) || start >= end {
			continue
		}
		text := bytes.Trim(src[start:end], "\"'`")
		if len(text) == 0 || bytes.ContainsAny(text, "\n\r") {
			return ""
		}
		if q != "" {
			q += " " + string(text)
			continue
		}
		var ok bool
		if q, ok = quals[string(text)]; !ok {
			q = string(text)
			quals[q] = q
		}
	}
	return q
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
