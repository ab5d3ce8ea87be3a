package rank

// The file graph built edge by edge: Rank never builds it (see rank), but
// the tests rank it with PageRank as the reference Rank must agree with.

// fileGraph builds the file graph: its nodes are the files with at least one
// edge, numbered in path order (node i is file nodeFile[i]), and the edge
// between two files is the sum of their (edge, ident) pairs.
func (s *state) fileGraph() (g *Graph, nodeFile []int32) {
	nf := len(s.paths)
	// For each source file, sum its (edge, ident) contributions per
	// destination in a dense accumulator.
	eStart := make([]int32, nf+1)
	nPairs := s.countPairs()
	eTo := make([]int32, 0, nPairs)
	eW := make([]float64, 0, nPairs)
	isNode := make([]bool, nf)
	acc := make([]float64, nf)
	mark := make([]int32, nf) // mark[d] == f+1 when d was reached from f
	var buf []contrib
	for f := range int32(nf) {
		buf = s.edgesFrom(f, buf)
		first := int32(len(eTo))
		for _, c := range buf {
			d := s.defFile[c.slot]
			if mark[d] != f+1 {
				mark[d] = f + 1
				acc[d] = 0
				eTo = append(eTo, d)
			}
			acc[d] += c.w
		}
		for _, d := range eTo[first:] {
			eW = append(eW, acc[d])
			isNode[d] = true
		}
		if int32(len(eTo)) > first {
			isNode[f] = true
		}
		eStart[f+1] = int32(len(eTo))
	}
	// Order each row by destination.
	perm := sortRowsPerm(eStart, eTo, nf)
	sortedTo := make([]int32, len(eTo))
	sortedW := make([]float64, len(eW))
	for p, e := range perm {
		sortedTo[p], sortedW[p] = eTo[e], eW[e]
	}
	eTo, eW = sortedTo, sortedW

	// Keep only the files with at least one edge as nodes. The renumbering
	// is monotonic, so the rows stay sorted.
	nodeOf := make([]int32, nf)
	for f := range nf {
		nodeOf[f] = -1
		if isNode[f] {
			nodeOf[f] = int32(len(nodeFile))
			nodeFile = append(nodeFile, int32(f))
		}
	}
	start := make([]int32, len(nodeFile)+1)
	for i, f := range nodeFile {
		start[i+1] = start[i] + eStart[f+1] - eStart[f]
	}
	for e := range eTo {
		eTo[e] = nodeOf[eTo[e]]
	}
	return newGraphCSR(start, eTo, eW), nodeFile
}

// contrib is one (edge, ident) pair leaving a file: the edge goes to the
// file defining slot, for the identifier of slot.
type contrib struct {
	slot int32 // index into state.defFile / state.slotIdent
	w    float64
}

// edgesFrom appends to buf[:0] the (edge, ident) pairs leaving file f, in a
// fixed order (references by identifier, each to its definers by file; then
// the self-edges for unreferenced definitions), and returns it.
func (s *state) edgesFrom(f int32, buf []contrib) []contrib {
	buf = buf[:0]
	for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
		k := s.refIdent[r]
		w := s.refWeight(f, r)
		for slot := s.defStart[k]; slot < s.defStart[k+1]; slot++ {
			buf = append(buf, contrib{slot: slot, w: w})
		}
	}
	for _, slot := range s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]] {
		if !s.referenced[s.slotIdent[slot]] {
			buf = append(buf, contrib{slot: slot, w: s.selfW[s.slotIdent[slot]]})
		}
	}
	return buf
}

// newGraphCSR builds a Graph directly from CSR arrays whose rows are already
// sorted by destination with parallel edges merged and weights positive and
// finite. The slices are owned by the returned graph.
func newGraphCSR(start, to []int32, w []float64) *Graph {
	if len(start) <= 1 {
		return &Graph{}
	}
	g := &Graph{start: start, to: to, w: w, out: make([]float64, len(start)-1)}
	g.computeOut()
	return g
}
