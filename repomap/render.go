package repomap

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/tags"
)

// Characters of the map's text format.
const (
	shownMark  = "│" // U+2502, before each shown source line
	hiddenMark = "⋮" // U+22EE, alone on a line for each run of hidden lines
	maxLine    = 100 // runes per source line of the map; longer lines are cut
)

// source is a file's text as the renderer needs it.
type source struct {
	lines   []string      // the file's lines, without line endings
	outline *tags.Outline // nil when the file could not be parsed
}

// newSource splits text (with line endings already normalised to "\n")
// into lines.
func newSource(text string, outline *tags.Outline) *source {
	text = strings.TrimSuffix(text, "\n")
	return &source{lines: strings.Split(text, "\n"), outline: outline}
}

// shownRows returns the rows of s to show for the rows of interest lois:
// the rows themselves, the headers of the scopes around them, every row
// alone between two shown rows, and a blank row right after a shown one.
func (s *source) shownRows(lois []int) []int {
	var rows []int
	if s.outline != nil {
		rows = s.outline.Context(lois)
	} else {
		rows = slices.Clone(lois)
		slices.Sort(rows)
		rows = slices.Compact(rows)
	}
	// Drop rows past the end of the text (a row of interest can only be
	// there if the file changed since its tags were taken).
	n := len(s.lines)
	rows = slices.DeleteFunc(rows, func(r int) bool { return r < 0 || r >= n })

	show := make([]bool, n)
	for _, r := range rows {
		show[r] = true
	}
	// A hidden run of one row costs as much as the row: show it.
	for i := 1; i < len(rows); i++ {
		if rows[i]-rows[i-1] == 2 {
			show[rows[i]-1] = true
		}
	}
	// Take along one blank line after a shown line.
	for i := 0; i < n-1; i++ {
		if show[i] && !blank(s.lines[i]) && blank(s.lines[i+1]) {
			show[i+1] = true
		}
	}
	rows = rows[:0]
	for i, ok := range show {
		if ok {
			rows = append(rows, i)
		}
	}
	return rows
}

// render writes the block of the file at path with the rows of interest
// lois to b: the path and a colon, then each shown line after shownMark
// and a hiddenMark line for each run of hidden lines.
func (s *source) render(b *strings.Builder, path string, lois []int) {
	rows := s.shownRows(lois)
	writePath(b, path, ":")
	next := 0 // the row after the last one written
	for _, r := range rows {
		if r > next {
			writeLine(b, hiddenMark)
		}
		writeLine(b, shownMark+s.lines[r])
		next = r + 1
	}
	if next < len(s.lines) {
		writeLine(b, hiddenMark)
	}
}

// writePath writes the path line of the file at p to b: its path as
// pathText gives it, then suffix and a newline. It is never cut: a path
// cut short names another file, or none.
func writePath(b *strings.Builder, p, suffix string) {
	b.WriteString(pathText(p))
	b.WriteString(suffix)
	b.WriteByte('\n')
}

// writeLine writes line to b, made valid UTF-8 without NUL bytes (a file
// with them past the part readSource looks at is still text) and cut to
// maxLine runes, and a newline.
func writeLine(b *strings.Builder, line string) {
	if !utf8.ValidString(line) {
		line = strings.ToValidUTF8(line, "\uFFFD")
	}
	if strings.IndexByte(line, 0) >= 0 {
		line = strings.ReplaceAll(line, "\x00", "\uFFFD")
	}
	if len(line) > maxLine {
		n := 0
		for i := range line {
			if n == maxLine {
				line = line[:i]
				break
			}
			n++
		}
	}
	b.WriteString(line)
	b.WriteByte('\n')
}

func blank(line string) bool { return strings.TrimSpace(line) == "" }

// pathText returns p as a map writes it: as it is, or, when it could be
// misread (a newline or other control character, invalid UTF-8, leading
// or trailing space, a quote first, a colon last), quoted as a Go string.
func pathText(p string) string {
	plain := utf8.ValidString(p) && p != "" && p == strings.TrimSpace(p) &&
		!strings.HasPrefix(p, `"`) && !strings.HasSuffix(p, ":") &&
		!strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 })
	if plain {
		return p
	}
	return strconv.Quote(p)
}
