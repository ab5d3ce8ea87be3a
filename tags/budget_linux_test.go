package tags

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestTimeoutBusy checks that a parse is timed by the processor time it
// takes, not by the clock: a file that parses within its timeout on an
// idle machine parses within it while busy loops share the processors
// with it, however long that takes on the clock; and one that needs more
// than its timeout of the processor still runs out of it.
func TestTimeoutBusy(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every processor for seconds")
	}
	var b strings.Builder
	b.WriteString("int important_table_lookup(int i);\nstatic const int table[] = {")
	for i := range 60000 {
		fmt.Fprintf(&b, "%d,", i*7919%100000)
	}
	b.WriteString("};\nint important_table_lookup(int i) { return table[i]; }\n")
	src := []byte(b.String())

	// What the parse takes of the processor on this machine now.
	p := NewParser(nil)
	runtime.LockOSThread()
	cpu0, ok := threadCPU()
	if _, err := p.ParseSet(context.Background(), "table.c", src); err != nil {
		t.Fatal(err)
	}
	cpu1, _ := threadCPU()
	runtime.UnlockOSThread()
	p.Close()
	if !ok {
		t.Skip("no thread processor time here")
	}
	need := cpu1 - cpu0

	// Busy loops, four to a processor.
	var stop atomic.Bool
	defer stop.Store(true)
	for range 4 * runtime.NumCPU() {
		go func() {
			runtime.LockOSThread()
			for n := 0; !stop.Load(); n++ {
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)

	p = NewParser(&ParserOptions{Timeout: 3 * need})
	defer p.Close()
	start := time.Now()
	set, err := p.ParseSet(context.Background(), "table.c", src)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("parse of %v of the processor, timeout %v, busy machine: %v after %v", need, 3*need, err, took)
	}
	if set.Len() == 0 {
		t.Errorf("no tags")
	}
	t.Logf("parse of %v of the processor took %v on the busy machine", need, took)

	short := NewParser(&ParserOptions{Timeout: need / 4})
	defer short.Close()
	if _, err := short.ParseSet(context.Background(), "table.c", src); err == nil {
		t.Errorf("parse with a timeout of a quarter of what it takes (%v) did not run out", need/4)
	}
}
