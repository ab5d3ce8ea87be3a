package index

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/tags"
)

// TestOnParsersOneThread checks that each worker of onParsers stays on
// one OS thread, though it reads a file and sleeps between calls, as a
// map's parse reads each file before it parses it.
func TestOnParsersOneThread(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(name, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	threads := map[int]map[int]bool{} // per worker, the threads it ran on
	onParsers(context.Background(), 2, 200, func() *tags.Parser { return tags.NewParser(nil) }, func(w int, _ *tags.Parser, k int) {
		if _, err := os.ReadFile(name); err != nil {
			t.Error(err)
		}
		if k%10 == 0 {
			time.Sleep(time.Millisecond) // the goroutine leaves its thread unless locked to it
		}
		mu.Lock()
		defer mu.Unlock()
		if threads[w] == nil {
			threads[w] = map[int]bool{}
		}
		threads[w][syscall.Gettid()] = true
	})
	for w, ts := range threads {
		if len(ts) != 1 {
			t.Errorf("worker %d ran on %d threads", w, len(ts))
		}
	}
}
