package rank

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/graph/multi"
	"gonum.org/v1/gonum/graph/network"
	"gonum.org/v1/gonum/mat"
)

func TestNewGraph(t *testing.T) {
	edges := []Edge{
		{From: 0, To: 1, Weight: 1},
		{From: 2, To: 0, Weight: 0.5},
		{From: 0, To: 1, Weight: 2},  // parallel: summed with the first
		{From: 1, To: 1, Weight: 3},  // self-loop: kept
		{From: 0, To: 0, Weight: 4},  // self-loop: kept
		{From: 0, To: 2, Weight: 0},  // zero weight: ignored
		{From: 0, To: 2, Weight: -1}, // negative weight: ignored
		{From: 0, To: 2, Weight: math.NaN()},
		{From: 0, To: 2, Weight: math.Inf(1)},
		{From: 4, To: 0, Weight: 1},  // out of range
		{From: 0, To: -1, Weight: 1}, // out of range
		{From: 2, To: 0, Weight: 0.25},
	}
	g := NewGraph(4, edges)
	want := []Edge{
		{From: 0, To: 0, Weight: 4},
		{From: 0, To: 1, Weight: 3},
		{From: 1, To: 1, Weight: 3},
		{From: 2, To: 0, Weight: 0.75},
	}
	if diff := cmp.Diff(want, g.Edges()); diff != "" {
		t.Errorf("NewGraph(4, %v).Edges() mismatch (-want +got):\n%s", edges, diff)
	}
	if got := g.Len(); got != 4 {
		t.Errorf("NewGraph(4, ...).Len() = %d, want 4", got)
	}
	if got := g.NumEdges(); got != 4 {
		t.Errorf("NewGraph(4, ...).NumEdges() = %d, want 4", got)
	}
	for _, tc := range []struct {
		from, to int
		want     float64
	}{
		{0, 0, 4}, {0, 1, 3}, {0, 2, 0}, {1, 1, 3}, {2, 0, 0.75}, {3, 3, 0}, {-1, 0, 0}, {0, 9, 0},
	} {
		if got := g.Weight(tc.from, tc.to); got != tc.want {
			t.Errorf("Weight(%d, %d) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	for i, want := range []float64{7, 3, 0.75, 0} {
		if got := g.OutWeight(i); got != want {
			t.Errorf("OutWeight(%d) = %v, want %v", i, got, want)
		}
	}
	if got := g.OutWeight(4); got != 0 {
		t.Errorf("OutWeight(4) = %v, want 0", got)
	}
}

func TestNewGraphDegenerate(t *testing.T) {
	for _, n := range []int{-5, 0} {
		g := NewGraph(n, []Edge{{From: 0, To: 0, Weight: 1}})
		if g.Len() != 0 || g.NumEdges() != 0 || len(g.Edges()) != 0 {
			t.Errorf("NewGraph(%d, ...) = %d nodes, %d edges, want empty", n, g.Len(), g.NumEdges())
		}
		if got := PageRank(g, nil, nil); got == nil || len(got) != 0 {
			t.Errorf("PageRank(NewGraph(%d)) = %v, want empty non-nil", n, got)
		}
	}
	var nilGraph *Graph
	if nilGraph.Len() != 0 || nilGraph.NumEdges() != 0 || nilGraph.Weight(0, 0) != 0 || nilGraph.OutWeight(0) != 0 {
		t.Errorf("nil *Graph is not empty")
	}
	if got := PageRank(nil, []float64{1}, nil); got == nil || len(got) != 0 {
		t.Errorf("PageRank(nil) = %v, want empty non-nil", got)
	}
	var zero Graph
	if got := PageRank(&zero, nil, nil); len(got) != 0 {
		t.Errorf("PageRank(&Graph{}) = %v, want empty", got)
	}

	// Overflowing parallel edges are clamped; an overflowing out-weight
	// still normalizes like equal weights.
	big := NewGraph(3, []Edge{
		{From: 0, To: 1, Weight: math.MaxFloat64},
		{From: 0, To: 1, Weight: math.MaxFloat64},
		{From: 0, To: 2, Weight: math.MaxFloat64},
		{From: 1, To: 0, Weight: 1},
	})
	if got := big.Weight(0, 1); got != math.MaxFloat64 {
		t.Errorf("Weight(0, 1) = %v, want MaxFloat64", got)
	}
	small := NewGraph(3, []Edge{{From: 0, To: 1, Weight: 1}, {From: 0, To: 2, Weight: 1}, {From: 1, To: 0, Weight: 1}})
	if diff := cmp.Diff(PageRank(small, nil, nil), PageRank(big, nil, nil)); diff != "" {
		t.Errorf("PageRank with overflowing weights mismatch (-want +got):\n%s", diff)
	}
}

// gonumPageRank runs gonum's sparse PageRank on the same edges.
func gonumPageRank(n int, edges []Edge, tol float64) []float64 {
	gg := multi.NewWeightedDirectedGraph()
	for i := 0; i < n; i++ {
		gg.AddNode(multi.Node(i))
	}
	for _, e := range edges {
		gg.SetWeightedLine(gg.NewWeightedLine(multi.Node(e.From), multi.Node(e.To), e.Weight))
	}
	ranks := network.PageRankSparse(gg, 0.85, tol)
	out := make([]float64, n)
	for id, r := range ranks {
		out[id] = r
	}
	return out
}

func randomEdges(rng *rand.Rand, n, m int) []Edge {
	edges := make([]Edge, 0, m)
	for range m {
		from := rng.IntN(n)
		if from%7 == 3 {
			continue // leave some nodes dangling
		}
		to := rng.IntN(n)
		if rng.IntN(10) == 0 {
			to = from // self-loop
		}
		edges = append(edges, Edge{From: from, To: to, Weight: 0.1 + rng.Float64()*5})
		if rng.IntN(8) == 0 {
			// parallel edge
			edges = append(edges, Edge{From: from, To: to, Weight: rng.Float64()})
		}
	}
	return edges
}

func TestPageRankMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name  string
		n     int
		edges []Edge
	}{
		{"single node", 1, nil},
		{"self-loop only", 1, []Edge{{From: 0, To: 0, Weight: 2}}},
		{"no edges", 4, nil},
		{"cycle", 3, []Edge{{From: 0, To: 1, Weight: 1}, {From: 1, To: 2, Weight: 1}, {From: 2, To: 0, Weight: 1}}},
		{"self-loops parallel dangling", 5, []Edge{
			{From: 0, To: 1, Weight: 1},
			{From: 0, To: 1, Weight: 2}, // parallel
			{From: 0, To: 0, Weight: 0.5},
			{From: 1, To: 2, Weight: 1},
			{From: 1, To: 1, Weight: 3},
			{From: 2, To: 0, Weight: 1},
			{From: 2, To: 3, Weight: 4},
			{From: 2, To: 3, Weight: 0.25}, // parallel
			// 3 and 4 are dangling; 4 is isolated.
		}},
		{"star", 6, []Edge{
			{From: 1, To: 0, Weight: 1}, {From: 2, To: 0, Weight: 2}, {From: 3, To: 0, Weight: 3},
			{From: 4, To: 0, Weight: 4}, {From: 5, To: 0, Weight: 5}, {From: 0, To: 5, Weight: 1},
		}},
		{"random 300", 300, randomEdges(rng, 300, 1500)},
		{"random sparse 200", 200, randomEdges(rng, 200, 150)},
	}
	opts := &PageRankOptions{Tol: 1e-13, MaxIter: 100000}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := gonumPageRank(tc.n, tc.edges, 1e-12)
			got := PageRank(NewGraph(tc.n, tc.edges), nil, opts)
			if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-8)); diff != "" {
				t.Errorf("PageRank(%s) mismatch with gonum (-want +got):\n%s", tc.name, diff)
			}
			// With the default tolerance (stop once the L1 step is below
			// N·1e-6) the L1 error is bounded by step·α/(1−α) < 6·N·1e-6.
			got = PageRank(NewGraph(tc.n, tc.edges), nil, nil)
			var l1 float64
			for i := range want {
				l1 += math.Abs(want[i] - got[i])
			}
			if bound := 6 * float64(tc.n) * 1e-6; l1 > bound {
				t.Errorf("PageRank(%s) with default options: L1 distance to gonum = %v, want <= %v", tc.name, l1, bound)
			}
		})
	}
}

func TestPageRankTwoNodesByHand(t *testing.T) {
	// 0 ⇄ 1 with all personalization on 0:
	//   x0 = α·x1 + (1−α),  x1 = α·x0  ⇒  x0 = 1/(1+α), x1 = α/(1+α).
	g := NewGraph(2, []Edge{{From: 0, To: 1, Weight: 1}, {From: 1, To: 0, Weight: 3}})
	for _, alpha := range []float64{0.85, 0.5} {
		want := []float64{1 / (1 + alpha), alpha / (1 + alpha)}
		got := PageRank(g, []float64{7, 0}, &PageRankOptions{Alpha: alpha, Tol: 1e-14, MaxIter: 1000})
		if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
			t.Errorf("PageRank(2 nodes, alpha %v) mismatch (-want +got):\n%s", alpha, diff)
		}
	}
}

func TestPageRankOneIteration(t *testing.T) {
	// 0 → 1, 1 dangling, uniform p = (.5, .5), x0 = (.5, .5):
	//   x0·A = (0, .5), dangling mass D = .5
	//   x1 = .85·((0, .5) + .5·(.5, .5)) + .15·(.5, .5) = (.2875, .7125)
	g := NewGraph(2, []Edge{{From: 0, To: 1, Weight: 2}})
	want := []float64{0.2875, 0.7125}
	got := PageRank(g, nil, &PageRankOptions{MaxIter: 1})
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-15)); diff != "" {
		t.Errorf("PageRank(0→1, MaxIter 1) mismatch (-want +got):\n%s", diff)
	}
}

// denseSolve solves x = α·(x·A + (x·d)·p) + (1−α)·p directly, where A is
// the row-normalized weight matrix and d marks dangling nodes.
func denseSolve(t *testing.T, g *Graph, p []float64, alpha float64) []float64 {
	t.Helper()
	n := g.Len()
	var sum float64
	for _, v := range p {
		sum += v
	}
	// M[i][j]: transition probability from i to j.
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		if g.OutWeight(i) == 0 {
			for j := 0; j < n; j++ {
				m.Set(i, j, p[j]/sum)
			}
			continue
		}
		for j := 0; j < n; j++ {
			m.Set(i, j, g.Weight(i, j)/g.OutWeight(i))
		}
	}
	// (I − αM)ᵀ xᵀ = (1−α) pᵀ
	lhs := mat.NewDense(n, n, nil)
	rhs := mat.NewVecDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -alpha * m.At(j, i)
			if i == j {
				v++
			}
			lhs.Set(i, j, v)
		}
		rhs.SetVec(i, (1-alpha)*p[i]/sum)
	}
	var x mat.VecDense
	if err := x.SolveVec(lhs, rhs); err != nil {
		t.Fatalf("SolveVec: %v", err)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = x.AtVec(i)
	}
	return out
}

func TestPageRankPersonalizedDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tests := []struct {
		name  string
		n     int
		edges []Edge
		p     []float64
	}{
		{"chain with dangling end", 3, []Edge{{From: 0, To: 1, Weight: 1}, {From: 1, To: 2, Weight: 1}}, []float64{0, 1, 3}},
		{"self-loops and dangling", 4, []Edge{
			{From: 0, To: 0, Weight: 1}, {From: 0, To: 1, Weight: 2}, {From: 1, To: 2, Weight: 1},
			{From: 2, To: 0, Weight: 1}, {From: 2, To: 3, Weight: 1}, {From: 1, To: 1, Weight: 0.5},
		}, []float64{1, 0, 0, 1}},
		{"random 40", 40, randomEdges(rng, 40, 120), func() []float64 {
			p := make([]float64, 40)
			for i := range p {
				if rng.IntN(3) == 0 {
					p[i] = rng.Float64()
				}
			}
			p[0] = 1
			return p
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGraph(tc.n, tc.edges)
			want := denseSolve(t, g, tc.p, 0.85)
			got := PageRank(g, tc.p, &PageRankOptions{Tol: 1e-14, MaxIter: 10000})
			if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-10)); diff != "" {
				t.Errorf("PageRank(%s, %v) mismatch (-want +got):\n%s", tc.name, tc.p, diff)
			}
			var sum float64
			for _, v := range got {
				sum += v
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("PageRank(%s, %v) sums to %v, want 1", tc.name, tc.p, sum)
			}
		})
	}
}

func TestPageRankBadPersonalization(t *testing.T) {
	g := NewGraph(3, []Edge{{From: 0, To: 1, Weight: 1}, {From: 1, To: 2, Weight: 1}, {From: 2, To: 2, Weight: 1}})
	uniform := PageRank(g, nil, nil)
	explicit := PageRank(g, []float64{1, 1, 1}, nil)
	if diff := cmp.Diff(uniform, explicit); diff != "" {
		t.Errorf("PageRank(nil) vs PageRank({1,1,1}) mismatch (-want +got):\n%s", diff)
	}
	for _, p := range [][]float64{
		{},
		{1, 2},
		{1, 2, 3, 4},
		{1, -1, 1},
		{1, math.NaN(), 1},
		{1, math.Inf(1), 1},
		{0, 0, 0},
	} {
		got := PageRank(g, p, nil)
		if diff := cmp.Diff(uniform, got); diff != "" {
			t.Errorf("PageRank(g, %v) mismatch with uniform (-want +got):\n%s", p, diff)
		}
	}
	// Entries whose sum overflows are rescaled, not rejected.
	want := PageRank(g, []float64{1, 0, 1}, nil)
	got := PageRank(g, []float64{math.MaxFloat64, 0, math.MaxFloat64}, nil)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PageRank(g, {Max, 0, Max}) mismatch (-want +got):\n%s", diff)
	}
	// Personalization mass is what the random jumps follow: with all of it
	// on node 0 and α → small, node 0 dominates.
	got = PageRank(g, []float64{5, 0, 0}, &PageRankOptions{Alpha: 0.1})
	if !(got[0] > 0.85) {
		t.Errorf("PageRank(g, {5,0,0}, α=0.1)[0] = %v, want > 0.85", got[0])
	}
}

func TestPageRankOptionsDefaults(t *testing.T) {
	g := NewGraph(4, randomEdges(rand.New(rand.NewPCG(5, 6)), 4, 12))
	want := PageRank(g, nil, nil)
	for _, opts := range []*PageRankOptions{
		{},
		{Alpha: 0.85, Tol: 1e-6, MaxIter: 100},
		{Alpha: -1},
		{Alpha: 1.5},
		{Alpha: math.NaN()},
		{Tol: -1},
		{Tol: math.NaN()},
		{Tol: math.Inf(1)},
		{MaxIter: -3},
	} {
		got := PageRank(g, nil, opts)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("PageRank(g, nil, %+v) mismatch with defaults (-want +got):\n%s", *opts, diff)
		}
	}
	// Alpha = 1 is allowed: a pure random walk on the cycle stays uniform.
	cycle := NewGraph(3, []Edge{{From: 0, To: 1, Weight: 1}, {From: 1, To: 2, Weight: 1}, {From: 2, To: 0, Weight: 1}})
	got := PageRank(cycle, []float64{1, 0, 0}, &PageRankOptions{Alpha: 1})
	if diff := cmp.Diff([]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, got, cmpopts.EquateApprox(0, 1e-15)); diff != "" {
		t.Errorf("PageRank(cycle, α=1) mismatch (-want +got):\n%s", diff)
	}
}

func TestPageRankDoesNotAllocatePerIteration(t *testing.T) {
	g := NewGraph(300, randomEdges(rand.New(rand.NewPCG(7, 8)), 300, 3000))
	opts := func(n int) *PageRankOptions { return &PageRankOptions{Tol: 1e-300, MaxIter: n} }
	few := testing.AllocsPerRun(5, func() { PageRank(g, nil, opts(2)) })
	many := testing.AllocsPerRun(5, func() { PageRank(g, nil, opts(200)) })
	if few != many {
		t.Errorf("PageRank allocations: %v for 2 iterations, %v for 200, want equal", few, many)
	}
}
