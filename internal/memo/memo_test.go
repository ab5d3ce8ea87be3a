package memo

import (
	"bytes"
	"testing"
)

// TestFrame: a form opens for its own kind and digest alone, with the
// digests after it and the rest of the form; another kind, version or
// digest, or a form cut short, finds nothing.
func TestFrame(t *testing.T) {
	key, tree, other := Key{1}, Key{2}, Key{3}
	data := append(Map.Frame(key, tree), "rest"...)
	rest, more, ok := Map.Open(data, key, 1)
	if !ok || string(rest) != "rest" || len(more) != 1 || more[0] != tree {
		t.Errorf("Open = %q, %v, %v", rest, more, ok)
	}
	if got, ok := Map.KeyOf(data); !ok || got != key {
		t.Errorf("KeyOf = %v, %v", got, ok)
	}
	for name, bad := range map[string]func() bool{
		"another digest":       func() bool { _, _, ok := Map.Open(data, other, 1); return ok },
		"another kind":         func() bool { _, _, ok := Links.Open(data, key, 1); return ok },
		"another version":      func() bool { _, _, ok := Ranks.Open(Ranking.Frame(key), key, 0); return ok },
		"cut short":            func() bool { _, _, ok := Map.Open(data[:len(Map)+40], key, 1); return ok },
		"no digest":            func() bool { _, ok := Map.KeyOf([]byte(Map)); return ok },
		"more digests than it": func() bool { _, _, ok := Map.Open(Map.Frame(key), key, 1); return ok },
	} {
		if bad() {
			t.Errorf("%s: opened", name)
		}
	}
}

// TestDecoder: what a form holds reads back; a read past its end, or a
// count it has no room for, makes it bad and gives zeros after.
func TestDecoder(t *testing.T) {
	b := AppendString(nil, "path/a.go")
	b = append(b, 3, 7, 8, 9)                   // Ints: 7, 8, 9
	b = append(b, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f) // 1.0
	d := Decoder{B: b}
	if s, ints, f := d.String(), d.Ints(), d.Float(); s != "path/a.go" || len(ints) != 3 || ints[2] != 9 || f != 1 || d.Bad || len(d.B) != 0 {
		t.Errorf("read %q %v %v, bad %v, %d bytes left", s, ints, f, d.Bad, len(d.B))
	}
	d = Decoder{B: []byte{200, 1}} // a count of 200, with no room
	if n := d.Count(1); n != 0 || !d.Bad || d.Int() != 0 || d.Float() != 0 || d.String() != "" {
		t.Errorf("a count past the end: %d, bad %v", n, d.Bad)
	}
	if d := (Decoder{B: bytes.Repeat([]byte{0xff}, 12)}); d.Int() != 0 || !d.Bad {
		t.Errorf("a uvarint past 64 bits read, or not bad")
	}
}
