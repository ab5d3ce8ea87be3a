package repomap

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// The rank stage turns a snapshot and a request into the ranked list of
// items the fit takes: it links references to definitions by name, ranks
// with package rank, and applies the map's own rules, which all live in
// this file: which definitions link files without being shown, the names
// headings go by, builtins, the weight of reverse edges, and the
// demotion of documents and data.

// ranked is the rank stage's result.
type ranked struct {
	items  []fit.Item         // the items made so far, best first (see itemList)
	n      int                // the items in all
	list   *itemList          // makes the items after items; nil once all are made
	ranks  map[string]float64 // the PageRank of each file of the graph
	size   graphSize
	iters  int    // power iterations of the PageRank
	linked string // where the links came from: Stats.Linked

	index  *rowIndex // where the rows of the items come from; nil when they have them
	filled int       // items[:filled] have their rows

	// A ranking kept in the disk cache has the first items, the order of
	// the files, and resume, which ranks the tree again for the items
	// after them.
	order   []string
	resume  func(context.Context) (ranked, error)
	resumed bool // whether resume ranked the tree again
}

// rowIndex finds the rows of definitions in the files of a snapshot,
// indexing each file the first time one of its definitions is asked for.
type rowIndex struct {
	snap  *index.Snapshot
	files map[string][]shownDef // by path, sorted by rank name, then line
	max   int                   // the most rows of one item, the first ones; 0 for no limit
}

// readItems reads, in one read of the disk cache, the entries of the
// files of items that were not read, before their tags are asked for.
func readItems(ctx context.Context, s *index.Snapshot, items []fit.Item) {
	var is []int
	for _, it := range items {
		if i, ok := s.Lookup(it.Path); ok {
			is = append(is, i)
		}
	}
	s.Read(ctx, is)
}

// rows returns the rows of the shown definitions of name in the file at p,
// at most x.max of them when it is set.
func (x *rowIndex) rows(ctx context.Context, p, name string) []fit.Row {
	defs, ok := x.files[p]
	if !ok {
		if i, ok := x.snap.Lookup(p); ok {
			for _, r := range shownDefs(x.snap.Tags(ctx, i)) {
				defs = append(defs, shownDef{link.RankName(r.Kind, r.Name), r})
			}
		}
		slices.SortStableFunc(defs, func(a, b shownDef) int {
			return cmp.Or(strings.Compare(a.rankName, b.rankName), cmp.Compare(a.row.Line, b.row.Line))
		})
		if ctx.Err() == nil { // else the tags may not have been read
			x.files[p] = defs
		}
	}
	lo, _ := slices.BinarySearchFunc(defs, name, func(d shownDef, name string) int { return strings.Compare(d.rankName, name) })
	var out []fit.Row
	for _, d := range defs[lo:] {
		if d.rankName != name || (x.max > 0 && len(out) == x.max) {
			break
		}
		out = append(out, d.row)
	}
	return out
}

// prefix returns the first k items of r, with their rows: the items
// are made, and the rows of each found, the first time a prefix holds it.
func (r *ranked) prefix(ctx context.Context, k int) ([]fit.Item, error) {
	if r.list == nil && len(r.items) < min(k, r.n) && r.resume != nil {
		// The items of the ranking made again are the same: its rows
		// are found again too.
		all, err := r.resume(ctx)
		if err != nil {
			return nil, err
		}
		r.items, r.n, r.list, r.ranks, r.filled, r.resume, r.resumed = all.items, all.n, all.list, all.ranks, 0, nil, true
	}
	r.make(k)
	if r.index != nil && r.filled < k {
		readItems(ctx, r.index.snap, r.items[r.filled:min(k, len(r.items))])
	}
	for ; r.filled < k; r.filled++ {
		if it := &r.items[r.filled]; it.Name != "" && it.Rows == nil && r.index != nil {
			it.Rows = r.index.rows(ctx, it.Path, it.Name)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repomap: %w", err) // the rows may not have been read
	}
	return r.items[:k], nil
}

// rankSnapshot ranks the definitions of the files of s, linked as l, for
// the query q, with the ranking rk. A map for no request starts its
// power iteration where the last one of the same graph ended, as memo
// keeps it (nil for none).
func rankSnapshot(ctx context.Context, s *index.Snapshot, l linked, memo *linkMemo, rk policy.Config, q query) (ranked, error) {
	in, top := rankInput(ctx, s, l, rk, q)
	size := graphSize{defs: l.Size.Defs, refs: l.Size.Refs}
	// A map for no request ranks the same graph the same way as the last
	// one did: it starts where that one's iteration ended.
	if len(q.focus) != 0 || len(q.mentions) != 0 || q.text != "" {
		memo = nil
	}
	if memo != nil {
		doors, readmes := overviewDoors(ctx, s, rk)
		oq := overviewQuery(rk, slices.Concat(doors, readmes))
		if memo.overview != nil && memo.overviewQuery != oq {
			memo.overview, memo.overviewStored = nil, false
		}
		if memo.overview == nil && memo.overviewBlob != nil {
			memo.overview = decodeRanks(memo.overviewBlob, ranksKey(memo.key, oq))
			memo.overviewStored, memo.overviewBlob = memo.overview != nil, nil
		}
		memo.overviewQuery = oq
		in.Converged = memo.overview
	}
	res := l.Index.Ranking(in)
	if memo != nil && memo.overview == nil {
		memo.overview, memo.overviewStored = &rank.Converged{Files: res.Files, Iterations: res.Iterations}, false
	}
	size.nodes = len(res.Files)
	size.links = res.Links
	var mixed []string
	if rk.Items.Every > 0 {
		mixed = top
		if rk.Rel.MixCode || rk.Rel.CodeTop && !aboutDocs(q.text) {
			mixed = codeFiles(s, top, in.MentionedFiles)
		}
	}
	sp := spreading{names: rk.Items.Spread, docs: rk.Items.DocItems}
	if rk.Items.Variants {
		sp.variants = func(head []fit.Item) []bool { return buildVariants(ctx, s, head) }
	}
	list := newItemList(res, l.Hidden, mixed, rk.Items.Every, sp, in.Tier)
	if err := ctx.Err(); err != nil {
		return ranked{}, fmt.Errorf("repomap: %w", err) // the tags of a file may not have been read
	}
	return ranked{n: list.len(), list: list, ranks: res.Files, size: size, iters: res.Iterations, linked: l.from, index: &rowIndex{snap: s, files: make(map[string][]shownDef), max: rk.Rows}}, nil
}

// graphSize tells how large the ranking's input was.
type graphSize struct{ nodes, links, defs, refs int }

// shownDef is one definition a map can show, as the rank stage indexes
// it: by the name it goes by in the ranking.
type shownDef struct {
	rankName string
	row      fit.Row
}

// linkSnapshot links the files of s with rk, anew.
func linkSnapshot(ctx context.Context, s *index.Snapshot, rk policy.Config) (linked, error) {
	files, err := linkFiles(ctx, s)
	if err != nil {
		return linked{}, err
	}
	return linked{link.Link(files, rk.Link), "made"}, nil
}

// keyWeight returns the weight of the edges of each key for the ranking
// rk (see link.ClassOf): the fallback weight for name matches the rules
// could not place, and with rk.Private, for a map for no request, that
// weight for the names a package keeps to itself (Go's lower-case
// names), so that a repository's overview leads with the API its
// packages share; the names of documents' code weigh only in a map for
// no request, or with rk.DocMaps.
func keyWeight(rk policy.Config, overview bool) func(string) float64 {
	docs := rk.Link.Readme || rk.Link.DocCode
	if !rk.Link.Resolve && !docs {
		return nil
	}
	return func(key string) float64 {
		switch c := link.ClassOf(key); {
		case c == link.Doc && docs:
			if overview || rk.DocMaps {
				return 1
			}
			return 0
		case !rk.Link.Resolve:
		case c == link.Fallback:
			return rk.Link.Fallback
		case c == link.Names:
			return rk.Link.Names
		case c == link.Private && overview && rk.Private > 0:
			return rk.Private
		}
		return 1
	}
}

// rankInput returns the input of the ranking of s for q, with rk and the
// links l, and the files most relevant to q's words, best first (nil
// without words), which the rank stage uses after the ranking. Its Files
// are l.files. Map.Graph shows the graph of the same input.
func rankInput(ctx context.Context, s *index.Snapshot, l linked, rk policy.Config, q query) (in rank.Input, top []string) {
	focus := q.focus
	mentions := q.mentions
	in = rank.Input{Files: l.Files, Focus: focus, Reverse: rk.Reverse, Weights: rk.Weights}
	overview := len(focus) == 0 && len(mentions) == 0 && q.text == ""
	in.KeyWeight = keyWeight(rk, overview)
	if in.KeyWeight != nil {
		// What keyWeight's weights depend on.
		in.KeyWeightName = fmt.Sprint(rk.Link.Readme, rk.Link.DocCode, rk.DocMaps, rk.Link.Resolve, rk.Link.Fallback, rk.Link.Names, rk.Private, overview)
	}
	if rk.OverviewLong > 0 && overview {
		in.Weights.LongIdent = rk.OverviewLong
	}
	if !overview {
		// A request's teleport goes to the files it points at, not to
		// every file: Weights.Lone is for a map for none. (In every map
		// it lowered focus recall on bubbletea's history.)
		in.Weights.Lone = 0
	}
	if overview && (rk.Front > 0 || rk.Readme > 0) {
		doors, readmes := overviewDoors(ctx, s, rk)
		overviewTeleport(&in, s, doors, rk.Front, readmes, rk.Readme)
	}
	var rel map[string]float64
	var lift []string // the files that changed with the focus files, to lift
	switch {
	case q.text == "":
	case !rk.Rel.On:
		mentions = slices.Concat(mentions, findMentions(q.text, s.Paths()).All())
	default:
		// The paths the words name, the names written as code, and the
		// files whose words the words are.
		named := namedFiles(q.text, s.Paths())
		mentions = slices.Concat(mentions, named, codeWords(q.text), traceNames(q.text))
		rel = relevance(ctx, s, q.text, rk.Rel.Text)
		if rk.Rel.DocRel > 0 {
			// The words of a page are prose: its relevance counts
			// docRel of a code file's.
			for p := range rel {
				if i, ok := s.Lookup(p); ok && roleTier[s.Roles[i]] == lastTier {
					rel[p] *= rk.Rel.DocRel
				}
			}
		}
		best := 0.0
		for _, v := range rel {
			best = max(best, v)
		}
		for p := range rel {
			rel[p] /= best
		}
		if rk.Rel.Named > 0 && len(named) > 0 {
			if rel == nil {
				rel = make(map[string]float64)
			}
			for _, p := range named {
				rel[p] += rk.Rel.Named
			}
		}
		in.Personal = make(map[string]float64)
		if rk.Rel.PagesOn {
			top = topByTier(s, rel, rk.Rel.Top, rk.Rel.Pages)
		} else {
			top = topRelevant(rel, rk.Rel.Top)
		}
		for _, p := range top {
			in.Personal[p] = rk.Rel.Personal * rel[p]
		}
		// Every definition's score grows by relBoost times its file's
		// relevance.
		if rk.Rel.Boost > 0 {
			in.Scale = make(map[string]float64, len(rel))
			for p, v := range rel {
				in.Scale[p] = 1 + rk.Rel.Boost*v
			}
		}
	}
	for _, w := range mentions {
		if p := path.Clean(strings.TrimPrefix(w, "./")); s.Has(p) {
			in.MentionedFiles = append(in.MentionedFiles, p)
		}
		in.MentionedIdents = append(in.MentionedIdents, w)
	}
	if q.history != nil && rk.History.On {
		lift = historyInput(&in, s, q.history, rk.History, focus, in.MentionedFiles, top, rel)
	}
	if rk.Companions {
		// The tests of a focus file, or a focus test's subject, count as
		// files the request names.
		in.MentionedFiles = append(in.MentionedFiles, companions(s, focus)...)
	}
	if rk.Docs > 0 {
		demoteDocs(&in, s, rk.Docs)
	}
	if rk.Roles {
		// Tests and examples go below the code only in a map for no
		// request: a request's files draw their tests with them, which
		// the history of changes says matters. A file the request names,
		// or one of the most relevant to its words, is never moved down.
		tests := 1.0
		if len(focus) == 0 && len(mentions) == 0 && q.text == "" {
			tests = rk.Tests
		}
		lifted := top
		if rk.Rel.CodeTop && !aboutDocs(q.text) {
			lifted = codeFiles(s, top, in.MentionedFiles)
		}
		byRole(&in, s, tests, rk.ByName, focus, slices.Concat(in.MentionedFiles, lifted))
	}
	// The files that changed with the focus files take turns at the head
	// of the list before those most relevant to the words.
	return in, slices.Concat(lift, top)
}

// scaleFile multiplies the scores of the definitions of the file at p by
// f, in the ranking in.
func scaleFile(in *rank.Input, p string, f float64) {
	if in.Scale == nil {
		in.Scale = make(map[string]float64)
	}
	if v, ok := in.Scale[p]; ok {
		f *= v
	}
	in.Scale[p] = f
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
				l.defs[rn] = append(l.defs[rn], fit.Row{Line: int(t.Line), Kind: sub, Name: name})
			case t.Kind == tags.Reference && defines[name] && rk.Link.Links(sub) && usesSelf(i, j, name):
				l.uses[name] = append(l.uses[name], fit.Row{Line: int(t.Line), Kind: "use", Name: name})
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

// codeFiles returns the files of ps, in order, that are code (of role
// tier 0) or named: the ones ranking change mixcode lets take turns at
// the head of the list.
func codeFiles(s *index.Snapshot, ps, named []string) []string {
	return slices.DeleteFunc(slices.Clone(ps), func(p string) bool {
		i, ok := s.Lookup(p)
		return ok && roleTier[s.Roles[i]] > 0 && !slices.Contains(named, p)
	})
}

// aboutDocs reports whether the words of a request are about documents,
// CI or community files rather than code: whether one of them is a word
// such as "docs", "readme", "changelog" or "workflow".
func aboutDocs(text string) bool {
	for w := range strings.FieldsFuncSeq(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r)
	}) {
		switch w {
		case "doc", "docs", "documentation", "readme", "changelog", "tutorial", "contributing", "ci", "workflow", "workflows":
			return true
		}
	}
	return false
}

// The tiers of roles in the ranked list: the code of the tree (its tests
// and examples with it, scaled), then fixtures, generated and vendored
// code, then documents, configuration, CI and community files.
var roleTier = [index.NumRoles]int{
	RoleSource: 0, RoleTest: 0, RoleExample: 0,
	RoleFixture: 1, RoleGenerated: 1, RoleVendored: 1,
	RoleDocs: 2, RoleConfig: 2, RoleCommunity: 2, RoleAsset: 2,
}

// byRole orders the ranking in by the roles of the files of s: the
// definitions of tier 0 first, the tests' and examples' scaled by tests,
// then those of tier 1, then tier 2, each tier by score; then the files
// by name alone, by tier too. With byName, the files of the last tier
// (documents, configuration, CI and community files) show by name alone.
// A role of a focus file, and a pointed file, are never moved down: the
// request points at them.
func byRole(in *rank.Input, s *index.Snapshot, tests float64, byName bool, focus, pointed []string) {
	var liftedRoles [index.NumRoles]bool
	for _, p := range focus {
		if i, ok := s.Lookup(p); ok {
			liftedRoles[s.Roles[i]] = true
		}
	}
	isPointed := make(map[string]bool, len(pointed))
	for _, p := range pointed {
		isPointed[p] = true
	}
	in.Tier = make(map[string]int)
	for i, f := range s.Files {
		r := s.Roles[i]
		if isPointed[f.Path] || liftedRoles[r] {
			continue
		}
		if (r == RoleTest || r == RoleExample) && tests != 1 {
			scaleFile(in, f.Path, tests)
		}
		if t := roleTier[r]; t > 0 {
			in.Tier[f.Path] = t
		}
		if byName && roleTier[r] == lastTier {
			if in.ByName == nil {
				in.ByName = make(map[string]bool)
			}
			in.ByName[f.Path] = true
		}
	}
}

// lastTier is the tier of documents, configuration, CI and community
// files, and assets: in the default ranking they show by name alone
// (byName) unless the request points at them.
const lastTier = 2

// linkWeight weighs n references to name, defined in definers files, as
// the ranking does.
func linkWeight(name string, n, definers int, mentioned bool) float64 {
	return rank.Weight(name, definers, mentioned) * math.Sqrt(float64(n))
}

// shownDefs returns the definitions of set that a map shows, in tag order.
func shownDefs(set tags.Set) []fit.Row {
	var out []fit.Row
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && !link.GraphOnly(set.Sub(j)) {
			out = append(out, fit.Row{Line: int(t.Line), Kind: set.Sub(j), Name: set.Str(t.Name)})
		}
	}
	return out
}

// query is what the rank stage takes of a request.
type query struct {
	focus    []string // clean paths
	mentions []string // identifiers and paths
	text     string   // the user's words

	history *history.View // the tree's history; nil for none
}

// docLanguages are the languages of documents and data rather than code:
// their definitions (headings, keys, selectors, ids) are worth a line in
// a map when nothing better fits.
var docLanguages = map[string]bool{
	"css": true, "html": true, "json": true, "markdown": true, "properties": true,
	"scss": true, "toml": true, "xml": true, "yaml": true,
}

// demoteDocs scales the definitions of the document and data files of s
// by factor, in the ranking in; file entries stay where they are.
func demoteDocs(in *rank.Input, s *index.Snapshot, factor float64) {
	for _, f := range s.Files {
		if docLanguages[tags.Detect(f.Path, nil)] {
			scaleFile(in, f.Path, factor)
		}
	}
}

// overviewDoors returns the files of s that take a share of the teleport
// of a map for no request in the ranking rk: the front doors (frontDoor)
// with rk.Front, and with rk.Readme the READMEs of the roots whose code
// uses names (readme), in map order.
func overviewDoors(ctx context.Context, s *index.Snapshot, rk policy.Config) (doors, readmes []string) {
	if rk.Front > 0 {
		doors = frontDoors(s)
	}
	if rk.Readme > 0 {
		for i, f := range s.Files {
			if !link.Readme(f.Rel) {
				continue
			}
			if slices.ContainsFunc(s.Tags(ctx, i).Tags, func(t tags.Packed) bool { return t.Kind == tags.Reference }) {
				readmes = append(readmes, f.Path)
			}
		}
	}
	return doors, readmes
}

// overviewTeleport gives, in the ranking in of s, the files doors the
// share f of the teleport and the files readmes the share g, and every
// other file an equal part of the rest; a file's part is never below
// that of the others.
func overviewTeleport(in *rank.Input, s *index.Snapshot, doors []string, f float64, readmes []string, g float64) {
	if len(readmes) == 0 || g == 0 {
		frontTeleport(in, s, doors, f)
		return
	}
	if len(doors) == 0 {
		f = 0
	}
	rest := len(s.Files) - len(doors) - len(readmes)
	if rest <= 0 || f+g >= 1 {
		return
	}
	// The weight of a file of the rest is 1.
	each := (1 - f - g) / float64(rest)
	in.Personal = make(map[string]float64, len(s.Files))
	for _, fl := range s.Files {
		in.Personal[fl.Path] = 1
	}
	for _, p := range doors {
		in.Personal[p] = max(1, f/float64(len(doors))/each)
	}
	for _, p := range readmes {
		in.Personal[p] = max(1, g/float64(len(readmes))/each)
	}
}

// frontTeleport gives doors, the front doors of s (frontDoor), the share
// f of the teleport of in, and every other file an equal part of the
// rest.
func frontTeleport(in *rank.Input, s *index.Snapshot, doors []string, f float64) {
	n := len(s.Files)
	if len(doors) == 0 || len(doors) == n {
		return
	}
	// A door weighs 1 + e against 1 for another file, with
	// doors·(1+e) / (n + doors·e) = f.
	d := float64(len(doors))
	e := (f*float64(n) - d) / (d * (1 - f))
	if e <= 0 {
		return
	}
	in.Personal = make(map[string]float64, n)
	for _, fl := range s.Files {
		in.Personal[fl.Path] = 1
	}
	for _, p := range doors {
		in.Personal[p] += e
	}
}

// frontDoors returns the paths of the files of s that are front doors,
// in map order: source files frontDoor names.
func frontDoors(s *index.Snapshot) []string {
	var doors []string
	for i, fl := range s.Files {
		if s.Roles[i] == RoleSource && frontDoor(fl.Path) {
			doors = append(doors, fl.Path)
		}
	}
	return doors
}

// frontDoor reports whether the file at p is, by its language's
// conventions, the front door of a package: what a user of the package
// imports, which re-exports its public API. A Python package's
// __init__.py at the top of the tree or of src/ or lib/ (not a private
// one, whose name starts with "_"); a Rust crate's src/lib.rs; a
// JavaScript or TypeScript package's index file at its top or in its
// src/, source/ or lib/.
func frontDoor(p string) bool {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case base == "__init__.py":
		parent, pkg := path.Split(dir)
		parent = strings.TrimSuffix(parent, "/")
		return pkg != "" && !strings.HasPrefix(pkg, "_") && (parent == "" || parent == "src" || parent == "lib")
	case base == "lib.rs":
		return dir == "src" || strings.HasSuffix(dir, "/src")
	}
	stem, ext, ok := strings.Cut(base, ".")
	if !ok || stem != "index" {
		return false
	}
	switch ext {
	case "js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx":
	default:
		return false
	}
	last := path.Base(dir)
	return dir == "" || last == "src" || last == "source" || last == "lib"
}

// spreadHead is how much of the ranked list spreadNames reorders: more
// than any map shows. (A variable for the tests.)
var spreadHead = 4096

// spreading says how spreadNames reorders the head of the ranked list.
type spreading struct {
	names int // the definitions of a name kept in their places; 0: all
	docs  int // the definitions of a document kept in their places; 0: all
	// variants, when not nil, reports which items of the head are
	// another build's copy of an item before them (buildVariants),
	// which go after every other definition of their tier.
	variants func(head []fit.Item) []bool
}

// on reports whether the spreading moves anything.
func (sp spreading) on() bool { return sp.names > 0 || sp.docs > 0 || sp.variants != nil }

// spreadNames moves down, in the head of the ranked list items (its
// definitions, with the tiers of their files), each definition of a
// name after the first sp.names ones of the name, whose score halves
// with each one before it past those, and each definition of a document
// (docLanguages) after the first sp.docs ones of the file, which goes
// after every other definition of its tier; the head is put in order
// again by tier, then by those scores. The map then shows a name on a few
// types, not on each of the dozen that implement it, and a page the words
// are about by its first headings, not by all of them.
func spreadNames(items []fit.Item, tier map[string]int, sp spreading) {
	end := slices.IndexFunc(items, func(it fit.Item) bool { return it.Name == "" })
	if end < 0 {
		end = len(items)
	}
	head := items[:min(end, spreadHead)]
	type keyed struct {
		it    fit.Item
		tier  int
		late  bool // a document's definition past its first sp.docs, or a build's variant
		score float64
	}
	seen := make(map[string]int, len(head))
	var docs map[string]int // per document: its definitions so far
	if sp.docs > 0 {
		docs = make(map[string]int)
	}
	var variant []bool
	if sp.variants != nil {
		variant = sp.variants(head)
	}
	ks := make([]keyed, len(head))
	for i, it := range head {
		k := keyed{it: it, tier: max(tier[it.Path], 0), score: it.Score, late: variant != nil && variant[i]}
		if sp.names > 0 {
			n := seen[it.Name]
			seen[it.Name] = n + 1
			k.score = math.Ldexp(it.Score, -max(n-sp.names+1, 0))
		}
		if n, ok := docs[it.Path]; ok || docs != nil && docLanguages[tags.Detect(it.Path, nil)] {
			docs[it.Path] = n + 1
			k.late = k.late || n >= sp.docs
		}
		ks[i] = k
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmpBool(a.late, b.late), cmp.Compare(b.score, a.score))
	})
	for i, k := range ks {
		head[i] = k.it
	}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// buildVariants returns, for each item of head (the head of the ranked
// list, best first), whether it is another build's copy of an item
// before it: the definitions of the same name, with qualifiers (a
// method's receiver) that the one before has too, in another file of
// code of the same Go package, where only one of them compiles in a
// build (a file for another GOOS or GOARCH, or for a build tag, one of
// the two named so: suffixed), as
// os/file_plan9.go's and os/file_posix.go's (*File).Close. Nil when there
// is none. Only the files of items that share a directory and a name are
// decoded.
func buildVariants(ctx context.Context, s *index.Snapshot, head []fit.Item) []bool {
	type dirName struct{ dir, name string }
	seen := make(map[dirName][]int)
	quals := make(map[int][]string)
	qualsOf := func(i int) []string {
		if q, ok := quals[i]; ok {
			return q
		}
		var q []string
		if f, ok := s.Lookup(head[i].Path); ok {
			set := s.Tags(ctx, f)
			for j, t := range set.Tags {
				if t.Kind == tags.Definition && link.RankName(set.Sub(j), set.Str(t.Name)) == head[i].Name {
					q = append(q, set.Sub(j)+" "+set.Qual(j))
				}
			}
		}
		slices.Sort(q)
		q = slices.Compact(q)
		quals[i] = q
		return q
	}
	// The pairs of items of Go code that share a directory and a name,
	// one of their files suffixed, the later one first; their files are
	// read from the disk cache in one read.
	type pair struct{ later, before int }
	var pairs []pair
	var read []fit.Item
	for i, it := range head {
		if it.Name == "" || path.Ext(it.Path) != ".go" {
			continue
		}
		if f, ok := s.Lookup(it.Path); !ok || s.Roles[f] != RoleSource {
			continue
		}
		k := dirName{path.Dir(it.Path), it.Name}
		for _, j := range seen[k] {
			if suffixed(it.Path) || suffixed(head[j].Path) {
				pairs = append(pairs, pair{i, j})
				read = append(read, it, head[j])
			}
		}
		seen[k] = append(seen[k], i)
	}
	if len(pairs) == 0 {
		return nil
	}
	readItems(ctx, s, read)
	var out []bool
	for _, p := range pairs {
		if (out == nil || !out[p.later]) && subset(qualsOf(p.later), qualsOf(p.before)) {
			if out == nil {
				out = make([]bool, len(head))
			}
			out[p.later] = true
		}
	}
	return out
}

// suffixed reports whether the name of the Go file at p has a suffix
// after an underscore, as the files of a GOOS, a GOARCH or a build tag
// are named (file_windows.go, asm_amd64.go, binding_nomsgpack.go): of two
// files that define the same names, one is.
func suffixed(p string) bool {
	return strings.Contains(strings.TrimSuffix(path.Base(p), ".go"), "_")
}

// subset reports whether a is not empty and every string of it is in b,
// sorted.
func subset(a, b []string) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return len(a) > 0
}

// topByTier returns the k files most relevant by rel among the files of
// code of s (tiers 0 and 1), and among them, in their order, the at most
// m most relevant files of the last tier (documents, configuration), best
// first: a page the words are about then takes no place of a file of
// code.
func topByTier(s *index.Snapshot, rel map[string]float64, k, m int) []string {
	var out []string
	code, last := 0, 0
	for _, p := range topRelevant(rel, len(rel)) {
		i, ok := s.Lookup(p)
		switch {
		case ok && roleTier[s.Roles[i]] == lastTier:
			if last == m {
				continue
			}
			last++
		case code == k:
			continue
		default:
			code++
		}
		out = append(out, p)
		if code == k && last == m {
			break
		}
	}
	return out
}
