// Package words cuts text into the words a request and a file share, and
// keeps a file's words as a compact bag of term hashes with their counts,
// for ranking files by BM25 against a request without reading them again.
//
// A word is a run of letters and digits, lower-cased, cut again where
// camelCase changes case ("HTTPServer" gives "http" and "server"); a run
// of several words counts as a word too ("QuerySet" gives "queryset",
// "query" and "set"). Words of one letter are left out. Split and Count
// agree: Count(src) counts Hash of each word of Split(string(src)).
package words

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Split returns the words of s, in order: the parts of each run, then the
// whole run when it has several.
func Split(s string) []string {
	var out []string
	for _, run := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
		parts := camelParts(run)
		for _, p := range parts {
			if utf8.RuneCountInString(p) > 1 {
				out = append(out, strings.ToLower(p))
			}
		}
		if len(parts) > 1 {
			out = append(out, strings.ToLower(run))
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// camelParts splits a run of letters and digits where its case changes:
// "parseHTTPRequest2" gives "parse", "HTTP", "Request2".
func camelParts(run string) []string {
	var out []string
	start := 0
	var prev, cur rune
	for i, r := range run {
		if i > 0 {
			next, _ := utf8.DecodeRuneInString(run[i+utf8.RuneLen(r):])
			prev, cur = prevRune(run, i), r
			if unicode.IsLower(prev) && unicode.IsUpper(cur) ||
				unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next) {
				out = append(out, run[start:i])
				start = i
			}
		}
	}
	return append(out, run[start:])
}

func prevRune(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// Hash returns the term hash of the word w (FNV-1a, 32 bits, of w lower
// cased).
func Hash(w string) uint32 {
	h := uint32(offset32)
	for _, r := range w {
		h = hashRune(h, unicode.ToLower(r))
	}
	return h
}

const (
	offset32 = 2166136261
	prime32  = 16777619
)

// hashRune adds the UTF-8 bytes of r to h.
func hashRune(h uint32, r rune) uint32 {
	if r < utf8.RuneSelf {
		return (h ^ uint32(r)) * prime32
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for _, c := range buf[:n] {
		h = (h ^ uint32(c)) * prime32
	}
	return h
}

// A Bag is the words of a text: the distinct term hashes, ascending, each
// with how often its word appears.
type Bag struct {
	Hashes []uint32
	Counts []uint32
	Total  uint32 // the words of the text, repeats included
}

// Count returns the bag of words of src.
func Count(src []byte) Bag {
	c := counted(src)
	defer c.release()
	ps := c.pairs()
	b := Bag{Hashes: make([]uint32, len(ps)), Counts: make([]uint32, len(ps)), Total: c.total}
	for i, p := range ps {
		b.Hashes[i], b.Counts[i] = uint32(p>>32), uint32(p)
	}
	return b
}

// AppendCount appends to dst the binary form of the bag of words of src,
// as Each reads it, without making the bag: the number of distinct words,
// then each hash, ascending, as its difference from the one before, and
// its count, all as uvarints.
func AppendCount(dst, src []byte) []byte {
	c := counted(src)
	defer c.release()
	ps := c.pairs()
	// The exact size first: the form is kept, and growing it as it is
	// written would copy it several times.
	size, prev := uvarintLen(uint64(len(ps))), uint32(0)
	for _, p := range ps {
		h := uint32(p >> 32)
		size += uvarintLen(uint64(h-prev)) + uvarintLen(uint64(uint32(p)))
		prev = h
	}
	dst = slices.Grow(dst, size)
	dst = binary.AppendUvarint(dst, uint64(len(ps)))
	prev = 0
	for _, p := range ps {
		h := uint32(p >> 32)
		dst = binary.AppendUvarint(dst, uint64(h-prev))
		dst = binary.AppendUvarint(dst, uint64(uint32(p)))
		prev = h
	}
	return dst
}

// uvarintLen returns the length of x as a uvarint.
func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// counted returns a counter from the pool that counted the words of src.
func counted(src []byte) *counter {
	c := counterPool.Get().(*counter)
	c.reset(len(src) / 16)
	buf := appendHashes(hashBuf(), src)
	for _, h := range buf {
		c.add(h)
	}
	putHashBuf(buf)
	return c
}

// AppendHashes appends to dst the hash of each word of s, in the order
// Split gives them, and returns the extended slice.
func AppendHashes(dst []uint32, s string) []uint32 { return appendHashes(dst, s) }

// AppendBytesHashes is AppendHashes of the text b.
func AppendBytesHashes(dst []uint32, b []byte) []uint32 { return appendHashes(dst, b) }

// The classes of ASCII bytes.
const (
	clWord  = 1 << iota // a letter or a digit
	clUpper             // an upper-case letter
	clLower             // a lower-case letter
	clHigh              // not ASCII: the start or the rest of a longer rune
)

var class = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = clHigh
		case 'a' <= c && c <= 'z':
			t[c] = clWord | clLower
		case 'A' <= c && c <= 'Z':
			t[c] = clWord | clUpper
		case '0' <= c && c <= '9':
			t[c] = clWord
		}
	}
	return t
}()

// appendHashes appends the hashes of the words of src. ASCII runs are
// cut and hashed in one pass; a run with other letters goes through
// Split.
func appendHashes[T string | []byte](hs []uint32, src T) []uint32 {
	n := len(src)
	for i := 0; i < n; {
		if class[src[i]]&(clWord|clHigh) == 0 {
			i++
			continue
		}
		// A run starts at i: ASCII letters and digits while they last.
		start, first := i, len(hs)
		whole, part := uint32(offset32), uint32(offset32)
		partLen, parts := 0, 1
		prev := uint8(0)
		for i < n {
			c := src[i]
			cl := class[c]
			if cl&clWord == 0 {
				break
			}
			if cl&clUpper != 0 && i > start {
				next := uint8(0)
				if i+1 < n {
					next = class[src[i+1]]
				}
				if prev&clLower != 0 || prev&clUpper != 0 && next&clLower != 0 {
					if partLen > 1 {
						hs = append(hs, part)
					}
					part, partLen = offset32, 0
					parts++
				}
			}
			if cl&clUpper != 0 {
				c += 'a' - 'A'
			}
			whole = (whole ^ uint32(c)) * prime32
			part = (part ^ uint32(c)) * prime32
			partLen++
			prev = cl
			i++
		}
		if i < n && class[src[i]]&clHigh != 0 && isWordRune(runeAt(src, i)) {
			// A letter or digit that is not ASCII: the run goes on while
			// they last, and Split cuts it instead.
			hs = hs[:first]
			for i < n && (class[src[i]]&clWord != 0 || class[src[i]]&clHigh != 0 && isWordRune(runeAt(src, i))) {
				_, size := utf8.DecodeRuneInString(string(src[i:min(i+utf8.UTFMax, n)]))
				i += size
			}
			for _, w := range Split(string(src[start:i])) {
				hs = append(hs, Hash(w))
			}
			continue
		}
		if i == start {
			// A rune that is no letter or digit.
			_, size := utf8.DecodeRuneInString(string(src[i:min(i+utf8.UTFMax, n)]))
			i += size
			continue
		}
		if partLen > 1 {
			hs = append(hs, part)
		}
		if parts > 1 {
			hs = append(hs, whole)
		}
	}
	return hs
}

// runeAt returns the rune that starts at src[i].
func runeAt[T string | []byte](src T, i int) rune {
	r, _ := utf8.DecodeRuneInString(string(src[i:min(i+utf8.UTFMax, len(src))]))
	return r
}

// A counter counts hashes in an open-addressing table. Its lists are
// kept from one text to the next, and the table takes as much of them as
// the text needs.
type counter struct {
	keys, counts []uint32 // a slot is free while its count is 0
	used         int
	total        uint32
	sorted       []uint64 // bag's list, kept too
}

var counterPool = sync.Pool{New: func() any { return new(counter) }}

// maxKept is the most slots a counter keeps for the next text.
const maxKept = 1 << 20

func (c *counter) reset(hint int) {
	size := 256
	for size < 2*hint {
		size *= 2
	}
	if cap(c.keys) >= size {
		c.keys, c.counts = c.keys[:size], c.counts[:size]
		clear(c.counts)
	} else {
		c.keys, c.counts = make([]uint32, size), make([]uint32, size)
	}
	c.used, c.total = 0, 0
}

// release puts c back in the pool, without its lists when they grew past
// maxKept: one huge text should not hold its room for every text after.
func (c *counter) release() {
	if cap(c.keys) > maxKept {
		c.keys, c.counts = nil, nil
	}
	if cap(c.sorted) > maxKept {
		c.sorted = nil
	}
	counterPool.Put(c)
}

func (c *counter) add(h uint32) {
	if 2*(c.used+1) > len(c.keys) {
		c.grow()
	}
	mask := uint32(len(c.keys) - 1)
	i := (h * 0x9e3779b1) >> 7 & mask
	for c.counts[i] != 0 && c.keys[i] != h {
		i = (i + 1) & mask
	}
	if c.counts[i] == 0 {
		c.keys[i] = h
		c.used++
	}
	c.counts[i]++
	c.total++
}

func (c *counter) grow() {
	keys, counts := c.keys, c.counts
	c.keys, c.counts = make([]uint32, 2*len(keys)), make([]uint32, 2*len(keys))
	mask := uint32(len(c.keys) - 1)
	for j, n := range counts {
		if n == 0 {
			continue
		}
		i := (keys[j] * 0x9e3779b1) >> 7 & mask
		for c.counts[i] != 0 {
			i = (i + 1) & mask
		}
		c.keys[i], c.counts[i] = keys[j], n
	}
}

// pairs returns what c counted, each hash and its count as one number,
// the hash high: sorted as numbers, they are sorted by hash. The list is
// c's, good until c is released.
func (c *counter) pairs() []uint64 {
	ps := c.sorted[:0]
	for i, n := range c.counts {
		if n != 0 {
			ps = append(ps, uint64(c.keys[i])<<32|uint64(n))
		}
	}
	slices.Sort(ps)
	c.sorted = ps
	return ps
}

var hashBufs = sync.Pool{New: func() any { return new([]uint32) }}

func hashBuf() []uint32 { return (*hashBufs.Get().(*[]uint32))[:0] }

func putHashBuf(b []uint32) {
	if cap(b) <= 1<<20 {
		hashBufs.Put(&b)
	}
}

// ErrMalformed is returned by Each for data that AppendCount did not
// make.
var ErrMalformed = errors.New("words: malformed bag")

// Each calls f with each hash of the bag whose binary form is data, in
// ascending order, and its count, without keeping them. Malformed data
// gives ErrMalformed, after the calls for what came before it.
func Each(data []byte, f func(h, count uint32)) error {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return ErrMalformed
	}
	data = data[k:]
	h := uint64(0)
	for i := range n {
		d, k1 := binary.Uvarint(data)
		if k1 <= 0 || (i > 0 && d == 0) || h+d > 1<<32-1 {
			return ErrMalformed
		}
		data = data[k1:]
		c, k2 := binary.Uvarint(data)
		if k2 <= 0 || c == 0 || c > 1<<32-1 {
			return ErrMalformed
		}
		data = data[k2:]
		h += d
		f(uint32(h), uint32(c))
	}
	if len(data) != 0 {
		return ErrMalformed
	}
	return nil
}
