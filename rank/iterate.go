package rank

import "math"

// Default PageRank parameters, the same as networkx's pagerank.
const (
	defaultAlpha   = 0.85 // damping factor used when PageRankOptions.Alpha is 0
	defaultTol     = 1e-6 // tolerance used when PageRankOptions.Tol is 0
	defaultMaxIter = 100  // iteration cap used when PageRankOptions.MaxIter is 0
)

// teleport finishes one power iteration: next holds the rank that came
// along edges; it becomes α·(next + dsum·p) + (1−α)·p, the rank of
// dangling nodes (dsum) and the teleport following the personalization
// p. It returns the L1 distance from the previous iterate x.
func teleport(next, x, p []float64, dsum, alpha float64) float64 {
	var diff float64
	for j := range next {
		v := alpha*(next[j]+dsum*p[j]) + (1-alpha)*p[j]
		next[j] = v
		diff += math.Abs(v - x[j])
	}
	return diff
}

// normalizePersonalization returns personalization scaled to sum 1, or the
// uniform distribution over n nodes when it is unusable.
func normalizePersonalization(personalization []float64, n int) []float64 {
	p := make([]float64, n)
	if len(personalization) == n {
		var sum, maxv float64
		ok := true
		for _, v := range personalization {
			if !(v >= 0) || math.IsInf(v, 1) {
				ok = false
				break
			}
			sum += v
			maxv = max(maxv, v)
		}
		if ok && sum > 0 {
			if math.IsInf(sum, 1) {
				// Rescale so that the sum no longer overflows.
				sum = 0
				for _, v := range personalization {
					sum += v / maxv
				}
				for i, v := range personalization {
					p[i] = v / maxv / sum
				}
			} else {
				for i, v := range personalization {
					p[i] = v / sum
				}
			}
			return p
		}
	}
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}
