package index

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/repomap-dev/repomap/tags"
)

// onParsers calls do(w, p, k) for every k in [0, n) on workers
// goroutines, w of them the worker's number and p the parser newParser
// made for it, which it closes when done. Each takes the next k not yet
// taken, till there is none or ctx is done. It returns when all are done.
//
// Each worker keeps to one OS thread. Tree-sitter allocates its trees and
// stacks with the C allocator, whose caches and arenas are per thread: a
// goroutine moved to another thread between two files, as a file's read
// may move it, frees one thread's memory into another's and spreads its
// working set over arenas. On the Go standard library, keeping to one
// thread took three fifths off the pages of memory the floor (Floor, one
// thread) touched, a seventh off those of a cold map on two, and a tenth
// off the map's wall time.
func onParsers(ctx context.Context, workers, n int, newParser func() *tags.Parser, do func(w int, p *tags.Parser, k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range min(workers, n) {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			p := newParser()
			defer p.Close()
			for ctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				do(w, p, k)
			}
		})
	}
	wg.Wait()
}
