// Package output writes what a [repomap.Map] finds for people and agents,
// as the repomap command and the MCP server both give it: the text forms
// of "repomap defs" and "repomap refs", why a map is empty, and the JSON
// documents (see [SchemaVersion]).
package output

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/internal/render"
	"github.com/repomap-dev/repomap/repomap"
)

// Definitions returns defs as text, one after another: a line
// "path:line: kind name", then the definition's Text as a map shows it.
// The path is written as a map writes it (render.PathText), quoted when
// it could be misread, and the name as a map shows a line.
func Definitions(defs []repomap.Definition) string {
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "%s:%d: %s %s\n", render.PathText(d.Path), d.Line, d.Kind, render.LineText(d.Name))
		b.WriteString(d.Text)
	}
	return b.String()
}

// References returns refs as text, one line a file in their order:
// "path: line line…", the path as a map writes it.
func References(refs []repomap.Reference) string {
	var b strings.Builder
	for _, r := range refs {
		b.WriteString(render.PathText(r.Path))
		b.WriteByte(':')
		for _, l := range r.Lines {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(l))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// EmptyReason says why r, a map of the trees at dirs made with the
// Include patterns include, is empty.
func EmptyReason(dirs, include []string, r *repomap.Result) string {
	s := r.Stats
	switch {
	case s.Files == 0 && len(include) > 0:
		return fmt.Sprintf("no file matches --include %s", strings.Join(include, ", "))
	case s.Files == 0:
		return fmt.Sprintf("no file in %s (after the ignore files and --exclude)", strings.Join(dirs, ", "))
	case s.Skipped == s.Files:
		return fmt.Sprintf("none of the %d files could be read (-v says why)", s.Files)
	}
	if r.Budget == 1 {
		return "a budget of 1 token is too small for one file"
	}
	return fmt.Sprintf("a budget of %d tokens is too small for one file", r.Budget)
}
