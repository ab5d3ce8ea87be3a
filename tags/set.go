package tags

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
	var s Set
	if len(ts) == 0 {
		return s
	}
	index := make(map[string]uint32)
	intern := func(str string) uint32 {
		i, ok := index[str]
		if !ok {
			i = uint32(len(s.Strings))
			index[str] = i
			s.Strings = append(s.Strings, str)
		}
		return i
	}
	s.Tags = make([]Packed, len(ts))
	for i, t := range ts {
		s.Tags[i] = Packed{Name: intern(t.Name), Sub: intern(t.Sub), Line: int32(t.Line), Kind: t.Kind}
		if t.Qual != "" {
			s.Tags[i].Qual = intern(t.Qual) + 1
		}
	}
	return s
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
