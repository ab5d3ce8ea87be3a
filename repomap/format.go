package repomap

import (
	"fmt"
	"strconv"
	"strings"
)

// FormatDefinitions returns defs as text, one after another: a line
// "path:line: kind name", then the definition's Text as a map shows it.
func FormatDefinitions(defs []Definition) string {
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "%s:%d: %s %s\n", d.Path, d.Line, d.Kind, d.Name)
		b.WriteString(d.Text)
	}
	return b.String()
}

// FormatReferences returns refs as text, one line a file in their order:
// "path: line line…".
func FormatReferences(refs []Reference) string {
	var b strings.Builder
	for _, r := range refs {
		b.WriteString(r.Path)
		b.WriteByte(':')
		for _, l := range r.Lines {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(l))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
