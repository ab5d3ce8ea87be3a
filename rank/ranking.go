package rank

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
)

// Ranking is the ranked list of an Index for one query, made as it is
// read: the power iteration is done, and the file-only entries are in
// order, but the definition entries are put in order only as far as they
// are asked for, best first. A map shows a few dozen of the hundreds of
// thousands of definitions of a large tree: sorting them all, and making
// an Entry of each, took a warm map of the Go standard library a sixth of
// its CPU time. Whatever is asked, in whatever order, the entries are
// those of Result.Entries, in the same order, ties included.
//
// A Ranking is not safe for concurrent use.
type Ranking struct {
	// Files, Links and Iterations are as in Result.
	Files      map[string]float64
	Links      int
	Iterations int

	s      *state
	tier   []int32   // by file: its tier (Input.Tier)
	score  []float64 // by slot: its score, scaled by Input.Scale
	listed []bool    // by slot: it is a definition entry
	count  []int32   // by file: its definition entries
	done   []defKey  // the first definition entries, in order
	heap   []defKey  // the others: a binary heap, the best first
	tail   []Entry   // the file-only entries, in order
}

// defKey is what orders a definition entry: its file's tier, its score,
// then its file (path order) and slot (name order within a file).
type defKey struct {
	score      float64 // never NaN
	tier       int32
	file, slot int32
}

// before reports whether the entry of a comes before that of b.
func (a defKey) before(b defKey) bool {
	switch {
	case a.tier != b.tier:
		return a.tier < b.tier
	case a.score != b.score:
		return a.score > b.score
	case a.file != b.file:
		return a.file < b.file
	}
	return a.slot < b.slot
}

func compareKeys(a, b defKey) int {
	switch {
	case a.before(b):
		return -1
	case b.before(a):
		return 1
	}
	return 0
}

// Ranking ranks the files of x for in, as Rank does, and returns the
// ranked list to be read as far as needed: Ranking(in).Result() is
// Rank(in).
func (x *Index) Ranking(in Input) *Ranking {
	s := x.query(in)
	nf := len(s.paths)
	pr, nodeFile, score, scored, iters := s.rank()
	s.mergeKeys(score, scored)

	r := &Ranking{Files: make(map[string]float64, len(nodeFile)), Links: s.countPairs(), Iterations: iters,
		s: s, score: score, listed: scored, count: make([]int32, nf), tier: make([]int32, nf)}
	for i, f := range nodeFile {
		r.Files[s.paths[f]] = pr[i]
	}
	var scale []float64 // by file, with Input.Scale
	if len(in.Scale) > 0 {
		scale = make([]float64, nf)
		for f, p := range s.paths {
			scale[f] = 1
			if v, ok := in.Scale[p]; ok && v > 0 && !math.IsInf(v, 0) {
				scale[f] = v
			}
		}
	}
	var byName []bool // by file, with Input.ByName
	for f, p := range s.paths {
		if t, ok := in.Tier[p]; ok && t > 0 {
			r.tier[f] = int32(min(t, math.MaxInt32))
		}
		if in.ByName[p] {
			if byName == nil {
				byName = make([]bool, nf)
			}
			byName[f] = true
		}
	}
	// The keys sit side by side, which makes ordering a few hundred
	// thousand definitions several times faster than through indexes.
	n := 0
	for slot, ok := range scored {
		if f := s.defFile[slot]; ok && !s.focus[f] && (byName == nil || !byName[f]) {
			n++
		}
	}
	r.heap = make([]defKey, 0, n)
	for slot, ok := range scored {
		f := s.defFile[slot]
		if !ok || s.focus[f] || byName != nil && byName[f] {
			scored[slot] = false
			continue
		}
		if scale != nil {
			score[slot] *= scale[f]
		}
	}
	if len(in.Lift) > 0 {
		r.lift(in.Lift)
	}
	for slot, ok := range scored {
		if ok {
			f := s.defFile[slot]
			r.count[f]++
			r.heap = append(r.heap, defKey{score[slot], r.tier[f], f, int32(slot)})
		}
	}
	for i := len(r.heap)/2 - 1; i >= 0; i-- {
		siftDown(r.heap, i)
	}

	// File-only entries for the remaining graph nodes, by rank, then for
	// every other file, by path; then tier by tier.
	var tail []int32 // their files
	nodeOf := make([]int32, nf)
	for f := range nodeOf {
		nodeOf[f] = -1
	}
	for i, f := range nodeFile {
		nodeOf[f] = int32(i)
	}
	nodes := make([]int32, len(nodeFile))
	for i := range nodes {
		nodes[i] = int32(i)
	}
	slices.SortFunc(nodes, func(a, b int32) int {
		if c := cmp.Compare(pr[b], pr[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // node order is path order
	})
	listed := make([]bool, nf)
	for f := range nf {
		listed[f] = r.count[f] > 0 || s.focus[f]
	}
	for _, i := range nodes {
		if f := nodeFile[i]; !listed[f] {
			listed[f] = true
			tail = append(tail, f)
		}
	}
	for f := range s.paths {
		if !listed[f] {
			tail = append(tail, int32(f))
		}
	}
	slices.SortStableFunc(tail, func(a, b int32) int { return cmp.Compare(r.tier[a], r.tier[b]) })
	for _, f := range tail {
		e := Entry{Path: s.paths[f]}
		if n := nodeOf[f]; n >= 0 {
			e.Score = pr[n]
		}
		r.tail = append(r.tail, e)
	}
	return r
}

// lift raises the scores of the definitions of lift (Input.Lift): each
// by its factor times the best score of its file's definitions.
func (r *Ranking) lift(lift map[string]map[string]float64) {
	for _, p := range slices.Sorted(maps.Keys(lift)) {
		f, ok := slices.BinarySearch(r.s.paths, p)
		if !ok {
			continue
		}
		best := 0.0
		for _, slot := range r.s.fileDefSlot[r.s.fileDefStart[f]:r.s.fileDefStart[f+1]] {
			if r.listed[slot] {
				best = max(best, r.score[slot])
			}
		}
		for _, name := range slices.Sorted(maps.Keys(lift[p])) {
			if v := lift[p][name]; v > 0 && !math.IsInf(v, 0) {
				if slot, ok := r.slotOf(int32(f), name); ok {
					r.score[slot] += v * best
				}
			}
		}
	}
}

// Len returns the number of definition entries: those that come before
// the file-only entries.
func (r *Ranking) Len() int { return len(r.done) + len(r.heap) }

// At returns definition entry i, 0 ≤ i < Len(): Result.Entries[i].
func (r *Ranking) At(i int) Entry {
	r.order(i + 1)
	return r.entry(r.done[i])
}

// Tail returns the file-only entries, in order: those of Result.Entries
// after the definition entries. The caller must not change them.
func (r *Ranking) Tail() []Entry { return r.tail }

// Result returns the whole ranked list, as Rank returns it.
func (r *Ranking) Result() *Result {
	res := &Result{Files: r.Files, Links: r.Links, Iterations: r.Iterations}
	r.order(r.Len())
	res.Entries = make([]Entry, 0, len(r.done)+len(r.tail))
	for _, k := range r.done {
		res.Entries = append(res.Entries, r.entry(k))
	}
	res.Entries = append(res.Entries, r.tail...)
	return res
}

// Of returns the definition entries of the file at p, in list order.
func (r *Ranking) Of(p string) []Entry {
	f, ok := slices.BinarySearch(r.s.paths, p)
	if !ok {
		return nil
	}
	keys := r.keysOf(int32(f), nil)
	slices.SortFunc(keys, compareKeys)
	out := make([]Entry, len(keys))
	for i, k := range keys {
		out[i] = r.entry(k)
	}
	return out
}

// Compare returns -1 when definition entry a comes before definition
// entry b in the list, 1 when after, and 0 when they are the same.
func (r *Ranking) Compare(a, b Entry) int {
	return compareKeys(r.keyOf(a), r.keyOf(b))
}

// Hidden is a set of definition entries of a Ranking, found by their
// names: see Ranking.Hide.
type Hidden struct {
	slot  []bool   // per slot: one of the entries
	defs  int      // how many
	whole []string // the paths of the files all of whose entries they are, sorted
}

// Defs returns the number of entries of h.
func (h *Hidden) Defs() int { return h.defs }

// Whole returns the paths of the files all of whose definition entries
// are entries of h, sorted. The caller must not change them.
func (h *Hidden) Whole() []string { return h.whole }

// Hide returns the definition entries of the names that names lists for
// each path (each name once), for Leaders.
func (r *Ranking) Hide(names map[string][]string) *Hidden {
	h := &Hidden{slot: make([]bool, len(r.listed))}
	// The files of names are found by a pass over the paths when they
	// are many (every Go file hides its package's name), else by search.
	files := make([]int32, 0, len(names))
	if len(names) > len(r.s.paths)/16 {
		for f, p := range r.s.paths {
			if _, ok := names[p]; ok {
				files = append(files, int32(f))
			}
		}
	} else {
		for p := range names {
			if f, ok := slices.BinarySearch(r.s.paths, p); ok {
				files = append(files, int32(f))
			}
		}
		slices.Sort(files)
	}
	for _, f := range files {
		p, ns := r.s.paths[f], names[r.s.paths[f]]
		of := 0
		for _, name := range ns {
			if slot, ok := r.slotOf(f, name); ok && !h.slot[slot] {
				h.slot[slot] = true
				of++
			}
		}
		h.defs += of
		if of > 0 && of == int(r.count[f]) {
			h.whole = append(h.whole, p)
		}
	}
	return h
}

// Leaders returns the paths of the files that have definition entries
// besides those of skip (nil for none), in the order of the first such
// entry of each: the order in which the files first appear in the list
// once the entries of skip are left out.
func (r *Ranking) Leaders(skip *Hidden) []string {
	// The best entry of each file, in one pass over the slots in order.
	best := make([]defKey, len(r.s.paths))
	found := make([]bool, len(r.s.paths))
	for slot, ok := range r.listed {
		if !ok || skip != nil && skip.slot[slot] {
			continue
		}
		f := r.s.defFile[slot]
		if k := (defKey{r.score[slot], r.tier[f], f, int32(slot)}); !found[f] || k.before(best[f]) {
			best[f], found[f] = k, true
		}
	}
	var keys []defKey
	for f, ok := range found {
		if ok {
			keys = append(keys, best[f])
		}
	}
	slices.SortFunc(keys, compareKeys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = r.s.paths[k.file]
	}
	return out
}

// slotOf returns the slot of the definition entry of name in file f, if
// it has one. A file's slots are in key order, which is the order of
// their identifiers too; of the keys of one identifier only the first
// can be an entry (mergeKeys).
func (r *Ranking) slotOf(f int32, name string) (int32, bool) {
	slots := r.s.fileDefSlot[r.s.fileDefStart[f]:r.s.fileDefStart[f+1]]
	j, _ := slices.BinarySearchFunc(slots, name, func(slot int32, name string) int {
		return compareIdent(r.s.names[r.s.slotIdent[slot]], name)
	})
	for ; j < len(slots) && Ident(r.s.names[r.s.slotIdent[slots[j]]]) == name; j++ {
		if r.listed[slots[j]] {
			return slots[j], true
		}
	}
	return 0, false
}

// compareIdent returns strings.Compare(Ident(key), ident) for an
// identifier with no zero byte, without looking for the end of key's
// identifier first: a zero byte within the common length makes key the
// smaller, as the shorter Ident(key) is; past it, the next byte of key
// says whether its identifier goes on.
func compareIdent(key, ident string) int {
	n := min(len(key), len(ident))
	if c := strings.Compare(key[:n], ident[:n]); c != 0 {
		return c
	}
	switch {
	case len(key) == len(ident), len(key) > n && key[n] == 0:
		return 0 // the identifier, alone or with a scope
	case len(key) < len(ident):
		return -1
	}
	return 1
}

// keysOf appends the keys of the definition entries of file f to keys.
func (r *Ranking) keysOf(f int32, keys []defKey) []defKey {
	for _, slot := range r.s.fileDefSlot[r.s.fileDefStart[f]:r.s.fileDefStart[f+1]] {
		if r.listed[slot] {
			keys = append(keys, defKey{r.score[slot], r.tier[f], f, slot})
		}
	}
	return keys
}

// keyOf returns the key of definition entry e, which must be one.
func (r *Ranking) keyOf(e Entry) defKey {
	f, _ := slices.BinarySearch(r.s.paths, e.Path)
	slots := r.s.fileDefSlot[r.s.fileDefStart[f]:r.s.fileDefStart[f+1]]
	for _, slot := range slots {
		if r.listed[slot] && Ident(r.s.names[r.s.slotIdent[slot]]) == e.Name {
			return defKey{r.score[slot], r.tier[f], int32(f), slot}
		}
	}
	return defKey{score: math.Inf(-1), tier: math.MaxInt32, file: int32(f)}
}

// entry returns the entry of k.
func (r *Ranking) entry(k defKey) Entry {
	return Entry{Path: r.s.paths[k.file], Name: Ident(r.s.names[r.s.slotIdent[k.slot]]), Score: k.score}
}

// order puts the first n definition entries in order: one at a time off
// the heap while they are few, or all that are left, sorted, when many
// are asked for. The order is total, so both give the same list.
func (r *Ranking) order(n int) {
	if n <= len(r.done) {
		return
	}
	if n-len(r.done) > len(r.heap)/16 {
		slices.SortFunc(r.heap, compareKeys)
		r.done = append(r.done, r.heap...)
		r.heap = nil
		return
	}
	for len(r.done) < n {
		h := r.heap
		r.done = append(r.done, h[0])
		last := len(h) - 1
		h[0] = h[last]
		r.heap = h[:last]
		siftDown(r.heap, 0)
	}
}

// siftDown moves h[i] down the heap h to its place.
func siftDown(h []defKey, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].before(h[c]) {
			c++
		}
		if !h[c].before(h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
