package redact

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzLine checks that Line never panics, reports a change only when it
// made one, and that redacting its output changes nothing more.
func FuzzLine(f *testing.F) {
	ar, err := txtar.ParseFile("testdata/credentials.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range ar.Files {
		for line := range strings.Lines(string(file.Data)) {
			f.Add(strings.TrimSuffix(line, "\n"))
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		out, ok := Line(line)
		if ok == (out == line) {
			t.Errorf("Line(%q) = %q, %v: the report does not match the change", line, out, ok)
		}
		if again, _ := Line(out); again != out {
			t.Errorf("Line(%q) = %q, and Line of that = %q", line, out, again)
		}
	})
}
