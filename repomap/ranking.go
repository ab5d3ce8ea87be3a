package repomap

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/items"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/memo"
	"github.com/repomap-dev/repomap/internal/policy"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// ranked is a map's ranked list, with what went into it.
type ranked struct {
	list   *items.List
	ranks  map[string]float64 // the PageRank of each file of the graph
	size   graphSize
	iters  int    // power iterations of the PageRank
	linked string // where the links came from: Stats.Linked

	// A ranking kept in the disk cache has the first items, the order of
	// the files, and resume, which ranks the tree again for the items
	// after them.
	order   []string
	resume  func(context.Context) (ranked, error)
	resumed bool // whether resume ranked the tree again
}

// prefix returns the first k items of r, with their rows.
func (r *ranked) prefix(ctx context.Context, k int) ([]fit.Item, error) {
	if r.resume != nil && r.list.Short(k) {
		// The items of the ranking made again are the same: its rows
		// are found again too.
		all, err := r.resume(ctx)
		if err != nil {
			return nil, err
		}
		r.list, r.ranks, r.resume, r.resumed = all.list, all.ranks, nil, true
	}
	return r.list.Prefix(ctx, k)
}

// useKind is the kind of a related map's row that uses a definition of
// the file the map is about.
const useKind = "use"

// files returns the path of every file of r's items, in the order of
// its first item (items.List.Files), or the order kept with it.
func (r *ranked) files() []string {
	if r.order != nil {
		return r.order
	}
	return r.list.Files()
}

// rankSnapshot ranks the definitions of the files of s, linked as l, for
// the query q, with the ranking rk. A map for no request starts its
// power iteration where the last one of the same graph ended, as kept
// keeps it (nil for none).
func rankSnapshot(ctx context.Context, s *index.Snapshot, l memo.Linked, kept *memo.LinkStage, rk policy.Config, q policy.Query) (ranked, error) {
	in, lifted := policy.Input(ctx, s, l.Linked, rk, q)
	size := graphSize{defs: l.Size.Defs, refs: l.Size.Refs}
	// A map for no request ranks the same graph the same way as the last
	// one did: it starts where that one's iteration ended.
	if len(q.Focus) != 0 || len(q.Mentions) != 0 || q.Text != "" {
		kept = nil
	}
	if !kept.Empty() {
		doors, readmes := policy.Doors(ctx, s, rk)
		in.Converged = kept.Overview(memo.OverviewQuery(rk, slices.Concat(doors, readmes)))
	}
	res := l.Index.Ranking(in)
	if in.Converged == nil {
		kept.KeepOverview(&rank.Converged{Files: res.Files, Iterations: res.Iterations})
	}
	size.nodes = len(res.Files)
	size.links = res.Links
	list := items.New(ctx, s, res, l.Hidden, lifted, in.Tier, rk)
	if err := ctx.Err(); err != nil {
		return ranked{}, fmt.Errorf("repomap: %w", err) // the tags of a file may not have been read
	}
	return ranked{list: list, ranks: res.Files, size: size, iters: res.Iterations, linked: l.From}, nil
}

// graphSize tells how large the ranking's input was.
type graphSize struct{ nodes, links, defs, refs int }

// linkSnapshot links the files of s with rk, anew.
func linkSnapshot(ctx context.Context, s *index.Snapshot, rk policy.Config) (memo.Linked, error) {
	files, err := link.Files(ctx, s)
	if err != nil {
		return memo.Linked{}, err
	}
	return memo.Linked{Linked: link.Link(files, rk.Link), From: "made"}, nil
}

// relatedItems returns the items of the map of the files related to the
// file at p, and the weight of each file's links with it: one item per
// definition of a name p uses, in the file that defines it, and one per
// row where a file uses a name p defines, weighed by the links of their
// file with p, as the ranking weighs references, and taking turns between
// files, so that a small budget shows the best part of each.
//
// With res, the links are those the references resolve to: a file
// defines what p uses when one of p's references resolves to the
// definition's key, or falls back to its name; a file uses what p defines
// when one of its references does. Without, they are by name. References
// of a kind rk does not link by (ranking.links) count for nothing.
func relatedItems(files []link.File, p string, mentioned map[string]bool, res *link.Resolver, rk policy.Config) ([]fit.Item, map[string]float64) {
	ip := slices.IndexFunc(files, func(f link.File) bool { return f.Path == p })
	// What p defines and references, by the names they go by in the
	// ranking.
	self := files[ip].Tags
	defines := make(map[string]bool)
	refCount := make(map[string]int)
	for j, t := range self.Tags {
		name := self.Str(t.Name)
		if t.Kind == tags.Definition {
			defines[link.RankName(self.Sub(j), name)] = true
		} else if rk.Link.Links(self.Sub(j)) {
			refCount[name]++
		}
	}
	// With res: the keys of p's definitions, and what its references
	// resolve to, by key or, for a name match, by name.
	var defKeys, usesKey, usesName map[string]bool
	var keys []link.Ref
	var more []string
	if res != nil {
		defKeys, usesKey, usesName = make(map[string]bool), make(map[string]bool), make(map[string]bool)
		for j, t := range self.Tags {
			if t.Kind == tags.Definition {
				defKeys[res.DefKey(ip, j).Key()] = true
				for _, k := range res.MoreDefKeys(more[:0], ip, j) {
					defKeys[k] = true
				}
				continue
			}
			if !rk.Link.Links(self.Sub(j)) {
				continue
			}
			for _, k := range res.RefKeys(keys[:0], ip, j) {
				if k.Fallback || k.Scope == "" {
					usesName[k.Name] = true
				} else {
					usesKey[k.Key()] = true
				}
			}
		}
	}
	// uses reports whether p uses definition j of file i.
	uses := func(i, j int, rn string) bool {
		if res == nil {
			return refCount[rn] > 0
		}
		if usesName[rn] || usesKey[res.DefKey(i, j).Key()] {
			return true
		}
		more = res.MoreDefKeys(more[:0], i, j)
		return slices.ContainsFunc(more, func(k string) bool { return usesKey[k] })
	}
	// usesSelf reports whether reference j of file i, to name, means a
	// definition of p.
	usesSelf := func(i, j int, name string) bool {
		if res == nil || !res.Resolves(i) {
			return defines[name]
		}
		keys = res.RefKeys(keys[:0], i, j)
		return slices.ContainsFunc(keys, func(k link.Ref) bool {
			if k.Fallback || k.Scope == "" {
				return defines[k.Name]
			}
			return defKeys[k.Key()]
		})
	}
	definers := make(map[string]int) // how many files define a name
	for _, f := range files {
		seen := make(map[string]bool)
		for j, t := range f.Tags.Tags {
			if n := link.RankName(f.Tags.Sub(j), f.Tags.Str(t.Name)); t.Kind == tags.Definition && !seen[n] {
				seen[n] = true
				definers[n]++
			}
		}
	}
	type tie struct {
		weight float64
		defs   map[string][]fit.Row // what p uses that the file defines
		uses   map[string][]fit.Row // where the file uses what p defines
	}
	links := make(map[string]*tie)
	for i, f := range files {
		if f.Path == p {
			continue
		}
		set := f.Tags
		l := &tie{defs: make(map[string][]fit.Row), uses: make(map[string][]fit.Row)}
		for j, t := range set.Tags {
			name, sub := set.Str(t.Name), set.Sub(j)
			switch {
			case t.Kind == tags.Definition && !link.GraphOnly(sub) && uses(i, j, link.RankName(sub, name)):
				rn := link.RankName(sub, name)
				l.defs[rn] = append(l.defs[rn], fit.Row{Line: int(t.Line), Kind: sub, Name: name, Qual: set.Qual(j)})
			case t.Kind == tags.Reference && defines[name] && rk.Link.Links(sub) && usesSelf(i, j, name):
				l.uses[name] = append(l.uses[name], fit.Row{Line: int(t.Line), Kind: useKind, Name: name})
			}
		}
		if len(l.defs) == 0 && len(l.uses) == 0 {
			continue
		}
		for name := range l.defs {
			l.weight += linkWeight(name, refCount[name], definers[name], mentioned[name])
		}
		for name, rows := range l.uses {
			l.weight += linkWeight(name, len(rows), definers[name], mentioned[name])
		}
		links[f.Path] = l
	}
	paths := slices.SortedFunc(maps.Keys(links), func(a, b string) int {
		return cmp.Or(cmp.Compare(links[b].weight, links[a].weight), strings.Compare(a, b))
	})
	var items []fit.Item
	ranks := make(map[string]float64, len(links))
	for _, q := range paths {
		l := links[q]
		ranks[q] = l.weight
		// The k-th item of a file scores its weight over k, so that the
		// files take turns, the better linked more often, and a file with
		// a thousand links to p does not hold the whole map.
		k := 0
		add := func(name string, row fit.Row) {
			k++
			items = append(items, fit.Item{Path: q, Name: name, Rows: []fit.Row{row}, Score: l.weight / float64(k)})
		}
		for _, name := range slices.Sorted(maps.Keys(l.defs)) {
			for _, row := range l.defs[name] {
				add(name, row)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(l.uses)) {
			for _, row := range l.uses[name] {
				add("", row)
			}
		}
	}
	slices.SortStableFunc(items, func(a, b fit.Item) int { return cmp.Compare(b.Score, a.Score) })
	return items, ranks
}

// linkWeight weighs n references to name, defined in definers files, as
// the ranking does.
func linkWeight(name string, n, definers int, mentioned bool) float64 {
	return rank.Weight(name, definers, mentioned) * math.Sqrt(float64(n))
}
