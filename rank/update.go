package rank

import (
	"slices"
	"sort"
	"strings"
)

// Update returns the index of x's files with some changed: each of files
// replaces the file of x of its path, or is added when x has none (files
// sharing a path are one file, as NewIndex takes them), and the files of
// x whose paths are in removed, and not in files, are left out. The
// result is the Index NewIndex makes of the files so changed; x does not
// change. Only the keys of files are interned: the rest is integer work
// linear in the size of x, which after one file of a large tree changed
// costs a small part of NewIndex of every file.
//
// It reports false, and returns nil, for an index read from its binary
// form, which does not keep the references to keys that no file defines.
func (x *Index) Update(files []File, removed []string) (*Index, bool) {
	if x.outside == nil {
		return nil, false
	}
	add := internFiles(files)
	if y := x.updateSameKeys(add, removed); y != nil {
		return y, true
	}
	old := x.outside
	nf := len(x.paths)

	// The files of x that stay, and the new list of paths.
	drop := make([]bool, nf)
	for _, p := range slices.Concat(removed, add.paths) {
		if f, ok := slices.BinarySearch(x.paths, p); ok {
			drop[f] = true
		}
	}
	in := &interned{paths: make([]string, 0, nf+len(add.paths))}
	var from []int32 // per file of in: its file in x, or -1-u for add's file u
	for f, u := 0, 0; f < nf || u < len(add.paths); {
		switch {
		case f < nf && drop[f]:
			f++
		case u == len(add.paths) || f < nf && x.paths[f] < add.paths[u]:
			in.paths = append(in.paths, x.paths[f])
			from = append(from, int32(f))
			f++
		default:
			in.paths = append(in.paths, add.paths[u])
			from = append(from, int32(-1-u))
			u++
		}
	}

	// The defined keys: x's that a file that stays defines, and add's.
	ni := len(x.names)
	kept := make([]bool, ni)
	for k := range ni {
		for _, f := range x.defFile[x.defStart[k]:x.defStart[k+1]] {
			if !drop[f] {
				kept[k] = true
				break
			}
		}
	}
	in.names = make([]string, 0, ni+len(add.names))
	nameTo := make([]int32, ni)                // per name of x: its number in in.names, or -1
	addNameTo := make([]int32, len(add.names)) // per name of add: its number in in.names
	// A merge: x's names up to each of add's, found by search, then it.
	origin := make([]int32, 0, ni+len(add.names)) // per name of in.names: its number in x, or -1
	k := 0
	takeUpTo := func(end int) {
		for ; k < end; k++ {
			nameTo[k] = -1
			if kept[k] {
				nameTo[k] = int32(len(in.names))
				in.names, origin = append(in.names, x.names[k]), append(origin, int32(k))
			}
		}
	}
	for a, name := range add.names {
		end, found := slices.BinarySearch(x.names[k:], name)
		takeUpTo(k + end)
		addNameTo[a] = int32(len(in.names))
		if found {
			nameTo[k] = addNameTo[a]
			in.names, origin = append(in.names, x.names[k]), append(origin, int32(k))
			k++
		} else {
			in.names, origin = append(in.names, name), append(origin, -1)
		}
	}
	takeUpTo(ni)
	// The identifiers: x's where two names next to each other were so in
	// x too.
	in.ident = make([]int32, len(in.names))
	for j := 1; j < len(in.names); j++ {
		in.ident[j] = in.ident[j-1]
		if o := origin[j]; o > 0 && origin[j-1] == o-1 {
			if old.ident[o] != old.ident[o-1] {
				in.ident[j]++
			}
		} else if Ident(in.names[j]) != Ident(in.names[j-1]) {
			in.ident[j]++
		}
	}
	// defined reports the number in in.names of the key s, if it is one.
	defined := func(s string) (int32, bool) {
		k, ok := slices.BinarySearch(in.names, s)
		return int32(k), ok
	}
	in.style = make([]uint8, len(in.names))
	for k, to := range nameTo {
		if to >= 0 {
			in.style[to] = x.style[k]
		}
	}
	for a, to := range addNameTo {
		in.style[to] = styleOf(Ident(add.names[a]))
	}
	for k, ok := range kept {
		if !ok { // defined again by add's files, perhaps
			if to, ok := defined(x.names[k]); ok {
				nameTo[k] = to
			}
		}
	}

	// The keys referenced and defined by no file: those of x that a file
	// that stays references (x's outside keys, and its names no longer
	// defined), and add's; none of them in in.names.
	lost := slices.Contains(nameTo, -1) // names of x are no longer defined
	// x's outside keys that stay: those a file of x that stays references,
	// and those add's files reference (found by a merge; they are few).
	refOut := make([]bool, len(old.names))
	for b, u := 0, 0; b < len(add.outside) && u < len(old.names); {
		switch c := strings.Compare(add.outside[b], old.names[u]); {
		case c < 0:
			b++
		case c > 0:
			u += max(1, sort.SearchStrings(old.names[u:], add.outside[b]))
		default:
			refOut[u] = true
			b, u = b+1, u+1
		}
	}
	refName := make([]bool, ni)
	for f := range nf {
		if drop[f] {
			continue
		}
		for _, u := range old.refs.of(f) {
			refOut[u] = true
		}
		if !x.selfRefs && lost {
			for _, k := range x.refIdent[x.fileRefStart[f]:x.fileRefStart[f+1]] {
				if nameTo[k] < 0 {
					refName[k] = true
				}
			}
		}
	}
	// The numbers of the keys files reference, as a file's lists hold
	// them: a name's in in.names, or -1-n for n in in.outside. x's
	// outside keys and lost names stay in order: a merge numbers them;
	// add's few are looked up.
	outTo := make([]int32, len(old.names)) // per outside key of x that a file that stays references
	lostTo := make(map[int32]int32)        // per name of x no longer defined that one references
	for u, k, d := 0, 0, 0; ; {
		for u < len(refOut) && !refOut[u] {
			u++
		}
		for k < ni && !refName[k] {
			k++
		}
		if u == len(refOut) && k == ni {
			break
		}
		if k == ni || u < len(refOut) && old.names[u] < x.names[k] {
			for d < len(add.names) && add.names[d] < old.names[u] {
				d++
			}
			if d < len(add.names) && add.names[d] == old.names[u] {
				outTo[u] = addNameTo[d] // defined now
			} else {
				outTo[u] = int32(-1 - len(in.outside))
				in.outside = append(in.outside, old.names[u])
			}
			u++
		} else {
			lostTo[int32(k)] = int32(-1 - len(in.outside))
			in.outside = append(in.outside, x.names[k])
			k++
		}
	}
	addOutTo := make([]int32, len(add.outside)) // per outside key of add
	var more []string                           // add's outside keys that x's files do not reference
	for b, s := range add.outside {
		if k, ok := defined(s); ok {
			addOutTo[b] = k
		} else if n, ok := slices.BinarySearch(in.outside, s); ok {
			addOutTo[b] = int32(-1 - n)
		} else {
			more = append(more, s)
		}
	}
	if len(more) > 0 {
		// In order among the others: the numbers after each move up.
		merged := make([]string, 0, len(in.outside)+len(more))
		shift := make([]int32, len(in.outside)) // per outside key so far: its new number
		for n, m := 0, 0; n < len(in.outside) || m < len(more); {
			if m == len(more) || n < len(in.outside) && in.outside[n] < more[m] {
				shift[n] = int32(len(merged))
				merged = append(merged, in.outside[n])
				n++
			} else {
				merged = append(merged, more[m])
				m++
			}
		}
		renumber := func(id int32) int32 {
			if id >= 0 {
				return id
			}
			return -1 - shift[-1-id]
		}
		for u, ok := range refOut {
			if ok {
				outTo[u] = renumber(outTo[u])
			}
		}
		for k, id := range lostTo {
			lostTo[k] = renumber(id)
		}
		in.outside = merged
		for b, s := range add.outside {
			if _, ok := defined(s); !ok {
				n, _ := slices.BinarySearch(in.outside, s)
				addOutTo[b] = int32(-1 - n)
			}
		}
	}

	// Each file's lists, renumbered.
	n := len(in.paths)
	in.defs = lists{start: make([]int32, n+1), id: make([]int32, 0, len(x.defFile)+len(add.defs.id))}
	in.refs = lists{start: make([]int32, n+1), id: make([]int32, 0, len(x.refIdent)+len(add.refs.id)), count: make([]int32, 0, len(x.refCount)+len(add.refs.id))}
	in.outRefs = lists{start: make([]int32, n+1)}
	// Unless a key moved between the names and the outside keys, the
	// references of a file of x keep their lists and their order.
	moved := len(lostTo) > 0
	for u, ok := range refOut {
		moved = moved || ok && outTo[u] >= 0
	}
	var rs refSplit
	for g, src := range from {
		rs.reset()
		if src >= 0 {
			f := int(src)
			for _, slot := range x.fileDefSlot[x.fileDefStart[f]:x.fileDefStart[f+1]] {
				in.defs.id = append(in.defs.id, nameTo[x.slotIdent[slot]])
			}
			if !moved {
				if !x.selfRefs {
					for r := x.fileRefStart[f]; r < x.fileRefStart[f+1]; r++ {
						in.refs.id = append(in.refs.id, nameTo[x.refIdent[r]])
					}
					in.refs.count = append(in.refs.count, x.refCount[x.fileRefStart[f]:x.fileRefStart[f+1]]...)
				}
				for _, u := range old.refs.of(f) {
					in.outRefs.id = append(in.outRefs.id, -1-outTo[u])
				}
				in.outRefs.count = append(in.outRefs.count, old.refs.counts(f)...)
			} else if !x.selfRefs {
				for r := x.fileRefStart[f]; r < x.fileRefStart[f+1]; r++ {
					k := x.refIdent[r]
					to := nameTo[k]
					if to < 0 {
						to = lostTo[k]
					}
					rs.add(to, x.refCount[r])
				}
			}
			if moved {
				cs := old.refs.counts(f)
				for i, u := range old.refs.of(f) {
					rs.add(outTo[u], cs[i])
				}
			}
		} else {
			in.take(add, int(-1-src), addNameTo, addOutTo, &rs)
		}
		in.defs.start[g+1] = int32(len(in.defs.id))
		rs.appendTo(&in.refs, &in.outRefs)
		in.refs.start[g+1] = int32(len(in.refs.id))
		in.outRefs.start[g+1] = int32(len(in.outRefs.id))
	}
	y := in.build()
	x.keepKeyWeights(y, nameTo)
	return y, true
}

// updateSameKeys returns the Update of x by add's files when it keeps
// x's files and keys: add's files replace files of x, every key they
// define or reference is one of x's (defined, or referenced alone), and
// every key of x is still defined, or referenced, by them or by the
// other files. An edit inside a file's bodies does that: then nothing is
// renumbered, and the names, their identifiers and styles, and the keys
// referenced alone are x's. It returns nil otherwise.
func (x *Index) updateSameKeys(add *interned, removed []string) *Index {
	if len(removed) > 0 || x.selfRefs || len(add.paths) == 0 {
		return nil
	}
	old := x.outside
	nf := len(x.paths)
	changed := make([]int32, nf) // per file of x: 1 + its file in add, or 0
	for u, p := range add.paths {
		f, ok := slices.BinarySearch(x.paths, p)
		if !ok {
			return nil
		}
		changed[f] = int32(u + 1)
	}
	addNameTo := make([]int32, len(add.names)) // ascending, as add.names are
	for a, name := range add.names {
		k, ok := slices.BinarySearch(x.names, name)
		if !ok {
			return nil
		}
		addNameTo[a] = int32(k)
	}
	addOutTo := make([]int32, len(add.outside)) // a name's number, or -1-n for outside key n
	refOut := make([]bool, len(old.names))      // per outside key of x: still referenced
	for b, key := range add.outside {
		if k, ok := slices.BinarySearch(x.names, key); ok {
			addOutTo[b] = int32(k)
			continue
		}
		n, ok := slices.BinarySearch(old.names, key)
		if !ok {
			return nil
		}
		addOutTo[b], refOut[n] = int32(-1-n), true
	}
	// The keys the replaced files defined are defined still.
	stays := func(f int32) bool { return changed[f] == 0 }
	for f, u := range changed {
		if u == 0 {
			continue
		}
		for _, slot := range x.fileDefSlot[x.fileDefStart[f]:x.fileDefStart[f+1]] {
			k := x.slotIdent[slot]
			if _, ok := slices.BinarySearch(addNameTo, k); !ok && !slices.ContainsFunc(x.defFile[x.defStart[k]:x.defStart[k+1]], stays) {
				return nil
			}
		}
	}
	// The keys referenced alone are referenced still.
	for f, u := range changed {
		if u == 0 {
			for _, n := range old.refs.of(f) {
				refOut[n] = true
			}
		}
	}
	if slices.Contains(refOut, false) {
		return nil
	}

	in := &interned{paths: x.paths, names: x.names, outside: old.names, style: x.style, ident: old.ident}
	in.defs = lists{start: make([]int32, nf+1), id: make([]int32, 0, len(x.defFile)+len(add.defs.id))}
	in.refs = lists{start: make([]int32, nf+1), id: make([]int32, 0, len(x.refIdent)+len(add.refs.id)), count: make([]int32, 0, len(x.refCount)+len(add.refs.id))}
	in.outRefs = lists{start: make([]int32, nf+1), id: make([]int32, 0, len(old.refs.id)), count: make([]int32, 0, len(old.refs.id))}
	var rs refSplit
	for f, u := range changed {
		if u == 0 {
			for _, slot := range x.fileDefSlot[x.fileDefStart[f]:x.fileDefStart[f+1]] {
				in.defs.id = append(in.defs.id, x.slotIdent[slot])
			}
			in.refs.id = append(in.refs.id, x.refIdent[x.fileRefStart[f]:x.fileRefStart[f+1]]...)
			in.refs.count = append(in.refs.count, x.refCount[x.fileRefStart[f]:x.fileRefStart[f+1]]...)
			in.outRefs.id = append(in.outRefs.id, old.refs.of(f)...)
			in.outRefs.count = append(in.outRefs.count, old.refs.counts(f)...)
		} else {
			rs.reset()
			in.take(add, int(u-1), addNameTo, addOutTo, &rs)
			rs.appendTo(&in.refs, &in.outRefs)
		}
		in.defs.start[f+1] = int32(len(in.defs.id))
		in.refs.start[f+1] = int32(len(in.refs.id))
		in.outRefs.start[f+1] = int32(len(in.outRefs.id))
	}
	if y := x.recounted(in, changed); y != nil {
		return y
	}
	y := in.build()
	x.keepKeyWeights(y, nil)
	return y
}

// recounted returns x with the reference counts of in, when in's lists
// of the changed files (per file of x: 1 + its file of the update, or 0)
// are x's but for the counts: an edit that calls what its file called
// already, once more or once less, or a comment. Then the index is x's
// but for its counts, and nothing is indexed again. It returns nil
// otherwise.
func (x *Index) recounted(in *interned, changed []int32) *Index {
	old := x.outside
	var defs []int32
	for f, u := range changed {
		if u == 0 {
			continue
		}
		if !slices.Equal(in.refs.of(f), x.refIdent[x.fileRefStart[f]:x.fileRefStart[f+1]]) || !slices.Equal(in.outRefs.of(f), old.refs.of(f)) {
			return nil
		}
		defs = append(defs[:0], in.defs.of(f)...)
		slices.Sort(defs)
		slots := x.fileDefSlot[x.fileDefStart[f]:x.fileDefStart[f+1]]
		if len(slots) != len(defs) {
			return nil
		}
		for p, slot := range slots {
			if x.slotIdent[slot] != defs[p] {
				return nil
			}
		}
	}
	y := *x
	y.refCount = in.refs.count
	y.outside = &outsideRefs{names: old.names, refs: in.outRefs, ident: old.ident}
	y.kw = new(keyWeights)
	x.keepKeyWeights(&y, nil)
	return &y
}

// take appends the definitions of add's file u to in's lists, and
// gathers its references in rs, add's numbers turned into in's: nameTo
// for add's names, outTo for its outside keys (a name's number, or -1-n
// for in's outside key n).
func (in *interned) take(add *interned, u int, nameTo, outTo []int32, rs *refSplit) {
	for _, a := range add.defs.of(u) {
		in.defs.id = append(in.defs.id, nameTo[a])
	}
	cs := add.refs.counts(u)
	for i, a := range add.refs.of(u) {
		rs.add(nameTo[a], cs[i])
	}
	cs = add.outRefs.counts(u)
	for i, b := range add.outRefs.of(u) {
		rs.add(outTo[b], cs[i])
	}
}

// refSplit gathers one file's references, numbered as Update's ref
// numbers them, into its lists of defined and of outside keys.
type refSplit struct {
	names, outs []refEntry
}

type refEntry struct{ id, count int32 }

func (rs *refSplit) reset() { rs.names, rs.outs = rs.names[:0], rs.outs[:0] }

func (rs *refSplit) add(id, count int32) {
	if id >= 0 {
		rs.names = append(rs.names, refEntry{id, count})
	} else {
		rs.outs = append(rs.outs, refEntry{-1 - id, count})
	}
}

// appendTo appends the gathered references, each list in ascending
// order, to names and outs. (They come in two ascending runs at most;
// sorting is for the few files whose references changed lists.)
func (rs *refSplit) appendTo(names, outs *lists) {
	for _, l := range []struct {
		es []refEntry
		to *lists
	}{{rs.names, names}, {rs.outs, outs}} {
		if !slices.IsSortedFunc(l.es, compareRefEntries) {
			slices.SortFunc(l.es, compareRefEntries)
		}
		for _, e := range l.es {
			l.to.id = append(l.to.id, e.id)
			l.to.count = append(l.to.count, e.count)
		}
	}
}

func compareRefEntries(a, b refEntry) int { return int(a.id) - int(b.id) }

// DefinersOf returns the paths of the files that define a key of the
// identifier ident, under any scope (see Key), in path order.
func (x *Index) DefinersOf(ident string) []string {
	lo, _ := slices.BinarySearch(x.names, ident)
	hi, _ := slices.BinarySearch(x.names, ident+"\x01")
	// The keys from ident to ident+"\x01" are ident and those that
	// start with ident and a zero byte: the keys of ident.
	var files []int32
	for k := lo; k < hi; k++ {
		files = append(files, x.defFile[x.defStart[k]:x.defStart[k+1]]...)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = x.paths[f]
	}
	return out
}
