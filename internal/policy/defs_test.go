package policy

import (
	"context"
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
