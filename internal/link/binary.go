package link

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/repomap-dev/repomap/rank"
)

// AppendBinary appends the binary form of l, which must have its Index,
// to b: the counts of l.Size, the names l.Hidden lists by path (uvarint
// counts and lengths, paths in order), then the index in its binary form
// (rank.Index.AppendBinary).
func (l Linked) AppendBinary(b []byte) ([]byte, error) {
	if l.Index == nil {
		return nil, errors.New("link: no index to encode")
	}
	b = binary.AppendUvarint(b, uint64(l.Size.Defs))
	b = binary.AppendUvarint(b, uint64(l.Size.Refs))
	paths := make([]string, 0, len(l.Hidden))
	for p := range l.Hidden {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	b = binary.AppendUvarint(b, uint64(len(paths)))
	for _, p := range paths {
		b = appendString(b, p)
		b = binary.AppendUvarint(b, uint64(len(l.Hidden[p])))
		for _, name := range l.Hidden[p] {
			b = appendString(b, name)
		}
	}
	return l.Index.AppendBinary(b)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// UnmarshalBinary reads what AppendBinary wrote into l. What it reads
// keeps nothing of data.
func (l *Linked) UnmarshalBinary(data []byte) error {
	bad := errors.New("link: truncated")
	num := func() (int, bool) {
		v, n := binary.Uvarint(data)
		if n <= 0 || v > math.MaxInt32 {
			return 0, false
		}
		data = data[n:]
		return int(v), true
	}
	str := func() (string, bool) {
		n, ok := num()
		if !ok || n > len(data) {
			return "", false
		}
		s := string(data[:n])
		data = data[n:]
		return s, true
	}
	var ok1, ok2 bool
	l.Size.Defs, ok1 = num()
	l.Size.Refs, ok2 = num()
	np, ok3 := num()
	if !ok1 || !ok2 || !ok3 || np > len(data) {
		return bad
	}
	l.Hidden = make(map[string][]string, np)
	for range np {
		p, ok := str()
		n, ok2 := num()
		if !ok || !ok2 || n > len(data) {
			return bad
		}
		names := make([]string, n)
		for i := range names {
			if names[i], ok = str(); !ok {
				return bad
			}
		}
		l.Hidden[p] = names
	}
	l.Files, l.Index = nil, new(rank.Index)
	if err := l.Index.UnmarshalBinary(data); err != nil {
		return err
	}
	return nil
}
