// Package render writes the blocks of a map: a file's path, then the
// source lines it shows after "│" and a "⋮" line for each run of hidden
// lines. It is pure: the lines and the outline come in, text goes out.
package render

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/tags"
)

// Characters of the map's text format.
const (
	ShownMark  = "│" // U+2502, before each shown source line
	HiddenMark = "⋮" // U+22EE, alone on a line for each run of hidden lines
	MaxLine    = 100 // runes per source line of the map; longer lines are cut
)

// SigCut is how much of a long signature the compact styles show: one of
// more than SigCut+1 rows shows its first SigCut-1 rows and its last (its
// result, or where its body opens). Cutting them took the overview recall of a
// Python repository whose functions take a dozen keyword parameters, one
// per line, from 0.385 to 0.640 at 1,024 tokens.
const SigCut = 4

// Style is a rule for the rows a block shows around its rows of
// interest.
type Style uint8

// The styles.
const (
	// Compact shows each row of interest with the signatures of the
	// declarations around it (tags.Outline.CompactCut): a definition as
	// its signature, a multi-line one whole up to SigCut+1 rows and a
	// longer one as its first SigCut-1 rows and its last, under the header lines
	// of its class, impl or namespace; nothing of a body but the rows of
	// interest. A one-row gap is shown only when the row is blank or
	// shorter than the HiddenMark line that would stand for it.
	Compact Style = iota
	// Aider is the rule of Aider's repo map: each row of interest with
	// the headers of the scopes around it, up to tags.HeaderMax rows
	// each (tags.Outline.Context), every one-row gap, and a blank row
	// after a shown one.
	Aider
	// CompactDoc is Compact with the first line of each definition's doc
	// comment, for measurement.
	CompactDoc
)

// Source is a file's text as the renderer needs it.
type Source struct {
	Lines   []string      // the file's lines, without line endings
	Outline *tags.Outline // nil when the file has none: no scope headers
	Style   Style
}

// Lines splits text, whose line endings are "\n", into lines.
func Lines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// ShownRows returns the rows of s to show for the rows of interest, by
// its Style. Rows outside the text are dropped.
func (s *Source) ShownRows(interest []int) []int {
	if s.Style == Aider {
		return s.aiderRows(interest)
	}
	return s.compactRows(interest)
}

// compactRows returns the rows of the compact styles: the rows of
// interest with the signatures around them (and, with CompactDoc, the
// first line of the doc comment of each definition whose signature they
// are in), and a row alone between two shown rows when it costs no more
// than the HiddenMark line.
func (s *Source) compactRows(interest []int) []int {
	var rows []int
	if s.Outline != nil {
		rows = s.Outline.CompactCut(interest, SigCut)
		if s.Style == CompactDoc {
			for _, d := range s.Outline.Docs(interest) {
				for r := d[0]; r <= d[1] && r < len(s.Lines); r++ {
					if strings.ContainsFunc(s.Lines[r], func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) {
						rows = append(rows, r)
						break
					}
				}
			}
		}
	} else {
		rows = slices.Clone(interest)
	}
	slices.Sort(rows)
	rows = slices.Compact(rows)
	n := len(s.Lines)
	rows = slices.DeleteFunc(rows, func(r int) bool { return r < 0 || r >= n })
	out := make([]int, 0, len(rows))
	for i, r := range rows {
		if i > 0 && r-rows[i-1] == 2 && cheap(s.Lines[r-1]) {
			out = append(out, r-1)
		}
		out = append(out, r)
	}
	return out
}

// cheap reports whether line costs no more tokens than a HiddenMark line:
// it is blank, or one or two characters after the indentation ("}",
// "})").
func cheap(line string) bool {
	return utf8.RuneCountInString(strings.TrimSpace(line)) <= 2
}

// aiderRows returns the rows of the Aider style: the rows themselves, the
// headers of the scopes around them, every row alone between two shown
// rows, and a blank row right after a shown one.
func (s *Source) aiderRows(interest []int) []int {
	var rows []int
	if s.Outline != nil {
		rows = s.Outline.Context(interest)
	} else {
		rows = slices.Clone(interest)
		slices.Sort(rows)
		rows = slices.Compact(rows)
	}
	// A row of interest can lie past the end of the text only if the
	// file changed since its tags were taken.
	n := len(s.Lines)
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
		if show[i] && !blank(s.Lines[i]) && blank(s.Lines[i+1]) {
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

// Block writes to b the block of the file at path showing the rows of
// interest: the path and a colon, then each shown line after ShownMark
// and a HiddenMark line for each run of hidden lines. A nil s, or no rows
// of interest, is the path alone, without a colon.
func Block(b *strings.Builder, path string, s *Source, interest []int) {
	if s == nil || len(interest) == 0 {
		writePath(b, path, "")
		return
	}
	rows := s.ShownRows(interest)
	writePath(b, path, ":")
	next := 0 // the row after the last one written
	for _, r := range rows {
		if r > next {
			writeLine(b, HiddenMark)
		}
		writeLine(b, ShownMark+s.Lines[r])
		next = r + 1
	}
	if next < len(s.Lines) {
		writeLine(b, HiddenMark)
	}
}

// writePath writes the path line of the file at p to b: its path as
// PathText gives it, then suffix and a newline. It is never cut: a path
// cut short names another file, or none.
func writePath(b *strings.Builder, p, suffix string) {
	b.WriteString(PathText(p))
	b.WriteString(suffix)
	b.WriteByte('\n')
}

// writeLine writes line to b, as LineText gives it, and a newline. A
// line of more than MaxLine runes is cut to MaxLine, its last a "…" that
// says so.
func writeLine(b *strings.Builder, line string) {
	line = LineText(line)
	if len(line) > MaxLine {
		n := 0
		for i := range line {
			if n == MaxLine-1 && utf8.RuneCountInString(line[i:]) > 1 {
				line = line[:i] + "…"
				break
			}
			n++
		}
	}
	b.WriteString(line)
	b.WriteByte('\n')
}

func blank(line string) bool { return strings.TrimSpace(line) == "" }

// LineText returns line as a map shows it: made valid UTF-8, and with
// each control character but tab (NUL, ESC, BEL, DEL, the C1 controls, the
// line and paragraph separators) replaced by U+FFFD, so that no line
// shown moves a terminal's cursor, retitles it or hides text, nor starts
// a line of its own. A file with such characters past the part the reader
// looks at is still text.
func LineText(line string) string {
	if !utf8.ValidString(line) {
		line = strings.ToValidUTF8(line, "\uFFFD")
	}
	if strings.ContainsFunc(line, shownControl) {
		line = strings.Map(func(r rune) rune {
			if shownControl(r) {
				return '\uFFFD'
			}
			return r
		}, line)
	}
	return line
}

// Control reports whether r is a control character: C0, DEL, C1, or the
// line or paragraph separator.
func Control(r rune) bool {
	return r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x2028 || r == 0x2029
}

// shownControl reports whether r is a control character that a shown line
// may not hold: all but tab.
func shownControl(r rune) bool { return r != '\t' && Control(r) }

// PathText returns p as a map writes it: as it is, or, when it could be
// misread (a newline or other control character, invalid UTF-8, leading
// or trailing space, a quote first, a colon last), quoted as a Go string.
func PathText(p string) string {
	plain := utf8.ValidString(p) && p != "" && p == strings.TrimSpace(p) &&
		!strings.HasPrefix(p, `"`) && !strings.HasSuffix(p, ":") && !strings.ContainsFunc(p, Control)
	if plain {
		return p
	}
	return strconv.Quote(p)
}
