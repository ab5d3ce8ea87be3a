package index

import (
	"context"
	"sync"
	"testing"

	"github.com/repomap-dev/repomap/tags"
)

// TestOnParsers checks that onParsers does every k once, on at most the
// workers asked for, each with a parser of its own that it closes, and
// that a done context stops it.
func TestOnParsers(t *testing.T) {
	for _, tc := range []struct{ workers, n int }{{1, 0}, {1, 5}, {2, 1}, {3, 100}, {64, 10}} {
		var mu sync.Mutex
		done := make([]int, tc.n)
		parsers := map[*tags.Parser]int{} // the worker each parser served
		var made []*tags.Parser
		newParser := func() *tags.Parser {
			p := tags.NewParser(nil)
			mu.Lock()
			made = append(made, p)
			mu.Unlock()
			return p
		}
		onParsers(context.Background(), tc.workers, tc.n, newParser, func(w int, p *tags.Parser, k int) {
			mu.Lock()
			defer mu.Unlock()
			done[k]++
			if v, ok := parsers[p]; ok && v != w {
				t.Errorf("workers %d, n %d: parser of worker %d used by %d", tc.workers, tc.n, v, w)
			}
			parsers[p] = w
			if w < 0 || w >= tc.workers {
				t.Errorf("workers %d, n %d: worker %d", tc.workers, tc.n, w)
			}
		})
		for k, c := range done {
			if c != 1 {
				t.Errorf("workers %d, n %d: k %d done %d times", tc.workers, tc.n, k, c)
			}
		}
		if want := min(tc.workers, tc.n); len(made) != want {
			t.Errorf("workers %d, n %d: %d parsers made, want %d", tc.workers, tc.n, len(made), want)
		}
		for _, p := range made {
			// A closed parser refuses to parse.
			if _, err := p.Parse(context.Background(), "a.go", []byte("package a\n")); err == nil {
				t.Errorf("workers %d, n %d: a parser was left open", tc.workers, tc.n)
			}
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	calls := 0
	onParsers(ctx, 2, 1000, func() *tags.Parser { return tags.NewParser(nil) }, func(_ int, _ *tags.Parser, k int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 10 {
			cancel()
		}
	})
	if calls < 10 || calls > 11 { // the other worker may have taken one more
		t.Errorf("%d calls after the context was done at the 10th", calls)
	}
}
