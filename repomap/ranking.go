package repomap

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

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
	resume  func(context.Context) ranked
	resumed bool // whether resume ranked the tree again
}

// graphSize tells how large the ranking's input was.
type graphSize struct{ nodes, links, defs, refs int }

// graphOnly reports whether definitions of this kind link files in the
// ranking without being shown: every Go file of a package defines the
// package's name, which ties the files that use the package to it, but a
// package clause says nothing the path does not.
func graphOnly(sub string) bool { return sub == "package" }

// shownDef is one definition a map can show, as the rank stage indexes
// it: by the name it goes by in the ranking.
type shownDef struct {
	rankName string
	row      fit.Row
}

// linked is the link stage's result: the graph's input, as rank takes it,
// and the names of each file that only link files and are never shown.
type linked struct {
	from   string              // where it came from: Stats.Linked
	files  []rank.File         // nil once index is made, but from link itself
	index  *rank.Index         // of files; nil from link itself
	hidden map[string][]string // by path: names defined only by graphOnly definitions
	size   graphSize
}

// link ties the references of the files of s to definitions: by the
// rules of each language, or by name, a reference to every definition of
// its name, as package rank links the names it is given. (Every setting
// of rk it reads is in linkDigest.)
func link(s *snapshot, rk ranking) linked {
	return newLinker(s, rk).linked(true)
}

// refsOf links the references of file i of the linker's snapshot: by its
// language's rules, or by name.
func (lk *linker) refsOf(i int) fileRefs {
	rk, s, res := lk.rk, lk.s, lk.res
	f := s.files[i]
	var out fileRefs
	set := s.entries[i].tags
	if res != nil && res.resolves(i) {
		// A reference resolves by its name, kind and qualifier in its
		// file, and what the rules say it depends on beside them (the
		// binding of a Go variable in effect where it is used): each
		// such use is resolved once per file.
		uses := lk.uses
		clear(uses)
		order, useCount := lk.order[:0], lk.useCount[:0]
		for j, t := range set.Tags {
			if t.Kind != tags.Reference || !rk.links(set.Sub(j)) {
				continue
			}
			out.n++
			u := refUse{t.Name, t.Sub, t.Qual, res.useContext(i, j)}
			k, ok := uses[u]
			if !ok {
				k = len(order)
				uses[u] = k
				order = append(order, j)
				useCount = append(useCount, 0)
			}
			useCount[k]++
		}
		keys := lk.keys
		for k, j := range order {
			keys = res.refKeys(keys[:0], i, j)
			if rk.names > 0 && len(keys) > 0 && !keys[0].fallback {
				// Resolved, and linked by name too, at rk.names.
				keys = append(keys, ref{name: keys[0].name, scope: namesScope})
				out.named = append(out.named, keys[0].name)
			}
			for _, r := range keys {
				key := r.key()
				var fl uint8
				if r.fallback {
					key = nameKey(r.name, fallbackScope, lk.fams[i])
					fl |= refFallbackFlag
				}
				if isMoreKey(r) {
					fl |= refMoreFlag
				}
				out.keys = append(out.keys, key)
				out.counts = append(out.counts, useCount[k])
				out.flags = append(out.flags, fl)
			}
		}
		lk.order, lk.useCount, lk.keys = order, useCount, keys
		return out
	}
	doc := codeDocument(f.path)
	if doc && !rk.docLinks(f) {
		return out // its code names nothing in this ranking
	}
	count := slices.Grow(lk.count[:0], set.NumStrings())[:set.NumStrings()] // per string of the Set: references to it
	clear(count)
	var bi map[string]bool
	if rk.builtins {
		bi = builtinsOf(f.path)
	}
	for j, t := range set.Tags {
		if t.Kind == tags.Reference && rk.links(set.Sub(j)) {
			if !builtinUse(bi, set.Sub(j), set.Str(t.Name)) {
				count[t.Name]++
			}
			out.n++
		}
	}
	// Each referenced name once, with its count: names that references
	// link to by name alone (plain, when other files have rules).
	for k, n := range count {
		if n == 0 {
			continue
		}
		if doc {
			// A document's names link under keys of their own, in every
			// family of code, and weigh only in the maps they are for
			// (keyWeight).
			for _, fam := range lk.docFams {
				out.keys = append(out.keys, nameKey(set.Str(uint32(k)), docScope, fam))
				out.counts = append(out.counts, n)
				out.flags = append(out.flags, refDocFlag)
			}
			continue
		}
		out.keys = append(out.keys, nameKey(set.Str(uint32(k)), "", lk.fams[i]))
		out.counts = append(out.counts, n)
	}
	lk.count = count
	out.plain = res != nil && !doc
	return out
}

// defsOf returns the keys file i of the linker's snapshot defines, and
// the names of it that link files and are never shown.
func (lk *linker) defsOf(i int) (defs, hidden []string) {
	rk, s, res := lk.rk, lk.s, lk.res
	set := s.entries[i].tags
	var graphNames []uint32 // strings defined by graphOnly definitions
	for j, t := range set.Tags {
		if t.Kind != tags.Definition {
			continue
		}
		sub := set.Sub(j)
		name := rankName(sub, set.Str(t.Name))
		// (The keys that may be used are looked up from lk's buffer, and
		// made only when they are: most are not.)
		if dk := lk.keyOf(name, docScope, lk.fams[i]); lk.sets[refDoc][string(dk)] > 0 {
			defs = append(defs, string(dk))
		}
		if res == nil {
			defs = append(defs, name)
		} else {
			// A definition publishes under its own key, those of its
			// others (a method's type's) that references use, its name
			// where references link by name and its fallback key where
			// a reference falls back to it.
			// (rank gives a definition that none is used by one
			// self-edge, whatever its keys.)
			key := res.defKey(i, j).key()
			defs = append(defs, key)
			lk.more = res.moreDefKeys(lk.more[:0], i, j)
			for _, k := range lk.more {
				if lk.sets[refMore][k] > 0 {
					defs = append(defs, k)
				}
			}
			if pk := lk.keyOf(name, "", lk.fams[i]); key != string(pk) && lk.sets[refPlain][string(pk)] > 0 {
				defs = append(defs, string(pk))
			}
			if fk := lk.keyOf(name, fallbackScope, lk.fams[i]); lk.sets[refFallback][string(fk)] > 0 {
				defs = append(defs, string(fk))
			}
			if lk.sets[refNamed][name] > 0 {
				defs = append(defs, rank.Key(name, namesScope))
			}
		}
		if graphOnly(sub) {
			graphNames = append(graphNames, t.Name)
		}
	}
	if res != nil {
		for _, k := range res.extraKeys(i) {
			defs = append(defs, k)
			name := rank.Ident(k)
			if !slices.ContainsFunc(shownDefs(set), func(r fit.Row) bool { return r.Name == name }) {
				hidden = append(hidden, name)
			}
		}
	}
	if rk.exports && exportsAll(set) {
		hidden = append(hidden, "__all__")
	}
	for _, k := range graphNames {
		shownToo := false
		for j, t := range set.Tags {
			if t.Kind == tags.Definition && t.Name == k && !graphOnly(set.Sub(j)) {
				shownToo = true
				break
			}
		}
		if !shownToo {
			hidden = append(hidden, set.Str(k))
		}
	}
	return defs, hidden
}

// rowIndex finds the rows of definitions in the files of a snapshot,
// indexing each file the first time one of its definitions is asked for.
type rowIndex struct {
	snap  *snapshot
	files map[string][]shownDef // by path, sorted by rank name, then line
	max   int                   // the most rows of one item, the first ones; 0 for no limit
}

// readItems reads, in one read of the disk cache, the entries of the
// files of items that were not read (index.fill), before their tags are
// asked for.
func (s *snapshot) readItems(ctx context.Context, items []fit.Item) {
	var todo []*entry
	for _, it := range items {
		if e := s.entry(it.Path); e != nil && e.lazy != nil {
			todo = append(todo, e)
		}
	}
	if len(todo) > 0 {
		s.idx.fill(ctx, todo)
	}
}

// rows returns the rows of the shown definitions of name in the file at p,
// at most x.max of them when it is set.
func (x *rowIndex) rows(p, name string) []fit.Row {
	defs, ok := x.files[p]
	if !ok {
		if e := x.snap.entry(p); e != nil {
			x.snap.decode(e)
			for _, r := range shownDefs(e.tags) {
				defs = append(defs, shownDef{rankName(r.Kind, r.Name), r})
			}
		}
		slices.SortStableFunc(defs, func(a, b shownDef) int {
			return cmp.Or(strings.Compare(a.rankName, b.rankName), cmp.Compare(a.row.Line, b.row.Line))
		})
		x.files[p] = defs
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
func (r *ranked) prefix(ctx context.Context, k int) []fit.Item {
	if r.list == nil && len(r.items) < min(k, r.n) && r.resume != nil {
		// The items of the ranking made again are the same: its rows
		// are found again too.
		all := r.resume(ctx)
		r.items, r.n, r.list, r.ranks, r.filled, r.resume, r.resumed = all.items, all.n, all.list, all.ranks, 0, nil, true
	}
	r.make(k)
	if r.index != nil && r.filled < k {
		r.index.snap.readItems(ctx, r.items[r.filled:min(k, len(r.items))])
	}
	for ; r.filled < k; r.filled++ {
		if it := &r.items[r.filled]; it.Name != "" && it.Rows == nil && r.index != nil {
			it.Rows = r.index.rows(it.Path, it.Name)
		}
	}
	return r.items[:k]
}

// rankSnapshot ranks the definitions of the files of s for the query q,
// with the ranking rk.
func rankSnapshot(ctx context.Context, s *snapshot, rk ranking, q query) ranked {
	l := s.linked(ctx, rk)
	in, top := rankInput(s, l, rk, q)
	size := l.size
	// A map for no request ranks the same graph the same way as the last
	// one did: it starts where that one's iteration ended.
	var memo *linkMemo
	if len(q.focus) == 0 && len(q.mentions) == 0 && q.text == "" && s.idx != nil {
		memo = s.idx.link
		doors, readmes := overviewDoors(s, rk)
		oq := overviewQuery(s.idx.opts.Ranking, slices.Concat(doors, readmes))
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
	res := l.index.Ranking(in)
	if memo != nil && memo.overview == nil {
		memo.overview, memo.overviewStored = &rank.Converged{Files: res.Files, Iterations: res.Iterations}, false
	}
	size.nodes = len(res.Files)
	size.links = res.Links
	var mixed []string
	if rk.relEvery > 0 {
		mixed = top
		if rk.mixCode || rk.codeTop && !aboutDocs(q.text) {
			mixed = codeFiles(s, top, in.MentionedFiles)
		}
	}
	sp := spreading{names: rk.spread, docs: rk.docItems}
	if rk.variants {
		sp.variants = func(head []fit.Item) []bool { return buildVariants(s, head) }
	}
	list := newItemList(res, l.hidden, mixed, rk.relEvery, sp, in.Tier)
	return ranked{n: list.len(), list: list, ranks: res.Files, size: size, iters: res.Iterations, linked: l.from, index: &rowIndex{snap: s, files: make(map[string][]shownDef), max: rk.itemRows}}
}

// rankInput returns the input of the ranking of s for q, with rk and the
// links l, and the files most relevant to q's words, best first (nil
// without words), which the rank stage uses after the ranking. Its Files
// are l.files. Map.Graph shows the graph of the same input.
func rankInput(s *snapshot, l linked, rk ranking, q query) (in rank.Input, top []string) {
	focus := q.focus
	mentions := q.mentions
	in = rank.Input{Files: l.files, Focus: focus, Reverse: rk.reverse, Weights: rk.weights}
	overview := len(focus) == 0 && len(mentions) == 0 && q.text == ""
	in.KeyWeight = keyWeight(rk, overview)
	if in.KeyWeight != nil {
		// What keyWeight's weights depend on.
		in.KeyWeightName = fmt.Sprint(rk.readme > 0, rk.docCode, rk.docMaps, rk.resolve, rk.fallback, rk.names, rk.private, overview)
	}
	if rk.overviewLong > 0 && overview {
		in.Weights.LongIdent = rk.overviewLong
	}
	if !overview {
		// A request's teleport goes to the files it points at, not to
		// every file: Weights.Lone is for a map for none. (In every map
		// it lowered focus recall on bubbletea's history.)
		in.Weights.Lone = 0
	}
	if overview && (rk.front > 0 || rk.readme > 0) {
		doors, readmes := overviewDoors(s, rk)
		overviewTeleport(&in, s, doors, rk.front, readmes, rk.readme)
	}
	switch {
	case q.text == "":
	case !rk.relevance:
		mentions = slices.Concat(mentions, findMentions(q.text, s.paths()).All())
	default:
		// The paths the words name, the names written as code, and the
		// files whose words the words are.
		named := namedFiles(q.text, s.paths())
		var rel map[string]float64
		mentions = slices.Concat(mentions, named, codeWords(q.text), traceNames(q.text))
		rel = relevance(s, q.text, rk.relText)
		if rk.docRel > 0 {
			// The words of a page are prose: its relevance counts
			// docRel of a code file's.
			for p := range rel {
				if i, ok := s.byPath[p]; ok && roleTier[s.roles[i]] == lastTier {
					rel[p] *= rk.docRel
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
		if rk.relNamed > 0 && len(named) > 0 {
			if rel == nil {
				rel = make(map[string]float64)
			}
			for _, p := range named {
				rel[p] += rk.relNamed
			}
		}
		in.Personal = make(map[string]float64)
		if rk.pagesOn {
			top = topByTier(s, rel, rk.relTop, rk.pages)
		} else {
			top = topRelevant(rel, rk.relTop)
		}
		for _, p := range top {
			in.Personal[p] = rk.relPersonal * rel[p]
		}
		// Every definition's score grows by relBoost times its file's
		// relevance.
		if rk.relBoost > 0 {
			in.Scale = make(map[string]float64, len(rel))
			for p, v := range rel {
				in.Scale[p] = 1 + rk.relBoost*v
			}
		}
	}
	for _, w := range mentions {
		if p := path.Clean(strings.TrimPrefix(w, "./")); s.entry(p) != nil {
			in.MentionedFiles = append(in.MentionedFiles, p)
		}
		in.MentionedIdents = append(in.MentionedIdents, w)
	}
	if rk.companions {
		// The tests of a focus file, or a focus test's subject, count as
		// files the request names. In the default ranking: on eleven
		// histories (40 commits each) focus recall at 1,024 / 4,096
		// tokens summed 3.589 / 6.508 → 4.208 / 6.670 (chi 0.517 →
		// 0.725 at 1,024, gson 0.120 → 0.266, pytest 0.259 → 0.384,
		// axios 0.195 → 0.293; axios at 4,096 0.350 → 0.347, the only
		// figure lower); on 71 commits of six of them whose changed
		// files hold the focus file's test, the map at 1,024 tokens
		// showed it in 52 instead of 25.
		in.MentionedFiles = append(in.MentionedFiles, companions(s, focus)...)
	}
	if rk.docs > 0 {
		demoteDocs(&in, s, rk.docs)
	}
	if rk.roles {
		// Tests and examples go below the code only in a map for no
		// request: a request's files draw their tests with them, which
		// the history of changes says matters. A file the request names,
		// or one of the most relevant to its words, is never moved down.
		tests := 1.0
		if len(focus) == 0 && len(mentions) == 0 && q.text == "" {
			tests = rk.tests
		}
		lifted := top
		if rk.codeTop && !aboutDocs(q.text) {
			lifted = codeFiles(s, top, in.MentionedFiles)
		}
		byRole(&in, s, tests, rk.byName, focus, slices.Concat(in.MentionedFiles, lifted))
	}
	return in, top
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
func relatedItems(s *snapshot, p string, mentioned map[string]bool, res *resolver, rk ranking) ([]fit.Item, map[string]float64) {
	s.decodeAll()
	// What p defines and references, by the names they go by in the
	// ranking.
	self := s.entry(p).tags
	defines := make(map[string]bool)
	refCount := make(map[string]int)
	for j, t := range self.Tags {
		name := self.Str(t.Name)
		if t.Kind == tags.Definition {
			defines[rankName(self.Sub(j), name)] = true
		} else if rk.links(self.Sub(j)) {
			refCount[name]++
		}
	}
	// With res: the keys of p's definitions, and what its references
	// resolve to, by key or, for a name match, by name.
	var defKeys, usesKey, usesName map[string]bool
	var keys []ref
	var more []string
	ip, ok := s.byPath[p]
	if !ok {
		res = nil
	}
	if res != nil {
		defKeys, usesKey, usesName = make(map[string]bool), make(map[string]bool), make(map[string]bool)
		for j, t := range self.Tags {
			if t.Kind == tags.Definition {
				defKeys[res.defKey(ip, j).key()] = true
				for _, k := range res.moreDefKeys(more[:0], ip, j) {
					defKeys[k] = true
				}
				continue
			}
			if !rk.links(self.Sub(j)) {
				continue
			}
			for _, k := range res.refKeys(keys[:0], ip, j) {
				if k.fallback || k.scope == "" {
					usesName[k.name] = true
				} else {
					usesKey[k.key()] = true
				}
			}
		}
	}
	// uses reports whether p uses definition j of file i.
	uses := func(i, j int, rn string) bool {
		if res == nil {
			return refCount[rn] > 0
		}
		if usesName[rn] || usesKey[res.defKey(i, j).key()] {
			return true
		}
		more = res.moreDefKeys(more[:0], i, j)
		return slices.ContainsFunc(more, func(k string) bool { return usesKey[k] })
	}
	// usesSelf reports whether reference j of file i, to name, means a
	// definition of p.
	usesSelf := func(i, j int, name string) bool {
		if res == nil || !res.resolves(i) {
			return defines[name]
		}
		keys = res.refKeys(keys[:0], i, j)
		return slices.ContainsFunc(keys, func(k ref) bool {
			if k.fallback || k.scope == "" {
				return defines[k.name]
			}
			return defKeys[k.key()]
		})
	}
	definers := make(map[string]int) // how many files define a name
	for _, e := range s.entries {
		seen := make(map[string]bool)
		for j, t := range e.tags.Tags {
			if n := rankName(e.tags.Sub(j), e.tags.Str(t.Name)); t.Kind == tags.Definition && !seen[n] {
				seen[n] = true
				definers[n]++
			}
		}
	}
	type link struct {
		weight float64
		defs   map[string][]fit.Row // what p uses that the file defines
		uses   map[string][]fit.Row // where the file uses what p defines
	}
	links := make(map[string]*link)
	for i, f := range s.files {
		if f.path == p {
			continue
		}
		set := s.entries[i].tags
		l := &link{defs: make(map[string][]fit.Row), uses: make(map[string][]fit.Row)}
		for j, t := range set.Tags {
			name, sub := set.Str(t.Name), set.Sub(j)
			switch {
			case t.Kind == tags.Definition && !graphOnly(sub) && uses(i, j, rankName(sub, name)):
				rn := rankName(sub, name)
				l.defs[rn] = append(l.defs[rn], fit.Row{Line: int(t.Line), Kind: sub, Name: name})
			case t.Kind == tags.Reference && defines[name] && rk.links(sub) && usesSelf(i, j, name):
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
		links[f.path] = l
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
func codeFiles(s *snapshot, ps, named []string) []string {
	return slices.DeleteFunc(slices.Clone(ps), func(p string) bool {
		i, ok := s.byPath[p]
		return ok && roleTier[s.roles[i]] > 0 && !slices.Contains(named, p)
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
var roleTier = [numRoles]int{
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
func byRole(in *rank.Input, s *snapshot, tests float64, byName bool, focus, pointed []string) {
	var liftedRoles [numRoles]bool
	for _, p := range focus {
		if i, ok := s.byPath[p]; ok {
			liftedRoles[s.roles[i]] = true
		}
	}
	isPointed := make(map[string]bool, len(pointed))
	for _, p := range pointed {
		isPointed[p] = true
	}
	in.Tier = make(map[string]int)
	for i, f := range s.files {
		r := s.roles[i]
		if isPointed[f.path] || liftedRoles[r] {
			continue
		}
		if (r == RoleTest || r == RoleExample) && tests != 1 {
			scaleFile(in, f.path, tests)
		}
		if t := roleTier[r]; t > 0 {
			in.Tier[f.path] = t
		}
		if byName && roleTier[r] == lastTier {
			if in.ByName == nil {
				in.ByName = make(map[string]bool)
			}
			in.ByName[f.path] = true
		}
	}
}

// lastTier is the tier of documents, configuration, CI and community
// files, and assets. In the default ranking they show by name alone
// (byName) unless the request points at them: with only the code a
// commit changes wanted, ky's focus recall at 4,096 tokens on its whole
// tree rose from 0.921 to 0.974, that of its code alone (40 commits;
// bubbletea and httpx the same), and recall with every changed file
// wanted stayed the same on nine histories, as on the 100 development
// tasks and the canons: the same files show, in fewer tokens.
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
		if t.Kind == tags.Definition && !graphOnly(set.Sub(j)) {
			out = append(out, fit.Row{Line: int(t.Line), Kind: set.Sub(j), Name: set.Str(t.Name)})
		}
	}
	return out
}

// The rankings a Map can use.
const (
	// RankingDefault is repomap's ranking: Aider's, plus edges back from
	// each definition to the files that use it, at half the weight of the
	// forward edges, so that the files using a focus file (its tests, its
	// callers) rise with it. Measured with repomap eval on the history of
	// three repositories (Go, Python, TypeScript), it raised recall at
	// 1,024 and 4,096 tokens on every one; see the README.
	RankingDefault = "default"
	// RankingAider is Aider's ranking, kept for comparison.
	RankingAider = "aider"
)

// The relevance of files to the user's words, by default: see ranking.
// 10/1/1, 10/1/0, 10/0/1 and 20/2/3 were measured on the history of three
// repositories; 20/2/3 raised message recall the most. With the words of
// the files' text counted (relText), every other place of the list going
// to the next most relevant file (relEvery 2) raised the share of tasks
// whose fix's file the map shows from 0.79 to 0.86 at 1,024 tokens on a
// development set of issues, and message recall on the history of four
// repositories by 0.03 to 0.23; 3 and 5 did a little less, 20/6/3 and
// 20/2/8 without it less again. A file the words name (relNamed 1) is as
// relevant as the best file besides: it put the fix's file first in 2
// more tasks of 100 (MRR 0.417 → 0.448) and among the first five in 1
// more.
const (
	relTop      = 20
	relPersonal = 2
	relBoost    = 3
	relText     = 1
	relEvery    = 2
	relNamed    = 1
)

// overviewLong is the multiplier of long descriptive names in a map for
// no request. Aider's 10 lets a long private helper outrank the short
// names a library's users call (Router, Use, get); at 1 the unfocused maps
// of nine repositories showed 41 of their 90 central names at 2,048 tokens
// instead of 32. With a request, Aider's 10 stays: 1 lowered recall on
// history.
const overviewLong = 1

// itemRows is the most rows one item shows: its first definitions of the
// name in its file. A name defined a hundred times in one file (a trait
// method each of a file's types implements) is one item, and at the head
// of the list it filled a budget alone: on 40 commits of ripgrep focus
// recall at 4,096 tokens rose from 0.475 to 0.556 with it, tokio's bytes
// from 0.415 to 0.452 at 1,024, serde_json's overview recall at 4,096
// from 0.721 to 0.747; httpx's overview fell from 0.640 to 0.618 at
// 1,024 (its classes' many __init__ in one file), bubbletea, chi, ky and
// the canons did not change. At 4 httpx's fell more (0.600). With
// spread names (spreadKeep) 3 is better than 8: on eight histories (40
// commits each) focus and message recall at 1,024 / 4,096 tokens summed
// +0.20 (httpx's focus at 1,024 0.368 → 0.432, tokio's bytes 0.465 →
// 0.515, bubbletea's 0.671 → 0.698), the overview question −0.016 (httpx
// 0.669 / 0.889 → 0.632 / 0.881, bytes 0.405 / 0.893 → 0.412 / 0.922),
// and the canons went from 84 / 93 to 86 / 94 of 100 (gson and pytest at
// 2,048, serde_json at 4,096); 2 gave the same canons, 4 85 / 93.
const itemRows = 3

// testFactor scales the definitions of tests and examples in the ranked
// list, so that they come below the code they use unless the request
// points at them.
const testFactor = 0.3

// fallbackWeight is the weight of the edges of a reference that its
// language's rules could not place and that links to every definition of
// its name, relative to a resolved one.
const fallbackWeight = 0.3

// privateWeight is, in a map for no request, the weight of the edges of
// the names a package keeps to itself (Go's lower-case names). At 1 this
// repository's map opened with the CLI's private command, env and config
// types; at 0.3 with Map, Request, Options and the tags API, and the
// canons of chi showed 10 of 10 names at 4,096 tokens instead of 9 (0.1
// gave the same maps as 0.3).
const privateWeight = 0.3

// frontShare is the share of the teleport that the front doors of the
// packages of a tree (frontDoor) take in a map for no request: a user
// meets a package through them, and they hand their rank on to what they
// re-export. At 0.2 the canons went from 72 to 76 of 90 names at 2,048
// tokens (axios, httpx, pytest and serde_json one more each) and stayed
// at 81 at 4,096; the overview question on the history of six
// repositories summed +0.07 at 1,024 tokens and -0.05 at 4,096 (0.4: 77
// and 83 names, but -0.07 at 1,024). Other maps do not change.
const frontShare = 0.2

// readmeShare is the share of the teleport that the README of a root
// takes in a map for no request, where the names its code uses link to
// their definitions (ranking change readme). With the code of the other
// documents (doccode), the development canons went from 78 / 85 names
// to 85 / 87 at 2,048 / 4,096 tokens (rich 6 / 8 → 10 / 10, serde_json
// 7 / 10 → 9 / 10), and the overview question on nine histories from
// 9.617 to 10.071 summed (rich 0.440 → 0.388 at 1,024 tokens, chi 0.793
// → 0.853 at 4,096); 0.2 and 0.3 summed 9.951 and 9.939 without doccode,
// 0.1 9.997. Maps with a request do not change.
const readmeShare = 0.1

// reverseWeight is the weight of an edge back from a definer to a file
// that references it, relative to the forward edge. 0.1, 0.3, 0.5, 0.7
// and 1 were measured; 0.5 was the only one that raised recall at both
// budgets on all three repositories.
const reverseWeight = 0.5

// ranking is a ranking's set of changes to Aider's.
type ranking struct {
	builtins bool    // drop calls of builtin functions and uses of builtin types
	resolve  bool    // resolve references by each language's rules (resolve.go)
	rust     bool    // with resolve, Rust's too (resolve_rust.go): off until its maps fill their budget
	scala    bool    // with resolve, Scala's too (resolve_scala.go): off until it raises recall
	kotlin   bool    // with resolve, Kotlin's too (resolve_kotlin.go): off, as it lowers the overview's recall
	family   bool    // with resolve, names link by name only within a family of languages (langFamily)
	fallback float64 // with resolve, the weight of name matches the rules could not place
	private  float64 // with resolve, in a map for no request, the weight of a package's own names
	names    float64 // with resolve, the weight of a resolved reference's link by name too; 0 for none
	reverse  float64 // weight of the reverse edges; 0 for none
	docs     float64 // scales the definitions of documents and data; 0: no change
	roles    bool    // order the list by the files' roles (see byRole)
	tests    float64 // with roles, scales the definitions of tests and examples

	// How the relevance of files to the user's words (Request.Text)
	// steers the ranking: the relTop most relevant files get a teleport
	// weight of relPersonal times their relevance (the best file's is 1),
	// and every definition's score grows by relBoost times its file's.
	relevance   bool
	relTop      int
	relPersonal float64
	relBoost    float64
	relText     float64 // the weight of the words of a file's text in its relevance; 0: its names alone
	relNamed    float64 // with relevance, what a file the words name adds to its relevance (the best file's is 1)
	relEvery    int     // with relevance, the best definition of the k-th most relevant file is at place k·relEvery at the latest; 0: no such rule
	mixCode     bool    // with relEvery, only files of code (tier 0) and those the words name take turns
	codeTop     bool    // the relevant files that are not code keep their tier and take no turns, unless named or the words are about documents
	spread      int     // after a name's first spread definitions in the list, each next one's score halves; 0: no change
	docItems    int     // after a document's first docItems definitions in the list, the others go after every other definition of its tier; 0: no change
	byName      bool    // with roles, the files of the last tier show by name alone unless the request points at them
	companions  bool    // the companions of the focus files (companions: their tests, a test's subject) count as files the request names
	pagesOn     bool    // with relevance, the relTop most relevant files of code, and at most pages of the last tier, make the most relevant files (topByTier)
	pages       int
	variants    bool    // another build's copy of a Go definition goes after every other definition of its tier (buildVariants)
	docRel      float64 // with relevance, what the relevance of a file of the last tier counts, before the files the words name are added; 0: all of it
	front       float64 // in a map for no request, the share of the teleport that goes to the front doors (frontDoor); 0: none
	// readme: the code of each root's README (readme) links the names
	// it uses, in every family of languages of code, and in a map for no
	// request the READMEs whose code uses names take this share of the
	// teleport; 0: a README links nothing. docCode: the code of every
	// Markdown document links its names.
	readme   float64
	docCode  bool
	docMaps  bool // documents' names link in maps with a request too, not only in a map for none
	itemRows int  // the most rows an item shows, its first definitions of the name in its file; 0 for all
	// fixtures: a parameter of a Python test or fixture links to the
	// pytest fixtures of its name. exports: a name a Python module's
	// __all__ lists is a use of it there, and __all__ is not shown.
	// Both raised the canons from 71 / 77 names to 72 / 81 at 2,048 /
	// 4,096 tokens (pytest 6 / 7 → 7 / 9, rich 7 → 8 and httpx 8 → 9 at
	// 4,096) and httpx's recall on history (overview at 1,024 tokens
	// 0.618 → 0.692, focus 0.349 → 0.371); the other histories did not
	// change, nor did recall on the 100 tasks (MRR 0.455 → 0.451).
	fixtures bool
	exports  bool
	// hints: the names of a Python type annotation ("hint" references)
	// are uses of them. Off: on the history of httpx, pytest and rich it left focus
	// and message recall even in sum (7.149 → 7.139 over twelve
	// figures; httpx's focus at 1,024 tokens 0.371 → 0.332, pytest's
	// message 0.823 → 0.850), and the canons even (rich 6 / 8 → 7 / 7).
	hints bool

	weights rank.Weights // Aider's weights replaced, for experiments

	// overviewLong, when positive, is the multiplier of long descriptive
	// names in a map for no request, in place of Aider's 10.
	overviewLong float64
}

// links reports whether the references of kind sub link files in the
// ranking rk: the parameters that name fixtures only with fixtures, the
// names of an __all__ only with exports, Python's type annotations only
// with hints.
func (rk ranking) links(sub string) bool {
	switch sub {
	case "fixture":
		return rk.fixtures
	case "export":
		return rk.exports
	case "hint":
		return rk.hints
	}
	return true
}

// exportsAll reports whether set lists names in an __all__: it defines
// __all__ and has "export" references.
func exportsAll(set tags.Set) bool {
	all, export := false, false
	for j, t := range set.Tags {
		switch {
		case t.Kind == tags.Definition && set.Str(t.Name) == "__all__":
			all = true
		case t.Kind == tags.Reference && set.Sub(j) == "export":
			export = true
		}
	}
	return all && export
}

// query is what the rank stage takes of a request.
type query struct {
	focus    []string // clean paths
	mentions []string // identifiers and paths
	text     string   // the user's words

}

// parseRanking returns the ranking named s: RankingDefault ("" too),
// RankingAider, or for experiments "aider" followed by changes joined
// with "+": "builtins", "reverse" or "reverse=W" (as in
// "aider+reverse=0.1"); the default ranking takes the languages whose
// rules are off by default ("default+rust", "default+scala",
// "default+kotlin"), the README's share of the teleport
// ("default+readme=0.2"; at 0 its code links as any document's does),
// "doccode" and "docmaps".
func parseRanking(s string) (ranking, error) {
	if langs, ok := strings.CutPrefix(s, RankingDefault+"+"); ok {
		r, _ := parseRanking(RankingDefault)
		for _, l := range strings.Split(langs, "+") {
			name, val, hasVal := strings.Cut(l, "=")
			switch {
			case l == "rust":
				r.rust = true
			case l == "scala":
				r.scala = true
			case l == "kotlin":
				r.kotlin = true
			case l == "doccode":
				r.docCode = true
			case l == "docmaps":
				r.docMaps = true
			case l == "byname":
				r.byName = true
			case l == "companions":
				r.companions = true
			case l == "variants":
				r.variants = true
			case name == "pages" && hasVal:
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 || n > 100 {
					return r, fmt.Errorf("repomap: ranking %q: pages takes a whole number from 0 to 100", s)
				}
				r.pages, r.pagesOn = n, true
			case name == "docrel" && hasVal:
				w, err := strconv.ParseFloat(val, 64)
				if err != nil || w <= 0 || w > 1 {
					return r, fmt.Errorf("repomap: ranking %q: docrel takes a factor in (0, 1]", s)
				}
				r.docRel = w
			case name == "docitems" && hasVal:
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 || n > 100 {
					return r, fmt.Errorf("repomap: ranking %q: docitems takes a whole number from 0 to 100", s)
				}
				r.docItems = n
			case name == "readme" && hasVal:
				w, err := strconv.ParseFloat(val, 64)
				if err != nil || w < 0 || w >= 1 {
					return r, fmt.Errorf("repomap: ranking %q: readme takes a share of the teleport in [0, 1)", s)
				}
				r.readme = w
			default:
				return r, fmt.Errorf("repomap: ranking %q: the default ranking takes rust, scala, kotlin, readme=F, doccode, docmaps, byname, companions, variants, pages=N, docrel=F or docitems=N, not %q", s, l)
			}
		}
		return r, nil
	}
	switch s {
	case "", RankingDefault:
		// Dropping builtins (aider+builtins) left recall unchanged on two
		// repositories and lowered it on the third: it is not in.
		return ranking{reverse: reverseWeight, roles: true, tests: testFactor, resolve: true, fallback: fallbackWeight, private: privateWeight,
			relevance: true, relTop: relTop, relPersonal: relPersonal, relBoost: relBoost, relText: relText, relEvery: relEvery, relNamed: relNamed,
			overviewLong: overviewLong, itemRows: itemRows, fixtures: true, exports: true, front: frontShare, spread: spreadKeep, family: true,
			readme: readmeShare, docCode: true, docItems: docItemsKeep, byName: true, companions: true, variants: true}, nil
	case RankingAider:
		return ranking{}, nil
	}
	parts := strings.Split(s, "+")
	var r ranking
	textSet := false    // text=W was given
	mixSet := false     // mix=N was given
	namedSet := false   // named=W was given
	defaultMix := false // rel was given, which brings the default mix and named
	if parts[0] != RankingAider {
		return r, fmt.Errorf("repomap: unknown ranking %q (want %s, %s, or %s+CHANGE…)", s, RankingDefault, RankingAider, RankingAider)
	}
	for _, p := range parts[1:] {
		name, val, hasVal := strings.Cut(p, "=")
		switch {
		case name == "builtins" && !hasVal:
			r.builtins = true
		case name == "names" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 1 {
				return r, fmt.Errorf("repomap: ranking %q: names takes a weight in (0, 1]", s)
			}
			r.names = w
		case name == "private" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 1 {
				return r, fmt.Errorf("repomap: ranking %q: private takes a weight in (0, 1]", s)
			}
			r.private = w
		case name == "rust" && !hasVal:
			r.rust = true
		case name == "scala" && !hasVal:
			r.scala = true
		case name == "kotlin" && !hasVal:
			r.kotlin = true
		case name == "family" && !hasVal:
			r.family = true
		case name == "resolve" && !hasVal:
			r.resolve, r.fallback = true, fallbackWeight
		case name == "resolve":
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 1 {
				return r, fmt.Errorf("repomap: ranking %q: resolve takes the weight of unresolved name matches, in (0, 1]", s)
			}
			r.resolve, r.fallback = true, w
		case name == "docs" && !hasVal:
			r.docs = docFactor
		case name == "docs":
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 1 {
				return r, fmt.Errorf("repomap: ranking %q: docs takes a factor in (0, 1]", s)
			}
			r.docs = w
		case name == "overview" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 100 {
				return r, fmt.Errorf("repomap: ranking %q: overview takes a weight above 0", s)
			}
			r.overviewLong = w
		case name == "roles" && !hasVal:
			r.roles, r.tests = true, testFactor
		case name == "roles":
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 1 {
				return r, fmt.Errorf("repomap: ranking %q: roles takes a factor for tests in (0, 1]", s)
			}
			r.roles, r.tests = true, w
		case name == "rel" && !hasVal:
			r.relevance, r.relTop, r.relPersonal, r.relBoost = true, relTop, relPersonal, relBoost
			defaultMix = true
		case name == "named" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w < 0 || w > 100 {
				return r, fmt.Errorf("repomap: ranking %q: named takes a weight of 0 or more", s)
			}
			r.relNamed, namedSet = w, true
		case name == "fixtures" && !hasVal:
			r.fixtures = true
		case name == "exports" && !hasVal:
			r.exports = true
		case name == "hints" && !hasVal:
			r.hints = true
		case name == "spread" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 100 {
				return r, fmt.Errorf("repomap: ranking %q: spread takes a whole number from 1 to 100", s)
			}
			r.spread = n
		case name == "front" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w >= 1 {
				return r, fmt.Errorf("repomap: ranking %q: front takes a share of the teleport in (0, 1)", s)
			}
			r.front = w
		case name == "docitems" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 100 {
				return r, fmt.Errorf("repomap: ranking %q: docitems takes a whole number from 1 to 100", s)
			}
			r.docItems = n
		case name == "readme" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w >= 1 {
				return r, fmt.Errorf("repomap: ranking %q: readme takes a share of the teleport in (0, 1)", s)
			}
			r.readme = w
		case name == "doccode" && !hasVal:
			r.docCode = true
		case name == "docmaps" && !hasVal:
			r.docMaps = true
		case name == "byname" && !hasVal:
			r.byName = true
		case name == "companions" && !hasVal:
			r.companions = true
		case name == "variants" && !hasVal:
			r.variants = true
		case name == "mixcode" && !hasVal:
			r.mixCode = true
		case name == "codetop" && !hasVal:
			r.codeTop = true
		case name == "rows" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 1000 {
				return r, fmt.Errorf("repomap: ranking %q: rows takes a whole number from 1 to 1000", s)
			}
			r.itemRows = n
		case name == "mix" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > 100 {
				return r, fmt.Errorf("repomap: ranking %q: mix takes a whole number from 0 to 100", s)
			}
			r.relEvery, mixSet = n, true
		case name == "text" && hasVal:
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w < 0 || w > 100 {
				return r, fmt.Errorf("repomap: ranking %q: text takes a weight of 0 or more", s)
			}
			r.relText, textSet = w, true
		case name == "rel":
			// rel=TOP/PERSONAL/BOOST
			var top int
			var pers, bst float64
			if n, err := fmt.Sscanf(val, "%d/%g/%g", &top, &pers, &bst); n != 3 || err != nil || top < 0 || pers < 0 || bst < 0 {
				return r, fmt.Errorf("repomap: ranking %q: rel takes TOP/PERSONAL/BOOST, as rel=10/1/1", s)
			}
			r.relevance, r.relTop, r.relPersonal, r.relBoost = true, top, pers, bst
		case hasVal && (name == "long" || name == "common" || name == "self" || name == "lone"):
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 100 {
				return r, fmt.Errorf("repomap: ranking %q: %s takes a weight above 0", s, name)
			}
			switch name {
			case "long":
				r.weights.LongIdent = w
			case "common":
				r.weights.CommonIdent = w
			case "self":
				r.weights.Unreferenced = w
			case "lone":
				r.weights.Lone = w
			}
		case name == "reverse" && !hasVal:
			r.reverse = reverseWeight
		case name == "reverse":
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || w <= 0 || w > 100 {
				return r, fmt.Errorf("repomap: ranking %q: reverse takes a weight above 0", s)
			}
			r.reverse = w
		default:
			return r, fmt.Errorf("repomap: ranking %q: unknown change %q (want builtins, family, fixtures, exports, hints, docs, names=W, private=W, resolve, resolve=W, rust, scala, kotlin, docs=F, long=W, common=W, self=W, lone=W, overview=W, rel, rel=TOP/PERSONAL/BOOST, text=W, named=W, mix=N, mixcode, codetop, front=F, readme=F, doccode, docmaps, byname, companions, variants, spread=N, docitems=N, rows=N, roles, roles=F, reverse or reverse=W)", s, p)
		}
	}
	if !textSet {
		r.relText = relText
	}
	if defaultMix && !mixSet {
		r.relEvery = relEvery
	}
	if defaultMix && !namedSet {
		r.relNamed = relNamed
	}
	return r, nil
}

// builtins lists, per language, the names whose plain calls ("call"
// references) and type uses ("type" references) mean the language's own
// function or type, not a definition of the tree that shares the name.
var builtins = map[string]map[string]bool{
	"go": set(`append cap clear close complex copy delete imag len make max min new panic print println real recover
		any bool byte comparable complex128 complex64 error float32 float64 int int16 int32 int64 int8 rune string
		uint uint16 uint32 uint64 uint8 uintptr`),
	"python": set(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile
		complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash
		help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open
		ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type
		vars zip __import__`),
	"javascript": jsBuiltins,
	"typescript": jsBuiltins,
	"tsx":        jsBuiltins,
}

var jsBuiltins = set(`setTimeout setInterval clearTimeout clearInterval queueMicrotask structuredClone parseInt
	parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI require fetch String Number
	Boolean Symbol BigInt Object Array`)

func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// builtinsOf returns the builtins of the language of the file at path,
// or nil.
func builtinsOf(path string) map[string]bool { return builtins[tags.Detect(path, nil)] }

// builtinUse reports whether a reference of kind sub to name is a use of
// one of the builtins b.
func builtinUse(b map[string]bool, sub, name string) bool {
	return b != nil && (sub == "call" || sub == "type") && b[name]
}

// rankName is the name a definition goes by in the ranking. A heading of a
// document goes by a name no identifier has, so that code that happens to
// use the heading's words does not tie itself to the document.
func rankName(sub, name string) string {
	if sub == "heading" {
		return "#" + name
	}
	return name
}

// CheckRanking returns an error when name is not a ranking Options.Ranking
// takes.
func CheckRanking(name string) error {
	_, err := parseRanking(name)
	return err
}

// codeDocument reports whether the file at p is a document whose code
// blocks give references (tags.Parser reads them): a Markdown document.
// Its references link only with the ranking changes readme and doccode.
func codeDocument(p string) bool { return tags.Detect(p, nil) == "markdown" }

// readme reports whether f is the README of its root: a Markdown
// document named README at the root's top.
func readme(f file) bool {
	if strings.Contains(f.rel, "/") || !codeDocument(f.rel) {
		return false
	}
	stem, _, _ := strings.Cut(f.rel, ".")
	return strings.EqualFold(stem, "readme")
}

// docLinks reports whether the code of the document f links its names in
// the ranking rk.
func (rk ranking) docLinks(f file) bool {
	return rk.docCode || rk.readme > 0 && readme(f)
}

// docScope is the scope of the keys under which the names of documents'
// code (codeDocument) link to every definition of the name.
const docScope = "~doc"

// notCodeFamilies are the families of languages whose definitions the
// code of a document does not mean: data, markup, builds and shells.
var notCodeFamilies = set("bash cmake json make markdown properties toml xml yaml")

// docFamilies returns the families of languages of fams (one per file)
// that the names of a document's code link in: those of code, each once,
// in order; [""] when fams holds no family (links by name alone).
func docFamilies(fams []string) []string {
	var out []string
	for _, f := range fams {
		if f != "" && !notCodeFamilies[f] {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 && !slices.ContainsFunc(fams, func(f string) bool { return f != "" }) {
		return []string{""}
	}
	return out
}

// docLanguages are the languages of documents and data rather than code:
// their definitions (headings, keys, selectors, ids) are worth a line in
// a map when nothing better fits.
var docLanguages = map[string]bool{
	"css": true, "html": true, "json": true, "markdown": true, "properties": true,
	"scss": true, "toml": true, "xml": true, "yaml": true,
}

// docFactor scales the scores of definitions in docLanguages files.
const docFactor = 0.01

// demoteDocs scales the definitions of the document and data files of s
// by factor, in the ranking in; file entries stay where they are.
func demoteDocs(in *rank.Input, s *snapshot, factor float64) {
	for _, f := range s.files {
		if docLanguages[tags.Detect(f.path, nil)] {
			scaleFile(in, f.path, factor)
		}
	}
}

// overviewDoors returns the files of s that take a share of the teleport
// of a map for no request in the ranking rk: the front doors (frontDoor)
// with rk.front, and with rk.readme the READMEs of the roots whose code
// uses names (readme), in map order.
func overviewDoors(s *snapshot, rk ranking) (doors, readmes []string) {
	if rk.front > 0 {
		doors = frontDoors(s)
	}
	if rk.readme > 0 {
		for i, f := range s.files {
			if !readme(f) {
				continue
			}
			e := s.entries[i]
			s.decode(e)
			if slices.ContainsFunc(e.tags.Tags, func(t tags.Packed) bool { return t.Kind == tags.Reference }) {
				readmes = append(readmes, f.path)
			}
		}
	}
	return doors, readmes
}

// overviewTeleport gives, in the ranking in of s, the files doors the
// share f of the teleport and the files readmes the share g, and every
// other file an equal part of the rest; a file's part is never below
// that of the others.
func overviewTeleport(in *rank.Input, s *snapshot, doors []string, f float64, readmes []string, g float64) {
	if len(readmes) == 0 || g == 0 {
		frontTeleport(in, s, doors, f)
		return
	}
	if len(doors) == 0 {
		f = 0
	}
	rest := len(s.files) - len(doors) - len(readmes)
	if rest <= 0 || f+g >= 1 {
		return
	}
	// The weight of a file of the rest is 1.
	each := (1 - f - g) / float64(rest)
	in.Personal = make(map[string]float64, len(s.files))
	for _, fl := range s.files {
		in.Personal[fl.path] = 1
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
func frontTeleport(in *rank.Input, s *snapshot, doors []string, f float64) {
	n := len(s.files)
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
	for _, fl := range s.files {
		in.Personal[fl.path] = 1
	}
	for _, p := range doors {
		in.Personal[p] += e
	}
}

// frontDoors returns the paths of the files of s that are front doors,
// in map order: source files frontDoor names.
func frontDoors(s *snapshot) []string {
	var doors []string
	for i, fl := range s.files {
		if s.roles[i] == RoleSource && frontDoor(fl.path) {
			doors = append(doors, fl.path)
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

// spreadKeep is how many definitions of a name the ranked list keeps
// in their places (spreadNames). At 1, on the canons, 76 / 81 names at
// 2,048 / 4,096 tokens went to 76 / 84 (httpx, kotlinpoet, serde_json);
// on the history of five repositories (40 commits each) focus and
// message recall at 1,024 / 4,096 summed 14.236 → 14.329 (rich's focus
// at 1,024 0.328 → 0.403, chi's at 4,096 0.881 → 0.932, bubbletea's at
// 1,024 0.708 → 0.671), and the overview question 6.792 → 6.672: it
// wants every definer of a name a change uses, and chi's fell most
// (0.523 / 0.876 → 0.455 / 0.789). At 2 and 3 the canons did not move.
const spreadKeep = 1

// docItemsKeep is how many definitions of a document the ranked list
// keeps in their places (spreadNames): a page the request's words are
// about shows its first heading among the code, and its others after
// the code of its tier. On the history of nine repositories (40 commits
// each, every file a commit changes wanted) focus and message recall at
// 1,024 / 4,096 tokens summed 22.658 → 22.885 (httpx's message 0.699 /
// 0.794 → 0.742 / 0.818, axios's 0.516 / 0.575 → 0.541 / 0.627, gson's
// at 1,024 0.776 → 0.764); with only the code a commit changes wanted,
// httpx's message recall on its whole tree went from 0.684 / 0.813 to
// 0.753 / 0.860 (0.826 / 0.905 on its code alone). On the 100
// development tasks recall stayed 0.880 / 0.949 / 0.967 at 1,024 / 4,096
// / 8,192 tokens, MRR 0.450 → 0.448. 2 did less; the overview and the
// canons did not change. Halving the score of each definition past the
// first instead, as spreadKeep does for names, did less: on five of the
// histories 14.439 → 14.574, against 14.593.
const docItemsKeep = 1

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

// family is in the default ranking: on the history of six repositories
// (40 commits each) focus and message recall at 1,024 / 4,096 tokens
// summed the same (+0.001; ky's focus at 1,024 0.460 → 0.490, httpx's
// message 0.714 → 0.699), the overview question +0.035, and the canons
// did not move; this repository's own map no longer ranks a Go field
// named it by the uses of "it" in its Lisp, Nim and Fortran fixtures.

// familyScope separates, in the scope of a key by name, the scope from
// the family of languages it is for (nameKey).
const familyScope = "|"

// keyOf returns the bytes of nameKey(name, scope, fam), in lk's buffer:
// valid until its next call.
func (lk *linker) keyOf(name, scope, fam string) []byte {
	b := append(lk.key[:0], name...)
	if scope != "" || fam != "" {
		b = append(append(b, 0), scope...)
		if fam != "" {
			b = append(append(b, familyScope...), fam...)
		}
	}
	lk.key = b
	return b
}

// nameKey returns the key of a link by name to name: a plain one (scope
// empty) or a fallback (fallbackScope), for files of the family of
// languages fam, or for any file when fam is empty.
func nameKey(name, scope, fam string) string {
	if fam == "" {
		if scope == "" {
			return name
		}
		return rank.Key(name, scope)
	}
	return rank.Key(name, scope+familyScope+fam)
}

// langFamily returns the family of the language lang (as tags.Detect
// names it): the languages whose code can use each other's names
// without a binding the tags see, as a page's script uses its
// elements' ids, or Kotlin Java's classes. A language of no family is
// its own.
func langFamily(lang string) string {
	switch lang {
	case "javascript", "typescript", "tsx", "html", "css", "scss", "less", "svelte", "vue":
		return "web"
	case "java", "kotlin", "scala", "groovy", "clojure":
		return "jvm"
	case "c", "cpp", "objectivec", "cuda":
		return "c"
	case "csharp", "fsharp", "vbnet":
		return "dotnet"
	}
	return lang
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
func buildVariants(s *snapshot, head []fit.Item) []bool {
	type dirName struct{ dir, name string }
	seen := make(map[dirName][]int)
	quals := make(map[int][]string)
	qualsOf := func(i int) []string {
		if q, ok := quals[i]; ok {
			return q
		}
		var q []string
		if e := s.entry(head[i].Path); e != nil {
			s.decode(e)
			set := e.tags
			for j, t := range set.Tags {
				if t.Kind == tags.Definition && rankName(set.Sub(j), set.Str(t.Name)) == head[i].Name {
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
		if f, ok := s.byPath[it.Path]; !ok || s.roles[f] != RoleSource {
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
	s.readItems(context.Background(), read)
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
func topByTier(s *snapshot, rel map[string]float64, k, m int) []string {
	var out []string
	code, last := 0, 0
	for _, p := range topRelevant(rel, len(rel)) {
		i, ok := s.byPath[p]
		switch {
		case ok && roleTier[s.roles[i]] == lastTier:
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
