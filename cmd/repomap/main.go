// Command repomap prints a map of a source tree for a coding agent or a
// context file: the definitions that matter most, ranked by how the files
// use each other, as source lines under their file's path, within a token
// budget.
//
// Usage:
//
//	repomap [flags] [PATH]
//
// PATH is the root of the tree, by default the current directory. Files
// ignored by the tree's .gitignore files are left out. The map goes to
// standard output; errors go to standard error.
//
// The flags are:
//
//	-tokens N
//		the most tokens the map may have (a hard cap); default: from
//		-context-window, else 1024
//	-context-window N
//		the model's context window: the budget is an eighth of it, between
//		1024 and 4096 tokens, doubled (as far as the window allows) when
//		there are no focus files
//	-focus FILE
//		a file being worked on, relative to PATH or absolute; repeatable.
//		The map ranks what it uses and leaves it out
//	-mention WORD
//		an identifier or path the user mentioned; repeatable
//	-encoding NAME
//		the tokenizer that measures the map: o200k_base (default) or
//		cl100k_base
//	-v
//		log skipped files and other diagnostics to standard error
//
// Exit status: 0 on success, 1 on failure, 2 on a usage error.
//
// Example:
//
//	repomap -tokens 4096 > map.md
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/repomap-dev/repomap/repomap"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// run is the command: it parses args, writes the map to stdout and
// diagnostics to stderr, and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("repomap", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var (
		tokens   = fl.Int("tokens", 0, "the most `tokens` the map may have (default: from -context-window, else 1024)")
		window   = fl.Int("context-window", 0, "the model's context window in `tokens`, to derive the budget from")
		encoding = fl.String("encoding", repomap.O200kBase, "the tokenizer: o200k_base or cl100k_base")
		verbose  = fl.Bool("v", false, "log diagnostics to standard error")
		focus    list
		mentions list
	)
	fl.Var(&focus, "focus", "a `file` being worked on (repeatable)")
	fl.Var(&mentions, "mention", "an identifier or path the user mentioned (repeatable)")
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: repomap [flags] [PATH]\n\nflags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 1 {
		fmt.Fprintf(stderr, "repomap: one PATH at most, got %d\n", fl.NArg())
		fl.Usage()
		return 2
	}
	if *tokens < 0 || *window < 0 {
		fmt.Fprintln(stderr, "repomap: -tokens and -context-window take a positive number")
		return 2
	}
	root := "."
	if fl.NArg() == 1 {
		root = fl.Arg(0)
	}
	focusRel, err := relativeTo(root, focus)
	if err != nil {
		fmt.Fprintf(stderr, "repomap: %v\n", err)
		return 2
	}

	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	m, err := repomap.New(root, &repomap.Options{
		MaxTokens:     *tokens,
		ContextWindow: *window,
		Encoding:      *encoding,
		Logger:        logger,
	})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer m.Close()
	out, err := m.Render(ctx, repomap.Request{Focus: focusRel, Mentions: mentions})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if _, err := io.WriteString(stdout, out); err != nil {
		fmt.Fprintf(stderr, "repomap: %v\n", err)
		return 1
	}
	return 0
}

// relativeTo returns the paths relative to root, slash-separated: an
// absolute path is made relative, a relative one is taken as relative to
// root already. A path outside root is an error.
func relativeTo(root string, paths []string) ([]string, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if filepath.IsAbs(p) {
			rel, err := filepath.Rel(absRoot, p)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil, fmt.Errorf("focus file %s is outside %s", p, root)
			}
			p = rel
		}
		out = append(out, filepath.ToSlash(filepath.Clean(p)))
	}
	return out, nil
}
