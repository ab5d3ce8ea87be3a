package rank

import "math"

// PageRankOptions tunes PageRank. The zero value, like a nil
// *PageRankOptions, selects the defaults.
type PageRankOptions struct {
	// Alpha is the damping factor: the probability of following an edge
	// rather than jumping to a node drawn from the personalization. 0, and
	// any value outside (0, 1] or NaN, selects 0.85.
	Alpha float64
	// Tol is the convergence tolerance: iteration stops once the L1 norm of
	// the change between two iterates is below N·Tol, N being the number
	// of nodes. 0, and any
	// negative, NaN or infinite value, selects 1e-6.
	Tol float64
	// MaxIter caps the number of iterations. 0 or a negative value selects
	// 100.
	MaxIter int
}

// PageRank returns the personalized PageRank of every node of g, indexed by
// node, with the semantics of networkx's pagerank.
//
// Each node's out-edge weights are normalized to sum to 1, the iterate x
// starts uniform (1/N for each of the N nodes), and each iteration computes
//
//	x'[j] = Alpha·(Σ_i x[i]·A[i][j] + D·p[j]) + (1−Alpha)·p[j]
//
// where A is the row-normalized weight matrix, p the personalization
// normalized to sum 1, and D the total of x over dangling nodes (nodes
// without out-edges), whose rank is thus spread according to p. Iteration
// stops when Σ_j |x'[j]−x[j]| < N·Tol, or after MaxIter iterations, in which
// case the last iterate is returned.
//
// personalization must have one non-negative finite entry per node with a
// positive sum; otherwise (nil, wrong length, a negative, NaN or infinite
// entry, or a zero sum) the uniform distribution is used. An empty or nil
// graph yields an empty, non-nil slice. PageRank allocates only before
// iterating, never panics and is deterministic.
func PageRank(g *Graph, personalization []float64, opts *PageRankOptions) []float64 {
	n := g.Len()
	if n == 0 {
		return []float64{}
	}
	alpha, tol, maxIter := defaultAlpha, defaultTol, defaultMaxIter
	if opts != nil {
		if opts.Alpha > 0 && opts.Alpha <= 1 {
			alpha = opts.Alpha
		}
		if opts.Tol > 0 && !math.IsInf(opts.Tol, 1) {
			tol = opts.Tol
		}
		if opts.MaxIter > 0 {
			maxIter = opts.MaxIter
		}
	}

	p := normalizePersonalization(personalization, n)
	a := g.normalizedWeights()
	var dangling []int32
	for i := 0; i < n; i++ {
		if g.start[i] == g.start[i+1] {
			dangling = append(dangling, int32(i))
		}
	}

	x := make([]float64, n)
	next := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	limit := float64(n) * tol
	for iter := 0; iter < maxIter; iter++ {
		var dsum float64
		for _, i := range dangling {
			dsum += x[i]
		}
		clear(next)
		for i := 0; i < n; i++ {
			xi := x[i]
			if xi == 0 {
				continue
			}
			for e := g.start[i]; e < g.start[i+1]; e++ {
				next[g.to[e]] += xi * a[e]
			}
		}
		diff := teleport(next, x, p, dsum, alpha)
		x, next = next, x
		if diff < limit {
			break
		}
	}
	return x
}

// normalizedWeights returns each edge's weight divided by its source's
// out-weight, so that every node's out-edges sum to 1.
func (g *Graph) normalizedWeights() []float64 {
	a := make([]float64, len(g.w))
	for i := range g.out {
		lo, hi := g.start[i], g.start[i+1]
		if lo == hi {
			continue
		}
		if t := g.out[i]; !math.IsInf(t, 1) {
			for e := lo; e < hi; e++ {
				a[e] = g.w[e] / t
			}
			continue
		}
		// The out-weight overflowed: rescale by the largest weight first.
		var m float64
		for e := lo; e < hi; e++ {
			m = max(m, g.w[e])
		}
		var t float64
		for e := lo; e < hi; e++ {
			t += g.w[e] / m
		}
		for e := lo; e < hi; e++ {
			a[e] = g.w[e] / m / t
		}
	}
	return a
}
