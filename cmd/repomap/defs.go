package main

import (
	"context"
	"flag"

	"github.com/repomap-dev/repomap/internal/output"
	"github.com/repomap-dev/repomap/repomap"
)

func defsCommand() *command {
	return &command{
		name:  "defs",
		usage: "repomap defs [flags] NAME...",
		short: "print every definition of names",
		long: `
Defs prints every definition of each NAME in the tree: functions,
methods, types, classes, fields, constants… For each, a line
"path:line: kind name" (line 1-based), then the definition as a map shows
it (see --style): its signature after "│", under the headers of the
declarations around it (the class around a method, say), and "⋮" for
hidden runs.

A name with no definition prints nothing; the exit status is still 0.

Examples:

	repomap defs Render Build
	repomap defs --root ~/src/app --format json NewServer`,
		flags: func(fl *flag.FlagSet, c *config) {
			nameLookupFlags(fl, c)
			c.styleFlag(fl)
		},
		run: nameLookup(func(ctx context.Context, e *env, c *config, m *repomap.Map, args []string) int {
			defs, err := m.Definitions(ctx, args...)
			if err != nil {
				return fail(e, err)
			}
			if c.format == formatJSON {
				return emit(e, c, jsonOut(output.NewDefinitionsDoc(m.Roots(), defs)))
			}
			return emit(e, c, stringOut(output.Definitions(defs)))
		}),
	}
}
