package repomap

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/policy"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/repomap-dev/repomap/rank"
)

// graphTree is lookupTree with a test, a document and a package of
// synthetic files that call each other.
func graphTree() fstest.MapFS {
	tree := synthTree(12)
	maps.Copy(tree, lookupTree)
	tree["store/store_test.go"] = &fstest.MapFile{Data: []byte("package store\n\nfunc TestGet(t *testing.T) { (&Store{}).Get(\"k\") }\n")}
	tree["docs/guide.md"] = &fstest.MapFile{Data: []byte("# Guide\n\nCall `Start`, then `Handle`.\n\n## Start\n")}
	return tree
}

// pageRank runs PageRank on the edges of g, summed per pair of files,
// with the files' teleport, as networkx does, to a tight tolerance.
func pageRank(g *Graph) map[string]float64 {
	n := len(g.Files)
	node := make(map[string]int, n)
	for i, f := range g.Files {
		node[f.Path] = i
	}
	type edge struct {
		to int
		w  float64
	}
	out := make([][]edge, n)
	outW := make([]float64, n)
	for e := range g.Edges() {
		i := node[e.From]
		out[i] = append(out[i], edge{node[e.To], e.Weight})
		outW[i] += e.Weight
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	for range 1000 {
		next := make([]float64, n)
		dangling := 0.0
		for i := range n {
			if outW[i] == 0 {
				dangling += x[i]
			}
			for _, e := range out[i] {
				next[e.to] += x[i] * e.w / outW[i]
			}
		}
		diff := 0.0
		for i, f := range g.Files {
			next[i] = 0.85*(next[i]+dangling*f.Teleport) + 0.15*f.Teleport
			diff += math.Abs(next[i] - x[i])
		}
		x = next
		if diff < 1e-14 {
			break
		}
	}
	ranks := make(map[string]float64, n)
	for i, f := range g.Files {
		ranks[f.Path] = x[i]
	}
	return ranks
}

// TestGraphIsTheRanking checks that the graph is the one the map is
// ranked on, for requests of every kind: its files are the ranking's,
// with the ranks the map reports, and PageRank on its edges gives them.
func TestGraphIsTheRanking(t *testing.T) {
	ctx := context.Background()
	m, err := NewFS(graphTree(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, req := range []Request{
		{},
		{Focus: []string{"server/server.go"}},
		{Mentions: []string{"Get", "cmd/tool.go"}},
		{Text: "Handle fails when the store has no `Get` value"},
	} {
		g, err := m.Graph(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		got := make(map[string]float64, len(g.Files))
		for _, f := range g.Files {
			got[f.Path] = f.Rank
		}
		m.mu.Lock()
		snap, err := m.snapshot(ctx)
		m.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		want := rankedOf(t, snap, *m.opts.Policy, policy.Query{Focus: cleanPaths(req.Focus), Mentions: req.Mentions, Text: req.Text}).ranks
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("Graph(%+v) ranks differ from the map's (-map +graph):\n%s", req, diff)
		}
		res, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if f.Rank != got[f.Path] {
				t.Errorf("Graph(%+v) ranks %s %v, the map %v", req, f.Path, got[f.Path], f.Rank)
			}
		}
		// Rank stops once a step moves less than N·1e-6 in all, which
		// leaves it at most 6·N·1e-6 from the limit.
		exact, l1 := pageRank(g), 0.0
		for p, r := range got {
			l1 += math.Abs(exact[p] - r)
		}
		if bound := 6 * float64(len(got)) * 1e-6; len(exact) != len(got) || l1 > bound {
			t.Errorf("Graph(%+v): PageRank on the edges is %v from the ranks (L1), want at most %v", req, l1, bound)
		}
		if !slices.IsSortedFunc(g.Files, func(a, b GraphFile) int { return cmp.Compare(b.Rank, a.Rank) }) {
			t.Errorf("Graph(%+v) files are not best ranked first", req)
		}
	}
}

func TestGraphEdges(t *testing.T) {
	m, err := NewFS(graphTree(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	g, err := m.Graph(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	var edges []GraphEdge
	for e := range g.Edges() {
		edges = append(edges, e)
	}
	compare := func(a, b GraphEdge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Name, b.Name))
	}
	if !slices.IsSortedFunc(edges, compare) {
		t.Errorf("edges are not by from, to and name")
	}
	if len(slices.CompactFunc(slices.Clone(edges), func(a, b GraphEdge) bool { return compare(a, b) == 0 })) != len(edges) {
		t.Errorf("an (edge, name) comes twice")
	}
	has := func(from, to, name string) *GraphEdge {
		i := slices.IndexFunc(edges, func(e GraphEdge) bool { return e.From == from && e.To == to && e.Name == name })
		if i < 0 {
			t.Errorf("no edge %s → %s for %s", from, to, name)
			return &GraphEdge{}
		}
		return &edges[i]
	}
	// A use, its edge back at half its weight, and a definition nothing
	// uses.
	use := has("server/server.go", "store/store.go", "Get")
	back := has("store/store.go", "server/server.go", "Get")
	if use.Back != 0 || back.Back != back.Weight || math.Abs(back.Weight-policy.Default().Reverse*use.Weight) > 1e-12 {
		t.Errorf("use %+v, back %+v: want the back at %v of the use", use, back, policy.Default().Reverse)
	}
	if e := has("cmd/main.go", "cmd/main.go", "main"); e.Weight != 0.1 || e.Back != 0 {
		t.Errorf("the unused main: %+v, want a self-edge of 0.1", e)
	}
	has("docs/guide.md", "docs/guide.md", "#Guide")
	roles := make(map[string]Role)
	for _, f := range g.Files {
		roles[f.Path] = f.Role
	}
	if roles["store/store_test.go"] != RoleTest || roles["store/store.go"] != RoleSource || roles["docs/guide.md"] != RoleDocs {
		t.Errorf("roles %v", roles)
	}

	// The edges stop when the loop does.
	n := 0
	for range g.Edges() {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("the loop over the edges ran %d times, want 2", n)
	}

	if _, err := m.Graph(context.Background(), Request{Focus: []string{"nope.go"}}); !errors.Is(err, ErrNotInMap) {
		t.Errorf("Graph with a focus outside the map: %v, want ErrNotInMap", err)
	}
}

// TestGraphKeys checks that edges for keys that carry a qualifier are
// shown by their name, one edge for each name of a pair of files with
// the weights of its keys summed.
func TestGraphKeys(t *testing.T) {
	in := rank.Input{Reverse: 0.5, Files: []rank.File{
		{Path: "a.go", Refs: []string{"Close\x00b", "Close\x00c", "Open"}},
		{Path: "b.go", Defs: []string{"Close\x00b", "Close\x00c", "Open"}},
	}}
	g := &Graph{links: rank.NewFileGraph(in)}
	var got []GraphEdge
	for e := range g.Edges() {
		got = append(got, e)
	}
	want := []GraphEdge{
		{From: "a.go", To: "b.go", Name: "Close", Weight: 2},
		{From: "a.go", To: "b.go", Name: "Open", Weight: 1},
		{From: "b.go", To: "a.go", Name: "Close", Weight: 1, Back: 1},
		{From: "b.go", To: "a.go", Name: "Open", Weight: 0.5, Back: 0.5},
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("edges of qualified keys (-want +got):\n%s", diff)
	}
}

func TestDisplayName(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"Close", "Close"},
		{"Close\x00net/http", "Close"},
		{"#Install", "#Install"},
		{"\x00pkg", ""},
		{"", ""},
	} {
		if got := displayName(tc.key); got != tc.want {
			t.Errorf("displayName(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
