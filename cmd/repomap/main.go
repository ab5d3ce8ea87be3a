package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"
)

func main() {
	log.SetPrefix("repomap: ")
	log.SetFlags(0)
	tuneGC(os.Getenv)
	ctx, stop := interruptible(context.Background(), os.Stderr, os.Exit)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// tuneGC sets how the Go heap is collected, where the environment
// (getenv) does not say.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		// A map is a short burst of allocation, most of it live to the
		// end: collecting less often saves a tenth of a warm map's time
		// and keeps the Go standard library's cold map under 0.7 GB.
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		// But not past softLimit: on a tree of 100,000 files the link
		// stage holds over a gigabyte, and five times that is more than
		// the machine may have. Near the limit the collector runs more
		// often; a map whose live heap passes it gets a collector that
		// the runtime keeps to half of the CPU.
		debug.SetMemoryLimit(softLimit)
	}
}

// softLimit is the Go heap's soft limit, in bytes, unless GOMEMLIMIT
// sets one: the process's peak stays under 2 GB, the parsers' memory
// outside the Go heap included.
const softLimit = 1536 << 20

// forceAfter is how long after a first signal the process ends anyway:
// the map keeps what it finished and ends well within it (it waits a
// second for the reads and parses under way), unless the disk cache's
// write, or the system, hangs.
const forceAfter = 10 * time.Second

// interruptible returns a context that SIGINT or SIGTERM ends, with an
// interrupt as its cause, for the command to keep what it finished and
// end. A second signal, or a command still running forceAfter the first,
// ends the process at once: exit is called with the first signal's
// status, after "interrupted" on stderr.
func interruptible(parent context.Context, stderr io.Writer, exit func(code int)) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var sig os.Signal
		select {
		case sig = <-ch:
		case <-done:
			return
		}
		code := 128 + 2
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		cancel(interrupt{sig: sig, code: code})
		select {
		case <-ch:
		case <-time.After(forceAfter):
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "repomap: interrupted")
		exit(code)
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			signal.Stop(ch)
			cancel(nil)
		})
	}
}
