package rank

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// ErrMalformed is returned, wrapped, by Index.UnmarshalBinary for data
// that is not the binary form of an Index.
var ErrMalformed = errors.New("rank: malformed index")

// indexMagic starts the binary form of an Index; its last byte is the
// version of the format.
const indexMagic = "rmix\x01"

// AppendBinary appends the binary form of x to b, for
// Index.UnmarshalBinary to read back. The form is compact (sorted names
// share their prefixes, increasing numbers are stored as differences) and
// holds only what cannot be derived quickly.
//
// The layout, every number a uvarint:
//
//	"rmix" 1               magic and version
//	paths                  count, then each: prefix shared with the previous, suffix length, suffix
//	names                  the same
//	per identifier         its definers' count, then each definer's file minus the previous one's (the first: plus 0)
//	per file               its references' count, then each: identifier minus the previous one's plus 1 (the first: plus 0), count
//	self-edges             one bit per slot, in slot order, 8 to a byte
//	runs                   one bit per slot, in file order: its identifier is the slot's before
//	styles                 one byte per identifier
func (x *Index) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, indexMagic...)
	b = appendSorted(b, x.paths)
	b = appendSorted(b, x.names)
	for k := range x.names {
		slots := x.defFile[x.defStart[k]:x.defStart[k+1]]
		b = binary.AppendUvarint(b, uint64(len(slots)))
		prev := int32(0)
		for _, f := range slots {
			b = binary.AppendUvarint(b, uint64(f-prev))
			prev = f
		}
	}
	for f := range x.paths {
		lo, hi := x.fileRefStart[f], x.fileRefStart[f+1]
		b = binary.AppendUvarint(b, uint64(hi-lo))
		prev := int32(-1)
		for r := lo; r < hi; r++ {
			b = binary.AppendUvarint(b, uint64(x.refIdent[r]-prev-1))
			b = binary.AppendUvarint(b, uint64(x.refCount[r]))
			prev = x.refIdent[r]
		}
	}
	b = appendBits(b, x.selfEdge)
	b = appendBits(b, x.cont)
	b = append(b, x.style...)
	return b, nil
}

// appendBits appends bs, 8 to a byte, the first in the lowest bit.
func appendBits(b []byte, bs []bool) []byte {
	bits := make([]byte, (len(bs)+7)/8)
	for i, ok := range bs {
		if ok {
			bits[i/8] |= 1 << (i % 8)
		}
	}
	return append(b, bits...)
}

// appendSorted appends ss, sorted, each sharing a prefix with the one
// before it.
func appendSorted(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	prev := ""
	for _, s := range ss {
		n := 0
		for n < len(s) && n < len(prev) && s[n] == prev[n] {
			n++
		}
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(len(s)-n))
		b = append(b, s[n:]...)
		prev = s
	}
	return b
}

// UnmarshalBinary sets x from data, the binary form AppendBinary makes.
// It checks every count and number against the rest, so that data that
// is not such a form gives an error wrapping ErrMalformed rather than an
// Index that Rank would trip on. x keeps nothing of data.
func (x *Index) UnmarshalBinary(data []byte) error {
	d := decoder{b: data, limit: 64*len(data) + 4096}
	if len(data) < len(indexMagic) || string(data[:len(indexMagic)]) != indexMagic {
		return fmt.Errorf("%w: not an index of this version", ErrMalformed)
	}
	d.b = d.b[len(indexMagic):]
	var y Index
	y.paths = d.sorted()
	y.names = d.sorted()
	nf, ni := len(y.paths), len(y.names)
	y.defStart = make([]int32, ni+1)
	// A first pass over the definers and one over the references count
	// them, so that their slices are made once.
	if n := d.total(ni, 1); n > 0 {
		y.defFile, y.slotIdent = make([]int32, 0, n), make([]int32, 0, n)
	}
	for k := range ni {
		n := d.count()
		if d.err != nil {
			break
		}
		f := int64(0)
		for range n {
			f += int64(d.uvarint())
			if f < 0 || f >= int64(nf) || (len(y.defFile) > int(y.defStart[k]) && int32(f) <= y.defFile[len(y.defFile)-1]) {
				d.fail("a definer out of order")
				break
			}
			y.defFile = append(y.defFile, int32(f))
			y.slotIdent = append(y.slotIdent, int32(k))
		}
		y.defStart[k+1] = int32(len(y.defFile))
	}
	y.fileRefStart = make([]int32, nf+1)
	if n := d.total(nf, 2); n > 0 {
		y.refIdent, y.refCount = make([]int32, 0, n), make([]int32, 0, n)
	}
	for f := range nf {
		n := d.count()
		if d.err != nil {
			break
		}
		k := int64(-1)
		for range n {
			k += int64(d.uvarint()) + 1
			c := d.uvarint()
			if k < 0 || k >= int64(ni) || c < 1 || c > 1<<31-1 {
				d.fail("a reference out of range")
				break
			}
			y.refIdent = append(y.refIdent, int32(k))
			y.refCount = append(y.refCount, int32(c))
		}
		y.fileRefStart[f+1] = int32(len(y.refIdent))
	}
	y.selfEdge = d.bits(len(y.defFile))
	y.cont = d.bits(len(y.defFile))
	y.style = d.bytes(ni)
	if d.err == nil && len(d.b) > 0 {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return d.err
	}
	y.style = append([]uint8(nil), y.style...)
	y.indexSlots()
	y.indexReferenced()
	for f := range nf {
		if lo := y.fileDefStart[f]; lo < y.fileDefStart[f+1] && y.cont[lo] {
			return fmt.Errorf("%w: a file's first definition continues another's", ErrMalformed)
		}
	}
	y.kw = new(keyWeights)
	*x = y
	return nil
}

// indexSlots derives the slots of each file from the definers.
func (x *Index) indexSlots() {
	nf := len(x.paths)
	slots := make([]int32, len(x.defFile))
	for i := range slots {
		slots[i] = int32(i)
	}
	x.fileDefSlot = countingSort(slots, nf, func(slot int32) int32 { return x.defFile[slot] })
	x.fileDefStart = make([]int32, nf+1)
	for _, f := range x.defFile {
		x.fileDefStart[f+1]++
	}
	for f := 1; f <= nf; f++ {
		x.fileDefStart[f] += x.fileDefStart[f-1]
	}
}

// indexReferenced derives from the references which identifiers are
// referenced.
func (x *Index) indexReferenced() {
	x.referenced = make([]bool, len(x.names))
	for _, k := range x.refIdent {
		x.referenced[k] = true
	}
}

// decoder reads the binary form of an Index, keeping the first error.
type decoder struct {
	b     []byte
	limit int // the most bytes of strings the form can make
	err   error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrMalformed, what)
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("a truncated number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// total returns the sum of the next n counts, each followed by that
// many items of per numbers, without reading them; 0 when they are not
// all there, for the reads that follow to find what is wrong.
func (d *decoder) total(n, per int) int {
	b, sum := d.b, 0
	for range n {
		c, k := binary.Uvarint(b)
		if k <= 0 || c > uint64(len(b)) {
			return 0
		}
		b = b[k:]
		for range int(c) * per {
			_, k := binary.Uvarint(b)
			if k <= 0 {
				return 0
			}
			b = b[k:]
		}
		sum += int(c)
	}
	return sum
}

// length returns how many bytes the next n strings that appendSorted
// wrote make, as far as they read, without reading them: a first pass,
// so that their bytes are copied once.
func (d *decoder) length(n int) int {
	b, prev, sum := d.b, 0, 0
	for range n {
		shared, k1 := binary.Uvarint(b)
		if k1 <= 0 {
			break
		}
		size, k2 := binary.Uvarint(b[k1:])
		if k2 <= 0 || shared > uint64(prev) || size > uint64(len(b)-k1-k2) {
			break
		}
		b = b[k1+k2+int(size):]
		prev = int(shared + size)
		if sum += prev; sum > d.limit {
			return d.limit
		}
	}
	return sum
}

// count reads a count of items, each at least one byte long.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("a count past the end")
		return 0
	}
	return int(n)
}

// bits reads what appendBits wrote of n bools.
func (d *decoder) bits(n int) []bool {
	b := d.bytes((n + 7) / 8)
	out := make([]bool, n)
	for i := range out {
		out[i] = b[i/8]&(1<<(i%8)) != 0
	}
	return out
}

func (d *decoder) bytes(n int) []byte {
	if n > len(d.b) {
		d.fail("truncated")
		return make([]byte, n)
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

// sorted reads what appendSorted wrote: the strings, strictly increasing,
// all slices of one string, which is made in place as they are read
// (strings.Builder): no block of bytes to zero first, nor to copy into a
// string after.
func (d *decoder) sorted() []string {
	n := d.count()
	var b strings.Builder
	b.Grow(d.length(n))
	out := make([]string, 0, n)
	prev := ""
	for range n {
		shared, size := d.uvarint(), d.uvarint()
		if d.err != nil {
			break
		}
		if shared > uint64(len(prev)) || size > uint64(len(d.b)) {
			d.fail("a string past the end")
			break
		}
		start := b.Len()
		if start+int(shared) > d.limit {
			// Prefixes make strings from few bytes; a form that makes
			// far more than any index does is not one.
			d.fail("strings longer than an index holds")
			break
		}
		b.WriteString(prev[:shared])
		b.Write(d.b[:size])
		d.b = d.b[size:]
		// What the builder holds is never changed by what is written
		// after it: the string of every part of it stays as it is.
		s := b.String()[start:]
		if len(out) > 0 && prev >= s {
			d.fail("strings out of order")
			break
		}
		out = append(out, s)
		prev = s
	}
	if d.err != nil {
		return nil
	}
	return out
}
