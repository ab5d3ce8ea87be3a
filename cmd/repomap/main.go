package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
