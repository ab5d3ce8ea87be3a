package repomap

import (
	"github.com/repomap-dev/repomap/internal/policy"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// The link stage works file by file: the references of each file are
// linked by its language's rules (refsOf), then the definitions of each
// are published under their keys (defsOf), some of them only when a
// reference uses the key (the sets below). What crosses from one file to
// another is the rules' view of the other files, and the sets. A Map
// kept open keeps its linker, and after a few files changed links only
// what they can change (update): their own references, the references
// of the files whose rules read them, and the definitions of the files
// whose keys came into a set or went out of one. The rank index is then
// updated from the one before rather than made again (rank.Index.Update).
// The result is the same as the link stage of a new Map: the tests
// check it after changes of every kind, in several languages.

// linker is the link stage's state for one snapshot.
type linker struct {
	rk   policy.Config
	s    *snapshot
	res  *resolver // nil without rk.Link.Resolve
	fams []string  // per file: its family of languages, with rk.Link.Family and rules
	// docFams are the families the names of documents' code link in,
	// with rk.Link.Readme or rk.Link.DocCode (docFamilies).
	docFams []string

	refs   []fileRefs // per file
	defs   [][]string // per file: the keys it defines
	hidden [][]string // per file: its names that link files and are never shown
	// sets[c] counts, per key (per name for refNamed), the references
	// that put it in the set c, which decides whether definitions
	// publish under it.
	sets [numRefSets]map[string]int32

	index    *rank.Index // of the files' links; nil until made
	size     graphSize
	relinked int // files whose references the last update linked again

	// Scratch space of refsOf and defsOf.
	uses     map[refUse]int
	order    []int
	useCount []int
	keys     []ref
	more     []string
	count    []int
	key      []byte // nameKey's bytes, for lookups (keyOf)
}

// The sets of keys that references put keys in, for the definitions
// that publish under a key only when it is used.
const (
	refPlain    = iota // keys of names linked by name from files without rules, when other files have rules
	refFallback        // fallback keys of references the rules could not place
	refMore            // keys that definitions publish beside their own (isMoreKey)
	refNamed           // names resolved references link by too (ranking names=W)
	refDoc             // keys the names of documents' code link by (docScope)
	numRefSets
)

// Flags of a reference's key, in fileRefs.flags.
const (
	refFallbackFlag = 1 << iota
	refMoreFlag
	refDocFlag
)

// refUse is a reference as its file's rules resolve it: references of
// one file that agree on all four resolve alike.
type refUse struct {
	name, sub, qual uint32
	at              int32 // the context of the use (resolver.useContext)
}

// fileRefs is one file's links of its references.
type fileRefs struct {
	keys   []string // the keys its references link to, as rank.File.Refs
	counts []int    // as rank.File.RefCounts
	flags  []uint8  // per key of a file with rules, or of a document: refFallbackFlag, refMoreFlag, refDocFlag
	named  []string // the names its resolved references link by too
	plain  bool     // its keys are names linked by name, and other files have rules
	n      int      // its references, as graphSize counts them
}

// addTo adds d times the keys of r to the sets of lk, and calls touched
// with each key (or name) whose count was zero before or after.
func (lk *linker) addTo(r *fileRefs, d int32, touched func(set int, key string)) {
	add := func(set int, key string) {
		m := lk.sets[set]
		n := m[key]
		if n == 0 || n+d == 0 {
			if touched != nil {
				touched(set, key)
			}
		}
		if n+d == 0 {
			delete(m, key)
		} else {
			m[key] = n + d
		}
	}
	for j, key := range r.keys {
		if r.plain {
			add(refPlain, key)
		}
		if j < len(r.flags) {
			if r.flags[j]&refFallbackFlag != 0 {
				add(refFallback, key)
			}
			if r.flags[j]&refMoreFlag != 0 {
				add(refMore, key)
			}
			if r.flags[j]&refDocFlag != 0 {
				add(refDoc, key)
			}
		}
	}
	for _, name := range r.named {
		add(refNamed, name)
	}
}

// newLinker links the files of s with rk.
func newLinker(s *snapshot, rk policy.Config) *linker {
	s.decodeAll()
	lk := &linker{rk: rk, s: s, uses: make(map[refUse]int)}
	for c := range lk.sets {
		lk.sets[c] = make(map[string]int32)
	}
	if rk.Link.Resolve {
		lk.res = newResolver(s, rk.Link.Rust, rk.Link.Scala, rk.Link.Kotlin)
	}
	lk.fams = make([]string, len(s.files))
	if rk.Link.Family && lk.res != nil {
		for i, f := range s.files {
			lk.fams[i] = langFamily(tags.Detect(f.path, nil))
		}
	}
	if rk.Link.Readme || rk.Link.DocCode {
		lk.docFams = docFamilies(lk.fams)
	}
	lk.refs = make([]fileRefs, len(s.files))
	for i := range s.files {
		lk.refs[i] = lk.refsOf(i)
		lk.addTo(&lk.refs[i], 1, nil)
		lk.size.refs += lk.refs[i].n
	}
	lk.defs = make([][]string, len(s.files))
	lk.hidden = make([][]string, len(s.files))
	for i := range s.files {
		lk.defs[i], lk.hidden[i] = lk.defsOf(i)
		lk.size.defs += len(lk.defs[i])
	}
	return lk
}

// file returns the links of file i as rank takes them.
func (lk *linker) file(i int) rank.File {
	r := &lk.refs[i]
	return rank.File{Path: lk.s.files[i].path, Defs: lk.defs[i], Refs: r.keys, RefCounts: r.counts}
}

// linked returns the link stage's result; with files, its files too,
// else its rank index, made once.
func (lk *linker) linked(files bool) linked {
	l := linked{hidden: make(map[string][]string), size: lk.size}
	for i, h := range lk.hidden {
		if len(h) > 0 {
			l.hidden[lk.s.files[i].path] = h
		}
	}
	if files || lk.index == nil {
		l.files = make([]rank.File, len(lk.s.files))
		for i := range l.files {
			l.files[i] = lk.file(i)
		}
	}
	if !files {
		if lk.index == nil {
			lk.index = rank.NewIndex(l.files)
		}
		l.index, l.files = lk.index, nil
	}
	return l
}

// update makes lk the linker of s, a snapshot of the same files as lk's
// after some of them changed, linking again only what their change can
// change. It reports false, and leaves lk as it was, when s's files are
// not lk's: a file came, went or moved, and the link stage must be made
// anew.
func (lk *linker) update(s *snapshot) bool {
	old := lk.s
	if lk.index == nil || len(s.files) != len(old.files) {
		return false
	}
	for i, f := range s.files {
		if g := old.files[i]; f.path != g.path || f.root != g.root {
			return false
		}
	}
	s.decodeAll()
	var changed []int
	for i, e := range s.entries {
		if e != old.entries[i] {
			changed = append(changed, i)
		}
	}
	dirty := changed // the files whose references are linked again
	if lk.res != nil {
		var more []int
		lk.res, more = lk.res.rebased(s, changed)
		dirty = sortedUnion(changed, more)
	}
	lk.s, lk.relinked = s, len(dirty)

	// The references of the dirty files, and the keys that came into a
	// set or went out of one.
	was := make(map[setKey]bool) // per key touched: whether it was in its set before
	touched := func(set int, key string) {
		k := setKey{set, key}
		if _, ok := was[k]; !ok {
			was[k] = lk.sets[set][key] > 0
		}
	}
	moved := make(map[int]bool) // the dirty files whose keys or counts changed
	for _, i := range dirty {
		old := lk.refs[i]
		lk.addTo(&lk.refs[i], -1, touched)
		lk.size.refs -= lk.refs[i].n
		lk.refs[i] = lk.refsOf(i)
		lk.addTo(&lk.refs[i], 1, touched)
		lk.size.refs += lk.refs[i].n
		if !slices.Equal(old.keys, lk.refs[i].keys) || !slices.Equal(old.counts, lk.refs[i].counts) {
			moved[i] = true
		}
	}
	// The definitions of the dirty files, and of those that define a
	// name whose key came into a set or went out.
	redo := slices.Clone(dirty)
	for k, before := range was {
		if (lk.sets[k.set][k.key] > 0) == before {
			continue
		}
		// Every key a definition publishes under is of its name (a
		// heading's without its "#" for some rules), and so is its own.
		name := rank.Ident(k.key)
		definers := lk.index.DefinersOf(name)
		if bare, ok := strings.CutPrefix(name, "#"); ok {
			definers = append(definers, lk.index.DefinersOf(bare)...)
		}
		for _, p := range definers {
			redo = append(redo, s.byPath[p])
		}
	}
	slices.Sort(redo)
	redo = slices.Compact(redo)
	var files []rank.File
	for _, i := range redo {
		defs, hidden := lk.defsOf(i)
		if !moved[i] && slices.Equal(defs, lk.defs[i]) && slices.Equal(hidden, lk.hidden[i]) {
			continue
		}
		lk.size.defs += len(defs) - len(lk.defs[i])
		lk.defs[i], lk.hidden[i] = defs, hidden
		files = append(files, lk.file(i))
	}
	if len(files) == 0 {
		// The files link as they did (a comment, a body whose
		// references are the same): the rank index is the same.
		return true
	}
	if x, ok := lk.index.Update(files, nil); ok {
		lk.index = x
	} else {
		lk.index = nil
	}
	return true
}

// setKey is a key of one of a linker's sets.
type setKey struct {
	set int
	key string
}

// sortedUnion returns the numbers of a and b, both ascending, in one
// ascending list, each once.
func sortedUnion(a, b []int) []int {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
