package repomap

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
)

// Graph is the file graph a map is ranked on, as the ranking sees it:
// its files, each with its PageRank, and its edges, each with the
// identifier it is for and its weight in the PageRank. PageRank on its
// edges (summed per pair of files) with the files' teleport gives their
// ranks; see package rank.
type Graph struct {
	// Files are the nodes of the graph, the files with at least one edge,
	// best ranked first (by rank, then path).
	Files []GraphFile

	links *rank.FileGraph
}

// GraphFile is one file of a Graph.
type GraphFile struct {
	Path string  // slash-separated, as in the map
	Rank float64 // its PageRank, as a map's FileResult has it
	// Teleport is its share of PageRank's teleport: the focus files, the
	// files the request points at and those most relevant to its words
	// get it, or every file alike for a request of nothing.
	Teleport float64
	Role     Role
}

// GraphEdge is one (edge, identifier) pair of a Graph: the From file
// sends rank to the To file for the identifier Name.
type GraphEdge struct {
	From, To string // paths, as in GraphFile
	Name     string // the identifier, as the ranking links it (a heading as "#" and its text)
	// Weight is the edge's weight in the PageRank for Name: the weight
	// of From → To is the sum of its edges' weights.
	Weight float64
	// Back is the part of Weight that flows back from a definition of
	// Name in From to a use of it in To (half the weight of the use, in
	// the default ranking); the rest flows from a use in From to a
	// definition in To, or, on a self-edge, is that of a definition
	// nothing uses.
	Back float64
}

// Graph returns the file graph the map for req is ranked on: the same
// files, edges and weights as Build and Render rank. req.MaxTokens is not
// used.
func (m *Map) Graph(ctx context.Context, req Request) (*Graph, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	snap, err := m.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	focus, err := m.focusPaths(snap, req.Focus)
	if err != nil {
		return nil, err
	}
	rk := *m.opts.Policy
	l, err := linkSnapshot(ctx, snap, rk)
	if err != nil {
		return nil, err
	}
	in, _ := policy.Input(ctx, snap, l.Linked, rk, policy.Query{Focus: focus, Mentions: req.Mentions, Text: req.Text})
	ranks := rank.Rank(in).Files
	fg := rank.NewFileGraph(in)
	tele := fg.Teleport()
	g := &Graph{links: fg}
	for i, p := range fg.Files() {
		f := GraphFile{Path: p, Rank: ranks[p], Teleport: tele[i]}
		if j, ok := snap.Lookup(p); ok {
			f.Role = snap.Roles[j]
		}
		g.Files = append(g.Files, f)
	}
	slices.SortStableFunc(g.Files, func(a, b GraphFile) int { return cmp.Compare(b.Rank, a.Rank) })
	return g, nil
}

// Edges returns the edges of g, by From, then To, then Name (each in
// byte order), one for each (From, To, Name).
func (g *Graph) Edges() iter.Seq[GraphEdge] {
	return func(yield func(GraphEdge) bool) {
		if g == nil || g.links == nil {
			return
		}
		var run []GraphEdge // the edges of one pair of files
		flush := func() bool {
			slices.SortStableFunc(run, func(a, b GraphEdge) int { return strings.Compare(a.Name, b.Name) })
			for i := 0; i < len(run); {
				e := run[i]
				for i++; i < len(run) && run[i].Name == e.Name; i++ {
					e.Weight += run[i].Weight
					e.Back += run[i].Back
				}
				if !yield(e) {
					return false
				}
			}
			run = run[:0]
			return true
		}
		for l := range g.links.Links() {
			if len(run) > 0 && (run[0].From != l.From || run[0].To != l.To) && !flush() {
				return
			}
			e := GraphEdge{From: l.From, To: l.To, Name: displayName(l.Ident), Weight: l.Weight}
			if l.Kind == rank.LinkBack {
				e.Back = l.Weight
			}
			run = append(run, e)
		}
		flush()
	}
}

// displayName returns the identifier a key of the ranking stands for, to
// show: the key up to a NUL byte, which starts the qualifier of a key
// that has one (a package, a module, a class), or the whole key.
func displayName(key string) string {
	name, _, _ := strings.Cut(key, "\x00")
	return name
}
