package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/repomap-dev/repomap/eval/experiment"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/eval"
	"github.com/repomap-dev/repomap/repomap"
)

// runEval is "repomap eval": it measures the maps of a git repository on
// its own history, of the repositories of a task set, or of the
// repositories of canons (package eval), and writes the report to stdout.
//
// Usage:
//
//	repomap eval [flags] [REPO]
//	repomap eval -tasks FILE.jsonl -mirrors DIR [flags]
//	repomap eval -canons DIR -repos DIR [flags]
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
//		the token budgets, comma-separated (default 1024,2048,4096,8192;
//		1024,4096,8192 with -tasks)
//	-seed N
//		the seed of the random baseline (default 0)
//	-rev REV
//		the commit whose history is read (default HEAD)
//	-ranking LIST
//		the rankings to compare, comma-separated (default default,aider;
//		default with -tasks)
//	-style LIST
//		the styles to compare, comma-separated (default compact); with
//		more than one, each variant is a ranking and a style, named
//		RANKING/STYLE
//	-format text|json
//		the report's format (default text)
//	-v
//		log each commit or task evaluated to standard error
//	-roles LIST
//		count as source files only the files of these roles (source, test,
//		example, fixture, generated, vendored, docs, config, community,
//		asset), comma-separated: commits qualify, and their changed files
//		are wanted, among those alone (default: every role)
//	-source-only
//		map the source files alone (those of -roles, with it), with the
//		tree's ignore and roles files, instead of the whole tree
//
// With -tasks, the task set's maps are measured instead of a history:
//
//	-tasks FILE
//		the task set, JSON Lines of {instance_id, repo, base_commit,
//		problem_statement, gold_files}
//	-mirrors DIR
//		where the repositories are: the git directory of repo "owner/name"
//		is DIR/owner+name (or DIR/owner+name.git), bare or not; a symbolic
//		link will do
//	-repo LIST
//		only the tasks of these repositories, comma-separated
//	-instances LIST
//		only these instances, comma-separated
//	-limit N
//		only the first N tasks that remain
//	-cache DIR
//		keep the tags of the files mapped in DIR, for the next run
//
// With -canons, the canons' counts of central names shown in unfocused
// maps are measured instead (budgets 2048,4096 by default):
//
//	-canons DIR
//		the canons, one *.json file each (see eval.ReadCanons)
//	-repos DIR
//		where the repositories are: the git repository of "owner/name" is
//		DIR/owner/name, bare or not, holding the canon's commit
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("repomap eval", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var (
		commits   = fl.Int("commits", eval.DefaultCommits, "how many commits to evaluate")
		budgets   = fl.String("budgets", joinInts(eval.DefaultBudgets()), "the token `budgets`, comma-separated (with -tasks: "+joinInts(eval.DefaultTaskBudgets())+")")
		seed      = fl.Int64("seed", 0, "the seed of the random baseline")
		rev       = fl.String("rev", "HEAD", "the commit whose history is read")
		format    = fl.String("format", "text", "the report's format: text or json")
		verbose   = fl.Bool("v", false, "log each commit or task evaluated to standard error")
		ranking   = fl.String("ranking", repomap.RankingDefault+","+repomap.RankingAider, "the `rankings` to compare, comma-separated (with -tasks: "+repomap.RankingDefault+")")
		style     = fl.String("style", repomap.StyleCompact, "the `styles` to compare, comma-separated; with more than one, the variants are RANKING/STYLE")
		taskFile  = fl.String("tasks", "", "measure on the task set in `file` (JSON Lines) instead of a history")
		mirrors   = fl.String("mirrors", "", "with -tasks: the `directory` of the repositories' git mirrors, one per repository, named owner+name")
		repos     = fl.String("repo", "", "with -tasks: only the tasks of these `repositories`, comma-separated")
		instances = fl.String("instances", "", "with -tasks: only these `instances`, comma-separated")
		limit     = fl.Int("limit", 0, "with -tasks: only the first `N` tasks that remain (0: all)")
		cacheDir  = fl.String("cache", "", "with -tasks: keep the tags of the files mapped in `directory`, for the next run")
		roleList  = fl.String("roles", "", "count as source files only the files of these `roles`, comma-separated: commits qualify, and their changed files are wanted, among those alone (default: every role)")
		srcOnly   = fl.Bool("source-only", false, "map the source files alone (those of -roles, with it), with the tree's ignore and roles files")
		canonDir  = fl.String("canons", "", "measure the canons in `directory` (*.json) instead of a history")
		canonRepo = fl.String("repos", "", "with -canons: the `directory` of the repositories, owner/name each")
	)
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: repomap eval [flags] [REPO]\n       repomap eval -tasks FILE.jsonl -mirrors DIR [flags]\n       repomap eval -canons DIR -repos DIR [flags]\n\nflags:\n")
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
	set := make(map[string]bool)
	fl.Visit(func(f *flag.Flag) { set[f.Name] = true })
	tasksMode, canonMode := *taskFile != "", *canonDir != ""
	for _, name := range []string{"mirrors", "repo", "instances", "limit", "cache"} {
		if set[name] && !tasksMode {
			return usage("-%s goes with -tasks", name)
		}
	}
	if set["repos"] && !canonMode {
		return usage("-repos goes with -canons")
	}
	if canonMode {
		if tasksMode {
			return usage("-canons does not go with -tasks")
		}
		for _, name := range []string{"commits", "rev", "seed", "roles", "source-only"} {
			if set[name] {
				return usage("-%s does not go with -canons", name)
			}
		}
		if fl.NArg() > 0 {
			return usage("no REPO with -canons: the repositories are under -repos")
		}
		if *canonRepo == "" {
			return usage("-canons needs -repos")
		}
		if !set["budgets"] {
			*budgets = joinInts(eval.DefaultCanonBudgets())
		}
	}
	if tasksMode {
		for _, name := range []string{"roles", "source-only"} {
			if set[name] {
				return usage("-%s does not go with -tasks", name)
			}
		}
		for _, name := range []string{"commits", "rev"} {
			if set[name] {
				return usage("-%s does not go with -tasks", name)
			}
		}
		if fl.NArg() > 0 {
			return usage("no REPO with -tasks: the repositories are under -mirrors")
		}
		if *mirrors == "" {
			return usage("-tasks needs -mirrors")
		}
		if *limit < 0 {
			return usage("-limit takes a number of tasks")
		}
		if !set["budgets"] {
			*budgets = joinInts(eval.DefaultTaskBudgets())
		}
		if !set["ranking"] {
			*ranking = repomap.RankingDefault
		}
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
	var roles []repomap.Role
	if set["roles"] {
		if roles, err = parseRoles(*roleList); err != nil {
			return usage("%v", err)
		}
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	styles := splitList(*style)
	if len(styles) == 0 {
		styles = []string{repomap.StyleCompact}
	}
	for _, st := range styles {
		if err := repomap.CheckStyle(st); err != nil {
			return usage("%v", err)
		}
	}
	var variants []eval.Variant
	for _, name := range strings.Split(*ranking, ",") {
		name = strings.TrimSpace(name)
		pol, err := experiment.Parse(name)
		if err != nil {
			return usage("%v", err)
		}
		for _, st := range styles {
			vname := name
			if len(styles) > 1 {
				vname += "/" + st
			}
			variants = append(variants, eval.Variant{Name: vname, Options: func() *repomap.Options {
				p := pol
				return &repomap.Options{Policy: &p, Style: st}
			}})
		}
	}
	if canonMode {
		return runCanonEval(ctx, stdout, stderr, eval.CanonConfig{
			Repos:    *canonRepo,
			Budgets:  bs,
			Variants: variants,
			Logger:   logger,
		}, *canonDir, *format)
	}
	if tasksMode {
		return runTaskEval(ctx, stdout, stderr, eval.TaskConfig{
			Repos:     splitList(*repos),
			Instances: splitList(*instances),
			Limit:     *limit,
			Budgets:   bs,
			Seed:      *seed,
			Variants:  variants,
			CacheDir:  *cacheDir,
			Logger:    logger,
		}, *taskFile, *mirrors, *format)
	}
	dir := "."
	if fl.NArg() == 1 {
		dir = fl.Arg(0)
	}
	rep, err := eval.Run(ctx, eval.Config{
		Dir:        dir,
		Rev:        *rev,
		Commits:    *commits,
		Budgets:    bs,
		Seed:       *seed,
		Variants:   variants,
		Roles:      roles,
		SourceOnly: *srcOnly,
		Logger:     logger,
	})
	if err != nil {
		fmt.Fprintf(stderr, "repomap %v\n", err)
		return 1
	}
	if code := writeReport(stdout, stderr, *format, rep, rep.WriteText); code != 0 {
		return code
	}
	if len(rep.Commits) == 0 {
		fmt.Fprintln(stderr, "repomap eval: no commit to evaluate")
		return 1
	}
	return 0
}

// runTaskEval is "repomap eval -tasks": it reads the task set, finds the
// mirrors of its repositories under mirrors, and runs cfg on them.
func runTaskEval(ctx context.Context, stdout, stderr io.Writer, cfg eval.TaskConfig, taskFile, mirrors, format string) int {
	f, err := os.Open(taskFile)
	if err != nil {
		fmt.Fprintf(stderr, "repomap eval: %v\n", err)
		return 1
	}
	cfg.Tasks, err = eval.ReadTasks(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "repomap %v\n", err)
		return 1
	}
	cfg.Mirrors = make(map[string]string)
	for _, t := range cfg.Tasks {
		if _, ok := cfg.Mirrors[t.Repo]; ok {
			continue
		}
		cfg.Mirrors[t.Repo] = ""
		name := strings.ReplaceAll(t.Repo, "/", "+")
		for _, d := range []string{name, name + ".git"} {
			d = filepath.Join(mirrors, d)
			if info, err := os.Stat(d); err == nil && info.IsDir() {
				cfg.Mirrors[t.Repo] = d
				break
			}
		}
	}
	rep, err := eval.RunTasks(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "repomap %v\n", err)
		return 1
	}
	if code := writeReport(stdout, stderr, format, rep, rep.WriteText); code != 0 {
		return code
	}
	if len(rep.Tasks) == 0 {
		fmt.Fprintln(stderr, "repomap eval: no task to evaluate")
		return 1
	}
	return 0
}

// runCanonEval is "repomap eval -canons": it reads the canons of dir and
// runs cfg on them.
func runCanonEval(ctx context.Context, stdout, stderr io.Writer, cfg eval.CanonConfig, dir, format string) int {
	var err error
	if cfg.Canons, err = eval.ReadCanons(dir); err != nil {
		fmt.Fprintf(stderr, "repomap %v\n", err)
		return 1
	}
	rep, err := eval.RunCanons(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "repomap %v\n", err)
		return 1
	}
	return writeReport(stdout, stderr, format, rep, rep.WriteText)
}

// parseRoles parses a comma-separated list of role names.
func parseRoles(s string) ([]repomap.Role, error) {
	var out []repomap.Role
	for _, f := range splitList(s) {
		r, err := repomap.ParseRole(f)
		if err != nil {
			return nil, fmt.Errorf("-roles: %w", err)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("-roles: no role")
	}
	return out, nil
}

// writeReport writes rep as JSON, or as text with writeText.
func writeReport(stdout, stderr io.Writer, format string, rep any, writeText func(io.Writer) error) int {
	var err error
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = writeText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "repomap eval: %v\n", err)
		return 1
	}
	return 0
}

// splitList returns the comma-separated items of s, trimmed; none for "".
func splitList(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
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
		usage: "repomap eval [flags] [REPO]\nrepomap eval -tasks FILE.jsonl -mirrors DIR [flags]\nrepomap eval -canons DIR -repos DIR [flags]",
		short: "measure the maps of a git repository on its own history, on a task set, or on canons",
		long: `
Eval measures how well maps point at the files a change needs, on a git
repository's own history: for recent commits, would a map of the tree
before the commit have shown the files the commit changed (with one of
them as the focus, and with the commit message as the request), and
would the map for no request have shown the definitions in other files
that the lines the commit adds use (the overview)? REPO is the
repository's directory, by default the current one; nothing is written
to it. With -tasks it measures on a task set instead: issues filed
against repositories (git mirrors under -mirrors) at a base commit, each
mapped with the issue's text as the request, against BM25 and random
rankings of the same files. With -canons it counts, for each canon (the
central API of a repository, by its documentation), the names the map
for no request shows. See package eval for the method and the report.`,
		flags: func(*flag.FlagSet, *config) {},
		raw:   runEval,
	}
}
