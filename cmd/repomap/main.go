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
//	-cache-dir DIR
//		where tag caches are kept (default: the user's cache directory,
//		…/repomap); nothing is written into the tree
//	-no-cache
//		neither read nor write the tag cache
//	-refresh MODE
//		when a map made before may be reused: auto (default), always,
//		files or manual; matters to long-running uses
//	-stats
//		print to standard error how the map was made: files seen, parsed,
//		from cache, skipped, tags, graph size, tokens, and the time of
//		each stage
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
	"runtime/pprof"
	"sort"
	"strings"
	"time"

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
		cacheDir = fl.String("cache-dir", "", "where tag caches are kept (default: the user's cache directory)")
		noCache  = fl.Bool("no-cache", false, "neither read nor write the tag cache")
		refresh  = fl.String("refresh", "auto", "when a map made before may be reused: auto, always, files or manual")
		stats    = fl.Bool("stats", false, "print how the map was made to standard error")
		cpuProf  = fl.String("cpuprofile", "", "write a CPU profile to `file`")
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

	mode, err := repomap.ParseRefresh(*refresh)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	m, err := repomap.New(root, &repomap.Options{
		MaxTokens:     *tokens,
		ContextWindow: *window,
		Encoding:      *encoding,
		CacheDir:      *cacheDir,
		NoCache:       *noCache,
		Refresh:       mode,
		Logger:        logger,
	})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer m.Close()
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err != nil {
			fmt.Fprintf(stderr, "repomap: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "repomap: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	res, err := m.Build(ctx, repomap.Request{Focus: focusRel, Mentions: mentions})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *stats {
		printStats(stderr, res)
	}
	if _, err := io.WriteString(stdout, res.Text); err != nil {
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

// printStats writes how the map was made.
func printStats(w io.Writer, r *repomap.Result) {
	s := r.Stats
	fmt.Fprintf(w, "files      %d seen, %d parsed, %d from cache, %d skipped\n", s.Files, s.Parsed, s.Cached, s.Skipped)
	reasons := map[string]int{}
	for _, sk := range r.Skipped {
		reason, _, _ := strings.Cut(sk.Reason, ":")
		reasons[reason]++
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  skipped  %d %s\n", reasons[k], k)
	}
	fmt.Fprintf(w, "tags       %d definitions, %d references\n", s.Defs, s.Refs)
	fmt.Fprintf(w, "graph      %d files, %d links\n", s.Nodes, s.Links)
	fmt.Fprintf(w, "map        %d of %d tokens (%s), %d files shown\n", r.Tokens, r.Budget, r.Encoding, len(r.Files))
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0fms", d.Seconds()*1000) }
	fmt.Fprintf(w, "time       walk %s, tags %s, rank %s, fit %s, cache %s, total %s\n",
		ms(s.Walk), ms(s.Tags), ms(s.Rank), ms(s.Fit), ms(s.Store), ms(s.Total))
}
