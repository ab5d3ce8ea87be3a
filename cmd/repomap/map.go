package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
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
the files that --exclude names or, when --include is given, those it does
not. Their patterns mean what they mean in a .gitignore file: one
without a slash matches at any depth, a leading slash anchors it at the
root, a trailing slash matches directories; a directory that --exclude
matches is not walked. So are the files that git ignores from above the
root when the root lies in a git repository (every .gitignore up to the
repository's top, .git/info/exclude and core.excludesFile).

The budget (--tokens) is a hard cap on the map, counted with the
o200k_base tokenizer (or cl100k_base with --encoding); the tokenizer's
tables are built in. The focus files (--focus) steer the ranking toward
what they use and are left out of the map, since the agent has them
already. Mentioned identifiers and paths (--mention, --mentions-from) rank
higher.

Output formats (--format):

	text      the map as it is: each file's path and a colon, then its
	          shown lines after "│", and "⋮" for each run of hidden lines
	markdown  a heading naming the roots, then the budget and the token
	          count, then the map in a fenced code block, ready to paste
	          into a CLAUDE.md or AGENTS.md file
	json      the map and the definitions it shows, in a documented,
	          versioned schema (its "schema" field; see the README)

The budget caps the whole output in the text and markdown formats (the
heading and the fence too); in JSON it caps the map's text, and the
fields around it are not counted. An empty map comes with a line on
standard error that says why.

The map goes to standard output, diagnostics to standard error. Tags are
cached under the user's cache directory, so that a second run reads only
the files that changed.

Examples:

	repomap --tokens 4096 --format markdown -o map.md
	repomap --focus repomap/map.go --tokens 2048 .
	echo "fix the retry loop in fetch_page" | repomap --mentions-from - ~/src/crawler
	repomap --include services/api --exclude '**/*_test.go' ~/src/monorepo
	repomap ~/src/app ~/src/lib`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.mapFlags(fl)
			c.formatFlag(fl, formatText, formatMarkdown, formatJSON)
			c.outputFlag(fl)
			fl.Var(&c.focus, "focus", "a `file` being worked on, a path in the map or on disk; repeatable. The map ranks what it uses and leaves it out")
			fl.Var(&c.mentions, "mention", "an identifier or path the user mentioned, a `word`; repeatable")
			fl.StringVar(&c.mentionsFrom, "mentions-from", "", "read free text, such as the user's request, from `file` (\"-\": standard input), and mention the files and identifiers it names")
			fl.BoolVar(&c.stats, "stats", false, "print to standard error how the map was made: files seen, parsed, from cache, skipped, tags, graph size, tokens and the time of each stage")
			fl.BoolVar(&c.statsJSON, "stats-json", false, "print how the map was made as JSON (repomap.Stats) to standard output, instead of the map; for repomap bench")
			fl.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile to `file`")
			fl.BoolVar(&c.version, "version", false, "print repomap's version and exit")
			alias(fl, "V", "version")
		},
		run: runMap,
	}
}

// mapFlags registers the flags that make a map: the budget, the tree and
// -refresh.
func (c *config) mapFlags(fl *flag.FlagSet) {
	c.budgetFlags(fl)
	c.treeFlags(fl)
	c.refreshFlag(fl)
}

func runMap(ctx context.Context, e *env, c *config, args []string) int {
	if c.version {
		return write(e, versionLine())
	}
	if msg := c.check(formatText, formatMarkdown, formatJSON); msg != "" {
		return e.usage(msg)
	}
	dirs, msg := rootArgs(args)
	if msg != "" {
		return e.usage(msg)
	}
	m, err := c.open(e, dirs)
	if err != nil {
		return fail(e, err)
	}
	defer m.Close()

	req, err := c.request(e, m)
	if err != nil {
		return fail(e, err)
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
	if c.verbose {
		fmt.Fprintf(e.stderr, "repomap: mapping %s\n", strings.Join(dirs, ", "))
	}
	res, err := m.Build(ctx, req)
	if err != nil {
		return fail(e, err)
	}
	e.progress.clear()
	if c.stats {
		printStats(e.stderr, res)
	}
	if c.statsJSON {
		return emit(e, c, jsonOut(res.Stats))
	}
	if res.Text == "" {
		fmt.Fprintf(e.stderr, "repomap: the map is empty: %s\n", output.EmptyReason(dirs, c.include, res))
	}
	switch c.format {
	case formatMarkdown:
		doc, err := markdownWithin("Repo map of "+rootTitle(m.Roots()), func(n int) (*repomap.Result, error) {
			if n == 0 {
				return res, nil
			}
			req.MaxTokens = n
			return m.Build(ctx, req)
		})
		if err != nil {
			return fail(e, err)
		}
		return emit(e, c, stringOut(doc))
	case formatJSON:
		return emit(e, c, jsonOut(output.NewMapDoc(m.Roots(), res)))
	}
	return emit(e, c, stringOut(res.Text))
}

// readText returns the contents of the file at name, or of standard
// input for "-".
func readText(e *env, name string) (string, error) {
	if name == "-" {
		b, err := io.ReadAll(e.stdin)
		return string(b), err
	}
	b, err := os.ReadFile(name)
	return string(b), err
}
