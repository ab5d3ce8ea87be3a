package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

func TestGoldDefs(t *testing.T) {
	spans := map[string][]string{
		"a.py": {"Point.distance", "imports", "hypot", "docstring", "impl:3", "Variable:5", "Point.distance", "Outer.Inner.run", "Point"},
		"b.py": {"draw", "Shape.area_1", "Shape.area", "size_2"},
		"c.py": {"gone"}, // not a gold file of the task
	}
	got := goldDefs(spans, []string{"b.py", "a.py"})
	want := []goldDef{
		{Path: "b.py", Name: "draw"},
		{Path: "b.py", Name: "size_2"}, // no size beside it
		{Path: "b.py", Qual: "Shape", Name: "area"},
		{Path: "a.py", Name: "Point"},
		{Path: "a.py", Name: "hypot"},
		{Path: "a.py", Qual: "Outer.Inner", Name: "run"},
		{Path: "a.py", Qual: "Point", Name: "distance"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("goldDefs (-want +got):\n%s", diff)
	}
	if got := goldDefs(map[string][]string{"a.py": {"imports", "impl:1"}}, []string{"a.py"}); len(got) != 0 {
		t.Errorf("goldDefs of no definition = %v", got)
	}
}

func TestGoldDefMatches(t *testing.T) {
	method := goldDef{Path: "a.py", Qual: "Point", Name: "distance"}
	nested := goldDef{Path: "a.py", Qual: "Outer.Inner", Name: "run"}
	function := goldDef{Path: "a.py", Name: "hypot"}
	class := goldDef{Path: "a.py", Name: "Point"}
	for _, tc := range []struct {
		g                      goldDef
		path, name, qual, kind string
		want                   bool
	}{
		{method, "a.py", "distance", "Point", "method", true},
		{method, "a.py", "distance", "p Point", "method", true}, // a Go receiver
		{method, "a.py", "distance", "*Point", "method", true},
		{method, "a.py", "Point.distance", "", "method", true},
		{method, "b.py", "distance", "Point", "method", false},
		{method, "a.py", "distance", "Vector", "method", false},
		{method, "a.py", "distance", "", "function", false},
		{method, "a.py", "scale", "Point", "method", false},
		{nested, "a.py", "run", "Inner", "method", true},
		{nested, "a.py", "Outer.Inner.run", "", "method", true},
		{nested, "a.py", "run", "Outer", "method", false},
		{function, "a.py", "hypot", "", "function", true},
		{function, "a.py", "hypot", "Point", "method", false},
		{class, "a.py", "Point", "", "class", true},
		{class, "a.py", "Point", "Base", "class", true},
		{class, "a.py", "Point", "Shape", "method", false},
	} {
		if got := tc.g.matches(tc.path, tc.name, tc.qual, tc.kind); got != tc.want {
			t.Errorf("%+v matches %s %s %q %s = %v, want %v", tc.g, tc.path, tc.name, tc.qual, tc.kind, got, tc.want)
		}
	}
}

func TestDefLines(t *testing.T) {
	src := strings.Split(`import os

# The point.
# Two numbers.
class Point:
    def distance(
        self,
        other,
    ) -> float:
        # hypotenuse
        return hypot(self, other)

    def scale(self, k):
        return self
x = 1
func Area(w, h float64) float64 {
	return w * h
}
`, "\n")
	for _, tc := range []struct {
		at       int
		from, to int // lines[from:to]
	}{
		{4, 2, 14},   // the class: its comment, its methods
		{5, 5, 12},   // the signature's closing line does not end it
		{12, 12, 14}, // up to x = 1
		{15, 15, 19}, // a Go function, its closing brace, to the end
	} {
		if got, want := defLines(src, tc.at), src[tc.from:tc.to]; !slices.Equal(got, want) {
			t.Errorf("defLines at %d = %q, want %q", tc.at, got, want)
		}
	}
}

func TestRankMetrics(t *testing.T) {
	got := rankMetrics([]int{1, 3, 7, 0, 12})
	want := RankMetrics{Acc1: 0.2, Acc5: 0.4, Acc10: 0.6, MRR: (1 + 1.0/3 + 1.0/7 + 1.0/12) / 5}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("rankMetrics (-want +got):\n%s", diff)
	}
	if got := rankMetrics(nil); got != (RankMetrics{}) {
		t.Errorf("rankMetrics(nil) = %+v", got)
	}
}

// defsTree is the tree of the tasks of TestRunTasksDefs. Its definitions,
// each a BM25 document (qualifier, name, lines):
//
//	shapes/point.py  Point (class, line 0; lines 0-7, distance once)
//	                 distance (Point, 1; lines 1-3: distance twice)
//	                 scale (Point, 4; lines 4-7)
//	                 hypot (8; lines 8-9)
//	app/draw.py      draw (3; lines 3-4: draw twice, distance once)
var defsTree = map[string]string{
	"shapes/point.py": `class Point:
    def distance(self, other):
        return hypot(self.x - other.x, self.y - other.y)

    def scale(self, k):
        return Point(self.x * k, self.y * k)


def hypot(a, b):
    return (a * a + b * b) ** 0.5
`,
	"app/draw.py": `from shapes.point import Point


def draw(p, q):
    return p.distance(q)
`,
}

// TestRunTasksDefs runs hand-made task lines with gold spans and checks
// the definition figures.
//
// BM25 over the five definitions:
//
//	d-1 "distance is wrong": distance, Point and draw hold distance;
//	    distance holds it twice in a short document: first.
//	d-2 "draw the distance": draw (draw twice), distance and Point score;
//	    scale and hypot none, by path and line: hypot is 5th.
//	d-3 spans of no definition: no definition figures.
//
// At 1 token the maps show nothing; at 100,000 every definition.
func TestRunTasksDefs(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("Start", defsTree)
	var lines strings.Builder
	for _, l := range []struct{ id, text, spans string }{
		{"d-1", "distance is wrong", `{"shapes/point.py": ["Point.distance", "imports"]}`},
		{"d-2", "draw the distance", `{"shapes/point.py": ["hypot", "docstring"]}`},
		{"d-3", "draw the distance", `{"shapes/point.py": ["imports", "impl:2"]}`},
	} {
		fmt.Fprintf(&lines, `{"instance_id": %q, "repo": "o/s", "base_commit": %q, "problem_statement": %q, "gold_files": ["shapes/point.py"], "gold_spans": %s}`+"\n",
			l.id, base, l.text, l.spans)
	}
	tasks, err := ReadTasks(strings.NewReader(lines.String()))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Point.distance", "imports"}; !slices.Equal(tasks[0].GoldSpans["shapes/point.py"], want) {
		t.Fatalf("ReadTasks: gold spans %v, want %v", tasks[0].GoldSpans, want)
	}
	rep, err := RunTasks(context.Background(), TaskConfig{Tasks: tasks, Mirrors: map[string]string{"o/s": r.dir}, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 3 {
		t.Fatalf("%d tasks evaluated, want 3", len(rep.Tasks))
	}

	// The map's positions, from the ranked definitions of a map of the
	// same tree.
	fsys := fstest.MapFS{}
	for p, s := range defsTree {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	m, err := repomap.NewFS(fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	mapFirst := func(text, name, qual string) (int, int) {
		res, err := m.Build(context.Background(), repomap.Request{Text: text, MaxTokens: extremes[1]})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(res.RankedDefs, func(d repomap.RankedDef) bool {
			return d.Path == "shapes/point.py" && d.Name == name && d.Qualifier == qual
		})
		if i < 0 || len(res.RankedDefs) != 5 {
			t.Fatalf("%s of %s not among the ranked definitions %+v", name, qual, res.RankedDefs)
		}
		return i + 1, len(res.RankedDefs)
	}
	first1, listed := mapFirst("distance is wrong", "distance", "Point")
	first2, _ := mapFirst("draw the distance", "hypot", "")
	want := map[string]*DefOutcome{
		"d-1": {Gold: 1, Shown: []int{0, 1}, InFile: []int{0, 1}, First: first1, Listed: listed, BM25First: 1, BM25Docs: 5},
		"d-2": {Gold: 1, Shown: []int{0, 1}, InFile: []int{0, 1}, First: first2, Listed: listed, BM25First: 5, BM25Docs: 5},
		"d-3": nil,
	}
	for _, tr := range rep.Tasks {
		if diff := cmp.Diff(want[tr.InstanceID], tr.Results[0].Defs); diff != "" {
			t.Errorf("%s: Defs (-want +got):\n%s", tr.InstanceID, diff)
		}
	}

	v := rep.Variants[0]
	wantDef := Ranking{Tasks: 2, Map: rankMetrics([]int{first1, first2}), BM25: RankMetrics{Acc1: 0.5, Acc5: 1, Acc10: 1, MRR: 0.6}}
	if diff := cmp.Diff(wantDef, v.DefRank, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("DefRank (-want +got):\n%s", diff)
	}
	var files, bm25Files []int
	for _, tr := range rep.Tasks {
		files, bm25Files = append(files, tr.Results[0].Map.First), append(bm25Files, tr.Results[0].BM25.First)
	}
	wantFile := Ranking{Tasks: 3, Map: rankMetrics(files), BM25: rankMetrics(bm25Files)}
	if v.GoldDefs != 2 || v.FileRank != wantFile || slices.Contains(files, 0) {
		t.Errorf("GoldDefs %d, FileRank %+v; want 2, %+v from the positions %v and %v", v.GoldDefs, v.FileRank, wantFile, files, bm25Files)
	}
	if got := []DefMetrics{v.Rows[0].Defs, v.Rows[1].Defs}; !slices.Equal(got, []DefMetrics{{}, {Shown: 1, InFile: 1}}) {
		t.Errorf("the rows' Defs are %+v, want none shown at 1 token and all at 100,000", got)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"gold definition: bm25 over definitions      2  0.500  1.000   1.000  0.600\n",
		"gold definitions: 2 in 2 tasks",
		"  100000  1.000       1.000\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("WriteText: no %q in\n%s", want, text.String())
		}
	}
}

// TestGoldSites checks that a definition nested in a gold function or
// method finds it, and that nothing else does: not a method of a gold
// class, not a sibling, not the definition in another file.
func TestGoldSites(t *testing.T) {
	src := `class Checker:
    def __call__(self, f):
        def wrapper(*args):
            class Local:
                pass
            return f(*args)
        return wrapper

    def other(self):
        def wrapper():
            pass


def plain():
    def helper():
        pass
`
	call := goldDef{Path: "a.py", Qual: "Checker", Name: "__call__"}
	class := goldDef{Path: "a.py", Name: "Checker"}
	plain := goldDef{Path: "a.py", Name: "plain"}
	gold := []goldDef{call, class, plain}
	p := tags.NewParser(nil)
	defer p.Close()
	s := &goldSites{outlines: map[string]*tags.Outline{}, rows: map[goldDef][]int{}}
	s.add(context.Background(), p, "a.py", []byte(src), gold)
	for _, tc := range []struct {
		g    goldDef
		path string
		line int // 1-based
		want bool
	}{
		{call, "a.py", 3, true},  // wrapper in __call__
		{call, "a.py", 4, true},  // a class in it
		{call, "a.py", 2, false}, // itself: matches finds it, not encloses
		{call, "a.py", 10, false},
		{call, "a.py", 9, false},
		{class, "a.py", 2, false}, // a gold class is not found by its methods
		{plain, "a.py", 15, true},
		{plain, "b.py", 15, false},
	} {
		if got := tc.g.Path == tc.path && s.encloses(tc.g, tc.line-1); got != tc.want {
			t.Errorf("%+v encloses %s:%d = %v, want %v", tc.g, tc.path, tc.line, got, tc.want)
		}
	}
	if !s.finds(gold, "a.py", "wrapper", "", "function", 3) || s.finds(gold, "a.py", "wrapper", "", "function", 10) {
		t.Error("finds: the wrapper in __call__ finds it, the one in other does not")
	}
	if !s.finds(gold, "a.py", "__call__", "Checker", "method", 2) || (*goldSites)(nil).finds(gold, "a.py", "wrapper", "", "function", 3) {
		t.Error("finds: a gold definition finds itself; without sites nothing nested does")
	}
}
