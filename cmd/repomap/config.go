package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/repomap-dev/repomap/repomap"
)

// config holds the values of the flags.
type config struct {
	help bool
	set  map[string]bool // the flags given, by name

	// The budget.
	tokens, window int
	encoding       string

	// The tree.
	cacheDir         string
	noCache          bool
	exclude, include list
	noIgnore         bool // -no-ignore
	noIgnoreParent   bool // -no-ignore-parent
	parseVendored    bool // -parse-vendored
	roles            list // -role: "ROLE GLOB"
	verbose          bool
	parseTimeout     time.Duration
	roots            list // -root, for commands whose arguments are not roots

	format  string
	formats []string // the formats -format takes, for completion
	output  string   // -o

	// The map.
	focus, mentions list
	mentionsFrom    string
	refresh         string
	ranking         string
	noHistory       bool
	historyDepth    int
	style           string
	stats           bool
	statsJSON       bool
	cpuProfile      string
	version         bool

	runs      int  // bench
	floor     bool // bench
	floorRun  bool // bench
	floorGo   int  // bench: the floor's goroutines, with floorRun
	faultRun  bool // bench
	maxTokens int  // mcp
	top       int  // graph
	arrows    int  // graph
	eval      evalFlags

	within time.Duration // mcp: --answer-within
}

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// budgetFlags registers the flags that set the token budget.
func (c *config) budgetFlags(fl *flag.FlagSet) {
	fl.IntVar(&c.tokens, "tokens", 0, "the most `tokens` the output may have, a hard cap (default: from --context-window, else 1024)")
	fl.IntVar(&c.window, "context-window", 0, "the model's context window in `tokens`: the budget is an eighth of it, between 1024 and 4096, doubled as far as the window allows when there is no focus file")
	fl.StringVar(&c.encoding, "encoding", repomap.O200kBase, "the tokenizer that counts tokens: o200k_base or cl100k_base")
	c.rankingFlag(fl)
	c.styleFlag(fl)
}

// rankingFlag registers --ranking and the history's flags, for the
// commands that link and rank the tree: they all resolve references as
// the map of that ranking does.
func (c *config) rankingFlag(fl *flag.FlagSet) {
	fl.StringVar(&c.ranking, "ranking", repomap.RankingDefault, "the ranking: default, or aider for Aider's (see repomap eval)")
	c.historyFlag(fl)
}

// historyFlag registers -no-history, for the commands that rank.
func (c *config) historyFlag(fl *flag.FlagSet) {
	fl.BoolVar(&c.noHistory, "no-history", false, "rank without the tree's git history (the files that changed together with the focus files, and those that the commits whose messages match the request's words changed), as for a tree outside git")
	fl.IntVar(&c.historyDepth, "history-depth", 0, "read at most this many `commits` of the tree's history, newest first (0: the ranking's own, "+strconv.Itoa(repomap.DefaultHistoryDepth)+")")
}

// styleFlag registers -style, for the commands that show source lines.
func (c *config) styleFlag(fl *flag.FlagSet) {
	fl.StringVar(&c.style, "style", repomap.StyleCompact, "how a definition shows: compact, its signature under the headers of its class, impl or namespace; or aider, Aider's rule, with the rows after it")
}

// treeFlags registers the flags that say which files to read and how.
func (c *config) treeFlags(fl *flag.FlagSet) {
	fl.StringVar(&c.cacheDir, "cache-dir", "", "where tag caches are kept, in `dir` (default: the user's cache directory, …/repomap); nothing is written into the tree")
	fl.BoolVar(&c.noCache, "no-cache", false, "neither read nor write the tag cache")
	fl.Var(&c.exclude, "exclude", "leave out the files and directories that `pattern` matches, as a .gitignore line does (\"vendor/\", \"*_test.go\" at any depth, \"/build\" at the root, \"**/*.pb.go\"); repeatable")
	fl.Var(&c.include, "include", "keep only the files that `pattern` matches, as for --exclude, or that lie under a directory it matches (\"services/api\"); repeatable")
	fl.BoolVar(&c.noIgnoreParent, "no-ignore-parent", false, "leave out the .gitignore files of the directories above a root (they apply below it, not to the root itself)")
	fl.BoolVar(&c.noIgnore, "no-ignore", false, "leave out every ignore rule: .gitignore, .git/info/exclude, git's core.excludesFile, .repomapignore and the built-in rules of trees outside git; --exclude still applies")
	fl.BoolVar(&c.parseVendored, "parse-vendored", false, "parse the files that package managers install (node_modules, bower_components, jspm_packages) too; without it they are listed by name")
	fl.Var(&c.roles, "role", "give files a role by a `rule`, written as a line of .repomaproles: a role, a space and a glob, as \"fixture **/golden/**\" or \"source tools/gen.go\"; the roles are source, test, example, fixture, generated, vendored, docs, config, community and asset; repeatable, after the rules of .repomaproles, the last match winning")
	fl.BoolVar(&c.verbose, "v", false, "log skipped files and other diagnostics to standard error")
	fl.DurationVar(&c.parseTimeout, "parse-timeout", 0, "the longest one file may take to parse, as 30s, before it is listed by name only (default 5s); for slow machines and emulators")
}

// refreshFlag registers -refresh.
func (c *config) refreshFlag(fl *flag.FlagSet) {
	fl.StringVar(&c.refresh, "refresh", "auto", "when a map made before may be reused: auto, always, files or manual; matters to long-running uses")
}

// rootFlag registers -root, for commands whose arguments are not roots.
func (c *config) rootFlag(fl *flag.FlagSet) {
	fl.Var(&c.roots, "root", "the root of a tree to look in, a `dir`; repeatable (default: the current directory)")
}

// formatFlag registers -format with the formats given, the first the
// default.
func (c *config) formatFlag(fl *flag.FlagSet, formats ...string) {
	names := slices.Clone(formats)
	for _, alias := range slices.Sorted(maps.Keys(formatAliases)) {
		if i := slices.Index(names, formatAliases[alias]); i >= 0 {
			names[i] += " (or " + alias + ")"
		}
	}
	fl.StringVar(&c.format, "format", formats[0], "the output `format`: "+strings.Join(names, ", "))
	c.formats = formats
}

// outputFlag registers -o.
func (c *config) outputFlag(fl *flag.FlagSet) {
	fl.StringVar(&c.output, "o", "", "write the output to `file` instead of standard output, replacing the file whole only once the output is complete")
}

// formatAliases are other names of formats.
var formatAliases = map[string]string{"md": formatMarkdown}

// check reports a usage error in the flags, or "". It gives -format the
// name of the format an alias names.
func (c *config) check(formats ...string) string {
	if f, ok := formatAliases[c.format]; ok && slices.Contains(formats, f) {
		c.format = f
	}
	switch {
	case c.tokens < 0:
		return "--tokens must not be negative"
	case c.window < 0:
		return "--context-window must not be negative"
	case c.tokens == 0 && c.set["tokens"]:
		return "--tokens 0 leaves no room for a map: give a positive budget, or leave --tokens out for the default (from --context-window, else 1024)"
	case c.runs < 0:
		return "--runs must not be negative"
	case c.historyDepth < 0:
		return "--history-depth must not be negative"
	case c.encoding != "" && c.encoding != repomap.O200kBase && c.encoding != repomap.Cl100kBase:
		return fmt.Sprintf("unknown encoding %q (want %s or %s)", c.encoding, repomap.O200kBase, repomap.Cl100kBase)
	case len(formats) > 0 && !slices.Contains(formats, c.format):
		return fmt.Sprintf("unknown format %q (want %s)", c.format, strings.Join(formats, ", "))
	}
	if err := repomap.CheckRanking(c.ranking); err != nil {
		return strings.TrimPrefix(err.Error(), "repomap: ")
	}
	if err := repomap.CheckStyle(c.style); err != nil {
		return strings.TrimPrefix(err.Error(), "repomap: ")
	}
	if c.refresh != "" {
		if _, err := repomap.ParseRefresh(c.refresh); err != nil {
			return strings.TrimPrefix(err.Error(), "repomap: ")
		}
	}
	for _, g := range slices.Concat(c.exclude, c.include) {
		if err := repomap.CheckPattern(g); err != nil {
			return strings.TrimPrefix(err.Error(), "repomap: ")
		}
	}
	if _, err := c.roleRules(); err != nil {
		return "--role " + strings.TrimPrefix(err.Error(), "repomap: ")
	}
	return ""
}

// roleRules returns the rules of the -role flags.
func (c *config) roleRules() ([]repomap.RoleRule, error) {
	var rs []repomap.RoleRule
	for _, s := range c.roles {
		r, err := repomap.ParseRoleRule(s)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// open returns the Map of the trees at dirs, with the options of the
// flags.
func (c *config) open(e *env, dirs []string) (*repomap.Map, error) {
	var progress func(done, total int)
	if e.progress != nil {
		progress = e.progress.update
	}
	return c.openWith(e, dirs, progress)
}

// openWith is open with progress as the Map's Options.Progress.
func (c *config) openWith(e *env, dirs []string, progress func(done, total int)) (*repomap.Map, error) {
	level := slog.LevelWarn
	if c.verbose {
		level = slog.LevelDebug
	}
	roots, err := repomap.DirRoots(dirs...)
	if err != nil {
		return nil, err
	}
	var stage func(string)
	if e.progress != nil {
		stage = e.progress.stage
	}
	roles, _ := c.roleRules() // checked by check
	refresh := repomap.RefreshAuto
	if c.refresh != "" {
		refresh, _ = repomap.ParseRefresh(c.refresh) // checked by check
	}
	return repomap.NewRoots(roots, &repomap.Options{
		MaxTokens:      c.tokens,
		ContextWindow:  c.window,
		Encoding:       c.encoding,
		CacheDir:       c.cacheDir,
		NoCache:        c.noCache,
		Refresh:        refresh,
		Ranking:        c.ranking,
		NoHistory:      c.noHistory,
		HistoryDepth:   c.historyDepth,
		Style:          c.style,
		Exclude:        c.exclude,
		Include:        c.include,
		NoIgnore:       c.noIgnore,
		NoIgnoreParent: c.noIgnoreParent,
		ParseVendored:  c.parseVendored,
		ParseTimeout:   c.parseTimeout,
		Roles:          roles,
		Progress:       progress,
		Stage:          stage,
		Logger:         slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level})),
	})
}

// rootDirs returns the -root directories, or the current one.
func (c *config) rootDirs() []string {
	if len(c.roots) == 0 {
		return []string{"."}
	}
	return c.roots
}

// rootArgs returns the directories of the ROOT arguments, the current one
// if none, or a usage error.
func rootArgs(args []string) ([]string, string) {
	if len(args) == 0 {
		return []string{"."}, ""
	}
	for _, d := range args {
		if _, err := os.Stat(d); err == nil || strings.ContainsAny(d, `/\.`) {
			continue
		}
		if d != "" && lookupCommand(d) != nil {
			return nil, fmt.Sprintf("%s is a command: write it first (repomap %s …)", d, d)
		}
		return nil, fmt.Sprintf("no command or directory %s%s", d, commandHint(d))
	}
	return args, ""
}

// mapPaths returns the paths in m of the files at ps, as given on the
// command line: a path in the map (relative to its root, or "name/path"
// with several roots) if it names a file there; otherwise a path on
// disk, absolute or relative to the current directory, inside a root.
// A path that names no file of a root is an error.
func mapPaths(m *repomap.Map, ps []string) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if !filepath.IsAbs(p) && !inMap(m, p) {
			if _, err := os.Stat(p); err == nil {
				if abs, err := filepath.Abs(p); err == nil {
					p = abs
				}
			}
		}
		q, ok := m.MapPath(p)
		if !ok {
			return nil, fmt.Errorf("%s is outside the roots", p)
		}
		if !m.HasFile(q) {
			return nil, fmt.Errorf("no file %s in the tree", p)
		}
		out = append(out, q)
	}
	return out, nil
}

// request returns the request of -focus, -mention and -mentions-from
// for a map of m.
func (c *config) request(e *env, m *repomap.Map) (repomap.Request, error) {
	focus, err := mapPaths(m, c.focus)
	if err != nil {
		return repomap.Request{}, fmt.Errorf("--focus: %w", err)
	}
	req := repomap.Request{Focus: focus, Mentions: c.mentions}
	if c.mentionsFrom != "" {
		if req.Text, err = readText(e, c.mentionsFrom); err != nil {
			return repomap.Request{}, err
		}
	}
	return req, nil
}

// inMap reports whether the relative path p names a file of a root of m.
func inMap(m *repomap.Map, p string) bool {
	return m.HasFile(filepath.ToSlash(filepath.Clean(p)))
}

// nameLookupFlags are the flags of the commands that look names up.
func nameLookupFlags(fl *flag.FlagSet, c *config) {
	c.rootFlag(fl)
	c.treeFlags(fl)
	c.rankingFlag(fl)
	c.formatFlag(fl, formatText, formatJSON)
}

// nameLookup wraps the run of a command that looks NAMEs up: it checks
// the format and the arguments, and opens the Map.
func nameLookup(run func(ctx context.Context, e *env, c *config, m *repomap.Map, names []string) int) func(context.Context, *env, *config, []string) int {
	return func(ctx context.Context, e *env, c *config, args []string) int {
		if msg := c.check(formatText, formatJSON); msg != "" {
			return e.usage(msg)
		}
		if len(args) == 0 {
			return e.usage("no NAME")
		}
		for _, a := range args {
			if !mayBeName(a) && isDir(a) {
				return e.usage(fmt.Sprintf("%s is a directory, not a NAME: to look in it, use --root %s", a, a))
			}
		}
		m, err := c.open(e, c.rootDirs())
		if err != nil {
			return fail(e, err)
		}
		defer m.Close()
		return run(ctx, e, c, m, args)
	}
}

// mayBeName reports whether s may be a name to look up: it is not "."
// or "..", and holds no path separator.
func mayBeName(s string) bool {
	return s != "." && s != ".." && !strings.ContainsAny(s, `/\`)
}

// isDir reports whether p is a directory on disk.
func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// notFound reports on standard error the names that nothing was found
// for, with what (as "no definition of"), and returns the exit status of
// a lookup: exitFailure when nothing was found for any name, as grep's
// is when no line matches. A name that is also a directory gets a hint
// that --root looks in a directory.
func notFound(e *env, what string, names []string, found func(name string) bool) int {
	missing := 0
	for _, n := range names {
		if found(n) {
			continue
		}
		missing++
		hint := ""
		if isDir(n) {
			hint = fmt.Sprintf(" (%s is a directory: to look in it, use --root %s)", n, n)
		}
		fmt.Fprintf(e.stderr, "repomap: %s %s%s\n", what, n, hint)
	}
	if missing == len(names) {
		return exitFailure
	}
	return exitOK
}

// plural returns n and noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// emit writes out, the output of a command, to standard output or to
// the file of -o. The file is replaced whole: out goes to a temporary
// file beside it, which is renamed over it.
func emit(e *env, c *config, out func(w io.Writer) error) int {
	if c.output == "" {
		if err := out(e.stdout); err != nil {
			return fail(e, err)
		}
		return exitOK
	}
	if err := writeFileAtomic(c.output, out); err != nil {
		return fail(e, err)
	}
	return exitOK
}

// writeFileAtomic writes name with out: into a temporary file in the
// same directory, renamed to name once complete, so that name is either
// as it was or whole.
func writeFileAtomic(name string, out func(w io.Writer) error) error {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(name); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", name)
		}
		mode = info.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = out(f)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// stringOut returns an output function that writes s.
func stringOut(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// jsonOut returns an output function that writes v as JSON.
func jsonOut(v any) func(io.Writer) error {
	return func(w io.Writer) error { return encodeJSON(w, v) }
}
