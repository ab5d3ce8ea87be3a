package rank

import (
	"cmp"
	"iter"
	"slices"
	"strconv"
)

// LinkKind says why an (edge, identifier) pair is in the file graph.
type LinkKind uint8

// The kinds of links.
const (
	// LinkUse: the From file references the identifier, which the To
	// file defines.
	LinkUse LinkKind = iota
	// LinkBack: a reverse edge (Input.Reverse): the From file defines the
	// identifier, which the To file references.
	LinkBack
	// LinkUnused: the self-edge of a definition that no file references.
	LinkUnused
)

var linkKindNames = [...]string{"use", "back", "unused"}

// String returns "use", "back" or "unused".
func (k LinkKind) String() string {
	if int(k) < len(linkKindNames) {
		return linkKindNames[k]
	}
	return "LinkKind(" + strconv.Itoa(int(k)) + ")"
}

// Link is one (edge, identifier) pair of the file graph that Rank ranks.
type Link struct {
	From, To string // the files' paths, as in Input.Files
	Ident    string // the identifier, as in File.Defs and File.Refs
	Kind     LinkKind
	// Weight is the pair's weight, exactly as Rank's power iteration
	// weighs it: the weight of the edge From→To in the PageRank is the
	// sum of its pairs' weights, and a file's out-weight the sum of the
	// weights of the pairs it is the From of.
	Weight float64
}

// FileGraph is the file graph that Rank ranks for an Input, pair by
// pair: the same nodes, the same weights and the same teleport, so that
// PageRank on it (damping 0.85, networkx's semantics: see the package
// documentation) gives Result.Files. It is what Rank computes without
// building, built for showing; on a large tree its pairs are millions,
// so they are enumerated rather than held. A FileGraph is immutable and
// safe for concurrent use.
type FileGraph struct {
	s        *state
	w        []float64 // per reference: the weight of each of its edges
	beta     float64   // the weight of reverse edges, relative to forward ones; 0 for none
	nodes    []int32   // the files that are nodes, in path order
	teleport []float64 // per node

	// The references of each identifier: refsOf[refStart[k]:refStart[k+1]]
	// are indexes into s.refIdent, by file.
	refStart []int32
	refsOf   []int32
	refFile  []int32 // per reference: its file
}

// NewFileGraph returns the file graph of in, as Rank(in) ranks it.
func NewFileGraph(in Input) *FileGraph {
	s := prepare(in)
	nf := len(s.paths)
	g := &FileGraph{s: s, w: make([]float64, len(s.refIdent)), beta: s.beta(), refFile: make([]int32, len(s.refIdent))}
	isNode := make([]bool, nf)
	for f := range int32(nf) {
		for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
			k := s.refIdent[r]
			g.w[r] = clampWeight(s.refWeight(f, r))
			g.refFile[r] = f
			isNode[f] = true
			for slot := s.defStart[k]; slot < s.defStart[k+1]; slot++ {
				isNode[s.defFile[slot]] = true
			}
		}
		for _, slot := range s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]] {
			if s.selfEdge[slot] {
				isNode[f] = true
			}
		}
	}
	for f, ok := range isNode {
		if ok {
			g.nodes = append(g.nodes, int32(f))
		}
	}
	pers := make([]float64, len(g.nodes))
	for i, f := range g.nodes {
		pers[i] = s.personalization(f)
	}
	if len(g.nodes) > 0 {
		g.teleport = normalizePersonalization(pers, len(g.nodes))
	}
	if g.beta > 0 {
		refs := make([]int32, len(s.refIdent))
		for r := range refs {
			refs[r] = int32(r)
		}
		g.refsOf = countingSort(refs, len(s.names), func(r int32) int32 { return s.refIdent[r] })
		g.refStart = make([]int32, len(s.names)+1)
		for _, k := range s.refIdent {
			g.refStart[k+1]++
		}
		for k := 1; k <= len(s.names); k++ {
			g.refStart[k] += g.refStart[k-1]
		}
	}
	return g
}

// Files returns the paths of the nodes of g, the files with at least one
// edge, in path order: the keys of Result.Files.
func (g *FileGraph) Files() []string {
	out := make([]string, len(g.nodes))
	for i, f := range g.nodes {
		out[i] = g.s.paths[f]
	}
	return out
}

// Teleport returns, for each node in the order of Files, its share of
// PageRank's teleport: the personalization (Focus, the mentions,
// Personal) normalized to sum 1, or the uniform distribution when there
// is none. Rank's PageRank jumps, and spreads the rank of nodes without
// out-edges, by it.
func (g *FileGraph) Teleport() []float64 { return slices.Clone(g.teleport) }

// Links returns every (edge, identifier) pair of g: by From in path
// order, then by To in path order, then by Kind, then by Ident. Each
// (From, To, Kind, Ident) comes once.
func (g *FileGraph) Links() iter.Seq[Link] {
	return func(yield func(Link) bool) {
		type pair struct {
			to    int32
			kind  LinkKind
			ident int32
			w     float64
		}
		s := g.s
		var buf []pair
		for _, f := range g.nodes {
			buf = buf[:0]
			for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
				k := s.refIdent[r]
				for slot := s.defStart[k]; slot < s.defStart[k+1]; slot++ {
					buf = append(buf, pair{s.defFile[slot], LinkUse, k, g.w[r]})
				}
			}
			for _, slot := range s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]] {
				k := s.slotIdent[slot]
				switch {
				case s.selfEdge[slot]:
					buf = append(buf, pair{f, LinkUnused, k, s.selfW[k]})
				case g.beta > 0 && s.referenced[k]:
					for _, r := range g.refsOf[g.refStart[k]:g.refStart[k+1]] {
						buf = append(buf, pair{g.refFile[r], LinkBack, k, g.beta * g.w[r]})
					}
				}
			}
			slices.SortFunc(buf, func(a, b pair) int {
				return cmp.Or(cmp.Compare(a.to, b.to), cmp.Compare(a.kind, b.kind), cmp.Compare(a.ident, b.ident))
			})
			for _, p := range buf {
				if !yield(Link{From: s.paths[f], To: s.paths[p.to], Ident: s.names[p.ident], Kind: p.kind, Weight: p.w}) {
					return
				}
			}
		}
	}
}
