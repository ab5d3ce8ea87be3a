package items

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// The list of items is made as the fit reads it. It is
//
//   - the definition entries of the ranking, but for those of names a
//     file defines only to link files (link.Linked.Hidden), with the
//     definitions the policy leads with (policy.Lead: the most relevant
//     to the request's words of the files most relevant to them) moved
//     up (interleave);
//   - then the files by name alone: the ranking's file-only entries and,
//     when some file's definitions are all hidden, that file too, all of
//     them then by rank and path.
//
// itemList makes it one item at a time, exactly as the same steps made
// over the whole sorted list make it (TestItemListLazy).

// itemList makes the rank stage's items in order.
type itemList struct {
	rk     *rank.Ranking
	hidden map[string][]string // by path: names of definitions never shown
	hid    *rank.Hidden        // the entries of hidden

	j        int        // the next definition entry of rk to look at
	a        int        // definitions made or passed: the index of the next in the list of shown ones
	nDefs    int        // shown definitions
	peeked   rank.Entry // the a-th shown definition, when havePeek
	havePeek bool

	// The shown definitions to move up, by relevance, every how many
	// items, and the next to place.
	lifted []rank.Entry
	lines  map[pathName][]int // the lines of interest of lifted ones
	every  int
	next   int
	moved  map[pathName]bool

	defsOut int        // items made of definitions
	tail    []fit.Item // the files by name alone, in order
	tailOut int        // items made of tail

	// With spread (spreadNames), the first shown definitions in their
	// spread order, and each one's place there; the list goes on after
	// them from entry j of rk.
	head []rank.Entry
	pos  map[pathName]int
}

// pathName is a definition by its file and name.
type pathName struct{ path, name string }

// newItemList returns the maker of the items of the ranking rk, without
// the definitions hidden lists, with the k-th definition of leads moved
// up to place k·every at the latest (as interleave does).
//
// With spread on, the first spreadHead shown definitions are put in the
// order spreadNames gives them, with the tiers of tier, before the files
// are moved up.
func newItemList(rk *rank.Ranking, hidden map[string][]string, leads []policy.Lead, every int, spread spreading, tier map[string]int) *itemList {
	l := &itemList{rk: rk, hidden: hidden, every: every, moved: make(map[pathName]bool)}
	// Shown definitions: all but the hidden ones. A file all of whose
	// definitions are hidden goes among the files by name alone.
	l.hid = rk.Hide(hidden)
	l.nDefs = rk.Len() - l.hid.Defs()
	var extra []fit.Item
	for _, p := range l.hid.Whole() {
		extra = append(extra, fit.Item{Path: p, Score: rk.Files[p]})
	}
	for _, e := range rk.Tail() {
		l.tail = append(l.tail, fit.Item{Path: e.Path, Score: e.Score})
	}
	if len(extra) > 0 {
		l.tail = append(l.tail, extra...)
		slices.SortStableFunc(l.tail, func(a, b fit.Item) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path))
		})
	}
	if spread.on() {
		l.spread(spread, tier)
	}
	if every > 0 {
		for _, d := range leads {
			if e, ok := l.lead(d); ok {
				l.lifted = append(l.lifted, e)
				if len(d.Lines) > 0 {
					if l.lines == nil {
						l.lines = make(map[pathName][]int)
					}
					l.lines[pathName{e.Path, e.Name}] = d.Lines
				}
			}
		}
	}
	return l
}

// lead returns the shown definition entry of d: its first in the spread
// order when d names none.
func (l *itemList) lead(d policy.Lead) (rank.Entry, bool) {
	at := func(e rank.Entry) bool { return e.Path == d.Path && (d.Name == "" || e.Name == d.Name) }
	if i := slices.IndexFunc(l.head, at); i >= 0 {
		return l.head[i], true
	}
	for _, e := range l.rk.Of(d.Path) {
		if at(e) && !l.isHidden(e) {
			return e, true
		}
	}
	return rank.Entry{}, false
}

// spread takes the first spreadHead shown definitions off the ranking
// and puts them in the order spreadNames gives them.
func (l *itemList) spread(sp spreading, tier map[string]int) {
	var items []fit.Item
	for len(items) < spreadHead {
		e, ok := l.peek()
		if !ok {
			break
		}
		l.havePeek = false
		l.j++
		items = append(items, fit.Item{Path: e.Path, Name: e.Name, Score: e.Score})
	}
	spreadNames(items, tier, sp)
	l.head = make([]rank.Entry, len(items))
	l.pos = make(map[pathName]int, len(items))
	for i, it := range items {
		l.head[i] = rank.Entry{Path: it.Path, Name: it.Name, Score: it.Score}
		l.pos[pathName{it.Path, it.Name}] = i
	}
}

// before reports whether shown definition e comes before shown
// definition cur in the list (the files moved up aside).
func (l *itemList) before(e, cur rank.Entry) bool {
	pe, inE := l.pos[pathName{e.Path, e.Name}]
	pc, inC := l.pos[pathName{cur.Path, cur.Name}]
	switch {
	case inE && inC:
		return pe < pc
	case inE != inC:
		return inE
	}
	return l.rk.Compare(e, cur) < 0
}

// len returns the number of items.
func (l *itemList) len() int { return l.nDefs + len(l.tail) }

// isHidden reports whether definition entry e is never shown.
func (l *itemList) isHidden(e rank.Entry) bool { return slices.Contains(l.hidden[e.Path], e.Name) }

// peek returns the a-th shown definition; false when all were made.
func (l *itemList) peek() (rank.Entry, bool) {
	if l.a < len(l.head) {
		return l.head[l.a], true
	}
	if l.havePeek {
		return l.peeked, true
	}
	for ; l.j < l.rk.Len(); l.j++ {
		if e := l.rk.At(l.j); !l.isHidden(e) {
			l.peeked, l.havePeek = e, true
			return e, true
		}
	}
	return rank.Entry{}, false
}

// pass moves on from the a-th shown definition.
func (l *itemList) pass() {
	if l.a < len(l.head) {
		l.a++
		return
	}
	l.peek()
	l.j++
	l.a++
	l.havePeek = false
}

// more returns the next item; false when all were made.
func (l *itemList) more() (fit.Item, bool) {
	for l.defsOut < l.nDefs {
		cur, ok := l.peek()
		if l.next < len(l.lifted) && (l.defsOut >= l.next*l.every || !ok) {
			e := l.lifted[l.next]
			l.next++
			// Already made, or in its own place before the next.
			if l.moved[pathName{e.Path, e.Name}] || !ok || l.before(e, cur) {
				continue
			}
			l.moved[pathName{e.Path, e.Name}] = true
			l.defsOut++
			return fit.Item{Path: e.Path, Name: e.Name, Score: max(e.Score, cur.Score), Lines: l.lines[pathName{e.Path, e.Name}]}, true
		}
		if !ok {
			break // cannot be: every shown definition was made
		}
		l.pass()
		if !l.moved[pathName{cur.Path, cur.Name}] {
			l.defsOut++
			return fit.Item{Path: cur.Path, Name: cur.Name, Score: cur.Score}, true
		}
	}
	if l.tailOut < len(l.tail) {
		l.tailOut++
		return l.tail[l.tailOut-1], true
	}
	return fit.Item{}, false
}

// List is the ranked list of items a map shows a prefix of, best first,
// made as it is read: a map shows a few hundred of the hundreds of
// thousands of definitions of a large tree.
type List struct {
	items  []fit.Item // the items made so far
	n      int        // the items in all
	maker  *itemList  // makes the items after items; nil once all are made
	rows   *rowIndex  // where the rows of the items come from; nil when they have them
	filled int        // items[:filled] have their rows
}

// New returns the list of the ranking r of the files of s: its
// definitions, but for those of names hidden lists by file, with the
// k-th definition of leads moved up to place k·c.Items.Every at the
// latest, the head spread by c.Items with the tiers
// of tier, then the files by name alone; each item with its first c.Rows
// definitions of its name in its file (all when 0), read from s when a
// prefix holds it. ctx bounds what the spreading reads of s (the tags of
// the files of another build's copies of a definition).
func New(ctx context.Context, s *index.Snapshot, r *rank.Ranking, hidden map[string][]string, leads []policy.Lead, tier map[string]int, c policy.Config) *List {
	sp := spreading{names: c.Items.Spread, docs: c.Items.DocItems}
	if c.Items.Variants {
		sp.variants = func(head []fit.Item) []bool { return buildVariants(ctx, s, head) }
	}
	m := newItemList(r, hidden, leads, c.Items.Every, sp, tier)
	return &List{n: m.len(), maker: m, rows: &rowIndex{snap: s, files: make(map[string][]shownDef), max: c.Rows}}
}

// Kept returns a list of the items made before, of n in all, whose rows
// are to be read from s, at most rows of them an item (all when 0).
func Kept(s *index.Snapshot, made []fit.Item, n, rows int) *List {
	return &List{items: made, n: n, rows: &rowIndex{snap: s, files: make(map[string][]shownDef), max: rows}}
}

// Fixed returns the list of items, which have their rows.
func Fixed(items []fit.Item) *List {
	return &List{items: items, n: len(items), filled: len(items)}
}

// Len returns the number of items of l.
func (l *List) Len() int { return l.n }

// Short reports whether l cannot make its first k items: a Kept list
// that holds fewer.
func (l *List) Short(k int) bool { return l.maker == nil && len(l.items) < min(k, l.n) }

// Make makes the first k items of l, or all when there are fewer.
func (l *List) Make(k int) {
	for l.maker != nil && len(l.items) < k {
		it, ok := l.maker.more()
		if !ok {
			l.maker = nil
			break
		}
		l.items = append(l.items, it)
	}
}

// Made returns the items made so far.
func (l *List) Made() []fit.Item { return l.items }

// All returns every item of l.
func (l *List) All() []fit.Item {
	l.Make(l.n)
	return l.items
}

// Prefix returns the first k items of l, with their rows: the items
// are made, and the rows of each found, the first time a prefix holds
// it. When ctx is done before their rows are read, it returns ctx's
// error, and the items are not to be shown.
func (l *List) Prefix(ctx context.Context, k int) ([]fit.Item, error) {
	l.Make(k)
	k = min(k, len(l.items))
	if l.rows != nil && l.filled < k {
		readItems(ctx, l.rows.snap, l.items[l.filled:k])
	}
	for ; l.filled < k; l.filled++ {
		if it := &l.items[l.filled]; it.Name != "" && it.Rows == nil && l.rows != nil {
			it.Rows = l.rows.rows(ctx, it.Path, it.Name)
			if len(it.Lines) > 0 {
				it.Rows = slices.Clone(it.Rows)
				for _, ln := range it.Lines {
					it.Rows = append(it.Rows, fit.Row{Line: ln, Kind: fit.LineOfInterest})
				}
				slices.SortStableFunc(it.Rows, func(a, b fit.Row) int { return cmp.Compare(a.Line, b.Line) })
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repomap: %w", err) // the rows may not have been read
	}
	return l.items[:k], nil
}

// Files returns the path of every file of l's items, in the order of
// its first item: the items made so far, and, for the rest, the order of
// each file's best shown definition, then the files by name alone. Once
// the files to move up are placed, the definitions keep their order.
func (l *List) Files() []string {
	for m := l.maker; m != nil && (m.next < len(m.lifted) || m.a < len(m.head)) && m.defsOut < m.nDefs; m = l.maker {
		l.Make(len(l.items) + 1)
	}
	seen := make(map[string]bool)
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, it := range l.items {
		add(it.Path)
	}
	if m := l.maker; m != nil {
		if m.defsOut < m.nDefs {
			for _, p := range m.rk.Leaders(m.hid) {
				add(p)
			}
		}
		for _, it := range m.tail {
			add(it.Path)
		}
	}
	return out
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

// shownDef is one definition a map can show, as the rank stage indexes
// it: by the name it goes by in the ranking.
type shownDef struct {
	rankName string
	row      fit.Row
}

// ShownDefs returns the definitions of set that a map shows, in tag
// order, each with its qualifier.
func ShownDefs(set tags.Set) []fit.Row {
	var out []fit.Row
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && !link.GraphOnly(set.Sub(j)) {
			out = append(out, fit.Row{Line: int(t.Line), Kind: set.Sub(j), Name: set.Str(t.Name), Qual: set.Qual(j)})
		}
	}
	return out
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

// spreadNames moves down, in the head of the ranked list items (its
// definitions, with the tiers of their files), each definition of a
// name after the first sp.names ones of the name, whose score halves
// with each one before it past those, and each definition of a document
// (policy.DocLanguages) after the first sp.docs ones of the file, which goes
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
		if n, ok := docs[it.Path]; ok || docs != nil && policy.DocLanguages[tags.Detect(it.Path, nil)] {
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
		if f, ok := s.Lookup(it.Path); !ok || s.Roles[f] != index.RoleSource {
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

// rows returns the rows of the shown definitions of name in the file at p,
// at most x.max of them when it is set.
func (x *rowIndex) rows(ctx context.Context, p, name string) []fit.Row {
	defs, ok := x.files[p]
	if !ok {
		if i, ok := x.snap.Lookup(p); ok {
			for _, r := range ShownDefs(x.snap.Tags(ctx, i)) {
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

// on reports whether the spreading moves anything.
func (sp spreading) on() bool { return sp.names > 0 || sp.docs > 0 || sp.variants != nil }
