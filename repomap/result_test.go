package repomap

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// rankedTree has a method that three files call, one that none does, a
// function, a Go method, and a file without definitions.
var rankedTree = fstest.MapFS{
	"shapes/geometry.py": {Data: []byte(`class Point:
    def distance(self, other):
        return hypot(self.x - other.x, self.y - other.y)

    def scale(self, k):
        return self


def hypot(a, b):
    return (a * a + b * b) ** 0.5
`)},
	"app/draw.py":   {Data: []byte("from shapes.geometry import Point\n\n\ndef draw(p, q):\n    return p.distance(q)\n")},
	"app/plot.py":   {Data: []byte("from shapes.geometry import Point\n\n\ndef plot(p, q):\n    return p.distance(q) + p.distance(p)\n")},
	"app/report.py": {Data: []byte("from shapes.geometry import Point\n\n\ndef report(p, q):\n    print(p.distance(q))\n")},
	"geo/geo.go":    {Data: []byte("package geo\n\ntype Vec struct{ X, Y float64 }\n\nfunc (v Vec) Len() float64 { return v.X*v.X + v.Y*v.Y }\n")},
	"main.go":       {Data: []byte("package main\n\nimport \"example.com/geo\"\n\nfunc main() { println(geo.Vec{}.Len()) }\n")},
	"notes.txt":     {Data: []byte("notes\n")},
}

func TestRankedResult(t *testing.T) {
	m, err := NewFS(rankedTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, req := range []Request{{MaxTokens: 60}, {MaxTokens: 2000}, {MaxTokens: 60, Text: "the distance between two points is wrong"}} {
		r, err := m.Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		checkRanked(t, req, r)
		if f, d := r.RankedFiles[0], r.RankedDefs[0]; f.Path != d.Path || f.Score != d.Score || f.Score <= 0 {
			t.Errorf("%+v: RankedFiles[0] = %+v, want the file of RankedDefs[0], %+v, with its score", req, f, d)
		}
		at := func(name string) int {
			return slices.IndexFunc(r.RankedDefs, func(d RankedDef) bool { return d.Name == name })
		}
		// The method three files call ranks above the one none does.
		if i, j := at("distance"), at("scale"); i < 0 || j >= 0 && (r.RankedDefs[j].Score >= r.RankedDefs[i].Score || j < i) {
			t.Errorf("%+v: Point.scale, called by none, ranks at %d with %g, Point.distance at %d with %g", req, j, r.RankedDefs[j].Score, i, r.RankedDefs[i].Score)
		}
		// Scores fall along the list: no name is defined twice and no
		// file is in a later tier.
		for i := 1; i < len(r.RankedDefs); i++ {
			if a, b := r.RankedDefs[i-1], r.RankedDefs[i]; b.Score > a.Score {
				t.Errorf("%+v: RankedDefs[%d] %s scores %g, more than %s before it, %g", req, i, b.Name, b.Score, a.Name, a.Score)
			}
		}
		if req.MaxTokens == 2000 {
			quals := make(map[string]string)
			for _, d := range r.RankedDefs {
				quals[d.Name] = d.Qualifier
			}
			// A Python method's class; a Go method's receiver, a field's
			// struct and type.
			want := map[string]string{"Point": "", "distance": "Point", "scale": "Point", "hypot": "", "Vec": "", "Len": "v Vec",
				"X": "Vec float64", "Y": "Vec float64", "main": "", "draw": "", "plot": "", "report": ""}
			if !maps.Equal(quals, want) {
				t.Errorf("the qualifiers of RankedDefs are %v, want %v", quals, want)
			}
			if last := r.RankedFiles[len(r.RankedFiles)-1]; last.Path != "notes.txt" {
				t.Errorf("the last ranked file is %+v, want notes.txt, by name alone", last)
			}
		}
	}
}

// checkRanked checks what the ranked files and definitions of r, a map
// for req, have to say of each other and of the map.
func checkRanked(t *testing.T, req Request, r *Result) {
	t.Helper()
	if len(r.RankedFiles) == 0 || len(r.RankedDefs) == 0 {
		t.Fatalf("%+v: %d ranked files, %d ranked definitions", req, len(r.RankedFiles), len(r.RankedDefs))
	}
	var paths []string
	first := make(map[string]RankedDef)
	for _, d := range r.RankedDefs {
		if _, ok := first[d.Path]; !ok {
			first[d.Path] = d
		}
	}
	for _, f := range r.RankedFiles {
		paths = append(paths, f.Path)
		if d, ok := first[f.Path]; ok && d.Score != f.Score {
			t.Errorf("%+v: ranked file %s scores %g, its first definition %s %g", req, f.Path, f.Score, d.Name, d.Score)
		}
	}
	if len(paths) > len(r.Ranked) || !slices.Equal(paths, r.Ranked[:len(paths)]) {
		t.Errorf("%+v: RankedFiles %v are not the start of Ranked %v", req, paths, r.Ranked)
	}
	for p := range first {
		if !slices.Contains(paths, p) {
			t.Errorf("%+v: ranked definitions in %s, not a ranked file", req, p)
		}
	}
	// The definitions the map shows are the first ones, and say the same.
	type def struct {
		path string
		Def
	}
	var shown, head []def
	for _, f := range r.Files {
		for _, d := range f.Defs {
			shown = append(shown, def{f.Path, d})
		}
	}
	for _, d := range r.RankedDefs[:min(len(shown), len(r.RankedDefs))] {
		head = append(head, def{d.Path, Def{Name: d.Name, Qualifier: d.Qualifier, Kind: d.Kind, Line: d.Line}})
	}
	byPlace := func(a, b def) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.Line - b.Line
	}
	slices.SortFunc(shown, byPlace)
	slices.SortFunc(head, byPlace)
	if !slices.Equal(shown, head) {
		t.Errorf("%+v: the map shows %v, the first ranked definitions are %v", req, shown, head)
	}
}

// TestRankedBound: a Result lists the items its map shows and the next
// RankedMore, one definition each here.
func TestRankedBound(t *testing.T) {
	r := build(t, synthTree(60), nil, Request{MaxTokens: 300})
	pub := r.public
	if r.shown == 0 || r.shown+RankedMore >= r.ranked.list.Len() {
		t.Fatalf("the map shows %d items of %d: the test needs more after them", r.shown, r.ranked.list.Len())
	}
	if len(pub.RankedDefs) != r.shown+RankedMore {
		t.Errorf("%d ranked definitions, want the %d items shown and %d more", len(pub.RankedDefs), r.shown, RankedMore)
	}
	checkRanked(t, Request{MaxTokens: 300}, pub)
}

// TestRankedRelated: a related map ranks the files by the weight of
// their links, and lists no use of a definition as a definition.
func TestRankedRelated(t *testing.T) {
	m, err := NewFS(rankedTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.Related(context.Background(), "shapes/geometry.py", Request{MaxTokens: 2000})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.RankedDefs {
		if d.Kind == useKind {
			t.Errorf("ranked definition %+v is a use", d)
		}
	}
	weight := make(map[string]float64)
	for _, f := range r.Files {
		weight[f.Path] = f.Rank
	}
	var paths []string
	for _, f := range r.RankedFiles {
		paths = append(paths, f.Path)
		if f.Score != weight[f.Path] {
			t.Errorf("related file %s scores %g, the weight of its links is %g", f.Path, f.Score, weight[f.Path])
		}
	}
	slices.Sort(paths)
	if want := []string{"app/draw.py", "app/plot.py", "app/report.py"}; !slices.Equal(paths, want) {
		t.Errorf("related files %v, want %v", paths, want)
	}
}
