package tags

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// TestQueriesShared parses files of three languages on four goroutines,
// each with its own Parser on one Queries: each language's query is
// compiled once between them, and the tags equal those of a Parser with
// queries of its own.
func TestQueriesShared(t *testing.T) {
	files := map[string]string{
		"a.scala": "object A { def run(x: Int): Int = helper(x) }\n",
		"b.scala": "class B { def helper(x: Int): Int = x }\n",
		"c.cpp":   "int helper(int x) { return x; }\nint run() { return helper(1); }\n",
		"d.go":    "package d\n\nfunc Run() int { return helper() }\n",
	}
	own := NewParser(nil)
	defer own.Close()
	want := make(map[string][]Tag)
	for name, src := range files {
		ts, err := own.Parse(context.Background(), name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = ts
	}

	q := NewQueries()
	defer q.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(files))
	for range 4 {
		wg.Go(func() {
			p := NewParser(&ParserOptions{Queries: q})
			defer p.Close()
			for range 3 {
				for name, src := range files {
					f, err := p.File(context.Background(), name, []byte(src))
					if err != nil {
						errs <- err
						return
					}
					if f.Set.Len() != len(want[name]) || f.Outline == nil {
						errs <- errors.New(name + ": tags or outline differ from an unshared parser's")
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := q.Compiles(); n != 3 {
		t.Errorf("Compiles() = %d after four parsers met scala, cpp and go, want 3", n)
	}
	if n := own.queries.Compiles(); n != 3 {
		t.Errorf("an unshared parser compiled %d queries for three languages, want 3", n)
	}
}

// TestQueriesClosed: a closed Queries compiles nothing more, and a parser
// using it says so instead of crashing.
func TestQueriesClosed(t *testing.T) {
	q := NewQueries()
	p := NewParser(&ParserOptions{Queries: q})
	defer p.Close()
	if _, err := p.Parse(context.Background(), "a.go", []byte("package a\n")); err != nil {
		t.Fatal(err)
	}
	q.Close()
	q.Close()
	if _, err := p.Parse(context.Background(), "a.go", []byte("package a\n")); !errors.Is(err, errClosed) {
		t.Errorf("Parse with closed Queries: %v, want errClosed", err)
	}
}
