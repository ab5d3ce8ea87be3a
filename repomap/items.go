package repomap

import (
	"cmp"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/rank"
)

// The rank stage's list of items is made as the fit reads it: a map
// shows a few hundred of the hundreds of thousands of definitions of a
// large tree. The list is
//
//   - the definition entries of the ranking, but for those of names a
//     file defines only to link files (linked.hidden), with the best
//     definition of each of the files most relevant to the request's
//     words moved up (interleave);
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

	// The best shown definition of each file to move up, by relevance,
	// every how many items, and the next to place.
	lifted []rank.Entry
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
// the definitions hidden lists, with the best definition of the k-th
// file of lifted moved up to place k·every at the latest (as interleave
// does).
//
// With spread on, the first spreadHead shown definitions are put in the
// order spreadNames gives them, with the tiers of tier, before the files
// are moved up.
func newItemList(rk *rank.Ranking, hidden map[string][]string, lifted []string, every int, spread spreading, tier map[string]int) *itemList {
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
		for _, p := range lifted {
			if i := slices.IndexFunc(l.head, func(e rank.Entry) bool { return e.Path == p }); i >= 0 {
				l.lifted = append(l.lifted, l.head[i]) // its first in the spread order
				continue
			}
			for _, e := range rk.Of(p) {
				if !l.isHidden(e) {
					l.lifted = append(l.lifted, e)
					break
				}
			}
		}
	}
	return l
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
			return fit.Item{Path: e.Path, Name: e.Name, Score: max(e.Score, cur.Score)}, true
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

// make makes the first k items of r, or all when there are fewer.
func (r *ranked) make(k int) {
	for r.list != nil && len(r.items) < k {
		it, ok := r.list.more()
		if !ok {
			r.list = nil
			break
		}
		r.items = append(r.items, it)
	}
}

// all returns every item of r.
func (r *ranked) all() []fit.Item {
	r.make(r.n)
	return r.items
}

// files returns the path of every file of r's items, in the order of
// its first item: the items made so far, and, for the rest, the order of
// each file's best shown definition, then the files by name alone. Once
// the files to move up are placed, the definitions keep their order.
func (r *ranked) files() []string {
	if r.order != nil {
		return r.order
	}
	for r.list != nil && (r.list.next < len(r.list.lifted) || r.list.a < len(r.list.head)) && r.list.defsOut < r.list.nDefs {
		r.make(len(r.items) + 1)
	}
	seen := make(map[string]bool)
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, it := range r.items {
		add(it.Path)
	}
	if l := r.list; l != nil {
		if l.defsOut < l.nDefs {
			for _, p := range l.rk.Leaders(l.hid) {
				add(p)
			}
		}
		for _, it := range l.tail {
			add(it.Path)
		}
	}
	return out
}
