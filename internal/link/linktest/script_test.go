package linktest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
)

func TestRequests(t *testing.T) {
	files := Files(t, fstest.MapFS{
		"a.py": {Data: []byte("from b import f\n\nf()\nf(); f()\n\n\ndef g():\n    pass\n")},
		"b.py": {Data: []byte("def f():\n    pass\n")},
		"c.go": {Data: []byte("package c\n\nfunc h() { h() }\n")},
	})
	got := Requests(files, func(f link.File) bool { return f.Lang == "python" })
	// f is imported on line 1 and called on lines 3 and 4, twice on 4;
	// g is defined, not used; c.go is not asked about.
	want := []Request{{"a.py", 1, "f"}, {"a.py", 3, "f"}, {"a.py", 4, "f"}}
	if !slices.Equal(got, want) {
		t.Errorf("Requests = %v, want %v", got, want)
	}
}

func TestReadAnswers(t *testing.T) {
	reqs := []Request{{"a.py", 3, "f"}, {"a.py", 4, "g"}, {"c.py", 1, "f"}}
	files := map[string]bool{"a.py": true, "b.py": true, "c.py": true}
	tr, err := readAnswers(strings.NewReader("a.py\t3\tf\tb.py\tf\na.py\t4\tg\tb.py\tg\tc.py\tg\nc.py\t1\tf\n"), reqs, files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[Edge][]int32{{"a.py", "b.py", "f"}: {2}, {"a.py", "b.py", "g"}: {3}, {"a.py", "c.py", "g"}: {3}}
	if len(tr.Uses) != len(want) {
		t.Errorf("uses %v, want %v", tr.Uses, want)
	}
	for e, lines := range want {
		if !slices.Equal(tr.Uses[e], lines) {
			t.Errorf("%v: lines %v, want %v", e, tr.Uses[e], lines)
		}
	}
	if !tr.Files["c.py"] || len(tr.Files) != 3 {
		t.Errorf("files %v, want those asked about", tr.Files)
	}
	for _, bad := range []string{
		"a.py\t3\tf\na.py\t4\tg\n",                      // an answer short
		"a.py\t3\tf\na.py\t4\tg\nc.py\t1\tf\nx\t1\tf\n", // one too many
		"a.py\t3\tf\na.py\t5\tg\nc.py\t1\tf\n",          // not the request
		"a.py\t3\tf\tb.py\na.py\t4\tg\nc.py\t1\tf\n",    // a file without its name
	} {
		if _, err := readAnswers(strings.NewReader(bad), reqs, files); err == nil {
			t.Errorf("readAnswers(%q): no error", bad)
		}
	}
}

// TestAsk drives a shell loop as an oracle that says each name is
// defined in b.py: every request is answered, in order, through the
// pipes.
func TestAsk(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	var reqs []Request
	for i := range 5000 { // more than a pipe's buffer holds, both ways
		reqs = append(reqs, Request{"a.py", i + 1, "f"})
	}
	cmd := exec.Command(sh, "-c", `while IFS= read -r l; do printf '%s\tb.py\tf\n' "$l"; done`)
	tr := Ask(t, cmd, reqs, map[string]bool{"a.py": true, "b.py": true})
	if got := len(tr.Uses[Edge{"a.py", "b.py", "f"}]); got != len(reqs) {
		t.Errorf("%d uses of f, want %d", got, len(reqs))
	}
}
