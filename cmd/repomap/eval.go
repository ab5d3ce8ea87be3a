package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/eval"
	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/repomap"
)

// evalFlags holds the flags of repomap eval.
type evalFlags struct {
	commits            int
	budgets, rev       string
	seed               int64
	format             string
	verbose            bool
	ranking, style     string
	noHistory          bool
	tasks, mirrors     string
	repos, instances   string
	limit              int
	cache              string
	roles              string
	sourceOnly         bool
	canons, canonRepos string
}

// register registers the flags of repomap eval on fl.
func (ev *evalFlags) register(fl *flag.FlagSet) {
	fl.IntVar(&ev.commits, "commits", eval.DefaultCommits, "how many commits to evaluate, a `number`: the newest that touch 2 to 20 source files")
	fl.StringVar(&ev.budgets, "budgets", joinInts(eval.DefaultBudgets()), "the token `budgets`, comma-separated (with --tasks: "+joinInts(eval.DefaultTaskBudgets())+"; with --canons: "+joinInts(eval.DefaultCanonBudgets())+")")
	fl.Int64Var(&ev.seed, "seed", 0, "the seed of the random baseline, a `number`")
	fl.StringVar(&ev.rev, "rev", "HEAD", "the `commit` whose history is read")
	fl.StringVar(&ev.format, "format", formatText, "the report's `format`: text or json")
	fl.BoolVar(&ev.verbose, "v", false, "log each commit or task evaluated to standard error")
	fl.StringVar(&ev.ranking, "ranking", repomap.RankingDefault+","+repomap.RankingAider, "the `rankings` to compare, comma-separated (with --tasks: "+repomap.RankingDefault+")")
	fl.BoolVar(&ev.noHistory, "no-history", false, "rank without history in every variant (as a ranking's +nohistory does), for comparisons")
	fl.StringVar(&ev.style, "style", repomap.StyleCompact, "the `styles` to compare, comma-separated; with more than one, the variants are RANKING/STYLE")
	fl.StringVar(&ev.tasks, "tasks", "", "measure on the task set in `file` (JSON Lines of instance_id, repo, base_commit, problem_statement, gold_files, and optionally gold_spans) instead of a history")
	fl.StringVar(&ev.mirrors, "mirrors", "", "with --tasks: the `directory` of the repositories' git mirrors, one per repository, named owner+name (or owner+name.git)")
	fl.StringVar(&ev.repos, "repo", "", "with --tasks: only the tasks of these `repositories`, comma-separated")
	fl.StringVar(&ev.instances, "instances", "", "with --tasks: only these `instances`, comma-separated")
	fl.IntVar(&ev.limit, "limit", 0, "with --tasks: only the first `N` tasks that remain (0: all)")
	fl.StringVar(&ev.cache, "cache", "", "with --tasks: keep the tags of the files mapped in `directory`, for the next run")
	fl.StringVar(&ev.roles, "roles", "", "count as source files only the files of these `roles`, comma-separated: commits qualify, and their changed files are wanted, among those alone (default: every role)")
	fl.BoolVar(&ev.sourceOnly, "source-only", false, "map the source files alone (those of --roles, with it), with the tree's ignore and roles files")
	fl.StringVar(&ev.canons, "canons", "", "measure the canons in `directory` (*.json) instead of a history")
	fl.StringVar(&ev.canonRepos, "repos", "", "with --canons: the `directory` of the repositories, owner/name each")
}

// runEval is "repomap eval": it measures the maps of a git repository on
// its own history, of the repositories of a task set, or of the
// repositories of canons (package eval), and writes the report to
// standard output.
func runEval(ctx context.Context, e *env, c *config, args []string) int {
	ev, set := &c.eval, c.set
	usage := func(format string, a ...any) int { return e.usage(fmt.Sprintf(format, a...)) }
	tasksMode, canonMode := ev.tasks != "", ev.canons != ""
	for _, name := range []string{"mirrors", "repo", "instances", "limit", "cache"} {
		if set[name] && !tasksMode {
			return usage("--%s goes with --tasks", name)
		}
	}
	if set["repos"] && !canonMode {
		return usage("--repos goes with --canons")
	}
	if canonMode {
		if tasksMode {
			return usage("--canons does not go with --tasks")
		}
		for _, name := range []string{"commits", "rev", "seed", "roles", "source-only"} {
			if set[name] {
				return usage("--%s does not go with --canons", name)
			}
		}
		if len(args) > 0 {
			return usage("no REPO with --canons: the repositories are under --repos")
		}
		if ev.canonRepos == "" {
			return usage("--canons needs --repos")
		}
		if !set["budgets"] {
			ev.budgets = joinInts(eval.DefaultCanonBudgets())
		}
	}
	if tasksMode {
		for _, name := range []string{"roles", "source-only", "commits", "rev"} {
			if set[name] {
				return usage("--%s does not go with --tasks", name)
			}
		}
		if len(args) > 0 {
			return usage("no REPO with --tasks: the repositories are under --mirrors")
		}
		if ev.mirrors == "" {
			return usage("--tasks needs --mirrors")
		}
		if ev.limit < 0 {
			return usage("--limit takes a number of tasks")
		}
		if !set["budgets"] {
			ev.budgets = joinInts(eval.DefaultTaskBudgets())
		}
		if !set["ranking"] {
			ev.ranking = repomap.RankingDefault
		}
	}
	if len(args) > 1 {
		return usage("one REPO at most, got %d", len(args))
	}
	if ev.commits <= 0 {
		return usage("--commits takes a positive number")
	}
	if ev.format != formatText && ev.format != formatJSON {
		return usage("--format is text or json, not %q", ev.format)
	}
	bs, err := parseBudgets(ev.budgets)
	if err != nil {
		return usage("%v", err)
	}
	var roles []repomap.Role
	if set["roles"] {
		if roles, err = parseRoles(ev.roles); err != nil {
			return usage("%v", err)
		}
	}
	level := slog.LevelWarn
	if ev.verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	styles := splitList(ev.style)
	if len(styles) == 0 {
		styles = []string{repomap.StyleCompact}
	}
	for _, st := range styles {
		if err := repomap.CheckStyle(st); err != nil {
			return usage("%v", err)
		}
	}
	var variants []eval.Variant
	for _, name := range strings.Split(ev.ranking, ",") {
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
				return &repomap.Options{Policy: &p, Style: st, NoHistory: ev.noHistory}
			}})
		}
	}
	if canonMode {
		return runCanonEval(ctx, e, eval.CanonConfig{
			Repos:    ev.canonRepos,
			Budgets:  bs,
			Variants: variants,
			Logger:   logger,
		}, ev.canons, ev.format)
	}
	if tasksMode {
		return runTaskEval(ctx, e, eval.TaskConfig{
			Repos:     splitList(ev.repos),
			Instances: splitList(ev.instances),
			Limit:     ev.limit,
			Budgets:   bs,
			Seed:      ev.seed,
			Variants:  variants,
			CacheDir:  ev.cache,
			Logger:    logger,
		}, ev.tasks, ev.mirrors, ev.format)
	}
	dir := "."
	if len(args) == 1 {
		dir = args[0]
	}
	rep, err := eval.Run(ctx, eval.Config{
		Dir:        dir,
		Rev:        ev.rev,
		Commits:    ev.commits,
		Budgets:    bs,
		Seed:       ev.seed,
		Variants:   variants,
		Roles:      roles,
		SourceOnly: ev.sourceOnly,
		Logger:     logger,
	})
	if err != nil {
		return fail(e, err)
	}
	if code := writeReport(e, ev.format, rep, rep.WriteText); code != 0 {
		return code
	}
	if len(rep.Commits) == 0 {
		return fail(e, errors.New("eval: no commit to evaluate"))
	}
	return exitOK
}

// runTaskEval is "repomap eval -tasks": it reads the task set, finds the
// mirrors of its repositories under mirrors, and runs cfg on them.
func runTaskEval(ctx context.Context, e *env, cfg eval.TaskConfig, taskFile, mirrors, format string) int {
	f, err := os.Open(taskFile)
	if err != nil {
		return fail(e, fmt.Errorf("eval: %w", err))
	}
	cfg.Tasks, err = eval.ReadTasks(f)
	f.Close()
	if err != nil {
		return fail(e, err)
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
		return fail(e, err)
	}
	if code := writeReport(e, format, rep, rep.WriteText); code != 0 {
		return code
	}
	if len(rep.Tasks) == 0 {
		return fail(e, errors.New("eval: no task to evaluate"))
	}
	return exitOK
}

// runCanonEval is "repomap eval -canons": it reads the canons of dir and
// runs cfg on them.
func runCanonEval(ctx context.Context, e *env, cfg eval.CanonConfig, dir, format string) int {
	var err error
	if cfg.Canons, err = eval.ReadCanons(dir); err != nil {
		return fail(e, err)
	}
	rep, err := eval.RunCanons(ctx, cfg)
	if err != nil {
		return fail(e, err)
	}
	return writeReport(e, format, rep, rep.WriteText)
}

// parseRoles parses a comma-separated list of role names.
func parseRoles(s string) ([]repomap.Role, error) {
	var out []repomap.Role
	for _, f := range splitList(s) {
		r, err := repomap.ParseRole(f)
		if err != nil {
			return nil, fmt.Errorf("--roles: %w", err)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("--roles: no role")
	}
	return out, nil
}

// writeReport writes rep as JSON, or as text with writeText.
func writeReport(e *env, format string, rep any, writeText func(io.Writer) error) int {
	var err error
	if format == formatJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = writeText(e.stdout)
	}
	if err != nil {
		return fail(e, fmt.Errorf("eval: %w", err))
	}
	return exitOK
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
			return nil, fmt.Errorf("--budgets: %q is not a positive number", f)
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
		usage: "repomap eval [flags] [REPO]\nrepomap eval --tasks FILE.jsonl --mirrors DIR [flags]\nrepomap eval --canons DIR --repos DIR [flags]",
		short: "measure the maps of a git repository on its own history, on a task set, or on canons",
		long: `
Eval measures how well maps point at the files a change needs, on a git
repository's own history: for recent commits, would a map of the tree
before the commit have shown the files the commit changed (with one of
them as the focus, and with the commit message as the request), and
would the map for no request have shown the definitions in other files
that the lines the commit adds use (the overview)? REPO is the
repository's directory, by default the current one; nothing is written
to it. With --tasks it measures on a task set instead: issues filed
against repositories (git mirrors under --mirrors) at a base commit, each
mapped with the issue's text as the request, against BM25 and random
rankings of the same files; where a task names the definitions its fix
edits (gold_spans), the report also says how many of them the maps show
and where they rank, against BM25 over definitions. With --canons it counts, for each canon (the
central API of a repository, by its documentation), the names the map
for no request shows. See package eval for the method and the report.`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.eval.register(fl)
			c.formats = []string{formatText, formatJSON}
		},
		run: runEval,
	}
}
