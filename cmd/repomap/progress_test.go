package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestProgressStages checks that after a parse long enough for a bar,
// the stages after it are named on the bar's line, and that a map which
// parsed too little for a bar writes nothing for its stages.
func TestProgressStages(t *testing.T) {
	run := func(files int) string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p := &progress{f: w}
		for i := 0; i <= files; i += 50 {
			p.update(min(i, files), files)
		}
		for _, s := range []string{"link", "rank", "render", "keep"} {
			p.stage(s)
		}
		p.clear()
		w.Close()
		out, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	out := run(1000)
	for _, want := range []string{"parsing", "linking", "ranking", "fitting"} {
		if !strings.Contains(out, want) {
			t.Errorf("the bar of a 1,000-file parse never shows %q: %q", want, out)
		}
	}
	if out := run(20); out != "" {
		t.Errorf("a 20-file parse wrote %q, want nothing", out)
	}
}
