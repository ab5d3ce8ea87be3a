package output

import (
	"testing"

	"github.com/repomap-dev/repomap/repomap"
)

func TestDefinitions(t *testing.T) {
	defs := []repomap.Definition{
		{Path: "shapes/shapes.go", Name: "Area", Kind: "method", Line: 9, Text: "⋮\n│func (r Rect) Area() float64 {\n⋮\n"},
		{Path: "main.go", Name: "main", Kind: "function", Line: 3, Text: "│func main() {\n"},
	}
	want := "shapes/shapes.go:9: method Area\n⋮\n│func (r Rect) Area() float64 {\n⋮\nmain.go:3: function main\n│func main() {\n"
	if got := Definitions(defs); got != want {
		t.Errorf("Definitions(%v) =\n%q\nwant\n%q", defs, got, want)
	}
	if got := Definitions(nil); got != "" {
		t.Errorf("Definitions(nil) = %q, want \"\"", got)
	}
}

func TestReferences(t *testing.T) {
	refs := []repomap.Reference{{Path: "a.go", Lines: []int{3, 10}}, {Path: "b/c.go", Lines: []int{1}}, {Path: "d.go"}}
	want := "a.go: 3 10\nb/c.go: 1\nd.go:\n"
	if got := References(refs); got != want {
		t.Errorf("References(%v) = %q, want %q", refs, got, want)
	}
}

// TestOddPaths checks that a path that could be misread, as one with a
// newline that would forge a line of a map, is quoted as a map quotes it,
// and that a name shows no control character.
func TestOddPaths(t *testing.T) {
	const odd = "a.py:\n│def injected_fake(): pass\n\nb.py"
	defs := []repomap.Definition{{Path: odd, Name: "fn\x1b]0;x\x07", Kind: "function", Line: 1, Text: "│def fn():\n"}}
	want := `"a.py:\n│def injected_fake(): pass\n\nb.py":1: function fn�]0;x�` + "\n│def fn():\n"
	if got := Definitions(defs); got != want {
		t.Errorf("Definitions(%q) =\n%q\nwant\n%q", odd, got, want)
	}
	refs := []repomap.Reference{{Path: "esc\x1b]0;PWNED\x07.py", Lines: []int{2}}}
	if got, want := References(refs), `"esc\x1b]0;PWNED\a.py": 2`+"\n"; got != want {
		t.Errorf("References(%v) = %q, want %q", refs, got, want)
	}
}

func TestEmptyReason(t *testing.T) {
	for _, tc := range []struct {
		include []string
		stats   repomap.Stats
		budget  int
		want    string
	}{
		{nil, repomap.Stats{}, 7, "no file in a, b (after the ignore files and --exclude)"},
		{[]string{"x/**"}, repomap.Stats{}, 7, "no file matches --include x/**"},
		{nil, repomap.Stats{Files: 3, Skipped: 3}, 7, "none of the 3 files could be read (-v says why)"},
		{nil, repomap.Stats{Files: 3, Skipped: 1}, 7, "a budget of 7 tokens is too small for one file"},
		{nil, repomap.Stats{Files: 3}, 1, "a budget of 1 token is too small for one file"},
	} {
		r := &repomap.Result{Budget: tc.budget, Stats: tc.stats}
		if got := EmptyReason([]string{"a", "b"}, tc.include, r); got != tc.want {
			t.Errorf("EmptyReason(%v, %+v, budget %d) = %q, want %q", tc.include, tc.stats, tc.budget, got, tc.want)
		}
	}
}
