package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

// The output formats.
const (
	formatText     = "text"
	formatMarkdown = "markdown"
	formatJSON     = "json"
)

func mapCommand() *command {
	return &command{
		usage: "repomap [flags] [ROOT...]\nrepomap COMMAND [flags] [ARG...]",
		long: `
Repomap prints a map of a source tree for a coding agent or a context
file: the definitions that matter most, ranked by how the files use each
other, as source lines under their file's path, within a token budget.

ROOT is the root of a tree, by default the current directory. With
several roots the trees are ranked as one graph, and each path in the map
starts with its root's name: the base name of the root's directory, with
the names of the directories above it added, joined by "-", when two
roots would share one ("src-api", "lib-api"). To map a directory named
like a command, write it as ./defs.

Files ignored by the tree's .gitignore files, by .git/info/exclude or by
a .repomapignore file at a root (gitignore syntax) are left out, as are
the files that -exclude names or, when -include is given, those it does
not. Their globs match the path relative to the root; a directory that
-exclude matches is not walked.

The budget (-tokens) is a hard cap on the map, counted with the
o200k_base tokenizer (or cl100k_base with -encoding); the tokenizer's
tables are built in. The focus files (-focus) steer the ranking toward
what they use and are left out of the map, since the agent has them
already. Mentioned identifiers and paths (-mention, -mentions-from) rank
higher.

Output formats (-format):

	text      the map as it is: each file's path and a colon, then its
	          shown lines after "│", and "⋮" for each run of hidden lines
	markdown  a heading naming the roots, then the budget and the token
	          count, then the map in a fenced code block, ready to paste
	          into a CLAUDE.md or AGENTS.md file
	json      the map and the definitions it shows, in the documented,
	          versioned schema of repomap.SchemaVersion

The budget caps the map itself in every format; the markdown heading and
the JSON fields around the map are not counted.

The map goes to standard output, diagnostics to standard error. Tags are
cached under the user's cache directory, so that a second run reads only
the files that changed.

Examples:

	repomap --tokens 4096 --format markdown > map.md
	repomap --focus repomap/map.go --tokens 2048 .
	echo "fix the retry loop in fetch_page" | repomap --mentions-from - ~/src/crawler
	repomap --include services/api --exclude '**/*_test.go' ~/src/monorepo
	repomap ~/src/app ~/src/lib`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.budgetFlags(fl)
			c.treeFlags(fl)
			c.formatFlag(fl, formatText, formatMarkdown, formatJSON)
			fl.Var(&c.focus, "focus", "a `file` being worked on, a path in the map or on disk; repeatable. The map ranks what it uses and leaves it out")
			fl.Var(&c.mentions, "mention", "an identifier or path the user mentioned, a `word`; repeatable")
			fl.StringVar(&c.mentionsFrom, "mentions-from", "", "read free text, such as the user's request, from `file` (\"-\": standard input), and mention the files and identifiers it names")
			fl.StringVar(&c.refresh, "refresh", "auto", "when a map made before may be reused: auto, always, files or manual; matters to long-running uses")
			fl.BoolVar(&c.stats, "stats", false, "print to standard error how the map was made: files seen, parsed, from cache, skipped, tags, graph size, tokens and the time of each stage")
			fl.BoolVar(&c.statsJSON, "stats-json", false, "print how the map was made as JSON (repomap.Stats) to standard output, instead of the map; for repomap bench")
			fl.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile to `file`")
			fl.BoolVar(&c.version, "version", false, "print repomap's version and exit")
		},
		run: runMap,
	}
}

func runMap(ctx context.Context, e *env, c *config, args []string) int {
	if c.version {
		return write(e, versionLine())
	}
	if msg := c.check(formatText, formatMarkdown, formatJSON); msg != "" {
		return e.usage(msg)
	}
	mode, err := repomap.ParseRefresh(c.refresh)
	if err != nil {
		return e.usage(strings.TrimPrefix(err.Error(), "repomap: "))
	}
	dirs := args
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil || strings.ContainsAny(d, `/\.`) {
			continue
		}
		if d != "" && lookupCommand(d) != nil {
			return e.usage(fmt.Sprintf("%s is a command: write it first (repomap %s …)", d, d))
		}
		return e.usage(fmt.Sprintf("no command or directory %s", d))
	}
	m, err := c.open(e, dirs, mode)
	if err != nil {
		return fail(e, err)
	}
	defer m.Close()

	focus, err := mapPaths(m, c.focus)
	if err != nil {
		return e.usage("-focus: " + err.Error())
	}
	mentions := []string(c.mentions)
	if c.mentionsFrom != "" {
		text, err := readText(c.mentionsFrom)
		if err != nil {
			return fail(e, err)
		}
		ms, err := m.FindMentions(ctx, text)
		if err != nil {
			return fail(e, err)
		}
		mentions = append(mentions, ms.All()...)
	}
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return fail(e, err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fail(e, err)
		}
		defer pprof.StopCPUProfile()
	}
	res, err := m.Build(ctx, repomap.Request{Focus: focus, Mentions: mentions})
	if err != nil {
		return fail(e, err)
	}
	if c.stats {
		printStats(e.stderr, res)
	}
	if c.statsJSON {
		return writeJSON(e, res.Stats)
	}
	switch c.format {
	case formatMarkdown:
		return write(e, markdownMap("Repo map of "+rootTitle(m.Roots()), res))
	case formatJSON:
		return writeJSON(e, repomap.NewJSONMap(m.Roots(), res))
	}
	return write(e, res.Text)
}

// readText returns the contents of the file at name, or of standard
// input for "-".
func readText(name string) (string, error) {
	if name == "-" {
		b, err := io.ReadAll(os.Stdin)
		return string(b), err
	}
	b, err := os.ReadFile(name)
	return string(b), err
}

// rootTitle names the roots for a heading: the base name of a single
// root's directory, or the names of several.
func rootTitle(roots []repomap.Root) string {
	var names []string
	for _, r := range roots {
		n := r.Name
		if n == "" && r.Dir != "" {
			if abs, err := filepath.Abs(r.Dir); err == nil {
				n = filepath.Base(abs)
			}
		}
		if n == "" {
			n = "the tree"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// markdownMap returns the map r under a heading, in a fenced code block.
func markdownMap(title string, r *repomap.Result) string {
	text := strings.TrimPrefix(r.Text, "\n")
	fence := "```"
	for line := range strings.Lines(text) {
		if n := len(line) - len(strings.TrimLeft(line, "`")); n >= len(fence) {
			fence = strings.Repeat("`", n+1)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "%d of %d tokens (%s), made by repomap: source lines under their file's path, \"⋮\" for lines left out.\n\n", r.Tokens, r.Budget, r.Encoding)
	fmt.Fprintf(&b, "%stext\n%s%s\n", fence, text, fence)
	return b.String()
}

// writeJSON writes v as indented JSON, with "<", ">" and "&" as they are.
func writeJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(e, err)
	}
	return exitOK
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

func defsCommand() *command {
	return &command{
		name:  "defs",
		usage: "repomap defs [flags] NAME...",
		short: "print every definition of names",
		long: `
Defs prints every definition of each NAME in the tree: functions,
methods, types, classes, fields, constants… For each, a line
"path:line: kind name" (line 1-based), then the definition as a map shows
it: its line after "│", with the headers of the syntax scopes around it
(the class around a method, say), and "⋮" for hidden runs.

A name with no definition prints nothing; the exit status is still 0.

Examples:

	repomap defs Render Build
	repomap defs --root ~/src/app --format json NewServer`,
		flags: nameLookupFlags,
		run: nameLookup(func(ctx context.Context, e *env, c *config, m *repomap.Map, args []string) int {
			defs, err := m.Definitions(ctx, args...)
			if err != nil {
				return fail(e, err)
			}
			if c.format == formatJSON {
				return writeJSON(e, repomap.NewJSONDefinitions(m.Roots(), defs))
			}
			return write(e, repomap.FormatDefinitions(defs))
		}),
	}
}

func refsCommand() *command {
	return &command{
		name:  "refs",
		usage: "repomap refs [flags] NAME...",
		short: "print the files that refer to names, best ranked first",
		long: `
Refs prints the files that refer to each NAME, best ranked first (by the
file's PageRank in the whole tree), one line a file: "path: line line…",
the lines 1-based. With several names, each name's files follow a line
"NAME:".

Examples:

	repomap refs Render
	repomap refs --format json Render Build`,
		flags: nameLookupFlags,
		run: nameLookup(func(ctx context.Context, e *env, c *config, m *repomap.Map, args []string) int {
			doc := repomap.NewJSONReferences(m.Roots())
			var b strings.Builder
			for _, name := range args {
				refs, err := m.References(ctx, name)
				if err != nil {
					return fail(e, err)
				}
				doc.Add(name, refs)
				if len(args) > 1 {
					fmt.Fprintf(&b, "%s:\n", name)
				}
				b.WriteString(repomap.FormatReferences(refs))
			}
			if c.format == formatJSON {
				return writeJSON(e, doc)
			}
			return write(e, b.String())
		}),
	}
}

// nameLookupFlags are the flags of the commands that look names up.
func nameLookupFlags(fl *flag.FlagSet, c *config) {
	c.rootFlag(fl)
	c.treeFlags(fl)
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
		m, err := c.open(e, c.rootDirs(), repomap.RefreshAuto)
		if err != nil {
			return fail(e, err)
		}
		defer m.Close()
		return run(ctx, e, c, m, args)
	}
}

func relatedCommand() *command {
	return &command{
		name:  "related",
		usage: "repomap related [flags] FILE",
		short: "print a map of the files related to one file",
		long: `
Related prints a map of the files most related to FILE, in both
directions: the files that define what FILE uses, with those
definitions, and the files that use what FILE defines, with the lines
that use it in the context of their scopes. Files are ranked by the
weight of their links to FILE and the map fits the budget, as the map of
the tree does.

FILE is a path in the map (relative to the root, or "name/path" with
several roots), or a path on disk inside a root.

Examples:

	repomap related repomap/map.go
	repomap related --tokens 2048 --format markdown cmd/repomap/main.go`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.rootFlag(fl)
			c.budgetFlags(fl)
			c.treeFlags(fl)
			c.formatFlag(fl, formatText, formatMarkdown, formatJSON)
		},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if msg := c.check(formatText, formatMarkdown, formatJSON); msg != "" {
				return e.usage(msg)
			}
			if len(args) != 1 {
				return e.usage(fmt.Sprintf("want one FILE, got %d", len(args)))
			}
			m, err := c.open(e, c.rootDirs(), repomap.RefreshAuto)
			if err != nil {
				return fail(e, err)
			}
			defer m.Close()
			ps, err := mapPaths(m, args)
			if err != nil {
				return e.usage(err.Error())
			}
			res, err := m.Related(ctx, ps[0], 0)
			if err != nil {
				return fail(e, err)
			}
			switch c.format {
			case formatMarkdown:
				return write(e, markdownMap(fmt.Sprintf("Files related to %s in %s", ps[0], rootTitle(m.Roots())), res))
			case formatJSON:
				return writeJSON(e, repomap.NewJSONMap(m.Roots(), res))
			}
			return write(e, res.Text)
		},
	}
}

func languagesCommand() *command {
	return &command{
		name:  "languages",
		usage: "repomap languages [flags]",
		short: "print the languages repomap reads",
		long: `
Languages prints a table of the languages repomap reads: each language's
name, its tier, the file extensions and names that are in it, and
whether its tags have definitions and references. Tier 1 languages are
parsed with a tree-sitter grammar and a tags query; tier 2 languages are
read with a lexer, which finds fewer kinds of definitions.

Files in other languages are listed in the map by name only.`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.formatFlag(fl, formatText, formatMarkdown)
		},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if msg := c.check(formatText, formatMarkdown); msg != "" {
				return e.usage(msg)
			}
			if len(args) > 0 {
				return e.usage("no arguments wanted")
			}
			if c.format == formatMarkdown {
				return write(e, languagesMarkdown(tags.Languages()))
			}
			var b strings.Builder
			tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LANGUAGE\tTIER\tEXTENSIONS\tDEFS\tREFS")
			for _, l := range tags.Languages() {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", l.Name, l.Tier, strings.Join(fileKinds(l), " "), yesNo(l.Defs), yesNo(l.Refs))
			}
			tw.Flush()
			return write(e, b.String())
		},
	}
}

// fileKinds returns the extensions and the file names of language l.
func fileKinds(l tags.Language) []string {
	return append(append([]string(nil), l.Extensions...), l.Files...)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// languagesMarkdown returns the languages as a Markdown table, after a
// sentence that counts them.
func languagesMarkdown(langs []tags.Language) string {
	tier := [3]int{}
	for _, l := range langs {
		tier[l.Tier]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "repomap reads %d languages: %d with a tree-sitter grammar and a tags query (tier 1), %d with a lexer (tier 2).\n\n", len(langs), tier[1], tier[2])
	b.WriteString("| language | tier | files | definitions | references |\n| --- | --- | --- | --- | --- |\n")
	for _, l := range langs {
		var fs []string
		for _, f := range fileKinds(l) {
			fs = append(fs, "`"+f+"`")
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", l.Name, l.Tier, strings.Join(fs, " "), yesNo(l.Defs), yesNo(l.Refs))
	}
	return b.String()
}

func versionCommand() *command {
	return &command{
		name:  "version",
		usage: "repomap version",
		short: "print repomap's version",
		long: `
Version prints repomap's version: the version of the module it was built
from, or "(devel)" for a build from a working tree. "repomap --version"
does the same.`,
		flags: func(*flag.FlagSet, *config) {},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if len(args) > 0 {
				return e.usage("no arguments wanted")
			}
			return write(e, versionLine())
		},
	}
}

// version returns the version of the main module, or "(devel)".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func versionLine() string { return "repomap " + version() + "\n" }

func helpCommand() *command {
	return &command{
		name:  "help",
		usage: "repomap help [COMMAND]",
		short: "print the manual of repomap or of a command",
		long: `
Help prints the manual of repomap, or of COMMAND. "repomap -h" and
"repomap COMMAND -h" do the same.`,
		flags: func(*flag.FlagSet, *config) {},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			switch {
			case len(args) == 0:
				printHelp(e.stdout, lookupCommand(""))
			case len(args) > 1:
				return e.usage("one COMMAND at most")
			case lookupCommand(args[0]) == nil:
				return e.usage(fmt.Sprintf("unknown command %q", args[0]))
			default:
				printHelp(e.stdout, lookupCommand(args[0]))
			}
			return exitOK
		},
	}
}

func evalCommand() *command {
	return &command{
		name:  "eval",
		usage: "repomap eval [flags] [REPO]\nrepomap eval -tasks FILE.jsonl -mirrors DIR [flags]",
		short: "measure the maps of a git repository on its own history, or on a task set",
		long: `
Eval measures how well maps point at the files a change needs, on a git
repository's own history: for recent commits, would a map of the tree
before the commit have shown the files the commit changed? REPO is the
repository's directory, by default the current one; nothing is written
to it. With -tasks it measures on a task set instead: issues filed
against repositories (git mirrors under -mirrors) at a base commit, each
mapped with the issue's text as the request, against BM25 and random
rankings of the same files. See package eval for the method and the
report.`,
		flags: func(*flag.FlagSet, *config) {},
		raw:   runEval,
	}
}

func benchCommand() *command {
	return &command{
		name:  "bench",
		usage: "repomap bench [flags] [PATH]",
		short: "time the map of a tree, with a cold and a warm tag cache",
		long: `
Bench maps the tree at PATH in fresh processes, cold (an empty tag cache)
and warm (the cache filled), and prints the files, the bytes, the median
times, the peak memory and the files mapped per second.`,
		flags: func(*flag.FlagSet, *config) {},
		raw:   runBench,
	}
}
