package main

import (
	"context"
	"log"
	"os"
	"os/signal"
)

func main() {
	log.SetPrefix("repomap: ")
	log.SetFlags(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
