package policy

import (
	"context"
	"slices"
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
	rel := defRelevance(ctx, snap, []string{"geometry/point.py"}, r, directNames(text), c)
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
	got = defRelevance(ctx, snap, []string{"geometry/point.py"}, r, directNames(text), c)["geometry/point.py"]
	if got["taxicab"] != 1 || got["taxicab"] <= got["distance"] {
		t.Errorf("taxicab, written as code, scores %g (distance %g), want 1, the best", got["taxicab"], got["distance"])
	}
}

func TestDirectNames(t *testing.T) {
	text := "Calling `Point.distance` or point.taxicab(q) fails in\n  File \"x.py\", line 3, in midpoint\nwhile scale stays right."
	got := directNames(text)
	for _, w := range []string{"Point", "distance", "taxicab", "midpoint"} {
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
// its best by rank in the first round only.
func TestRelevantLeads(t *testing.T) {
	files := []string{"a.py", "b.py", "c.py"}
	lift := map[string]map[string]float64{
		"a.py": {"low": 0.1, "high": 0.9, "mid": 0.5},
		"c.py": {"z": 0.3, "y": 0.3},
	}
	got := relevantLeads(files, lift, 0)
	want := []Lead{{Path: "a.py"}, {Path: "b.py"}, {Path: "c.py"}}
	if !slices.Equal(got, want) {
		t.Errorf("no rounds: %v, want %v", got, want)
	}
	got = relevantLeads(files, lift, 2)
	want = []Lead{{"a.py", "high"}, {Path: "b.py"}, {"c.py", "y"}, {"a.py", "mid"}, {"c.py", "z"}}
	if !slices.Equal(got, want) {
		t.Errorf("two rounds: %v, want %v", got, want)
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
	snap := indextest.Snapshot(t, tree)
	ctx := context.Background()
	text := "sum: min_count is not available for reduction with more than one dimensions"
	_, r := relevanceIDF(ctx, snap, text, Default().Rel.Text)
	c := Default().Rel.Defs
	c.Text = 1
	got := defRelevance(ctx, snap, []string{"nanops.py"}, r, directNames(text), c)["nanops.py"]
	if got["_maybe_null_out"] != 1 || got["nansum"] >= 1 {
		t.Errorf("with the text field: %v, want _maybe_null_out the best", got)
	}
	c.Text = 0
	got = defRelevance(ctx, snap, []string{"nanops.py"}, r, directNames(text), c)["nanops.py"]
	if got["_maybe_null_out"] > got["nansum"] {
		t.Errorf("without the text field: %v; the test needs the message to be what finds _maybe_null_out", got)
	}
}
