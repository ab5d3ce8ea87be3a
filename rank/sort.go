package rank

import "math"

// countingSort returns the items stably sorted by key, where every key is in
// [0, n).
func countingSort(items []int32, n int, key func(int32) int32) []int32 {
	count := make([]int32, n+1)
	for _, it := range items {
		count[key(it)+1]++
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	out := make([]int32, len(items))
	for _, it := range items {
		k := key(it)
		out[count[k]] = it
		count[k]++
	}
	return out
}

// clampWeight maps an overflowed sum to the largest finite float64.
func clampWeight(w float64) float64 {
	if math.IsInf(w, 1) {
		return math.MaxFloat64
	}
	return w
}

// sortRowsPerm returns the permutation that sorts each row of a CSR layout
// by column, stably: position p of the sorted layout holds the entry at old
// position perm[p]. rowStart has one more entry than there are rows, and
// every column is in [0, ncol). It runs in O(rows + ncol + len(col)) time.
func sortRowsPerm(rowStart, col []int32, ncol int) []int32 {
	nrow := len(rowStart) - 1
	rowOf := make([]int32, len(col))
	for r := 0; r < nrow; r++ {
		for e := rowStart[r]; e < rowStart[r+1]; e++ {
			rowOf[e] = int32(r)
		}
	}
	idx := make([]int32, len(col))
	for i := range idx {
		idx[i] = int32(i)
	}
	// Entries by column, rows ascending within a column ...
	byCol := countingSort(idx, ncol, func(i int32) int32 { return col[i] })
	// ... then back into their rows, columns now ascending within a row.
	next := make([]int32, nrow)
	copy(next, rowStart[:nrow])
	perm := make([]int32, len(col))
	for _, i := range byCol {
		r := rowOf[i]
		perm[next[r]] = i
		next[r]++
	}
	return perm
}
