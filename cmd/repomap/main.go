package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	log.SetPrefix("repomap: ")
	log.SetFlags(0)
	if os.Getenv("GOGC") == "" {
		// A map is a short burst of allocation, most of it live to the
		// end: collecting less often saves a tenth of a warm map's time
		// and keeps the Go standard library's cold map under 0.7 GB.
		debug.SetGCPercent(400)
	}
	ctx, stop := interruptible(context.Background())
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// interruptible returns a context that SIGINT or SIGTERM ends, with an
// interrupt as its cause. After the first signal, a second one ends the
// process at once.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			code := 128 + 2
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			cancel(interrupt{sig: sig, code: code})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}
