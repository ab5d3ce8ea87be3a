package history

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/repomap-dev/repomap/internal/words"
)

// day is a day in seconds.
const day = 86400

// sample is a history of five commits, newest first, read at day 100.
func sample() *History {
	return &History{
		Head: "0123456789012345678901234567890123456789", Time: 100 * day,
		Paths: []string{"src/a.go", "src/b.go", "src/c.go", "docs/x.md", "src/d.go"},
		Commits: []Commit{
			{Time: 100 * day, Message: "Quote the parser's names", Files: []int32{3, 0, 1}}, // docs/x.md, src/a.go, src/b.go
			{Time: 90 * day, Message: "parser: read nested lists", Files: []int32{0, 2}},    // src/a.go, src/c.go
			{Time: 80 * day, Message: "Format every file"},                                  // a commit too large to keep
			{Time: 10 * day, Message: "Add the lexer", Files: []int32{0, 2}},                // src/a.go, src/c.go
			{Time: 5 * day, Message: "Add the nested printer", Files: []int32{4}},           // src/d.go alone
		},
		opts: Options{Depth: 10, MaxFiles: 3},
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestCoChanged(t *testing.T) {
	v := NewView(Part{History: sample()})
	tests := []struct {
		from     map[string]float64
		halfLife float64
		want     map[string]float64
	}{
		// Without decay: each commit gives each other file 1/(files-1).
		{map[string]float64{"src/a.go": 1}, 0, map[string]float64{"docs/x.md": 0.5, "src/b.go": 0.5, "src/c.go": 2}},
		// With a half-life of 10 days: the commit of day 90 counts 1/2,
		// that of day 10 1/2^9.
		{map[string]float64{"src/a.go": 1}, 10, map[string]float64{"docs/x.md": 0.5, "src/b.go": 0.5, "src/c.go": 0.5 + 1.0/512}},
		// Weights of the files of from; a file of from gets nothing.
		{map[string]float64{"src/a.go": 2, "src/c.go": 1}, 0, map[string]float64{"docs/x.md": 1, "src/b.go": 1}},
		// A file no commit changed with another.
		{map[string]float64{"src/d.go": 1}, 0, map[string]float64{}},
		{map[string]float64{"nowhere.go": 1}, 0, map[string]float64{}},
	}
	for _, tc := range tests {
		got := v.CoChanged(tc.from, tc.halfLife)
		if diff := cmp.Diff(tc.want, got, cmp.Comparer(near)); diff != "" {
			t.Errorf("CoChanged(%v, %g) (-want +got):\n%s", tc.from, tc.halfLife, diff)
		}
	}
}

func TestRecency(t *testing.T) {
	v := NewView(Part{History: sample()})
	tests := []struct {
		path     string
		halfLife float64
		want     float64
	}{
		{"src/a.go", 10, 1},
		{"src/c.go", 10, 0.5},
		{"src/d.go", 5, math.Exp2(-19)},
		{"src/d.go", 0, 1},
		{"nowhere.go", 10, 0},
	}
	for _, tc := range tests {
		if got := v.Recency(tc.path, tc.halfLife); !near(got, tc.want) {
			t.Errorf("Recency(%s, %g) = %g, want %g", tc.path, tc.halfLife, got, tc.want)
		}
	}
}

func TestMessages(t *testing.T) {
	hashes := func(ws ...string) []uint32 {
		var hs []uint32
		for _, w := range ws {
			hs = append(hs, words.Hash(w))
		}
		return hs
	}
	// One word in one of two messages of two words: BM25's idf is
	// ln(1 + 1.5/1.5), and its length and count cancel out.
	two := NewView(Part{History: &History{Time: 2, Paths: []string{"a.go", "b.go"},
		Commits: []Commit{{Time: 2, Message: "parser fix", Files: []int32{0}}, {Time: 1, Message: "docs update", Files: []int32{1}}}}})
	if diff := cmp.Diff(map[string]float64{"a.go": math.Ln2}, two.Messages(hashes("parser"), 0), cmp.Comparer(near)); diff != "" {
		t.Errorf("Messages(parser) (-want +got):\n%s", diff)
	}

	v := NewView(Part{History: sample()})
	got := v.Messages(hashes("parser"), 0)
	// Only the files of the two commits about the parser; src/a.go had
	// both, the others one: the commit of three files counts 1/√3 of
	// its score to each, the one of two 1/√2.
	if len(got) != 4 || got["src/d.go"] != 0 || !(got["src/a.go"] > got["src/c.go"] && got["src/c.go"] > got["src/b.go"]) ||
		!near(got["src/b.go"], got["docs/x.md"]) || !near(got["src/a.go"], got["src/b.go"]+got["src/c.go"]) {
		t.Errorf("Messages(parser) = %v", got)
	}
	// "nested" is in two messages, of which the one of src/d.go is the
	// shorter; "lexer" in one: the rarer word weighs more.
	got = v.Messages(hashes("nested", "lexer"), 0)
	if !(got["src/c.go"] > 0 && got["src/d.go"] > 0 && got["src/b.go"] == 0) {
		t.Errorf("Messages(nested, lexer) = %v", got)
	}
	if lexer, nested := v.Messages(hashes("lexer"), 0)["src/c.go"], v.Messages(hashes("nested"), 0)["src/c.go"]; lexer <= nested {
		t.Errorf("Messages: lexer gave src/c.go %g, nested %g: the rarer word should weigh more", lexer, nested)
	}
	// The best commit alone: the lexer's, of src/a.go and src/c.go.
	if got := v.Messages(hashes("nested", "lexer"), 1); len(got) != 2 || got["src/a.go"] == 0 || !near(got["src/a.go"], got["src/c.go"]) {
		t.Errorf("Messages(nested, lexer) of the best commit = %v, want src/a.go and src/c.go alike", got)
	}
	// Two commits that score the same both count.
	if got := v.Messages(hashes("parser"), 1); len(got) != 4 {
		t.Errorf("Messages(parser) of the best commit = %v, want the files of both commits about the parser", got)
	}
	if got := v.Messages(hashes("nowhere"), 0); len(got) != 0 {
		t.Errorf("Messages(a word of no message) = %v", got)
	}
}

// TestViewParts checks that a view of a root below the top of its
// repository, named in a map of several roots, knows its files by their
// paths in the map, and nothing outside the root.
func TestViewParts(t *testing.T) {
	v := NewView(Part{History: sample(), Prefix: "src", Name: "app"}, Part{History: nil, Name: "none"})
	got := v.CoChanged(map[string]float64{"app/a.go": 1}, 0)
	// docs/x.md is outside the root; the commit that changed a.go and
	// b.go changed three files in all.
	want := map[string]float64{"app/b.go": 0.5, "app/c.go": 2}
	if diff := cmp.Diff(want, got, cmp.Comparer(near)); diff != "" {
		t.Errorf("CoChanged(app/a.go) (-want +got):\n%s", diff)
	}
	if v.Recency("src/a.go", 0) != 0 || v.Recency("app/d.go", 0) != 1 {
		t.Errorf("Recency: the paths of the view are the map's")
	}
}

func TestTop(t *testing.T) {
	w := map[string]float64{"b": 1, "a": 1, "c": 3, "d": 0.5}
	if got, want := Top(w, 3), []string{"c", "a", "b"}; !cmp.Equal(got, want) {
		t.Errorf("Top(%v, 3) = %v, want %v", w, got, want)
	}
	if got := Top(w, 0); len(got) != 4 {
		t.Errorf("Top(%v, 0) = %v, want all", w, got)
	}
}
