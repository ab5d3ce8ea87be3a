package tags

import (
	"slices"

	"github.com/repomap-dev/repomap/internal/redact"
)

// Set is a file's tags in compact form: each distinct name and kind is
// stored once, and the tags refer to them by index. A Set holds no
// pointers per tag or per string (its strings are one block of text),
// which keeps large trees cheap to hold in memory.
type Set struct {
	Tags []Packed // sorted by line, as Parse returns them
	text string   // the names and kinds of the tags, one after another
	ends []uint32 // where each string ends in text
}

// MakeSet returns the Set of the tags ts whose strings are text cut at
// ends: string i is text[ends[i-1]:ends[i]], the first from 0. The ends
// must not decrease, nor pass the end of text.
func MakeSet(text string, ends []uint32, ts []Packed) Set {
	return Set{Tags: ts, text: text, ends: ends}
}

// Str returns string i of the Set, a name, kind or qualifier.
func (s Set) Str(i uint32) string {
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text[start:s.ends[i]]
}

// NumStrings returns the number of strings of the Set.
func (s Set) NumStrings() int { return len(s.ends) }

// Equal reports whether s and t have the same strings, in the same
// order, and the same tags.
func (s Set) Equal(t Set) bool {
	return s.text == t.text && slices.Equal(s.ends, t.ends) && slices.Equal(s.Tags, t.Tags)
}

// Strings returns the strings of the Set, in order, in a new list.
func (s Set) Strings() []string {
	strs := make([]string, len(s.ends))
	for i := range strs {
		strs[i] = s.Str(uint32(i))
	}
	return strs
}

// Packed is one tag of a Set.
type Packed struct {
	Name uint32 // index of the name among the Set's strings (Set.Str)
	Sub  uint32 // index of the kind of definition or reference
	Line int32  // 0-based row of the name
	Kind Kind
	Qual uint32 // 1 + the index of the qualifier among the Set's strings; 0 for none
}

// Pack returns the Set of ts.
func Pack(ts []Tag) Set {
	if len(ts) == 0 {
		return Set{}
	}
	var k packer
	k.reset(len(ts))
	for _, t := range ts {
		k.add(k.intern(t.Name), t.Sub, t.Kind, t.Line, t.Qual)
	}
	return k.done()
}

// packer makes a Set one tag at a time, as Pack does, from names given
// as strings or as bytes of the source. Its table and lists are kept from
// one Set to the next: a Set gets lists of its own size when done.
type packer struct {
	index map[string]uint32
	text  []byte   // the strings, one after another
	ends  []uint32 // where each ends in text
	tags  []Packed
}

// reset starts a new Set of at most n tags.
func (k *packer) reset(n int) {
	k.index = cleared(k.index)
	k.text, k.ends = k.text[:0], k.ends[:0]
	k.tags = slices.Grow(k.tags[:0], n)
}

// appendString adds str to the strings, as the next one.
func (k *packer) appendString(str string) {
	k.text = append(k.text, str...)
	k.ends = append(k.ends, uint32(len(k.text)))
}

// done returns the Set, in lists of its own size (a Set is kept for
// every file of a map), and no lists for no tags, as Pack gives them.
func (k *packer) done() Set {
	if len(k.tags) == 0 {
		return Set{}
	}
	set := Set{Tags: slices.Clone(k.tags), text: string(k.text), ends: slices.Clone(k.ends)}
	if cap(k.tags) > maxKeptTags || cap(k.text) > maxKeptText {
		// One huge file should not hold its room for every file after,
		// as with the table (cleared).
		k.text, k.ends, k.tags = nil, nil, nil
	}
	return set
}

// maxKeptTags and maxKeptText are the most tags, and bytes of strings, a
// packer keeps room for after a Set.
const (
	maxKeptTags = 1 << 16
	maxKeptText = 1 << 20
)

// cleared returns m emptied, or a new map when m held so many entries
// that clearing it for each file would cost more than making one: a map
// keeps its room when cleared, and clearing costs as much as the room.
func cleared[V any](m map[string]V) map[string]V {
	if m == nil || len(m) > 1<<12 {
		return make(map[string]V)
	}
	clear(m)
	return m
}

// intern returns the index of str in the Set's strings, added when new.
func (k *packer) intern(str string) uint32 {
	i, ok := k.index[str]
	if !ok {
		i = uint32(len(k.ends))
		k.index[str] = i
		k.appendString(str)
	}
	return i
}

// internBytes is intern of string(b), which it makes only when new.
func (k *packer) internBytes(b []byte) uint32 {
	if i, ok := k.index[string(b)]; ok {
		return i
	}
	return k.intern(string(b))
}

// add adds a tag whose name is string name of the Set.
func (k *packer) add(name uint32, sub string, kind Kind, line int, qual string) {
	t := Packed{Name: name, Sub: k.intern(sub), Line: int32(line), Kind: kind}
	if qual != "" {
		t.Qual = k.intern(qual) + 1
	}
	k.tags = append(k.tags, t)
}

// Len returns the number of tags.
func (s Set) Len() int { return len(s.Tags) }

// Tag returns tag i, with path as its Path.
func (s Set) Tag(i int, path string) Tag {
	p := s.Tags[i]
	return Tag{Path: path, Name: s.Str(p.Name), Kind: p.Kind, Sub: s.Str(p.Sub), Line: int(p.Line), Qual: s.Qual(i)}
}

// Qual returns the qualifier of tag i, or "".
func (s Set) Qual(i int) string {
	if q := s.Tags[i].Qual; q > 0 {
		return s.Str(q - 1)
	}
	return ""
}

// Unpack returns every tag, with path as their Path.
func (s Set) Unpack(path string) []Tag {
	if len(s.Tags) == 0 {
		return nil
	}
	out := make([]Tag, len(s.Tags))
	for i := range s.Tags {
		out[i] = s.Tag(i, path)
	}
	return out
}

// Name returns the name of tag i.
func (s Set) Name(i int) string { return s.Str(s.Tags[i].Name) }

// Sub returns the kind of tag i.
func (s Set) Sub(i int) string { return s.Str(s.Tags[i].Sub) }

// withoutSecrets returns s without the tags whose name or qualifier holds
// a credential (redact.HoldsSecret), and s itself when none does: a
// token is no identifier, and names are shown whole.
func withoutSecrets(s Set) Set {
	var bad []bool
	for i := range s.NumStrings() {
		if redact.HoldsSecret(s.Str(uint32(i))) {
			if bad == nil {
				bad = make([]bool, s.NumStrings())
			}
			bad[i] = true
		}
	}
	if bad == nil {
		return s
	}
	var kept []Tag
	for i, t := range s.Tags {
		if !bad[t.Name] && (t.Qual == 0 || !bad[t.Qual-1]) {
			kept = append(kept, s.Tag(i, ""))
		}
	}
	return Pack(kept)
}
