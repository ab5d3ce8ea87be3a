package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPathText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a/b.go", "a/b.go"},
		{"dir with space/x.py", "dir with space/x.py"},
		{"new\nline.go", `"new\nline.go"`},
		{"tab\there.go", `"tab\there.go"`},
		{"bad\xffutf8.go", `"bad\xffutf8.go"`},
		{" lead.go", `" lead.go"`},
		{`"quoted".go`, `"\"quoted\".go"`},
		{"colon:", `"colon:"`},
		{"ünïcode/ファイル.go", "ünïcode/ファイル.go"},
		{"esc\x1b]0;PWNED\x07.py", `"esc\x1b]0;PWNED\a.py"`},
		{"c1\u009b2J.py", `"c1\u009b2J.py"`},
	} {
		if got := PathText(tc.in); got != tc.want {
			t.Errorf("PathText(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestLineText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\tx := 1 // ünïcode", "\tx := 1 // ünïcode"},
		{"def ctrl(): return '\x1b]0;pwned\x07'", "def ctrl(): return '\ufffd]0;pwned\ufffd'"},
		{"clear\x1b[2J\x1b[8mhidden", "clear\ufffd[2J\ufffd[8mhidden"},
		{"c1 \u009b2J del \x7f nul \x00 ff \f", "c1 \ufffd2J del \ufffd nul \ufffd ff \ufffd"},
		{"sep\u2028line", "sep\ufffdline"},
		{"bad\xffutf8", "bad\ufffdutf8"},
	} {
		if got := LineText(tc.in); got != tc.want {
			t.Errorf("LineText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Block shows lines as LineText gives them.
	var b strings.Builder
	Block(&b, "ctrl.py", &Source{Lines: []string{"def ctrl(): return '\x1b]0;pwned\x07'"}}, []int{0})
	if want := "ctrl.py:\n│def ctrl(): return '\ufffd]0;pwned\ufffd'\n"; b.String() != want {
		t.Errorf("Block = %q, want %q", b.String(), want)
	}
}

// TestWriteLineCut checks that a line longer than MaxLine runes is cut to
// MaxLine runes ending in "…", and that a line of MaxLine runes, or of
// more bytes than MaxLine in fewer runes, is written whole.
func TestWriteLineCut(t *testing.T) {
	long := strings.Repeat("é", MaxLine-1)
	for _, tc := range []struct{ line, want string }{
		{strings.Repeat("a", MaxLine), strings.Repeat("a", MaxLine)},
		{long + "x", long + "x"},
		{long + "xy", long + "…"},
		{strings.Repeat("b", 3*MaxLine), strings.Repeat("b", MaxLine-1) + "…"},
		{"short", "short"},
	} {
		var b strings.Builder
		writeLine(&b, tc.line)
		got := strings.TrimSuffix(b.String(), "\n")
		if got != tc.want {
			t.Errorf("writeLine(%d runes) = %q (%d runes), want %q", utf8.RuneCountInString(tc.line), got, utf8.RuneCountInString(got), tc.want)
		}
	}
}
