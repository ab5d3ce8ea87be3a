package tags

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// deepDepth is how deeply the nesting tests nest: far deeper than any
// recursion on the goroutine or C stack could go.
const deepDepth = 100000

// deepSources are sources nested deepDepth brackets deep, one bracket a
// line, each with a tag inside the nesting, at a depth of at most half
// that: tree-sitter's query cursor counts depth in 16 bits, so that
// matches more than 65,535 nodes deep are lost (the parse itself is
// right). In Go, a bracket of a block is two nodes deep.
var deepSources = []struct {
	path, src string
	name      string
	kind      Kind
}{
	{
		// A struct declared in nested blocks: its field is a definition.
		"deep.go",
		"package p\nfunc F() {\n" + strings.Repeat("{\n", deepDepth/4) + "type local struct {\n\tDeepField int\n}\n" +
			strings.Repeat("{\n", deepDepth*3/4) + strings.Repeat("}\n", deepDepth+1),
		"DeepField", Definition,
	},
	{
		// A call inside nested lists.
		"deep.py",
		"x = " + strings.Repeat("[\n", deepDepth/2) + "deep_call(),\n" + strings.Repeat("[\n", deepDepth/2) +
			strings.Repeat("]\n", deepDepth) + "def deep_call():\n    pass\n",
		"deep_call", Reference,
	},
	{
		// A class expression with a method, inside nested arrays.
		"deep.js",
		"x = " + strings.Repeat("[\n", deepDepth/2) + "class {\n  deepMethod() {}\n},\n" + strings.Repeat("[\n", deepDepth/2) +
			strings.Repeat("]\n", deepDepth),
		"deepMethod", Definition,
	},
}

// rowOf returns the 0-based row of the first line of src that has s.
func rowOf(src, s string) int {
	return strings.Count(src[:strings.Index(src, s)], "\n")
}

// TestDeepNesting parses and outlines sources nested 100,000 brackets
// deep: tags and outline come out, and nothing recurses per level (a
// stack overflow would kill the test binary).
func TestDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: parses 100,000-deep sources")
	}
	p := NewParser(nil)
	defer p.Close()
	ctx := context.Background()
	for _, tc := range deepSources {
		t.Run(tc.path, func(t *testing.T) {
			start := time.Now()
			got, err := p.Parse(ctx, tc.path, []byte(tc.src))
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.path, err)
			}
			t.Logf("Parse(%s, %d bytes) took %v", tc.path, len(tc.src), time.Since(start))
			i := slices.IndexFunc(got, func(tg Tag) bool { return tg.Name == tc.name && tg.Kind == tc.kind })
			if i < 0 {
				t.Fatalf("Parse(%s) has no %s %s", tc.path, tc.kind, tc.name)
			}
			row := rowOf(tc.src, tc.name)
			if got[i].Line != row {
				t.Errorf("Parse(%s): %s on row %d, want %d", tc.path, tc.name, got[i].Line, row)
			}
			start = time.Now()
			o, err := p.Outline(ctx, tc.path, []byte(tc.src))
			if err != nil {
				t.Fatalf("Outline(%s): %v", tc.path, err)
			}
			rows := o.Context([]int{row})
			t.Logf("Outline(%s) and Context took %v, %d rows", tc.path, time.Since(start), len(rows))
			// Every bracket's row above it, but the first row, is a scope
			// header.
			if len(rows) < row || !slices.Contains(rows, row) {
				t.Errorf("Outline(%s).Context(%d) = %d rows, want the row and a header for each row above", tc.path, row, len(rows))
			}
		})
	}
}

// TestParsePathologicalQuery parses files on which the tags query, not
// the parse, takes time quadratic in their size or worse (unbounded: 20
// seconds for 100,000 unclosed brackets, over 3 minutes for calls nested
// 100,000 deep in JavaScript): the parser's timeout bounds the query too.
func TestParsePathologicalQuery(t *testing.T) {
	for _, tc := range []struct{ path, src string }{
		{"open.go", "package p\nvar x = " + strings.Repeat("(", deepDepth)},
		{"open.py", "x = " + strings.Repeat("[", deepDepth)},
		{"calls.js", strings.Repeat("f(\n", deepDepth) + strings.Repeat(")\n", deepDepth)},
	} {
		t.Run(tc.path, func(t *testing.T) {
			const timeout = 200 * time.Millisecond
			p := NewParser(&ParserOptions{Timeout: timeout})
			defer p.Close()
			start := time.Now()
			_, err := p.Parse(context.Background(), tc.path, []byte(tc.src))
			took := time.Since(start)
			if !errors.Is(err, ErrTimeout) {
				t.Errorf("Parse(%s) error = %v, want ErrTimeout", tc.path, err)
			}
			// The timeout counts the processor's time of the parse's
			// thread: on a machine busy with other work its wall time is
			// longer. 10 s still tells a bound query from an unbounded
			// one (20 s and 3 minutes, above).
			if took > timeout+10*time.Second {
				t.Errorf("Parse(%s) with a %v timeout took %v", tc.path, timeout, took)
			}
			t.Logf("Parse(%s) with a %v timeout returned after %v", tc.path, timeout, took)
			// The parser is fine afterwards.
			if _, err := p.Parse(context.Background(), "ok.go", []byte("package p\nfunc F() {}\n")); err != nil {
				t.Errorf("Parse after a timeout: %v", err)
			}
		})
	}
}

// TestParseCancelledMidway cancels the context of a parse once Parse has
// checked that it is live, so that the cancel lands in the work that
// follows: tree-sitter's parse of a large Go file, the lexer's token loop
// for a Swift one. Parse returns the context's error, and the parser
// parses the next file in full.
func TestParseCancelledMidway(t *testing.T) {
	for _, tc := range []struct{ path, src string }{
		{"big.go", "package p\n" + strings.Repeat("func f() { a := []int{1, 2, 3}; b := map[string]int{\"x\": a[0]}; _ = b }\n", 60000)},
		{"big.swift", strings.Repeat("func f() { let a = [1, 2, 3]; g(a) }\n", 10000)},
	} {
		t.Run(tc.path, func(t *testing.T) {
			p := NewParser(nil)
			defer p.Close()
			ctx := newCancelOnLook(t)
			if _, err := p.Parse(ctx, tc.path, []byte(tc.src)); !errors.Is(err, context.Canceled) {
				t.Fatalf("Parse(%s, cancelled after its first look at ctx) error = %v, want context.Canceled", tc.path, err)
			}
			got, err := p.Parse(context.Background(), "small.go", []byte("package p\n\nfunc After() {}\n"))
			if err != nil || !slices.ContainsFunc(got, func(tg Tag) bool { return tg.Name == "After" }) {
				t.Errorf("Parse after a cancelled parse = %v, %v; want the definition of After", short(got), err)
			}
		})
	}
}

// cancelOnLook is a context that cancels itself right after the first
// call of its Err or Done method: that call still finds it live, every
// later one finds it cancelled.
type cancelOnLook struct {
	context.Context
	cancel context.CancelFunc
	once   sync.Once
}

func newCancelOnLook(t *testing.T) *cancelOnLook {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &cancelOnLook{Context: ctx, cancel: cancel}
}

func (c *cancelOnLook) Err() error {
	err := c.Context.Err()
	c.once.Do(c.cancel)
	return err
}

func (c *cancelOnLook) Done() <-chan struct{} {
	done := c.Context.Done()
	c.once.Do(c.cancel)
	return done
}

// TestParseNoLeak parses one small file many times with a timeout and
// checks that the Go heap does not grow with the number of parses: a
// parse must leave nothing behind once its tree is closed.
func TestParseNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 60,000 parses")
	}
	p := NewParser(&ParserOptions{Timeout: time.Second})
	defer p.Close()
	src := []byte("package p\n\nfunc F() { G() }\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	const n = 20000
	var base uint64
	for round := range 3 {
		for range n {
			if _, err := p.Parse(ctx, "a.go", src); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Outline(ctx, "a.go", src); err != nil {
				t.Fatal(err)
			}
		}
		h := heap()
		t.Logf("after %d parses and outlines: Go heap %d KiB", (round+1)*n, h>>10)
		if round == 0 {
			base = h
		}
	}
	// 40,000 more parses and outlines: a leak of even 16 bytes each
	// shows.
	if h := heap(); h > base+512<<10 {
		t.Errorf("Go heap grew from %d KiB to %d KiB over %d parses and outlines", base>>10, h>>10, 4*n)
	}
}

// TestQueryErrorPosition compiles broken tags queries: each error names
// the query file and the row and column of the fault, 1-based, in its
// message, and gives them 0-based in the QueryError.
func TestQueryErrorPosition(t *testing.T) {
	lang := ts.NewLanguage(lookup("go").grammar())
	for _, tc := range []struct {
		name, src string
		row, col  int    // 0-based
		message   string // how the message starts
	}{
		{"node type", "(function_declaration\n  name: (identifier) @name.definition.function)\n\n(no_such_node) @x\n", 3, 1, "unknown node type no_such_node"},
		{"field", "(function_declaration\n  no_field: (identifier) @x)\n", 1, 2, "unknown field no_field"},
		{"syntax", "(function_declaration\n  name: (identifier) @x\n", 2, 0, "syntax error:\n"},
		{"capture", "(function_declaration\n  name: (identifier) @x\n  (#eq? @y \"a\"))\n", 2, 9, "unknown capture @y"},
		{"structure", "(function_declaration\n  (identifier (identifier)) @x)\n", 1, 14, "impossible pattern:\n  (identifier (identifier)) @x)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileQuery(lang, "broken-tags.scm", tc.src)
			var qe *QueryError
			if !errors.As(err, &qe) {
				t.Fatalf("compileQuery(%q) error = %v, want a *QueryError", tc.src, err)
			}
			if qe.File != "broken-tags.scm" || qe.Row != tc.row || qe.Column != tc.col || !strings.HasPrefix(qe.Message, tc.message) {
				t.Errorf("compileQuery(%q) = %+v, want broken-tags.scm row %d column %d, message %q", tc.src, *qe, tc.row, tc.col, tc.message)
			}
			if want := fmt.Sprintf("tags: query broken-tags.scm:%d:%d: %s", tc.row+1, tc.col+1, tc.message); !strings.HasPrefix(qe.Error(), want) {
				t.Errorf("QueryError.Error() = %q, want it to start %q", qe.Error(), want)
			}
		})
	}
}

// TestParseAfterTimeouts cuts parses short at many points, balancing of
// the finished tree included, and parses another file with the same
// Parser after each: tree-sitter must not be left in a state that aborts
// the next parse.
func TestParseAfterTimeouts(t *testing.T) {
	// Unclosed brackets make a deep, lopsided tree whose balancing takes
	// long enough for the cut to land in it.
	big := []byte("package p\nvar x = " + strings.Repeat("(", deepDepth))
	small := []byte("package p\n\nfunc Small() {}\n")
	p := NewParser(nil)
	defer p.Close()
	n := 0
	for d := time.Millisecond; d < 400*time.Millisecond; d = d * 9 / 8 {
		p.timeout = d
		if _, err := p.Parse(context.Background(), "big.go", big); err != nil {
			n++
		}
		p.timeout = 0
		tags, err := p.Parse(context.Background(), "small.go", small)
		if err != nil || len(tags) == 0 {
			t.Fatalf("after a parse cut at %v: Parse(small.go) = %v, %v", d, tags, err)
		}
	}
	if n == 0 {
		t.Fatal("no parse was cut short: the test shows nothing")
	}
}
