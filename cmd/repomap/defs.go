package main

import (
	"context"
	"flag"
	"slices"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
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

A NAME with no definition gets a line on standard error. The exit status
is 1 when no NAME has one, as grep's is when no line matches. NAMEs are
looked up in the current directory, or in the trees given with --root.

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
			out := stringOut(output.Definitions(defs))
			if c.format == formatJSON {
				out = jsonOut(output.NewDefinitionsDoc(m.Roots(), defs))
			}
			if code := emit(e, c, out); code != exitOK {
				return code
			}
			return notFound(e, "no definition of", args, func(name string) bool {
				return slices.ContainsFunc(defs, func(d repomap.Definition) bool { return d.Name == name })
			})
		}),
	}
}
