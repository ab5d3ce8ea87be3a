// Package tokens counts the tokens of text in OpenAI's tiktoken encodings,
// from the tables built into the binary.
//
// It counts exactly as github.com/pkoukk/tiktoken-go's EncodeOrdinary
// does (the tests check it on real source), but loads an encoding about
// ten times faster: it keeps only what counting needs, the rank of each
// token's bytes, in one block of memory, where tiktoken-go also builds
// the decoder and a sorted copy of every token, one allocation each. A
// map is counted, so the load is on the path of every map.
package tokens

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"hash/maphash"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// The encodings this package knows.
const (
	O200kBase  = "o200k_base"  // GPT-4o and later
	Cl100kBase = "cl100k_base" // GPT-4 and GPT-3.5
)

// The pre-tokenizers' patterns, as tiktoken defines them: text is cut
// into the pieces they match, and each piece is encoded alone.
var patterns = map[string]string{
	O200kBase: `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	Cl100kBase: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
}

// Encoding is a loaded encoding. It is safe for concurrent use.
type Encoding struct {
	name  string
	ranks table           // token bytes → rank
	split *regexp2.Regexp // the pre-tokenizer
}

// table finds the rank of a token's bytes: an open-addressing hash table
// of the tokens, whose bytes lie end to end in one block. Building it
// costs a third of what a Go map of 200,000 strings does.
type table struct {
	seed  maphash.Seed
	bytes []byte  // the tokens, end to end
	end   []int32 // token i is bytes[end[i-1]:end[i]] (end[-1] = 0)
	rank  []int32 // token i's rank
	slots []int32 // i+1 for token i, 0 for none; a power of two long
}

// add adds token i, whose bytes end at end[i].
func (t *table) add(i int) {
	mask := uint64(len(t.slots) - 1)
	for h := maphash.Bytes(t.seed, t.token(i)) & mask; ; h = (h + 1) & mask {
		if t.slots[h] == 0 {
			t.slots[h] = int32(i + 1)
			return
		}
	}
}

// token returns the bytes of token i.
func (t *table) token(i int) []byte {
	start := int32(0)
	if i > 0 {
		start = t.end[i-1]
	}
	return t.bytes[start:t.end[i]]
}

// get returns the rank of the token b, and whether b is a token.
func (t *table) get(b []byte) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for h := maphash.Bytes(t.seed, b) & mask; ; h = (h + 1) & mask {
		s := t.slots[h]
		if s == 0 {
			return 0, false
		}
		if bytes.Equal(t.token(int(s-1)), b) {
			return int(t.rank[s-1]), true
		}
	}
}

var loaded sync.Map // name → func() (*Encoding, error)

// Get returns the named encoding, loading it the first time it is asked
// for in the process.
func Get(name string) (*Encoding, error) {
	if _, ok := patterns[name]; !ok {
		return nil, fmt.Errorf("unknown encoding %q (want %s or %s)", name, O200kBase, Cl100kBase)
	}
	load, _ := loaded.LoadOrStore(name, sync.OnceValues(func() (*Encoding, error) { return load(name) }))
	return load.(func() (*Encoding, error))()
}

// load reads the named encoding's table: one line per token, its bytes
// in base64 and its rank.
func load(name string) (*Encoding, error) {
	split, err := regexp2.Compile(patterns[name], regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("load encoding %s: %w", name, err)
	}
	data, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return nil, fmt.Errorf("load encoding %s: %w", name, err)
	}
	n := bytes.Count(data, []byte("\n")) + 1
	t := table{seed: maphash.MakeSeed(), end: make([]int32, 0, n), rank: make([]int32, 0, n)}
	t.bytes = make([]byte, 0, base64.StdEncoding.DecodedLen(len(data)))
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) == 0 {
			continue
		}
		b64, num, ok := bytes.Cut(line, []byte(" "))
		rank, isRank := parseRank(num)
		if !ok || !isRank {
			return nil, fmt.Errorf("load encoding %s: bad line %q", name, line)
		}
		start := len(t.bytes)
		t.bytes = t.bytes[:start+base64.StdEncoding.DecodedLen(len(b64))]
		k, err := base64.StdEncoding.Decode(t.bytes[start:], b64)
		if err != nil {
			return nil, fmt.Errorf("load encoding %s: bad line %q: %w", name, line, err)
		}
		t.bytes = t.bytes[:start+k]
		t.end = append(t.end, int32(start+k))
		t.rank = append(t.rank, rank)
	}
	// At most half full, for short probes.
	size := 1
	for size < 2*len(t.end) {
		size *= 2
	}
	t.slots = make([]int32, size)
	for i := range t.end {
		t.add(i)
	}
	return &Encoding{name: name, ranks: t, split: split}, nil
}

// parseRank reads a token's rank: decimal digits, at most nine. (Each
// of 200,000 lines parsed with strconv, from a string made of its bytes,
// was a sixth of the load.)
func parseRank(b []byte) (int32, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	var n int32
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int32(c-'0')
	}
	return n, true
}

// Name returns the encoding's name.
func (e *Encoding) Name() string { return e.name }

// Count returns the number of tokens of text.
func (e *Encoding) Count(text string) int {
	if text == "" {
		return 0
	}
	// As tiktoken-go does, the pre-tokenizer works on runes, and each
	// piece is the UTF-8 of its runes (invalid bytes become U+FFFD).
	runes := []rune(text)
	var piece []byte
	var parts []part
	n := 0
	m, _ := e.split.FindRunesMatch(runes)
	for m != nil {
		piece = piece[:0]
		for _, r := range runes[m.Index : m.Index+m.Length] {
			piece = utf8.AppendRune(piece, r)
		}
		if _, ok := e.ranks.get(piece); ok {
			n++
		} else {
			parts = e.merge(piece, parts)
			n += len(parts) - 1
		}
		m, _ = e.split.FindNextMatch(m)
	}
	return n
}

// part is where a part of a piece starts, and the rank of it merged with
// the part after it (none: math.MaxInt).
type part struct{ start, rank int }

// merge returns the parts a piece is encoded in, each a token, and one
// more that marks its end: byte pair encoding merges, again and again,
// the two neighbouring parts whose bytes together are the token of the
// lowest rank, until no two make a token.
func (e *Encoding) merge(piece []byte, parts []part) []part {
	parts = parts[:0]
	for i := range len(piece) + 1 {
		parts = append(parts, part{i, math.MaxInt})
	}
	if len(piece) == 1 {
		return parts
	}
	rank := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := e.ranks.get(piece[parts[i].start:parts[i+skip+2].start]); ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := range len(parts) - 2 {
		parts[i].rank = rank(i, 0)
	}
	for len(parts) > 1 {
		low, at := math.MaxInt, -1
		for i := range len(parts) - 1 {
			if parts[i].rank < low {
				low, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		parts[at].rank = rank(at, 1)
		if at > 0 {
			parts[at-1].rank = rank(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return parts
}
