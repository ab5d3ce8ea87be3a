package rank

import (
	"math"
	"slices"
	"strings"
)

// An Index is made in two steps: the keys of its files are interned
// (numbered), and the interned form is indexed. NewIndex interns the
// files' strings; Update interns only the files it is given, and takes
// the rest of the interned form from the index it updates, so that one
// changed file costs the integer work of indexing, not the interning
// of every file's keys again. Both give the same interned form for the
// same files, and so the same Index.

// interned is a set of files with their keys numbered: what an Index is
// built from. Paths, names and outside keys are sorted and unique, and
// numbered in that order; each file's lists are in ascending order of
// key, each key once.
type interned struct {
	paths   []string
	names   []string // the keys some file defines
	outside []string // the keys some file references and none defines
	defs    lists    // per file: the names it defines
	refs    lists    // per file: the names it references, with counts
	outRefs lists    // per file: the outside keys it references, with counts
	style   []uint8  // per name: its styleOf, when known; nil, and build finds them
	ident   []int32  // per name: the number of its identifier, when known; nil, and build finds them
}

// lists holds one list per file, one after another: file f's entries
// are at [start[f], start[f+1]).
type lists struct {
	start []int32
	id    []int32
	count []int32 // per entry, for references; nil for definitions
}

// of returns the ids of file f's list.
func (l *lists) of(f int) []int32 { return l.id[l.start[f]:l.start[f+1]] }

// counts returns the counts of file f's list.
func (l *lists) counts(f int) []int32 { return l.count[l.start[f]:l.start[f+1]] }

// outsideRefs is what Update needs of an Index beside what the index
// itself holds: the references to keys no file defines, and the
// identifier of each name.
type outsideRefs struct {
	names []string
	refs  lists
	ident []int32 // per name of the index: the number of its identifier
}

// addCount returns a + b, at most math.MaxInt32: how reference counts
// add up.
func addCount(a, b int32) int32 { return int32(min(int64(a)+int64(b), math.MaxInt32)) }

// refCount returns the count of reference j of f: RefCounts[j] when
// RefCounts goes with Refs and it is above 1, else 1.
func refCountOf(f *File, j int) int32 {
	if len(f.RefCounts) == len(f.Refs) && f.RefCounts[j] > 1 {
		return int32(min(f.RefCounts[j], math.MaxInt32))
	}
	return 1
}

// NewIndex interns and indexes files, as Rank reads Input.Files.
func NewIndex(files []File) *Index {
	return internFiles(files).build()
}

// groupByPath returns the indices of files stably sorted by path, and
// where each group of files sharing a path starts (one more entry than
// there are groups, the last len(files)).
func groupByPath(files []File) (order, groupStart []int) {
	order = make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(files[a].Path, files[b].Path) })
	for i, o := range order {
		if i == 0 || files[o].Path != files[order[i-1]].Path {
			groupStart = append(groupStart, i)
		}
	}
	return order, append(groupStart, len(order))
}

// internFiles numbers the keys of files.
func internFiles(files []File) *interned {
	in := &interned{}
	order, groupStart := groupByPath(files)
	nf := len(groupStart) - 1
	in.paths = make([]string, nf)
	group := func(u int) []int { return order[groupStart[u]:groupStart[u+1]] }

	// The defined keys, numbered first in order of appearance, then in
	// name order.
	// (Sized for half of the definitions: on large trees a key is defined
	// about twice, and growing the map was a fifth of the time.)
	defs := 0
	for _, f := range files {
		defs += len(f.Defs)
	}
	ids := make(map[string]int32, defs/2)
	tmpNames := make([]string, 0, defs/2)
	in.defs.start = make([]int32, nf+1)
	in.defs.id = make([]int32, 0, defs)
	for u := range nf {
		in.paths[u] = files[order[groupStart[u]]].Path
		for _, o := range group(u) {
			for _, d := range files[o].Defs {
				if d == "" {
					continue
				}
				id, ok := ids[d]
				if !ok {
					id = int32(len(tmpNames))
					ids[d] = id
					tmpNames = append(tmpNames, d)
				}
				in.defs.id = append(in.defs.id, id)
			}
		}
		in.defs.start[u+1] = int32(len(in.defs.id))
	}
	var remap []int32
	in.names, remap = sortNumbered(tmpNames)
	from := int32(0) // where the next file's list started before
	for u := range nf {
		lo, hi := from, in.defs.start[u+1]
		from = hi
		in.defs.id = appendSortedUnique(in.defs.id[:in.defs.start[u]], in.defs.id[lo:hi], remap)
		in.defs.start[u+1] = int32(len(in.defs.id))
	}

	// The references, counted per file with dense counters: to defined
	// keys, and to the others, numbered as they come.
	total := 0
	for _, f := range files {
		total += len(f.Refs)
	}
	in.refs = lists{start: make([]int32, nf+1), id: make([]int32, 0, total), count: make([]int32, 0, total)}
	in.outRefs = lists{start: make([]int32, nf+1)}
	outIDs := make(map[string]int32)
	var tmpOut []string
	count := make([]int32, len(in.names))
	var outCount []int32
	for u := range nf {
		first, outFirst := len(in.refs.id), len(in.outRefs.id)
		for _, o := range group(u) {
			f := &files[o]
			for j, r := range f.Refs {
				if r == "" {
					continue
				}
				n := refCountOf(f, j)
				if id, ok := ids[r]; ok {
					k := remap[id]
					if count[k] == 0 {
						in.refs.id = append(in.refs.id, k)
					}
					count[k] = addCount(count[k], n)
					continue
				}
				id, ok := outIDs[r]
				if !ok {
					id = int32(len(tmpOut))
					outIDs[r] = id
					tmpOut = append(tmpOut, r)
					outCount = append(outCount, 0)
				}
				if outCount[id] == 0 {
					in.outRefs.id = append(in.outRefs.id, id)
				}
				outCount[id] = addCount(outCount[id], n)
			}
		}
		ks := in.refs.id[first:]
		slices.Sort(ks)
		for _, k := range ks {
			in.refs.count = append(in.refs.count, count[k])
			count[k] = 0
		}
		in.refs.start[u+1] = int32(len(in.refs.id))
		for _, id := range in.outRefs.id[outFirst:] {
			in.outRefs.count = append(in.outRefs.count, outCount[id])
			outCount[id] = 0
		}
		in.outRefs.start[u+1] = int32(len(in.outRefs.id))
	}
	// The outside keys in name order, and each file's list in it.
	in.outside, remap = sortNumbered(tmpOut)
	for u := range nf {
		lo, hi := in.outRefs.start[u], in.outRefs.start[u+1]
		sortWithCounts(in.outRefs.id[lo:hi], in.outRefs.count[lo:hi], remap)
	}
	return in
}

// sortNumbered returns names sorted, and for each name's number (its
// index in names) its number in the sorted list.
func sortNumbered(names []string) (sorted []string, remap []int32) {
	byName := make([]int32, len(names))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	remap = make([]int32, len(names))
	sorted = make([]string, len(names))
	for i, t := range byName {
		remap[t] = int32(i)
		sorted[i] = names[t]
	}
	return sorted, remap
}

// appendSortedUnique appends to dst the ids of src renumbered by remap,
// in ascending order, each once. src may be the memory that follows dst:
// each id is read before its place is written.
func appendSortedUnique(dst, src, remap []int32) []int32 {
	start := len(dst)
	for _, id := range src {
		dst = append(dst, remap[id])
	}
	ids := dst[start:]
	slices.Sort(ids)
	return dst[:start+len(slices.Compact(ids))]
}

// sortWithCounts renumbers ids by remap and sorts them, with their counts.
func sortWithCounts(ids, counts, remap []int32) {
	if len(ids) == 0 {
		return
	}
	type entry struct{ id, count int32 }
	es := make([]entry, len(ids))
	for i, id := range ids {
		es[i] = entry{remap[id], counts[i]}
	}
	slices.SortFunc(es, func(a, b entry) int { return int(a.id) - int(b.id) })
	for i, e := range es {
		ids[i], counts[i] = e.id, e.count
	}
}

// build indexes the interned files.
func (in *interned) build() *Index {
	x := &Index{paths: in.paths, names: in.names, kw: new(keyWeights)}
	nf, ni := len(in.paths), len(in.names)

	// Slots: distinct (identifier, file) pairs, by identifier, then file.
	x.defStart = make([]int32, ni+1)
	for _, k := range in.defs.id {
		x.defStart[k+1]++
	}
	for k := 1; k <= ni; k++ {
		x.defStart[k] += x.defStart[k-1]
	}
	x.defFile = make([]int32, len(in.defs.id))
	x.slotIdent = make([]int32, len(in.defs.id))
	next := slices.Clone(x.defStart[:ni])
	for f := range nf {
		for _, k := range in.defs.of(f) {
			slot := next[k]
			next[k]++
			x.defFile[slot], x.slotIdent[slot] = int32(f), k
		}
	}
	x.indexSlots()

	x.fileRefStart, x.refIdent, x.refCount = in.refs.start, in.refs.id, in.refs.count
	x.outside = &outsideRefs{names: in.outside, refs: in.outRefs}
	if len(in.refs.id) == 0 && len(in.outRefs.id) == 0 {
		// No references anywhere: every definer references each of its
		// own identifiers once.
		x.selfRefs = true
		x.fileRefStart, x.refIdent, x.refCount = x.ownRefs(nil)
	}
	x.indexReferenced()
	// A definition nothing references has a self-edge: one per file and
	// identifier, whatever keys it is published under, and none when one
	// of them is referenced.
	// The keys of one identifier are next to each other in name order
	// (Key puts a zero byte after the identifier): one pass numbers the
	// identifiers.
	ident := in.ident // per name: the number of its identifier
	if ident == nil {
		ident = make([]int32, ni)
		for k := 1; k < ni; k++ {
			ident[k] = ident[k-1]
			if Ident(x.names[k]) != Ident(x.names[k-1]) {
				ident[k]++
			}
		}
	}
	x.outside.ident = ident
	x.cont = make([]bool, len(x.fileDefSlot))
	for f := range nf {
		for p := x.fileDefStart[f] + 1; p < x.fileDefStart[f+1]; p++ {
			x.cont[p] = ident[x.slotIdent[x.fileDefSlot[p]]] == ident[x.slotIdent[x.fileDefSlot[p-1]]]
		}
	}
	x.selfEdge = x.selfEdges(x.referenced)
	x.style = in.style
	if x.style == nil {
		x.style = make([]uint8, ni)
		for k, key := range x.names {
			x.style[k] = styleOf(Ident(key))
		}
	}
	return x
}
