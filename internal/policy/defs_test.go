package policy

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/index/indextest"
)

// TestDefRelevance: within a file, the definition whose name holds the
// request's words scores first, one whose body calls what the request
// names comes next, and a definition the request names as code scores
// as the best even when its name's words are not the request's.
func TestDefRelevance(t *testing.T) {
	tree := fstest.MapFS{
		"geometry/point.py": {Data: []byte(`class Point:
    def __init__(self, *coords):
        self.coords = coords

    def midpoint(self, p):
        return Point(*[(a + b) / 2 for a, b in zip(self.coords, p.coords)])

    def distance(self, p):
        return sqrt(sum((a - b) ** 2 for a, b in zip(self.coords, p.coords)))

    def taxicab(self, p):
        return manhattan(self, p)

    def scale(self, x):
        return Point(*[a * x for a in self.coords])
`)},
		"geometry/line.py": {Data: []byte("class Line:\n    def length(self):\n        return 1\n")},
		"util.py":          {Data: []byte("def manhattan(p, q):\n    return 0\n")},
	}
	snap := indextest.Snapshot(t, tree)
	ctx := context.Background()
	c := Default().Rel.Defs
	text := "The distance between points ignores the third dimension, which zip drops"
	_, r := relevanceIDF(ctx, snap, text, Default().Rel.Text)
	rel, _ := defRelevance(ctx, snap, []string{"geometry/point.py"}, r, directNames(text), c)
	got := rel["geometry/point.py"]
	if got["distance"] != 1 {
		t.Errorf("distance scores %g, want 1, the best (all: %v)", got["distance"], got)
	}
	for _, name := range []string{"midpoint", "scale", "taxicab", "__init__"} {
		if got[name] >= got["distance"] {
			t.Errorf("%s scores %g, not below distance's %g", name, got[name], got["distance"])
		}
	}
	if got["midpoint"] <= got["scale"] {
		t.Errorf("midpoint, whose body calls zip, scores %g, not above scale's %g", got["midpoint"], got["scale"])
	}
	if len(rel) != 1 {
		t.Errorf("scored the definitions of %d files, want those of point.py alone: %v", len(rel), rel)
	}

	text = "The distance is wrong: `taxicab()` calls manhattan."
	_, r = relevanceIDF(ctx, snap, text, Default().Rel.Text)
	rel, _ = defRelevance(ctx, snap, []string{"geometry/point.py"}, r, directNames(text), c)
	got = rel["geometry/point.py"]
	if got["taxicab"] != 1 || got["taxicab"] <= got["distance"] {
		t.Errorf("taxicab, written as code, scores %g (distance %g), want 1, the best", got["taxicab"], got["distance"])
	}
}

// TestDefRelevanceQualified: a request that writes `Class.method` names
// that class's method, with Qualified, above the method of that name of
// another class, which it names as much without (the qualifier's words
// left out here, so that they do not tell the two apart).
func TestDefRelevanceQualified(t *testing.T) {
	tree := fstest.MapFS{
		"circle.py": {Data: []byte("class Circle:\n    def area(self):\n        return 3\n")},
		"square.py": {Data: []byte("class Square:\n    def area(self):\n        return 4\n")},
	}
	score := defScorer(t, tree, "Square.area() returns the wrong value", "circle.py", "square.py")
	c := Default().Rel.Defs
	c.Qual = 0
	for _, qualified := range []float64{0, 1} {
		c.Qualified = qualified
		rel, _ := score(c)
		circle, square := rel["circle.py"]["area"], rel["square.py"]["area"]
		if qualified == 0 && (circle != square || circle == 0) || qualified > 0 && square <= circle {
			t.Errorf("Qualified %g: Circle.area scores %g, Square.area %g", qualified, circle, square)
		}
	}
}

// defScorer returns what scores, with the settings it is given, the
// definitions of the files ps of tree against text (defRelevance).
func defScorer(t *testing.T, tree fstest.MapFS, text string, ps ...string) func(DefRel) (map[string]map[string]float64, map[string]map[string][]int) {
	snap := indextest.Snapshot(t, tree)
	ctx := context.Background()
	_, r := relevanceIDF(ctx, snap, text, Default().Rel.Text)
	return func(c DefRel) (map[string]map[string]float64, map[string]map[string][]int) {
		return defRelevance(ctx, snap, ps, r, directNames(text), c)
	}
}

func TestDirectNames(t *testing.T) {
	text := "Calling `Point.distance` or point.taxicab(q) fails in\n  File \"x.py\", line 3, in midpoint\nwhile scale stays right."
	got := directNames(text)
	for _, w := range []string{"Point", "distance", "Point.distance", "taxicab", "midpoint"} {
		if !got[w] {
			t.Errorf("directNames lacks %q: %v", w, got)
		}
	}
	for _, w := range []string{"scale", "while", "Calling"} {
		if got[w] {
			t.Errorf("directNames has %q, which the text writes as prose: %v", w, got)
		}
	}
}

// TestRelevantLeads: with no rounds each file leads with its best by
// rank; with two, each file's most relevant definition in the first
// round, its next in the second, and a file with none lifted leads with
// its best by rank in the first round only; the first file may take
// both its rounds before the others take theirs.
func TestRelevantLeads(t *testing.T) {
	files := []string{"a.py", "b.py", "c.py"}
	lift := map[string]map[string]float64{
		"a.py": {"low": 0.1, "high": 0.9, "mid": 0.5},
		"c.py": {"z": 0.3, "y": 0.3},
	}
	got := relevantLeads(files, lift, 0, 0)
	want := []Lead{{Path: "a.py"}, {Path: "b.py"}, {Path: "c.py"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("no rounds: %v, want %v", got, want)
	}
	got = relevantLeads(files, lift, 2, 0)
	want = []Lead{{Path: "a.py", Name: "high"}, {Path: "b.py"}, {Path: "c.py", Name: "y"}, {Path: "a.py", Name: "mid"}, {Path: "c.py", Name: "z"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("two rounds: %v, want %v", got, want)
	}
	got = relevantLeads(files, lift, 2, 1)
	want = []Lead{{Path: "a.py", Name: "high"}, {Path: "a.py", Name: "mid"}, {Path: "b.py"}, {Path: "c.py", Name: "y"}, {Path: "c.py", Name: "z"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("two rounds, the first file's first: %v, want %v", got, want)
	}
	if got = relevantLeads(files, lift, 2, 9); !reflect.DeepEqual(got, relevantLeads(files, lift, 2, 0)) {
		t.Errorf("two rounds, more files first than there are: %v, want them as with none", got)
	}
}

// TestDefText: with a weight for the text field, the definition whose
// own lines hold the words of an error message the request quotes
// scores first, though no name of it or of its body's references holds
// them; without it the message points at no definition.
func TestDefText(t *testing.T) {
	tree := fstest.MapFS{
		"nanops.py": {Data: []byte(`def _replace_nan(a, val):
    mask = isnull(a)
    return where_method(val, mask, a), mask


def _maybe_null_out(result, axis, mask, min_count=1):
    if hasattr(axis, "__len__"):
        raise ValueError("min_count is not available for reduction with more than one dimensions.")
    return result


def nansum(a, axis=None, min_count=None):
    a, mask = _replace_nan(a, 0)
    return sum_where(a, axis)
`)},
		"other.py": {Data: []byte("def reduction(x):\n    return x\n")},
	}
	score := defScorer(t, tree, "sum: min_count is not available for reduction with more than one dimensions", "nanops.py")
	c := Default().Rel.Defs
	c.Text = 1
	rel, _ := score(c)
	got := rel["nanops.py"]
	if got["_maybe_null_out"] != 1 || got["nansum"] >= 1 {
		t.Errorf("with the text field: %v, want _maybe_null_out the best", got)
	}
	c.Text = 0
	rel, _ = score(c)
	got = rel["nanops.py"]
	if got["_maybe_null_out"] > got["nansum"] {
		t.Errorf("without the text field: %v; the test needs the message to be what finds _maybe_null_out", got)
	}
}

// TestInterestLines: the lines of interest of a definition are those of
// its body whose words of the request weigh the most, in order, at most
// n, each at least half the heaviest's weight; the definition's own line
// and the lines of the next are not among them.
func TestInterestLines(t *testing.T) {
	tree := fstest.MapFS{
		"nanops.py": {Data: []byte(`def _maybe_null_out(result, axis, mask, min_count=1):
    """Null out the result where there are too few values."""
    if hasattr(axis, "__len__"):
        raise ValueError("min_count is not available for reduction with more than one dimensions.")
    null_mask = mask.shape[axis] - mask.sum(axis) - min_count
    return result


def nansum(a, axis=None, min_count=None):
    raise ValueError("min_count is not available for reduction with more than one dimensions.")
`)},
	}
	score := defScorer(t, tree, "sum: min_count is not available for reduction with more than one dimensions; use np.take(a.shape, axis) for mask.shape[axis]", "nanops.py")
	c := Default().Rel.Defs
	c.Text, c.Lines = 1, 2
	_, lines := score(c)
	if got, want := lines["nanops.py"]["_maybe_null_out"], []int{3, 4}; !slices.Equal(got, want) {
		t.Errorf("lines of interest of _maybe_null_out: %v, want %v (the raise, then the mask's shape)", got, want)
	}
	c.Lines = 1
	_, lines = score(c)
	if got := lines["nanops.py"]["_maybe_null_out"]; len(got) != 1 {
		t.Errorf("with one line at most: %v", got)
	}
	c.Lines = 0
	if _, lines = score(c); lines != nil {
		t.Errorf("with no lines asked for: %v", lines)
	}
}

// TestLeading: the comments, decorators and attributes right above a
// definition lead it, at its indentation; a comment at the end of the
// body above, further in, or one a blank line away, does not.
func TestLeading(t *testing.T) {
	tests := []struct {
		name string
		src  string
		def  int // 0-based
		want int
	}{
		{"go doc comment", "func a() {\n}\n// B does.\n// More.\nfunc B() {}\n", 4, 2},
		{"python decorators", "def a():\n    pass\n@property\n@cache  # why\ndef b(self):\n", 4, 2},
		{"python body comment", "def a():\n    x = 1\n    # last words of a\ndef b():\n", 3, 3},
		{"method's comment and decorator", "class C:\n    def a(self):\n        pass\n    # b's note\n    @staticmethod\n    def b():\n", 5, 3},
		{"jsdoc", "}\n/**\n * Does b.\n * @param x\n */\nfunction b(x) {}\n", 5, 1},
		{"rust attribute", "}\n/// Docs.\n#[inline]\nfn b() {}\n", 3, 1},
		{"a blank line between", "x = 1\n# about the module\n\ndef b():\n", 3, 3},
		{"first line", "def b():\n", 0, 0},
		{"beyond the source", "def b():\n", 5, 5},
	}
	for _, tc := range tests {
		lines := strings.Split(strings.TrimSuffix(tc.src, "\n"), "\n")
		if got := leading(lines, tc.def); got != tc.want {
			t.Errorf("%s: leading(line %d) = %d, want %d", tc.name, tc.def, got, tc.want)
		}
	}
}

// TestDocCommentIsItsDefinitions: a Go doc comment's words count toward
// the definition it documents, and its lines are among that
// definition's lines of interest, not those of the definition above.
func TestDocCommentIsItsDefinitions(t *testing.T) {
	tree := fstest.MapFS{
		"transport.go": {Data: []byte(`package mcp

func writeLine(w io.Writer, line []byte) error {
	_, err := w.Write(line)
	return err
}

// checkBatch refuses an empty batch: a line that is a JSON array
// with no message in it.
func checkBatch(line []byte) error {
	return nil
}
`)},
		"other.go": {Data: []byte("package mcp\n\nfunc other() {}\n")},
	}
	rel, lines := defScorer(t, tree, "an empty batch array exits the server", "transport.go")(Default().Rel.Defs)
	if got := rel["transport.go"]; got["checkBatch"] != 1 || got["writeLine"] != 0 {
		t.Errorf("relevance %v, want checkBatch the best and writeLine none", got)
	}
	if got := lines["transport.go"]; len(got["writeLine"]) > 0 || !slices.Contains(got["checkBatch"], 7) {
		t.Errorf("lines of interest %v, want the doc comment's first line (7 from 0) under checkBatch alone", got)
	}
}
