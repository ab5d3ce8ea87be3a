// Package memo keeps what a Map makes from one map to the next. A Store
// keeps each form in a disk cache by its kind and key: a map and its
// ranking, which package repomap encodes, and the link stage's result
// and the ranks of the map for no request, which a LinkStage keeps. Each
// form starts with its kind, whose last byte is the version of the form,
// and the digest of what it depends on, so that a reader of another
// kind, version or digest finds nothing; a Decoder reads the rest.
package memo

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// Key is the digest a form is kept under: of everything it depends on.
type Key = [sha256.Size]byte

// Kind is a kind of kept form: the bytes its form starts with, the last
// of them the version of the form. Two kinds kept in the same blob
// differ in more than their version.
type Kind string

// The kinds of forms a Map keeps.
const (
	Map     Kind = "rmmp\x03" // a map
	Ranking Kind = "rmrk\x02" // the ranking of a map, for another budget
	Links   Kind = "rmlk\x01" // the link stage's result
	Ranks   Kind = "rmrk\x01" // the ranks of the map for no request
)

// Frame returns the start of a form of kind k kept under key, with the
// digests more after it.
func (k Kind) Frame(key Key, more ...Key) []byte {
	b := make([]byte, 0, len(k)+(1+len(more))*len(key))
	b = append(append(b, k...), key[:]...)
	for _, m := range more {
		b = append(b, m[:]...)
	}
	return b
}

// Open returns what follows in data the frame of a form of kind k kept
// under key, with the n digests after it; ok is false when data does not
// start with such a frame.
func (k Kind) Open(data []byte, key Key, n int) (rest []byte, more []Key, ok bool) {
	got, ok := k.KeyOf(data)
	if !ok || got != key || len(data) < len(k)+(1+n)*len(key) {
		return nil, nil, false
	}
	data = data[len(k)+len(key):]
	for range n {
		more = append(more, Key(data))
		data = data[len(key):]
	}
	return data, more, true
}

// KeyOf returns the digest the form of kind k in data is kept under, and
// whether data is one.
func (k Kind) KeyOf(data []byte) (Key, bool) {
	if len(data) < len(k)+len(Key{}) || string(data[:len(k)]) != string(k) {
		return Key{}, false
	}
	return Key(data[len(k):]), true
}

// AppendString appends s to b as a Decoder's String reads it: its length
// (uvarint), then its bytes.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// A Decoder reads the uvarints, strings and floats of a kept form, from
// B; Bad says that one was missing or out of range, and then every read
// after gives zero.
type Decoder struct {
	B   []byte
	Bad bool
}

// Int reads a uvarint of at most math.MaxInt32.
func (d *Decoder) Int() int {
	v, w := binary.Uvarint(d.B)
	if w <= 0 || v > math.MaxInt32 {
		d.Bad, d.B = true, nil
		return 0
	}
	d.B = d.B[w:]
	return int(v)
}

// Count reads a count of things of at least size bytes each, which the
// rest of the form must have room for.
func (d *Decoder) Count(size int) int {
	n := d.Int()
	if n*size > len(d.B) {
		d.Bad, d.B = true, nil
		return 0
	}
	return n
}

// Ints reads a count and as many uvarints.
func (d *Decoder) Ints() []int {
	out := make([]int, d.Count(1))
	for i := range out {
		out[i] = d.Int()
	}
	return out
}

// String reads what AppendString wrote.
func (d *Decoder) String() string {
	n := d.Count(1)
	s := string(d.B[:n])
	d.B = d.B[n:]
	return s
}

// Float reads the bits of a float64, 8 bytes little-endian.
func (d *Decoder) Float() float64 {
	if len(d.B) < 8 {
		d.Bad, d.B = true, nil
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.B))
	d.B = d.B[8:]
	return v
}
