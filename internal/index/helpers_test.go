package index

import (
	"log/slog"
	"runtime"
	"time"
)

// defaults returns o with the defaults a Map gives its index.
func defaults(o Options) Options {
	if o.Parallelism == 0 {
		o.Parallelism = runtime.GOMAXPROCS(0)
	}
	if o.MaxFileSize == 0 {
		o.MaxFileSize = 1 << 20
	}
	if o.ParseTimeout == 0 {
		o.ParseTimeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
