// Package output writes what a [repomap.Map] finds as text for people
// and agents: the text forms of "repomap defs" and "repomap refs", which
// the repomap command and the MCP server both print.
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
