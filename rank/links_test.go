package rank

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// linkInputs are inputs that exercise every weight of the graph: focus,
// mentions, Personal, reverse edges, replaced weights, keys that carry a
// qualifier, files sharing a path, and a tree with no reference at all.
func linkInputs() map[string]Input {
	ins := map[string]Input{}
	ins["fixture"] = fixture()
	rev := fixture()
	rev.Reverse = 0.5
	ins["fixture reverse"] = rev
	foc := fixture()
	foc.Focus = []string{"server/server.go"}
	foc.Reverse = 0.5
	foc.MentionedIdents = []string{"Logger", "config"}
	foc.MentionedFiles = []string{"db/store.go"}
	foc.Personal = map[string]float64{"util/strings.go": 2, "README.md": 3, "nowhere": 1}
	ins["fixture focus mentions personal reverse"] = foc
	w := fixture()
	w.Weights = Weights{LongIdent: 1, CommonIdent: 0.5, Unreferenced: 0.3}
	w.Reverse = 2
	ins["fixture weights"] = w
	ins["keys"] = Input{Reverse: 0.5, Files: []File{
		{Path: "a/a.go", Defs: []string{"Close\x00a", "Open\x00a"}, Refs: []string{"Close\x00b", "Open\x00a"}},
		{Path: "b/b.go", Defs: []string{"Close\x00b"}, Refs: []string{"Close\x00a"}, RefCounts: []int{4}},
		{Path: "b/b.go", Defs: []string{"Close\x00b", "Flush\x00b"}},
	}}
	ins["no references"] = Input{Reverse: 0.5, Files: []File{
		{Path: "x.go", Defs: []string{"X", "Y"}},
		{Path: "y.go", Defs: []string{"Y"}},
		{Path: "z.go"},
	}}
	ins["empty"] = Input{}
	for seed := range uint64(4) {
		in := synthetic(90, 250, 2500, seed+40)
		if seed%2 == 1 {
			in.Reverse = 0.5
		}
		if seed >= 2 {
			in.Focus = []string{in.Files[int(seed)].Path}
			in.MentionedIdents = []string{in.Files[5].Defs[0]}
			in.Personal = map[string]float64{in.Files[9].Path: 1.5}
		}
		ins["synthetic "+string(rune('0'+seed))] = in
	}
	return ins
}

// allLinks returns the links of g.
func allLinks(g *FileGraph) []Link {
	var out []Link
	for l := range g.Links() {
		out = append(out, l)
	}
	return out
}

// TestFileGraphRanks checks that the file graph is the one Rank ranks:
// PageRank on its links, with its teleport, gives Rank's file ranks, and
// without personalization gonum's PageRank gives them too.
func TestFileGraphRanks(t *testing.T) {
	for name, in := range linkInputs() {
		t.Run(name, func(t *testing.T) {
			g := NewFileGraph(in)
			res := Rank(in)
			files := g.Files()
			if diff := gocmp.Diff(slices.Sorted(maps.Keys(res.Files)), files, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("Files() are not the nodes of Rank (-want +got):\n%s", diff)
			}
			node := make(map[string]int, len(files))
			for i, p := range files {
				node[p] = i
			}
			var edges []Edge
			for _, l := range allLinks(g) {
				edges = append(edges, Edge{From: node[l.From], To: node[l.To], Weight: l.Weight})
			}
			tele := g.Teleport()
			if len(tele) > 0 {
				var sum float64
				for _, v := range tele {
					sum += v
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("Teleport() sums to %v, want 1", sum)
				}
			}
			pr := PageRank(NewGraph(len(files), edges), tele, nil)
			got := make(map[string]float64, len(files))
			for i, p := range files {
				got[p] = pr[i]
			}
			if diff := gocmp.Diff(res.Files, got, cmpopts.EquateApprox(0, 1e-12), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("PageRank on the links differs from Rank (-Rank +links):\n%s", diff)
			}
			personalized := len(in.Focus) > 0 || len(in.MentionedFiles) > 0 || len(in.MentionedIdents) > 0 || len(in.Personal) > 0
			if !personalized && len(files) > 0 {
				want := gonumPageRank(len(files), edges, 1e-12)
				var l1 float64
				for i, p := range files {
					l1 += math.Abs(want[i] - res.Files[p])
				}
				// Rank stops at an L1 step below N·1e-6; see
				// TestPageRankMatchesGonum for the bound.
				if bound := 6 * float64(len(files)) * 1e-6; l1 > bound {
					t.Errorf("gonum's PageRank on the links is %v from Rank's (L1), want <= %v", l1, bound)
				}
			}
		})
	}
}

// TestFileGraphScores checks the kinds of the links: crediting each
// link's share of its From file's rank as the package documentation says
// (a use or an unused self-edge to its definition, a reverse edge to the
// To file's definitions, evenly) gives Rank's scores.
func TestFileGraphScores(t *testing.T) {
	for name, in := range linkInputs() {
		t.Run(name, func(t *testing.T) {
			g := NewFileGraph(in)
			res := Rank(in)
			links := allLinks(g)
			out := map[string]float64{}
			for _, l := range links {
				out[l.From] += l.Weight
			}
			defs := map[string][]string{} // by path: the distinct names it defines
			for _, f := range in.Files {
				for _, d := range f.Defs {
					if d != "" && !slices.Contains(defs[f.Path], d) {
						defs[f.Path] = append(defs[f.Path], d)
					}
				}
			}
			want := map[[2]string]float64{}
			for _, l := range links {
				v := res.Files[l.From] * l.Weight / out[l.From]
				switch l.Kind {
				case LinkUse:
					want[[2]string{l.To, Ident(l.Ident)}] += v
				case LinkUnused:
					if l.From != l.To {
						t.Errorf("unused link %+v is not a self-edge", l)
					}
					want[[2]string{l.To, Ident(l.Ident)}] += v
				case LinkBack:
					// Rank's entries add up the keys of one identifier.
					for _, d := range defs[l.To] {
						want[[2]string{l.To, Ident(d)}] += v / float64(len(defs[l.To]))
					}
				default:
					t.Errorf("link %+v of kind %v", l, l.Kind)
				}
			}
			for k := range want {
				if slices.Contains(in.Focus, k[0]) {
					delete(want, k)
				}
			}
			got := map[[2]string]float64{}
			for _, e := range res.Entries {
				if e.Name != "" {
					got[[2]string{e.Path, e.Name}] = e.Score
				}
			}
			if diff := gocmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("scores from the links differ from Rank's (-links +Rank):\n%.3000s", diff)
			}
		})
	}
}

// TestFileGraphLinks checks the links against the edges the tests build
// Rank's explicit graph from, their order, and the reverse edges: one
// per use, backwards, at Reverse times its weight.
func TestFileGraphLinks(t *testing.T) {
	for name, in := range linkInputs() {
		t.Run(name, func(t *testing.T) {
			links := allLinks(NewFileGraph(in))
			if !slices.IsSortedFunc(links, compareLinks) {
				t.Errorf("links are not in order")
			}
			for i := 1; i < len(links); i++ {
				if compareLinks(links[i-1], links[i]) == 0 {
					t.Errorf("link %+v comes twice", links[i])
				}
			}
			var fwd []identEdge
			type key struct{ from, to, ident string }
			back := map[key]float64{}
			for _, l := range links {
				if !(l.Weight > 0) || math.IsInf(l.Weight, 0) {
					t.Errorf("link %+v has a weight that is not positive and finite", l)
				}
				switch l.Kind {
				case LinkBack:
					back[key{l.From, l.To, l.Ident}] = l.Weight
				default:
					fwd = append(fwd, identEdge{l.From, l.To, l.Ident, l.Weight})
				}
			}
			slices.SortStableFunc(fwd, func(a, b identEdge) int {
				return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Ident, b.Ident))
			})
			if diff := gocmp.Diff(identEdges(in), fwd, approx, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("use and unused links differ from the explicit graph's (-want +got):\n%.3000s", diff)
			}
			wantBack := map[key]float64{}
			if beta := prepare(in).beta(); beta > 0 {
				for _, l := range links {
					if l.Kind == LinkUse {
						wantBack[key{l.To, l.From, l.Ident}] = beta * l.Weight
					}
				}
			}
			if diff := gocmp.Diff(wantBack, back, approx, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("reverse links are not the uses backwards (-want +got):\n%.3000s", diff)
			}
		})
	}
}

// TestFileGraphStop checks that the links stop when the loop does.
func TestFileGraphStop(t *testing.T) {
	n := 0
	for range NewFileGraph(fixture()).Links() {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("the loop ran %d times, want 3", n)
	}
}

func compareLinks(a, b Link) int {
	return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Ident, b.Ident))
}

// TestSplit: the definers of a key that Input.Split names share its
// weight, the edges of other keys keep theirs, and a kept weight follows
// a change of the definers.
func TestSplit(t *testing.T) {
	in := Input{Files: []File{
		{Path: "use.go", Refs: []string{"Close\x00m", "Open\x00m"}},
		{Path: "a.go", Defs: []string{"Close\x00m", "Open\x00m"}},
		{Path: "b.go", Defs: []string{"Close\x00m", "Open\x00m"}},
		{Path: "c.go", Defs: []string{"Close\x00m", "Open\x00m"}},
	}, KeyWeight: func(string) float64 { return 1 }, KeyWeightName: "w",
		Split: func(key string) bool { return Ident(key) == "Close" }}
	ratio := func(x *Index) float64 {
		s := x.query(in)
		k1, _ := slices.BinarySearch(x.names, "Close\x00m")
		k2, _ := slices.BinarySearch(x.names, "Open\x00m")
		return s.mul[k1] / s.mul[k2]
	}
	for l := range NewFileGraph(in).Links() {
		if l.Kind == LinkUse && Ident(l.Ident) == "Close" && math.Abs(l.Weight-1.0/3) > 1e-12 {
			t.Errorf("edge %s -> %s Close weighs %g, want a third", l.From, l.To, l.Weight)
		}
	}
	x := NewIndex(in.Files)
	if r := ratio(x); math.Abs(r-1.0/3) > 1e-12 {
		t.Errorf("Close weighs %g of Open, want a third", r)
	}
	// One definer less: the other two share the weight.
	y, ok := x.Update([]File{{Path: "c.go"}}, nil)
	if !ok {
		t.Fatal("Update failed")
	}
	if r := ratio(y); math.Abs(r-0.5) > 1e-12 {
		t.Errorf("after an update, Close weighs %g of Open, want a half", r)
	}
}
