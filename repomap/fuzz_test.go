package repomap

import (
	"context"
	"encoding/binary"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/render"
	"github.com/repomap-dev/repomap/tags"
)

// FuzzRender renders any text with any rows of interest, as a file at any
// path, and checks the block against the map's text format: a path line
// that gives back the path exactly; then only "│" lines, each the start of
// a real line of the source (valid UTF-8, at most maxLine runes), in the
// order of the rows shownRows picks, which hold every row of interest
// within the source; a "⋮" line for each run of hidden lines, never two
// in a row; and the same bytes every time. With no row of interest the
// block is the path alone, without a colon. mode picks the outline: none,
// or that of the text parsed as Go, Python or JavaScript; each style is
// checked.
//
// rows holds the rows of interest, two bytes each, little-endian and
// signed, so that rows before and past the source are tried too.
func FuzzRender(f *testing.F) {
	f.Add("a.go", []byte("package p\n\nfunc A() {\n\treturn\n}\n"), []byte{2, 0}, uint8(1))
	var mu sync.Mutex
	p := tags.NewParser(&tags.ParserOptions{Timeout: time.Second})
	defer p.Close()
	exts := []string{"", ".go", ".py", ".js"}
	f.Fuzz(func(t *testing.T, path string, raw, rows []byte, mode uint8) {
		// The text as the map reads it; binary files are never rendered.
		text, reason := index.ReadSource(fstest.MapFS{"f": {Data: raw}}, "f", 1<<20)
		if reason.Kind != index.NotSkipped {
			return
		}
		var outline *tags.Outline
		if ext := exts[int(mode)%len(exts)]; ext != "" {
			mu.Lock()
			o, err := p.Outline(context.Background(), "f"+ext, text)
			mu.Unlock()
			if err == nil {
				outline = o
			}
		}
		var lois []int
		for i := 0; i+1 < len(rows); i += 2 {
			lois = append(lois, int(int16(binary.LittleEndian.Uint16(rows[i:]))))
		}
		for _, style := range []render.Style{render.Compact, render.Aider, render.CompactDoc} {
			src := &render.Source{Lines: render.Lines(string(text)), Outline: outline, Style: style}
			var b strings.Builder
			render.Block(&b, path, src, lois)
			out := b.String()
			var again strings.Builder
			render.Block(&again, path, src, lois)
			if again.String() != out {
				t.Fatalf("render twice differs:\n%q\n%q", out, again.String())
			}
			if len(lois) == 0 {
				// No row of interest: the file by name alone.
				if want := render.PathText(path) + "\n"; out != want {
					t.Fatalf("block with no rows of interest = %q, want the path line %q", out, want)
				}
				continue
			}
			checkBlock(t, src, path, lois, out)
		}
	})
}

// checkBlock checks the block out that src.render wrote for the file at
// path and the rows of interest lois.
func checkBlock(t *testing.T, src *render.Source, path string, lois []int, out string) {
	t.Helper()
	if !utf8.ValidString(out) || !strings.HasSuffix(out, "\n") || strings.IndexByte(out, 0) >= 0 {
		t.Fatalf("block is not valid UTF-8 without NUL ending in a newline: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	head, ok := strings.CutSuffix(lines[0], ":")
	if !ok {
		t.Fatalf("path line %q does not end in a colon", lines[0])
	}
	if strings.HasPrefix(head, `"`) {
		var err error
		if head, err = strconv.Unquote(head); err != nil {
			t.Fatalf("quoted path line %q does not unquote: %v", lines[0], err)
		}
	}
	if head != path {
		t.Fatalf("path line %q names %q, want %q", lines[0], head, path)
	}

	n := len(src.Lines)
	shown := src.ShownRows(lois)
	for i, r := range shown {
		if r < 0 || r >= n || (i > 0 && r <= shown[i-1]) {
			t.Fatalf("shownRows(%v) = %v: not increasing rows of the %d-line source", lois, shown, n)
		}
	}
	isShown := make(map[int]bool, len(shown))
	for _, r := range shown {
		isShown[r] = true
	}
	for _, r := range lois {
		if r >= 0 && r < n && !isShown[r] {
			t.Fatalf("shownRows(%v) = %v lacks row of interest %d", lois, shown, r)
		}
	}

	k := 0    // the shown row next expected
	next := 0 // the source row after the last one shown
	hidden := false
	for _, line := range lines[1:] {
		if line == hiddenMark {
			if hidden {
				t.Fatalf("two %s lines in a row:\n%s", hiddenMark, out)
			}
			hidden = true
			continue
		}
		if !strings.HasPrefix(line, shownMark) {
			t.Fatalf("line %q is neither %s nor after %s", line, hiddenMark, shownMark)
		}
		if utf8.RuneCountInString(line) > maxLine {
			t.Fatalf("line %q is longer than %d runes", line, maxLine)
		}
		if k == len(shown) {
			t.Fatalf("more shown lines than the %d rows %v:\n%s", len(shown), shown, out)
		}
		r := shown[k]
		if hidden != (r > next) {
			t.Fatalf("row %d follows row %d, with %s before it: %v:\n%s", r, next-1, hiddenMark, hidden, out)
		}
		// The row as a map shows it: valid UTF-8, each control character
		// but tab a U+FFFD.
		real := shownMark + strings.Map(func(c rune) rune {
			if c != '\t' && render.Control(c) {
				return '\uFFFD'
			}
			return c
		}, strings.ToValidUTF8(src.Lines[r], "\uFFFD"))
		cut, isCut := strings.CutSuffix(line, "…")
		isCut = isCut && utf8.RuneCountInString(line) == maxLine && utf8.RuneCountInString(real) > maxLine && strings.HasPrefix(real, cut)
		if line != real && !isCut {
			t.Fatalf("shown line %q is not row %d, %q, nor its first %d runes then …", line, r, src.Lines[r], maxLine-1)
		}
		hidden = false
		k++
		next = r + 1
	}
	if k != len(shown) {
		t.Fatalf("%d rows shown, want the %d of %v:\n%s", k, len(shown), shown, out)
	}
	if hidden != (next < n) {
		t.Fatalf("block ends with %s: %v, with %d of %d rows after the last shown:\n%s", hiddenMark, hidden, n-next, n, out)
	}
}
