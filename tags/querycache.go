package tags

import (
	"fmt"
	"strings"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/repomap-dev/repomap/queries"
)

// Queries holds the compiled tags queries of the languages met so far.
// Compiling a query can take seconds (Scala's, C++'s), and a compiled
// query is immutable, so parsers on several goroutines may share one
// Queries: each language's query is then compiled once between them, the
// first time a parser needs it. It is safe for concurrent use.
type Queries struct {
	mu       sync.Mutex
	langs    map[string]*queryOnce
	compiles int // queries compiled, or tried
	closed   bool
}

// queryOnce is one language's query, compiled at most once.
type queryOnce struct {
	once sync.Once
	c    *compiled
	err  error
}

// NewQueries returns an empty Queries. Close it once the parsers that
// use it are closed.
func NewQueries() *Queries { return &Queries{langs: make(map[string]*queryOnce)} }

// Close releases the compiled queries. It is safe to call more than once;
// a closed Queries compiles nothing more.
func (q *Queries) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range q.langs {
		// Wait for a compile under way; an entry compiled after Close
		// would not be closed.
		e.once.Do(func() {})
		if e.c != nil {
			e.c.query.Close()
		}
	}
	q.langs, q.closed = nil, true
	return nil
}

// Compiles returns how many times a query was compiled: once for each
// language the parsers using q have met.
func (q *Queries) Compiles() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.compiles
}

// get returns the compiled query of the named language, compiling it on
// first use.
func (q *Queries) get(name string) (*compiled, error) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil, errClosed
	}
	e := q.langs[name]
	if e == nil {
		e = &queryOnce{}
		q.langs[name] = e
	}
	q.mu.Unlock()
	e.once.Do(func() {
		e.c, e.err = compileLanguage(name)
		q.mu.Lock()
		q.compiles++
		q.mu.Unlock()
	})
	return e.c, e.err
}

// compileLanguage compiles the tags query of the named language.
func compileLanguage(name string) (*compiled, error) {
	l := lookup(name)
	if l == nil || l.grammar == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedLanguage, name)
	}
	// The query is the concatenation of its files; an error is reported
	// against the file and row it falls in.
	files := l.queryFiles()
	var src strings.Builder
	var starts []int // first row of each file in src
	rows := 0
	for _, f := range files {
		data, err := queries.FS.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("tags: read query for %s: %w", name, err)
		}
		text := string(data)
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		starts = append(starts, rows)
		rows += strings.Count(text, "\n")
		src.WriteString(text)
	}
	c, err := compileQuery(ts.NewLanguage(l.grammar()), files[0], src.String())
	if qe, ok := err.(*QueryError); ok {
		i := len(starts) - 1
		for i > 0 && starts[i] > qe.Row {
			i--
		}
		qe.File, qe.Row = files[i], qe.Row-starts[i]
	}
	return c, err
}
