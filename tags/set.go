package tags

import "slices"

// Set is a file's tags in compact form: each distinct name and kind is
// stored once, and the tags refer to them by index. A Set holds no
// pointers per tag, which keeps large trees cheap to hold in memory.
type Set struct {
	Strings []string // the names and kinds of the tags
	Tags    []Packed // sorted by line, as Parse returns them
}

// Packed is one tag of a Set.
type Packed struct {
	Name uint32 // index of the name in Set.Strings
	Sub  uint32 // index of the kind of definition or reference
	Line int32  // 0-based row of the name
	Kind Kind
	Qual uint32 // 1 + the index of the qualifier in Set.Strings; 0 for none
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
	index   map[string]uint32
	strings []string
	tags    []Packed
}

// reset starts a new Set of at most n tags.
func (k *packer) reset(n int) {
	k.index = cleared(k.index)
	k.strings = k.strings[:0]
	k.tags = slices.Grow(k.tags[:0], n)
}

// done returns the Set, in lists of its own size (a Set is kept for
// every file of a map), and no lists for no tags, as Pack gives them.
func (k *packer) done() Set {
	if len(k.tags) == 0 {
		return Set{}
	}
	set := Set{Strings: slices.Clone(k.strings), Tags: slices.Clone(k.tags)}
	if cap(k.tags) > maxKeptTags {
		// One huge file should not hold its room for every file after,
		// as with the table (cleared).
		k.strings, k.tags = nil, nil
	}
	return set
}

// maxKeptTags is the most tags a packer keeps room for after a Set.
const maxKeptTags = 1 << 16

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
		i = uint32(len(k.strings))
		k.index[str] = i
		k.strings = append(k.strings, str)
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
	return Tag{Path: path, Name: s.Strings[p.Name], Kind: p.Kind, Sub: s.Strings[p.Sub], Line: int(p.Line), Qual: s.Qual(i)}
}

// Qual returns the qualifier of tag i, or "".
func (s Set) Qual(i int) string {
	if q := s.Tags[i].Qual; q > 0 {
		return s.Strings[q-1]
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
func (s Set) Name(i int) string { return s.Strings[s.Tags[i].Name] }

// Sub returns the kind of tag i.
func (s Set) Sub(i int) string { return s.Strings[s.Tags[i].Sub] }
