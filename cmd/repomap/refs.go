package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
)

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

A NAME that no file refers to gets a line on standard error. The exit
status is 1 when no NAME has a reference, as grep's is when no line
matches.

Examples:

	repomap refs Render
	repomap refs --format json Render Build`,
		flags: nameLookupFlags,
		run: nameLookup(func(ctx context.Context, e *env, c *config, m *repomap.Map, args []string) int {
			doc := output.NewReferencesDoc(m.Roots())
			var b strings.Builder
			// One snapshot of the tree for all the names.
			all, err := m.References(ctx, args...)
			if err != nil {
				return fail(e, err)
			}
			for _, name := range args {
				var refs []repomap.Reference
				for _, r := range all {
					if r.Name == name {
						refs = append(refs, r)
					}
				}
				doc.Add(name, refs)
				if len(args) > 1 {
					fmt.Fprintf(&b, "%s:\n", name)
				}
				b.WriteString(output.References(refs))
			}
			out := stringOut(b.String())
			if c.format == formatJSON {
				out = jsonOut(doc)
			}
			if code := emit(e, c, out); code != exitOK {
				return code
			}
			return notFound(e, "no file refers to", args, func(name string) bool {
				return slices.ContainsFunc(all, func(r repomap.Reference) bool { return r.Name == name })
			})
		}),
	}
}
