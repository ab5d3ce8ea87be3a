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
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Split returns the words of s, in order.
func Split(s string) []string {
	var out []string
	for _, run := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
		parts := camelParts(run)
		if len(parts) > 1 && utf8.RuneCountInString(run) > 1 {
			out = append(out, strings.ToLower(run))
		}
		for _, p := range parts {
			if utf8.RuneCountInString(p) > 1 {
				out = append(out, strings.ToLower(p))
			}
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
	return bagOf(appendHashes(make([]uint32, 0, len(src)/6), src))
}

// AppendHashes appends to dst the hash of each word of s, in the order
// Split gives them, and returns the extended slice.
func AppendHashes(dst []uint32, s string) []uint32 { return appendHashes(dst, s) }

func appendHashes[T string | []byte](hs []uint32, src T) []uint32 {
	start, ascii := -1, true
	end := func(i int) {
		if ascii {
			hs = appendASCII(hs, src[start:i])
		} else {
			for _, w := range Split(string(src[start:i])) {
				hs = append(hs, Hash(w))
			}
		}
		start = -1
	}
	for i := 0; i < len(src); {
		c, size := src[i], 1
		var word bool
		if c < utf8.RuneSelf {
			word = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(string(src[i:min(i+utf8.UTFMax, len(src))]))
			word = isWordRune(r)
		}
		switch {
		case word && start < 0:
			start, ascii = i, c < utf8.RuneSelf
		case word:
			ascii = ascii && c < utf8.RuneSelf
		case start >= 0:
			end(i)
		}
		i += size
	}
	if start >= 0 {
		end(len(src))
	}
	return hs
}

// appendASCII appends the hashes of the words of s, a run of ASCII
// letters and digits, as Split cuts it.
func appendASCII[T string | []byte](hs []uint32, s T) []uint32 {
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	n0 := len(hs)
	start := 0
	parts := 0
	for i := 1; i <= len(s); i++ {
		cut := i == len(s)
		if !cut {
			prev, cur := s[i-1], s[i]
			cut = lower(prev) && upper(cur) || upper(prev) && upper(cur) && i+1 < len(s) && lower(s[i+1])
		}
		if cut {
			parts++
			if i-start > 1 {
				hs = append(hs, hashASCII(s[start:i]))
			}
			start = i
		}
	}
	if parts > 1 && len(s) > 1 {
		hs = slices.Insert(hs, n0, hashASCII(s))
	}
	return hs
}

func hashASCII[T string | []byte](s T) uint32 {
	h := uint32(offset32)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint32(c)) * prime32
	}
	return h
}

// bagOf returns the bag of the hashes hs, which it sorts.
func bagOf(hs []uint32) Bag {
	slices.Sort(hs)
	b := Bag{Total: uint32(len(hs))}
	for i := 0; i < len(hs); {
		j := i + 1
		for j < len(hs) && hs[j] == hs[i] {
			j++
		}
		b.Hashes = append(b.Hashes, hs[i])
		b.Counts = append(b.Counts, uint32(j-i))
		i = j
	}
	return b
}

// Len returns the number of distinct words of b.
func (b *Bag) Len() int { return len(b.Hashes) }

// Count returns how often the word of hash h appears in b.
func (b *Bag) Count(h uint32) uint32 {
	if i, ok := slices.BinarySearch(b.Hashes, h); ok {
		return b.Counts[i]
	}
	return 0
}

// AppendBinary appends the binary form of b to dst: the number of
// distinct words, then each hash as its difference from the one before
// and its count, all as uvarints.
func (b *Bag) AppendBinary(dst []byte) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(len(b.Hashes)))
	prev := uint32(0)
	for i, h := range b.Hashes {
		dst = binary.AppendUvarint(dst, uint64(h-prev))
		dst = binary.AppendUvarint(dst, uint64(b.Counts[i]))
		prev = h
	}
	return dst, nil
}

// ErrMalformed is returned by UnmarshalBinary for data that AppendBinary
// did not make.
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

// UnmarshalBinary sets b from its binary form. Malformed data gives
// ErrMalformed, never a panic.
func (b *Bag) UnmarshalBinary(data []byte) error {
	*b = Bag{}
	total := uint64(0)
	err := Each(data, func(h, c uint32) {
		b.Hashes = append(b.Hashes, h)
		b.Counts = append(b.Counts, c)
		total += uint64(c)
	})
	if err != nil || total > 1<<32-1 {
		*b = Bag{}
		return ErrMalformed
	}
	b.Total = uint32(total)
	return nil
}
