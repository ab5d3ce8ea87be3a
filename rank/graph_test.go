package rank

import "math"

// The explicit graph and its PageRank are the oracle of the tests: the
// factored computation of Rank must give what they give, and they are
// checked against gonum.

// maxNodes is the largest node count a Graph can hold; node indices are
// stored as int32.
const maxNodes = math.MaxInt32

// Edge is one weighted directed edge given to NewGraph.
type Edge struct {
	From   int     // source node, in [0, n)
	To     int     // destination node, in [0, n)
	Weight float64 // edge weight; edges whose weight is not a positive finite number are ignored
}

// Graph is a weighted directed graph over the nodes 0..Len()-1.
//
// Parallel edges are summed into one edge, self-loops are allowed, and the
// edges are stored compactly in compressed sparse row (CSR) form grouped by
// source node, with each node's out-edges sorted by destination. A Graph is
// immutable once built and safe for concurrent use by multiple goroutines.
// The zero Graph is an empty graph.
type Graph struct {
	start []int32   // out-edges of node i are [start[i], start[i+1]); len n+1, or 0 when n == 0
	to    []int32   // destination of each edge
	w     []float64 // merged weight of each edge
	out   []float64 // total out-weight of each node
}

// NewGraph returns the graph over nodes 0..n-1 with the given edges.
//
// Parallel edges (same From and To) are summed, in the order they appear in
// edges; a sum that overflows is clamped to math.MaxFloat64. Self-loops are
// kept. Only the first math.MaxInt32 edges are considered. Edges whose endpoints are outside [0, n), or whose weight is zero,
// negative, NaN or infinite, are ignored. A negative n is treated as 0, and n
// is clamped to math.MaxInt32. NewGraph runs in O(n + len(edges)) time.
func NewGraph(n int, edges []Edge) *Graph {
	if n <= 0 {
		return &Graph{}
	}
	if n > maxNodes {
		n = maxNodes
	}
	// Keep the valid edges.
	valid := make([]int32, 0, len(edges))
	for i, e := range edges {
		if i >= maxNodes {
			break
		}
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			continue
		}
		if !(e.Weight > 0) || math.IsInf(e.Weight, 1) {
			continue
		}
		valid = append(valid, int32(i))
	}

	// Two stable counting sorts (by To, then by From) leave the edges ordered
	// by (From, To) with parallel edges in input order.
	byTo := countingSort(valid, n, func(i int32) int32 { return int32(edges[i].To) })
	start := make([]int32, n+1)
	for _, i := range byTo {
		start[edges[i].From+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	sorted := make([]int32, len(byTo))
	next := make([]int32, n)
	copy(next, start[:n])
	for _, i := range byTo {
		f := edges[i].From
		sorted[next[f]] = i
		next[f]++
	}

	// Merge runs of parallel edges.
	g := &Graph{
		start: make([]int32, n+1),
		to:    make([]int32, 0, len(sorted)),
		w:     make([]float64, 0, len(sorted)),
		out:   make([]float64, n),
	}
	k := 0
	for from := 0; from < n; from++ {
		g.start[from] = int32(len(g.to))
		end := int(start[from+1])
		for k < end {
			e := edges[sorted[k]]
			sum := e.Weight
			k++
			for k < end && edges[sorted[k]].To == e.To {
				sum += edges[sorted[k]].Weight
				k++
			}
			g.to = append(g.to, int32(e.To))
			g.w = append(g.w, clampWeight(sum))
		}
	}
	g.start[n] = int32(len(g.to))
	g.computeOut()
	return g
}

// computeOut fills g.out with the per-node out-weight sums, summed in
// destination order.
func (g *Graph) computeOut() {
	for i := range g.out {
		var s float64
		for e := g.start[i]; e < g.start[i+1]; e++ {
			s += g.w[e]
		}
		g.out[i] = s
	}
}

// Len returns the number of nodes of g. A nil Graph has no nodes.
func (g *Graph) Len() int {
	if g == nil || len(g.start) == 0 {
		return 0
	}
	return len(g.start) - 1
}

// NumEdges returns the number of distinct (From, To) edges of g, after
// parallel edges have been merged.
func (g *Graph) NumEdges() int {
	if g == nil {
		return 0
	}
	return len(g.to)
}

// Weight returns the summed weight of the edges from node from to node to,
// or 0 when there is no such edge or a node is out of range.
func (g *Graph) Weight(from, to int) float64 {
	n := g.Len()
	if from < 0 || from >= n || to < 0 || to >= n {
		return 0
	}
	lo, hi := int(g.start[from]), int(g.start[from+1])
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch d := int(g.to[mid]); {
		case d == to:
			return g.w[mid]
		case d < to:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0
}

// OutWeight returns the total weight of the edges leaving node i (0 for a
// node without out-edges or out of range). A total that overflows float64 is
// reported as +Inf; PageRank still normalizes such a node correctly.
func (g *Graph) OutWeight(i int) float64 {
	if i < 0 || i >= g.Len() {
		return 0
	}
	return g.out[i]
}

// Edges returns the merged edges of g, sorted by From and then by To.
func (g *Graph) Edges() []Edge {
	n := g.Len()
	edges := make([]Edge, 0, g.NumEdges())
	for i := 0; i < n; i++ {
		for e := g.start[i]; e < g.start[i+1]; e++ {
			edges = append(edges, Edge{From: i, To: int(g.to[e]), Weight: g.w[e]})
		}
	}
	return edges
}
