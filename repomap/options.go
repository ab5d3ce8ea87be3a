package repomap

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"
)

// Options configures a Map. A nil *Options, and every zero field, means
// the default.
type Options struct {
	// MaxTokens is the most tokens a map may have: a hard cap. Zero derives
	// the budget from ContextWindow, or uses DefaultTokens without one.
	MaxTokens int

	// ContextWindow is the context window of the model the map is for, in
	// tokens. With MaxTokens zero, the budget is an eighth of it, between
	// 1,024 and 4,096 tokens; when a request has no focus files it is
	// doubled, as far as the window less 4,096 tokens allows.
	ContextWindow int

	// Encoding names the tokenizer that measures the map: O200kBase (the
	// default) or Cl100kBase.
	Encoding string

	// Parallelism is the number of files parsed at once; zero means
	// runtime.GOMAXPROCS(0).
	Parallelism int

	// MaxFileSize is the largest file, in bytes, whose tags are read;
	// larger files are listed by name only. Zero means 1 MiB.
	MaxFileSize int64

	// ParseTimeout bounds the time spent parsing one file; a file that
	// takes longer is listed by name only. Zero means 5 seconds.
	ParseTimeout time.Duration

	// Logger receives diagnostics, such as files skipped and why. Nil
	// means none.
	Logger *slog.Logger
}

// Defaults.
const (
	DefaultTokens       = 1024
	DefaultMaxFileSize  = 1 << 20
	DefaultParseTimeout = 5 * time.Second
)

// withDefaults returns a copy of o with defaults applied, or an error
// naming the first invalid field.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	switch {
	case c.MaxTokens < 0:
		return c, fmt.Errorf("repomap: MaxTokens %d is negative", c.MaxTokens)
	case c.ContextWindow < 0:
		return c, fmt.Errorf("repomap: ContextWindow %d is negative", c.ContextWindow)
	case c.Parallelism < 0:
		return c, fmt.Errorf("repomap: Parallelism %d is negative", c.Parallelism)
	case c.MaxFileSize < 0:
		return c, fmt.Errorf("repomap: MaxFileSize %d is negative", c.MaxFileSize)
	case c.ParseTimeout < 0:
		return c, fmt.Errorf("repomap: ParseTimeout %v is negative", c.ParseTimeout)
	}
	if c.Encoding == "" {
		c.Encoding = O200kBase
	}
	if c.Encoding != O200kBase && c.Encoding != Cl100kBase {
		return c, fmt.Errorf("repomap: unknown encoding %q (want %s or %s)", c.Encoding, O200kBase, Cl100kBase)
	}
	if c.Parallelism == 0 {
		c.Parallelism = runtime.GOMAXPROCS(0)
	}
	if c.MaxFileSize == 0 {
		c.MaxFileSize = DefaultMaxFileSize
	}
	if c.ParseTimeout == 0 {
		c.ParseTimeout = DefaultParseTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Budget returns the token budget of a map: maxTokens when it is
// positive; otherwise, from the model's context window, an eighth of it
// clamped to [1024, 4096], and with no focus files doubled, as far as
// window−4096 allows (never below the undoubled budget); otherwise
// DefaultTokens.
func Budget(maxTokens, window int, hasFocus bool) int {
	if maxTokens > 0 {
		return maxTokens
	}
	if window <= 0 {
		return DefaultTokens
	}
	b := min(max(window/8, 1024), 4096)
	if !hasFocus {
		b = max(b, min(2*b, window-4096))
	}
	return b
}
