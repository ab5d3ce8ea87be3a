package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/repomap-dev/repomap/repomap"
)

// A command is repomap or one of its subcommands.
type command struct {
	name  string // "" for the map itself
	usage string // the synopsis, one line per form
	short string // what it does, for the list of commands
	long  string // the manual: what it does, its arguments and output
	// flags registers the command's flags on fl, bound to c.
	flags func(fl *flag.FlagSet, c *config)
	run   func(ctx context.Context, e *env, c *config, args []string) int
	// raw, when set, runs the command instead of run, with its arguments
	// as they are: it parses its own flags.
	raw func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// env is where a command reads and writes.
type env struct {
	stdout, stderr io.Writer
	cmd            *command // the command running
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// commands returns every command, the map first.
func commands() []*command {
	return []*command{mapCommand(), defsCommand(), refsCommand(), relatedCommand(), languagesCommand(), mcpCommand(), cacheCommand(), evalCommand(), benchCommand(), versionCommand(), helpCommand()}
}

// lookupCommand returns the command named name ("" for the map), or nil.
func lookupCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run is the command: it parses args, writes its output to stdout and
// diagnostics to stderr, and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := lookupCommand("")
	if len(args) > 0 && args[0] != "" {
		if c := lookupCommand(args[0]); c != nil {
			cmd, args = c, args[1:]
		}
	}
	if cmd.raw != nil {
		return cmd.raw(ctx, args, stdout, stderr)
	}
	e := &env{stdout: stdout, stderr: stderr, cmd: cmd}
	c := &config{}
	fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
	fl.SetOutput(io.Discard) // errors are reported below
	fl.BoolVar(&c.help, "h", false, "print this help")
	fl.BoolVar(&c.help, "help", false, "print this help")
	cmd.flags(fl, c)
	rest, err := parse(fl, args)
	if err != nil {
		return e.usage(err.Error())
	}
	if c.help {
		printHelp(e.stdout, cmd)
		return exitOK
	}
	return cmd.run(ctx, e, c, rest)
}

func cmdName(cmd *command) string {
	if cmd.name == "" {
		return "repomap"
	}
	return "repomap " + cmd.name
}

// parse parses args with fl, letting flags come after the arguments too
// ("repomap defs Render -format json"), up to a "--", and returns the
// arguments.
func parse(fl *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		rest := fl.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usage reports a usage error of the command running and returns
// exitUsage.
func (e *env) usage(msg string) int {
	fmt.Fprintf(e.stderr, "repomap: %s\n", msg)
	fmt.Fprintf(e.stderr, "usage: %s\n", strings.ReplaceAll(e.cmd.usage, "\n", "\n       "))
	fmt.Fprintf(e.stderr, "Run '%s -h' for help.\n", cmdName(e.cmd))
	return exitUsage
}

// fail reports a failure and returns exitFailure.
func fail(e *env, err error) int {
	msg := err.Error()
	if !strings.HasPrefix(msg, "repomap: ") {
		msg = "repomap: " + msg
	}
	fmt.Fprintln(e.stderr, msg)
	return exitFailure
}

// write writes s to standard output.
func write(e *env, s string) int {
	if _, err := io.WriteString(e.stdout, s); err != nil {
		return fail(e, err)
	}
	return exitOK
}

// config holds the values of the flags.
type config struct {
	help bool

	// The budget.
	tokens, window int
	encoding       string

	// The tree.
	cacheDir         string
	noCache          bool
	exclude, include list
	verbose          bool
	roots            list // -root, for commands whose arguments are not roots

	format string

	// The map.
	focus, mentions list
	mentionsFrom    string
	refresh         string
	ranking         string
	stats           bool
	statsJSON       bool
	cpuProfile      string
	version         bool
}

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// budgetFlags registers the flags that set the token budget.
func (c *config) budgetFlags(fl *flag.FlagSet) {
	fl.IntVar(&c.tokens, "tokens", 0, "the most `tokens` the output may have, a hard cap (default: from -context-window, else 1024)")
	fl.IntVar(&c.window, "context-window", 0, "the model's context window in `tokens`: the budget is an eighth of it, between 1024 and 4096, doubled as far as the window allows when there is no focus file")
	fl.StringVar(&c.encoding, "encoding", repomap.O200kBase, "the tokenizer that counts tokens: o200k_base or cl100k_base")
	fl.StringVar(&c.ranking, "ranking", repomap.RankingDefault, "the ranking: default, or aider for Aider's (see repomap eval)")
}

// treeFlags registers the flags that say which files to read and how.
func (c *config) treeFlags(fl *flag.FlagSet) {
	fl.StringVar(&c.cacheDir, "cache-dir", "", "where tag caches are kept, in `dir` (default: the user's cache directory, …/repomap); nothing is written into the tree")
	fl.BoolVar(&c.noCache, "no-cache", false, "neither read nor write the tag cache")
	fl.Var(&c.exclude, "exclude", "leave out the files and directories whose path relative to their root matches `glob` (doublestar syntax: \"vendor\", \"**/testdata\", \"**/*.pb.go\"); repeatable")
	fl.Var(&c.include, "include", "keep only the files that match `glob`, or lie under a directory that does (\"services/api\"); repeatable")
	fl.BoolVar(&c.verbose, "v", false, "log skipped files and other diagnostics to standard error")
}

// rootFlag registers -root, for commands whose arguments are not roots.
func (c *config) rootFlag(fl *flag.FlagSet) {
	fl.Var(&c.roots, "root", "the root of a tree to look in, a `dir`; repeatable (default: the current directory)")
}

// formatFlag registers -format with the formats given, the first the
// default.
func (c *config) formatFlag(fl *flag.FlagSet, formats ...string) {
	fl.StringVar(&c.format, "format", formats[0], "the output `format`: "+strings.Join(formats, ", "))
}

// check reports a usage error in the flags, or "".
func (c *config) check(formats ...string) string {
	switch {
	case c.tokens < 0 || c.window < 0:
		return "-tokens and -context-window take a positive number"
	case c.encoding != "" && c.encoding != repomap.O200kBase && c.encoding != repomap.Cl100kBase:
		return fmt.Sprintf("unknown encoding %q (want %s or %s)", c.encoding, repomap.O200kBase, repomap.Cl100kBase)
	case len(formats) > 0 && !slices.Contains(formats, c.format):
		return fmt.Sprintf("unknown format %q (want %s)", c.format, strings.Join(formats, ", "))
	}
	for _, g := range slices.Concat(c.exclude, c.include) {
		if !doublestar.ValidatePattern(strings.TrimPrefix(g, "./")) {
			return fmt.Sprintf("malformed glob %q", g)
		}
	}
	return ""
}

// open returns the Map of the trees at dirs, with the options of the
// flags.
func (c *config) open(e *env, dirs []string, refresh repomap.Refresh) (*repomap.Map, error) {
	level := slog.LevelWarn
	if c.verbose {
		level = slog.LevelDebug
	}
	roots, err := repomap.DirRoots(dirs...)
	if err != nil {
		return nil, err
	}
	return repomap.NewRoots(roots, &repomap.Options{
		MaxTokens:     c.tokens,
		ContextWindow: c.window,
		Encoding:      c.encoding,
		CacheDir:      c.cacheDir,
		NoCache:       c.noCache,
		Refresh:       refresh,
		Ranking:       c.ranking,
		Exclude:       c.exclude,
		Include:       c.include,
		Progress:      progressTo(e.stderr),
		Logger:        slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level})),
	})
}

// rootDirs returns the -root directories, or the current one.
func (c *config) rootDirs() []string {
	if len(c.roots) == 0 {
		return []string{"."}
	}
	return c.roots
}

// mapPaths returns the paths in m of the files at ps, as given on the
// command line: a path in the map (relative to its root, or "name/path"
// with several roots) if it names a file there; otherwise a path on
// disk, absolute or relative to the current directory, inside a root. A
// path that is neither is taken as a path in the map.
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
		out = append(out, q)
	}
	return out, nil
}

// inMap reports whether the relative path p names a file of a root of m.
func inMap(m *repomap.Map, p string) bool {
	p = filepath.ToSlash(filepath.Clean(p))
	for _, r := range m.Roots() {
		rel := p
		if r.Name != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(p, r.Name+"/"); !ok {
				continue
			}
		}
		if r.Dir == "" {
			continue
		}
		if info, err := os.Stat(filepath.Join(r.Dir, filepath.FromSlash(rel))); err == nil && !info.IsDir() {
			return true
		}
	}
	return false
}

// printHelp writes the manual of cmd.
func printHelp(w io.Writer, cmd *command) {
	io.WriteString(w, helpText(cmd))
}

// helpText returns the manual of cmd: its synopsis, what it does, its
// flags, and for repomap itself the commands and the exit statuses.
func helpText(cmd *command) string {
	var b strings.Builder
	b.WriteString(usageText(cmd))
	fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(cmd.long))
	if cmd.raw != nil {
		fmt.Fprintf(&b, "\nRun '%s -h' for its flags.\n", cmdName(cmd))
		return b.String()
	}
	if f := flagsText(cmd); f != "" {
		b.WriteString("\n" + f)
	}
	if cmd.name == "" {
		b.WriteString("\n" + commandsText())
		b.WriteString("\n" + exitText)
	}
	return b.String()
}

// usageText returns the synopsis of cmd.
func usageText(cmd *command) string {
	var b strings.Builder
	b.WriteString("Usage:\n\n")
	for line := range strings.Lines(cmd.usage) {
		fmt.Fprintf(&b, "\t%s\n", strings.TrimRight(line, "\n"))
	}
	return b.String()
}

// flagsText returns the flags of cmd with what they do, or "".
func flagsText(cmd *command) string {
	fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
	cmd.flags(fl, &config{})
	n := 0
	fl.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Flags (with one dash or two):\n\n")
	fl.SetOutput(&b)
	fl.PrintDefaults()
	return b.String()
}

// commandsText returns the list of commands.
func commandsText() string {
	var b strings.Builder
	b.WriteString("Commands:\n\n")
	for _, c := range commands()[1:] {
		fmt.Fprintf(&b, "\t%-10s %s\n", c.name, c.short)
	}
	b.WriteString("\nRun 'repomap help COMMAND' for the manual of a command.\n")
	return b.String()
}

const exitText = `Exit status:

	0  success
	1  failure: a root that cannot be read, an output that cannot be written…
	2  usage error: unknown flag or command, missing or extra arguments
`
