package link

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
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

// Linker is the link stage's state for one tree.
type Linker struct {
	cfg    Config
	files  []File
	byPath map[string]int
	res    *Resolver // nil without cfg.Resolve
	fams   []string  // per file: its family of languages, with cfg.Family and rules
	// docFams are the families the names of documents' code link in,
	// with cfg.Readme or cfg.DocCode (docFamilies).
	docFams []string

	refs   []fileRefs // per file
	defs   [][]string // per file: the keys it defines
	hidden [][]string // per file: its names that link files and are never shown
	// sets[c] counts, per key (per name for refNamed), the references
	// that put it in the set c, which decides whether definitions
	// publish under it.
	sets [numRefSets]map[string]int32

	index    *rank.Index // of the files' links; nil until made
	size     Size
	relinked int // files whose references the last update linked again

	// Scratch space of refsOf and defsOf.
	uses     map[refUse]int
	order    []int
	useCount []int
	keys     []Ref
	more     []string
	count    []int
	key      []byte // NameKey's bytes, for lookups (keyOf)

	// interned holds one string of each key that New's references link
	// to (intern); nil after New.
	interned map[string]string
}

// The sets of keys that references put keys in, for the definitions
// that publish under a key only when it is used.
const (
	refPlain    = iota // keys of names linked by name from files without rules, when other files have rules
	refFallback        // fallback keys of references the rules could not place
	refMore            // keys that definitions publish beside their own (Resolver.isMore)
	refNamed           // names resolved references link by too (Config.Names)
	refDoc             // keys the names of documents' code link by (DocScope)
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
	n      int      // its references, as Size counts them
}

// addTo adds d times the keys of r to the sets of lk, and calls touched
// with each key (or name) whose count was zero before or after.
func (lk *Linker) addTo(r *fileRefs, d int32, touched func(set int, key string)) {
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

// Size tells how large the link stage's result is.
type Size struct{ Defs, Refs int }

// Linked is the link stage's result: the graph's input, as rank takes
// it, and the names of each file that only link files and are never
// shown.
type Linked struct {
	Files  []rank.File         // with Linker.Linked(true); else nil
	Index  *rank.Index         // of Files; nil with Linker.Linked(true)
	Hidden map[string][]string // by path: names defined only by GraphOnly definitions, or published by rules alone
	Size   Size
}

// Link ties the references of files to definitions with the settings c:
// by the rules of each language, or by name, a reference to every
// definition of its name, as package rank links the names it is given.
// The files' tags are decoded.
func Link(files []File, c Config) Linked {
	return New(files, c).Linked(true)
}

// New links files with the settings c.
func New(files []File, c Config) *Linker {
	lk := &Linker{cfg: c, files: files, byPath: make(map[string]int, len(files)), uses: make(map[refUse]int)}
	for i, f := range files {
		lk.byPath[f.Path] = i
	}
	for k := range lk.sets {
		lk.sets[k] = make(map[string]int32)
	}
	if c.Resolve {
		lk.res = NewResolver(files, c)
	}
	lk.fams = make([]string, len(files))
	if c.Family && lk.res != nil {
		for i, f := range files {
			lk.fams[i] = langFamily(f.Lang)
		}
	}
	if c.Readme || c.DocCode {
		lk.docFams = docFamilies(lk.fams)
	}
	lk.refs = make([]fileRefs, len(files))
	lk.interned = make(map[string]string)
	for i := range files {
		lk.refs[i] = lk.refsOf(i)
		lk.addTo(&lk.refs[i], 1, nil)
		lk.size.Refs += lk.refs[i].n
	}
	lk.interned = nil
	lk.defs = make([][]string, len(files))
	lk.hidden = make([][]string, len(files))
	for i := range files {
		lk.defs[i], lk.hidden[i] = lk.defsOf(i)
		lk.size.Defs += len(lk.defs[i])
	}
	return lk
}

// intern returns key as a string: while New links the files, the same
// string for every reference to the key. Most keys are used by many
// files: a string per reference held a quarter of the link stage's memory
// on nine copies of the Go standard library.
func (lk *Linker) intern(key []byte) string {
	if s, ok := lk.interned[string(key)]; ok {
		return s
	}
	s := string(key)
	if lk.interned != nil {
		lk.interned[s] = s
	}
	return s
}

// file returns the links of file i as rank takes them.
func (lk *Linker) file(i int) rank.File {
	r := &lk.refs[i]
	return rank.File{Path: lk.files[i].Path, Defs: lk.defs[i], Refs: r.keys, RefCounts: r.counts}
}

// Linked returns the link stage's result; with files, its Files, else
// its Index, made once.
func (lk *Linker) Linked(files bool) Linked {
	l := Linked{Hidden: make(map[string][]string), Size: lk.size}
	for i, h := range lk.hidden {
		if len(h) > 0 {
			l.Hidden[lk.files[i].Path] = h
		}
	}
	if files || lk.index == nil {
		l.Files = make([]rank.File, len(lk.files))
		for i := range l.Files {
			l.Files[i] = lk.file(i)
		}
	}
	if !files {
		if lk.index == nil {
			lk.index = rank.NewIndex(l.Files)
		}
		l.Index, l.Files = lk.index, nil
	}
	return l
}

// Relinked returns how many files the last Update linked again.
func (lk *Linker) Relinked() int { return lk.relinked }

// Update makes lk the linker of files, the same files as lk's after
// some of them changed (their Version), linking again only what their
// change can change. It reports false, and leaves lk as it was, when the
// files are not lk's: a file came, went or moved, and the link stage
// must be made anew (New). The files' tags are decoded.
func (lk *Linker) Update(files []File) bool {
	old := lk.files
	if lk.index == nil || len(files) != len(old) {
		return false
	}
	var changed []int
	for i, f := range files {
		if f.Path != old[i].Path {
			return false
		}
		if f.Version != old[i].Version {
			changed = append(changed, i)
		}
	}
	dirty := changed // the files whose references are linked again
	if lk.res != nil {
		var more []int
		lk.res, more = lk.res.rebased(files, changed)
		dirty = sortedUnion(changed, more)
	}
	lk.files, lk.relinked = files, len(dirty)

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
		lk.size.Refs -= lk.refs[i].n
		lk.refs[i] = lk.refsOf(i)
		lk.addTo(&lk.refs[i], 1, touched)
		lk.size.Refs += lk.refs[i].n
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
			redo = append(redo, lk.byPath[p])
		}
	}
	slices.Sort(redo)
	redo = slices.Compact(redo)
	var redone []rank.File
	for _, i := range redo {
		defs, hidden := lk.defsOf(i)
		if !moved[i] && slices.Equal(defs, lk.defs[i]) && slices.Equal(hidden, lk.hidden[i]) {
			continue
		}
		lk.size.Defs += len(defs) - len(lk.defs[i])
		lk.defs[i], lk.hidden[i] = defs, hidden
		redone = append(redone, lk.file(i))
	}
	if len(redone) == 0 {
		// The files link as they did (a comment, a body whose
		// references are the same): the rank index is the same.
		return true
	}
	if x, ok := lk.index.Update(redone, nil); ok {
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

// refsOf links the references of file i: by its language's rules, or by
// name.
func (lk *Linker) refsOf(i int) fileRefs {
	c, res := lk.cfg, lk.res
	f := lk.files[i]
	var out fileRefs
	set := f.Tags
	if res != nil && res.Resolves(i) {
		// A reference resolves by its name, kind and qualifier in its
		// file, and what the rules say it depends on beside them (the
		// binding of a Go variable in effect where it is used): each
		// such use is resolved once per file.
		uses := lk.uses
		clear(uses)
		order, useCount := lk.order[:0], lk.useCount[:0]
		for j, t := range set.Tags {
			if t.Kind != tags.Reference || !c.Links(set.Sub(j)) {
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
			keys = res.RefKeys(keys[:0], i, j)
			if c.Names > 0 && len(keys) > 0 && !keys[0].Fallback {
				// Resolved, and Linked by name too, at c.Names.
				keys = append(keys, Ref{Name: keys[0].Name, Scope: NamesScope})
				out.named = append(out.named, keys[0].Name)
			}
			for _, r := range keys {
				var kb []byte
				var fl uint8
				if r.Fallback {
					kb = lk.keyOf(r.Name, FallbackScope, lk.fams[i])
					fl |= refFallbackFlag
				} else {
					kb = lk.keyOf(r.Name, r.Scope, "") // r.Key()
				}
				key := lk.intern(kb)
				if res.isMore(i, r) {
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
	doc := codeDocument(f)
	if doc && !docLinks(c, f) {
		return out // its code names nothing in this ranking
	}
	count := slices.Grow(lk.count[:0], set.NumStrings())[:set.NumStrings()] // per string of the Set: references to it
	clear(count)
	var bi map[string]bool
	if c.Builtins {
		bi = builtinsOf(f)
	}
	for j, t := range set.Tags {
		if t.Kind == tags.Reference && c.Links(set.Sub(j)) {
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
				out.keys = append(out.keys, lk.intern(lk.keyOf(set.Str(uint32(k)), DocScope, fam)))
				out.counts = append(out.counts, n)
				out.flags = append(out.flags, refDocFlag)
			}
			continue
		}
		out.keys = append(out.keys, lk.intern(lk.keyOf(set.Str(uint32(k)), "", lk.fams[i])))
		out.counts = append(out.counts, n)
	}
	lk.count = count
	out.plain = res != nil && !doc
	return out
}

// defsOf returns the keys file i defines, and the names of it that link
// files and are never shown.
func (lk *Linker) defsOf(i int) (defs, hidden []string) {
	c, res := lk.cfg, lk.res
	set := lk.files[i].Tags
	var graphNames []uint32 // strings defined by GraphOnly definitions
	for j, t := range set.Tags {
		if t.Kind != tags.Definition {
			continue
		}
		sub := set.Sub(j)
		name := RankName(sub, set.Str(t.Name))
		// (The keys that may be used are looked up from lk's buffer, and
		// made only when they are: most are not.)
		if dk := lk.keyOf(name, DocScope, lk.fams[i]); lk.sets[refDoc][string(dk)] > 0 {
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
			key := res.DefKey(i, j).Key()
			defs = append(defs, key)
			lk.more = res.MoreDefKeys(lk.more[:0], i, j)
			for _, k := range lk.more {
				if lk.sets[refMore][k] > 0 {
					defs = append(defs, k)
				}
			}
			if pk := lk.keyOf(name, "", lk.fams[i]); key != string(pk) && lk.sets[refPlain][string(pk)] > 0 {
				defs = append(defs, string(pk))
			}
			if fk := lk.keyOf(name, FallbackScope, lk.fams[i]); lk.sets[refFallback][string(fk)] > 0 {
				defs = append(defs, string(fk))
			}
			if lk.sets[refNamed][name] > 0 {
				defs = append(defs, rank.Key(name, NamesScope))
			}
		}
		if GraphOnly(sub) {
			graphNames = append(graphNames, t.Name)
		}
	}
	if res != nil {
		for _, k := range res.ExtraKeys(i) {
			defs = append(defs, k)
			name := rank.Ident(k)
			if !shows(set, name) {
				hidden = append(hidden, name)
			}
		}
	}
	if c.Exports && exportsAll(set) {
		hidden = append(hidden, "__all__")
	}
	for _, k := range graphNames {
		shownToo := false
		for j, t := range set.Tags {
			if t.Kind == tags.Definition && t.Name == k && !GraphOnly(set.Sub(j)) {
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

// shows reports whether set has a definition of name that a map shows.
func shows(set tags.Set, name string) bool {
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && !GraphOnly(set.Sub(j)) && set.Str(t.Name) == name {
			return true
		}
	}
	return false
}

// Verify reports how lk differs from a Linker made anew of its files
// with its settings, or nil: the invariant that Update keeps. Each file's
// links and hidden names, the sets, the sizes and the rank index are
// compared.
func (lk *Linker) Verify() error {
	want := New(lk.files, lk.cfg)
	var errs []error
	for i, f := range lk.files {
		if w, g := want.file(i), lk.file(i); !slices.Equal(w.Defs, g.Defs) || !slices.Equal(w.Refs, g.Refs) || !slices.Equal(w.RefCounts, g.RefCounts) {
			errs = append(errs, fmt.Errorf("links of %s: %+v, want %+v", f.Path, g, w))
		}
		if !slices.Equal(want.hidden[i], lk.hidden[i]) {
			errs = append(errs, fmt.Errorf("hidden names of %s: %v, want %v", f.Path, lk.hidden[i], want.hidden[i]))
		}
	}
	for c := range want.sets {
		if !maps.Equal(want.sets[c], lk.sets[c]) {
			errs = append(errs, fmt.Errorf("set %d: %v, want %v", c, lk.sets[c], want.sets[c]))
		}
	}
	if want.size != lk.size {
		errs = append(errs, fmt.Errorf("size %+v, want %+v", lk.size, want.size))
	}
	wantIndex, err := want.Linked(false).Index.AppendBinary(nil)
	if err != nil {
		return err
	}
	gotIndex, err := lk.Linked(false).Index.AppendBinary(nil)
	if err != nil {
		return err
	}
	if !bytes.Equal(wantIndex, gotIndex) {
		errs = append(errs, errors.New("the rank index differs from one made anew"))
	}
	return errors.Join(errs...)
}
