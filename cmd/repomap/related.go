package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
)

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
			c.outputFlag(fl)
		},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if msg := c.check(formatText, formatMarkdown, formatJSON); msg != "" {
				return e.usage(msg)
			}
			if len(args) != 1 {
				return e.usage(fmt.Sprintf("want one FILE, got %d", len(args)))
			}
			m, err := c.open(e, c.rootDirs())
			if err != nil {
				return fail(e, err)
			}
			defer m.Close()
			ps, err := mapPaths(m, args)
			if err != nil {
				return fail(e, err)
			}
			related := func(n int) (*repomap.Result, error) { return m.Related(ctx, ps[0], repomap.Request{MaxTokens: n}) }
			switch c.format {
			case formatMarkdown:
				doc, err := markdownWithin(fmt.Sprintf("Files related to %s in %s", ps[0], rootTitle(m.Roots())), related)
				if err != nil {
					return fail(e, err)
				}
				return emit(e, c, stringOut(doc))
			}
			res, err := related(0)
			if err != nil {
				return fail(e, err)
			}
			if c.format == formatJSON {
				return emit(e, c, jsonOut(output.NewMapDoc(m.Roots(), res)))
			}
			if res.Text == "" {
				fmt.Fprintf(e.stderr, "repomap: no file is related to %s within %d tokens\n", ps[0], res.Budget)
			}
			return emit(e, c, stringOut(res.Text))
		},
	}
}
