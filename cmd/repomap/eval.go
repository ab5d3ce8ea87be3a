package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/eval"
	"github.com/repomap-dev/repomap/repomap"
)

// runEval is "repomap eval": it measures the maps of a git repository on
// its own history (package eval) and writes the report to stdout.
//
// Usage:
//
//	repomap eval [flags] [REPO]
//
// REPO is a directory of the repository, by default the current one.
// Nothing is written to it.
//
// The flags are:
//
//	-commits N
//		how many commits to evaluate: the newest that touch 2 to 20 source
//		files (default 50)
//	-budgets LIST
//		the token budgets, comma-separated (default 1024,2048,4096,8192)
//	-seed N
//		the seed of the random baseline (default 0)
//	-rev REV
//		the commit whose history is read (default HEAD)
//	-format text|json
//		the report's format (default text)
//	-v
//		log each commit evaluated to standard error
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("repomap eval", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var (
		commits = fl.Int("commits", eval.DefaultCommits, "how many commits to evaluate")
		budgets = fl.String("budgets", joinInts(eval.DefaultBudgets()), "the token `budgets`, comma-separated")
		seed    = fl.Int64("seed", 0, "the seed of the random baseline")
		rev     = fl.String("rev", "HEAD", "the commit whose history is read")
		format  = fl.String("format", "text", "the report's format: text or json")
		verbose = fl.Bool("v", false, "log each commit evaluated to standard error")
		ranking = fl.String("ranking", repomap.RankingDefault+","+repomap.RankingAider, "the `rankings` to compare, comma-separated")
	)
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: repomap eval [flags] [REPO]\n\nflags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "repomap eval: "+format+"\n", a...)
		fl.Usage()
		return 2
	}
	if fl.NArg() > 1 {
		return usage("one REPO at most, got %d", fl.NArg())
	}
	if *commits <= 0 {
		return usage("-commits takes a positive number")
	}
	if *format != "text" && *format != "json" {
		return usage("-format is text or json, not %q", *format)
	}
	bs, err := parseBudgets(*budgets)
	if err != nil {
		return usage("%v", err)
	}
	dir := "."
	if fl.NArg() == 1 {
		dir = fl.Arg(0)
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	var variants []eval.Variant
	for _, name := range strings.Split(*ranking, ",") {
		name = strings.TrimSpace(name)
		if err := repomap.CheckRanking(name); err != nil {
			return usage("%v", err)
		}
		variants = append(variants, eval.Variant{Name: name, Options: func() *repomap.Options {
			return &repomap.Options{Ranking: name}
		}})
	}
	rep, err := eval.Run(ctx, eval.Config{
		Dir:      dir,
		Rev:      *rev,
		Commits:  *commits,
		Budgets:  bs,
		Seed:     *seed,
		Variants: variants,
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	})
	if err != nil {
		fmt.Fprintf(stderr, "repomap %v\n", err)
		return 1
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "repomap eval: %v\n", err)
		return 1
	}
	if len(rep.Commits) == 0 {
		fmt.Fprintln(stderr, "repomap eval: no commit to evaluate")
		return 1
	}
	return 0
}

// parseBudgets parses a comma-separated list of positive token budgets.
func parseBudgets(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-budgets: %q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func evalCommand() *command {
	return &command{
		name:  "eval",
		usage: "repomap eval [flags] [REPO]",
		short: "measure the maps of a git repository on its own history",
		long: `
Eval measures how well maps point at the files a change needs, on a git
repository's own history: for recent commits, would a map of the tree
before the commit have shown the files the commit changed? REPO is the
repository's directory, by default the current one; nothing is written
to it. See package eval for the method and the report.`,
		flags: func(*flag.FlagSet, *config) {},
		raw:   runEval,
	}
}
