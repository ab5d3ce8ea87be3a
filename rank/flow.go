package rank

import (
	"runtime"
	"slices"
	"sync"
)

// flow is one power iteration's traffic along the edges of the implicit
// file graph (see state.rank). The identifiers are split into flowParts
// parts of about as many references each. A part gathers what the
// referencers of its identifiers send them, file after file, hands it on
// to their definers, and sends back what flows back to the referencers,
// adding what each file gets into an account of its own; a file's rank
// is then its self-edges' and its accounts', added in part order. The
// parts share nothing they write, so they can be made in parallel, and
// the sums are the same bits however many goroutines make them, on any
// machine.
type flow struct {
	s        *state
	beta     float64   // weight of reverse edges (state.beta)
	out      []float64 // per file: its out-weight
	w        []float64 // per reference of s: the weight of each of its edges
	nodeFile []int32   // per node: its file

	cut []int32 // the parts' first identifiers, and the number of identifiers
	// backIdent lists, file after file, the identifiers each file sends
	// rank back for: those it defines that some file references, but
	// for a definition with a self-edge.
	backIdent []int32
	// Per file f and part p, at f*(parts+1)+p: where the references and
	// the backIdent of the part's identifiers begin among the file's
	// (those of the next part begin where they end).
	refCut, backCut []int32

	parallel bool        // whether goroutines make the parts
	selfW    []float64   // per file: the weight of its self-edges together
	sent     []float64   // per file: the rank it sends along an edge of unit weight
	acc      [][]float64 // per part, per file: what the part's identifiers pass on to the file
	send     []float64   // per identifier: what its referencers send each definer
	back     []float64   // per identifier: what its definers send back, per unit of forward weight
}

// flowParts is the number of parts of a flow: a constant, so that the
// sums are the same whatever the machine.
const flowParts = 4

// minParallelWork is the number of references and definitions below
// which one goroutine makes a flow's parts: less would not pay for the
// goroutines.
const minParallelWork = 1 << 16

// newFlow returns the flow of s's graph, with out the out-weight of each
// file, w the weight of each reference's edges and nodeFile the file of
// each node.
func newFlow(s *state, beta float64, out, w []float64, nodeFile []int32) *flow {
	nf, ni := len(s.paths), len(s.names)
	g := &flow{
		s: s, beta: beta, out: out, w: w, nodeFile: nodeFile,
		selfW:    make([]float64, nf),
		sent:     make([]float64, nf),
		send:     make([]float64, ni),
		back:     make([]float64, ni),
		parallel: len(s.refIdent)+len(s.defFile) >= minParallelWork && runtime.GOMAXPROCS(0) > 1,
	}
	g.cut = s.partIdents(flowParts)
	parts := len(g.cut) - 1
	g.refCut = make([]int32, nf*(parts+1))
	g.backCut = make([]int32, nf*(parts+1))
	for f := range nf {
		refs := s.refIdent[s.fileRefStart[f]:s.fileRefStart[f+1]]
		from := len(g.backIdent)
		for _, slot := range s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]] {
			if s.selfEdge[slot] {
				g.selfW[f] += s.selfW[s.slotIdent[slot]]
			} else if k := s.slotIdent[slot]; beta > 0 && s.referenced[k] {
				g.backIdent = append(g.backIdent, k)
			}
		}
		back := g.backIdent[from:]
		for p, k := range g.cut {
			i, _ := slices.BinarySearch(refs, k)
			g.refCut[f*(parts+1)+p] = s.fileRefStart[f] + int32(i)
			i, _ = slices.BinarySearch(back, k)
			g.backCut[f*(parts+1)+p] = int32(from + i)
		}
	}
	g.acc = make([][]float64, parts)
	for p := range g.acc {
		g.acc[p] = make([]float64, nf)
	}
	return g
}

// partIdents splits the identifiers into at most parts ranges of about
// as many references each, and returns their bounds, from 0 to the
// number of identifiers. An identifier goes to the part p such that p/parts
// of the references come before it, and fewer than (p+1)/parts: which
// part does not depend on identifiers nothing references (such as those
// whose references weigh nothing).
func (s *state) partIdents(parts int) []int32 {
	ni := int32(len(s.names))
	before := make([]int32, ni+1) // per identifier k: the references to identifiers before k
	for _, k := range s.refIdent {
		before[k+1]++
	}
	for k := range ni {
		before[k+1] += before[k]
	}
	total := int(before[ni])
	bounds := []int32{0}
	for p := 1; p < parts; p++ {
		target := int32(max(total*p/parts, 1))
		k, _ := slices.BinarySearch(before[:ni], target)
		if int32(k) > bounds[len(bounds)-1] && int32(k) < ni {
			bounds = append(bounds, int32(k))
		}
	}
	return append(bounds, ni)
}

// spread makes send and back, what each identifier passes on from the
// iterate x, the rank of each node; with accounts, the parts' accounts
// of what each file gets too.
func (g *flow) spread(x []float64, accounts bool) {
	for i, f := range g.nodeFile {
		var c float64
		if g.out[f] != 0 && x[i] != 0 {
			c = x[i] / g.out[f]
		}
		g.sent[f] = c
	}
	if g.parallel {
		var wg sync.WaitGroup
		for p := range g.acc {
			wg.Go(func() { g.part(p, accounts) })
		}
		wg.Wait()
	} else {
		for p := range g.acc {
			g.part(p, accounts)
		}
	}
}

// step sets next[i] to the rank node i gets along edges from the iterate
// x, the rank of each node, and leaves in send and back what each
// identifier passed on.
func (g *flow) step(x, next []float64) {
	g.spread(x, true)
	for i, f := range g.nodeFile {
		v := g.sent[f] * g.selfW[f]
		for _, acc := range g.acc {
			v += acc[f]
		}
		next[i] = v
	}
}

// part makes send and back for the identifiers of part p; with
// accounts, it adds what flows along their edges to each file into the
// part's account.
func (g *flow) part(p int, accounts bool) {
	s, sent, acc := g.s, g.sent, g.acc[p]
	lo, hi := g.cut[p], g.cut[p+1]
	stride := len(g.cut)
	send, back := g.send[lo:hi], g.back[lo:hi]
	clear(send)
	clear(back)
	for _, f := range g.nodeFile {
		c := sent[f]
		if c == 0 {
			continue
		}
		at := int(f)*stride + p
		for r := g.refCut[at]; r < g.refCut[at+1]; r++ {
			send[s.refIdent[r]-lo] += c * g.w[r]
		}
		for _, k := range g.backIdent[g.backCut[at]:g.backCut[at+1]] {
			back[k-lo] += c * g.beta
		}
	}
	if !accounts {
		return
	}
	clear(acc)
	for k := lo; k < hi; k++ {
		if v := send[k-lo]; v != 0 {
			for _, f := range s.defFile[s.defStart[k]:s.defStart[k+1]] {
				acc[f] += v
			}
		}
	}
	if g.beta > 0 {
		for _, f := range g.nodeFile {
			at := int(f)*stride + p
			v := acc[f]
			for r := g.refCut[at]; r < g.refCut[at+1]; r++ {
				if b := back[s.refIdent[r]-lo]; b != 0 {
					v += b * g.w[r]
				}
			}
			acc[f] = v
		}
	}
}

// gather returns the rank file f gets back along reverse edges, after a
// step.
func (g *flow) gather(f int32) float64 {
	s := g.s
	var v float64
	for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
		v += g.back[s.refIdent[r]] * g.w[r]
	}
	return v
}
