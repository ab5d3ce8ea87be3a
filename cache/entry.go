package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/repomap-dev/repomap/queries"
	"github.com/repomap-dev/repomap/tags"
)

var (
	// errMalformed reports an entry that does not decode.
	errMalformed = errors.New("cache: malformed entry")
	// errChecksum reports a value whose checksum is not that of its
	// bytes: the database was damaged where bbolt does not look.
	errChecksum = errors.New("cache: checksum mismatch")
)

// castagnoli is the table of CRC-32C, which the processor computes on
// most machines: a value's checksum costs a fraction of reading it.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendSum appends the CRC-32C of b[start:] to b, little-endian: every
// value the cache writes ends with the checksum of the rest of it.
func appendSum(b []byte, start int) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// checkSum returns v without its checksum, or errChecksum when the
// checksum is not that of the rest of v.
func checkSum(v []byte) ([]byte, error) {
	if len(v) < 4 {
		return nil, errChecksum
	}
	body := v[:len(v)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(v[len(v)-4:]) {
		return nil, errChecksum
	}
	return body, nil
}

// encode appends the entry's binary form (see the package doc) to b.
func encode(b []byte, e Entry) []byte {
	start := len(b)
	b = binary.AppendUvarint(b, uint64(max(e.Size, 0)))
	b = binary.AppendVarint(b, e.ModTime)
	b = binary.AppendVarint(b, e.Change)
	b = binary.AppendUvarint(b, e.Inode)
	b = binary.LittleEndian.AppendUint64(b, e.Sum)
	if e.Tags.NumStrings() == 0 && len(e.Tags.Tags) == 0 && len(e.Encoded.b) > 0 {
		b = append(b, e.Encoded.b...) // as it was read
	} else {
		b = encodeTags(b, e.Tags)
	}
	var flags byte
	if e.Outline != nil {
		flags |= flagOutline
	}
	if e.Generated {
		flags |= flagGenerated
	}
	if len(e.Words) > 0 {
		flags |= flagWords
	}
	if e.TimedOut > 0 {
		flags |= flagTimedOut
	}
	if e.Skip != "" {
		flags |= flagSkip
	}
	if e.Racy {
		flags |= flagRacy
	}
	if flags != 0 {
		b = append(b, flags)
	}
	if len(e.Words) > 0 {
		b = binary.AppendUvarint(b, uint64(len(e.Words)))
		b = append(b, e.Words...)
	}
	if e.TimedOut > 0 {
		b = binary.AppendUvarint(b, uint64(e.TimedOut))
		b = binary.AppendUvarint(b, uint64(max(e.Timeout, 0)))
	}
	if e.Skip != "" {
		b = binary.AppendUvarint(b, uint64(len(e.Skip)))
		b = append(b, e.Skip...)
	}
	if e.Outline != nil {
		b, _ = e.Outline.AppendBinary(b)
	}
	return appendSum(b, start)
}

// encodeTags appends the binary form of set, its strings then its tags,
// to b.
func encodeTags(b []byte, set tags.Set) []byte {
	b = binary.AppendUvarint(b, uint64(set.NumStrings()))
	for i := range set.NumStrings() {
		s := set.Str(uint32(i))
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(set.Tags)))
	prev := int64(0)
	for _, t := range set.Tags {
		kind := uint64(t.Kind)
		if t.Qual > 0 {
			kind |= kindQual
		}
		b = binary.AppendUvarint(b, kind)
		b = binary.AppendUvarint(b, uint64(t.Name))
		b = binary.AppendUvarint(b, uint64(t.Sub))
		if t.Qual > 0 {
			b = binary.AppendUvarint(b, uint64(t.Qual))
		}
		b = binary.AppendVarint(b, int64(t.Line)-prev)
		prev = int64(t.Line)
	}
	return b
}

// Encoded is a file's tags in their binary form, as Load reads them:
// checked, but not decoded until Decode. A warm map needs the tags of
// the few files it shows, and decoding those of every file took a warm
// map of the Go standard library a fifth of its CPU time.
type Encoded struct {
	b              []byte
	strings, ntags int
}

// Len returns the number of strings and of tags of the set.
func (t Encoded) Len() (strings, tags int) { return t.strings, t.ntags }

// Decode returns the set. It is the empty set for the zero Encoded.
func (t Encoded) Decode() tags.Set {
	r := reader{b: t.b, ok: true}
	set, _, _, _ := readTags(&r, true) // checked when it was read
	return set
}

// Names calls f with each string of the set, in order, and the number
// of the set's definitions and of its references that it names, without
// decoding the set: what the relevance of a file to a request's words
// reads of every file. The bytes are the set's own: f must neither
// change nor keep them. buf is scratch space, returned for the next
// call; it may be nil.
func (t Encoded) Names(buf []int32, f func(s []byte, defs, refs int)) []int32 {
	r := reader{b: t.b, ok: true}
	nstr := int(r.uvarint())
	// buf holds, per string, its end in t.b, its definitions and its
	// references.
	buf = slices.Grow(buf[:0], 3*nstr)[:3*nstr]
	for j := range nstr {
		l := int(r.uvarint())
		r.i += l
		buf[3*j], buf[3*j+1], buf[3*j+2] = int32(r.i), 0, 0
	}
	ntags := int(r.uvarint())
	for range ntags {
		kind := r.uvarint()
		name := r.uvarint()
		r.uvarint() // sub
		if kind&kindQual != 0 {
			kind &^= kindQual
			r.uvarint()
		}
		r.uvarint() // line
		if !r.ok || name >= uint64(nstr) {
			break // cannot be: the set was checked when it was read
		}
		if tags.Kind(kind) == tags.Definition {
			buf[3*name+1]++
		} else {
			buf[3*name+2]++
		}
	}
	r = reader{b: t.b, ok: true}
	r.uvarint()
	for j := range nstr {
		l := int(r.uvarint())
		f(t.b[r.i:r.i+l:r.i+l], int(buf[3*j+1]), int(buf[3*j+2]))
		r.i = int(buf[3*j])
	}
	return buf
}

// decode returns an entry from its binary form, with its tags left in
// Entry.Encoded, checked. Malformed input gives an error, never a panic.
func decode(b []byte) (Entry, error) { return decodeEntry(b, true) }

// decodeInPlace is decode whose entry's tags and words are b's own bytes,
// not copied: for what does not outlive b.
func decodeInPlace(b []byte) (Entry, error) { return decodeEntry(b, false) }

// decodeEntry is decode, which copies the entry's tags and words out of
// b when copied is set.
func decodeEntry(b []byte, copied bool) (Entry, error) {
	var e Entry
	b, bad := checkSum(b)
	if bad != nil {
		return e, bad
	}
	r := reader{b: b, ok: true}
	size := r.uvarint()
	mtime := r.varint()
	change := r.varint()
	inode := r.uvarint()
	if !r.ok || size > math.MaxInt64 || len(b)-r.i < 8 {
		return e, errMalformed
	}
	e.Size, e.ModTime, e.Change, e.Inode = int64(size), mtime, change, inode
	e.Sum = binary.LittleEndian.Uint64(b[r.i:])
	r.i += 8

	// What follows the size and time is copied once, out of the
	// database's memory: the tags' part, and the words after it.
	b = b[r.i:]
	if copied {
		b = bytes.Clone(b)
	}
	r = reader{b: b, ok: true}
	_, nstr, ntags, err := readTags(&r, false)
	if err != nil {
		return e, err
	}
	if nstr > 0 || ntags > 0 {
		e.Encoded = Encoded{b: b[:r.i:r.i], strings: nstr, ntags: ntags}
	}
	b = r.b[r.i:]
	if len(b) > 0 {
		flags := b[0]
		b = b[1:]
		if flags&^(flagOutline|flagGenerated|flagWords|flagTimedOut|flagSkip|flagRacy) != 0 {
			return e, errMalformed
		}
		e.Generated, e.Racy = flags&flagGenerated != 0, flags&flagRacy != 0
		if flags&flagWords != 0 {
			l, n := binary.Uvarint(b)
			if n <= 0 || l == 0 || l > uint64(len(b)-n) {
				return e, errMalformed
			}
			b = b[n:]
			e.Words = b[:l:l]
			b = b[l:]
		}
		if flags&flagTimedOut != 0 {
			n, w := binary.Uvarint(b)
			if w <= 0 || n == 0 || n > math.MaxInt32 {
				return e, errMalformed
			}
			b = b[w:]
			d, w := binary.Uvarint(b)
			if w <= 0 || d > math.MaxInt64 {
				return e, errMalformed
			}
			b = b[w:]
			e.TimedOut, e.Timeout = int(n), time.Duration(d)
		}
		if flags&flagSkip != 0 {
			l, n := binary.Uvarint(b)
			if n <= 0 || l == 0 || l > uint64(len(b)-n) {
				return e, errMalformed
			}
			e.Skip = string(b[n : n+int(l)])
			b = b[n+int(l):]
		}
		if (flags&flagOutline == 0) != (len(b) == 0) {
			return e, errMalformed
		}
		if flags&flagOutline != 0 {
			e.Outline = new(tags.Outline)
			if err := e.Outline.UnmarshalBinary(b); err != nil {
				return e, errMalformed
			}
		}
	}
	return e, nil
}

// readTags reads a set's strings and tags from r, checking each, and
// returns how many of each it has. With keep it returns the set too;
// without, it only checks it, which costs a fraction of decoding it.
func readTags(r *reader, keep bool) (set tags.Set, nstr, ntags int, err error) {
	n := r.uvarint()
	if !r.ok || n > uint64(len(r.b)-r.i) || n > math.MaxUint32 { // each string takes a byte at least
		return set, 0, 0, errMalformed
	}
	nstr = int(n)
	start, total := r.i, 0
	for range nstr {
		l := r.uvarint()
		if !r.ok || l > uint64(len(r.b)-r.i) {
			return set, 0, 0, errMalformed
		}
		r.i += int(l)
		total += int(l)
	}
	if keep && nstr > 0 {
		// The strings share one block: one copy of their bytes.
		end := r.i
		r.i = start
		var block strings.Builder
		block.Grow(total)
		ends := make([]uint32, nstr)
		for i := range ends {
			l := int(r.uvarint())
			block.Write(r.b[r.i : r.i+l])
			r.i += l
			ends[i] = uint32(block.Len())
		}
		set = tags.MakeSet(block.String(), ends, nil)
		r.i = end
	}
	n = r.uvarint()
	if !r.ok || n > uint64(len(r.b)-r.i)/4 { // each tag takes four bytes at least
		return set, 0, 0, errMalformed
	}
	ntags = int(n)
	if !keep {
		end, ok := checkTags(r.b, r.i, uint64(nstr), ntags)
		if !ok {
			return set, 0, 0, errMalformed
		}
		r.i = end
		return set, nstr, ntags, nil
	}
	if ntags > 0 {
		set.Tags = make([]tags.Packed, ntags)
	}
	line := int64(0)
	for i := range ntags {
		kind := r.uvarint()
		name := r.uvarint()
		sub := r.uvarint()
		qual := uint64(0)
		if kind&kindQual != 0 {
			kind &^= kindQual
			qual = r.uvarint()
			r.ok = r.ok && qual > 0 && qual <= uint64(nstr)
		}
		delta := r.varint()
		if !r.ok || (kind != uint64(tags.Definition) && kind != uint64(tags.Reference)) ||
			name >= uint64(nstr) || sub >= uint64(nstr) || delta > math.MaxInt32 || delta < -math.MaxInt32 {
			return set, 0, 0, errMalformed
		}
		line += delta
		if line < 0 || line > math.MaxInt32 {
			return set, 0, 0, errMalformed
		}
		set.Tags[i] = tags.Packed{Name: uint32(name), Sub: uint32(sub), Line: int32(line), Kind: tags.Kind(kind), Qual: uint32(qual)}
	}
	return set, nstr, ntags, nil
}

// checkTags checks the n tags of a set of nstr strings that start at
// b[i:], as readTags reads them, and returns where they end. It is
// readTags's loop without the tags, its numbers read in place: Load
// checks every entry of a cache with it.
func checkTags(b []byte, i int, nstr uint64, n int) (int, bool) {
	next := func() (uint64, bool) {
		if i+1 < len(b) && b[i+1] < 0x80 { // one byte or two, most of the time
			if b[i] < 0x80 {
				i++
				return uint64(b[i-1]), true
			}
			i += 2
			return uint64(b[i-2]&0x7f) | uint64(b[i-1])<<7, true
		}
		v, k := binary.Uvarint(b[min(i, len(b)):])
		if k <= 0 { // too short, or too long a number
			i = len(b)
			return 0, false
		}
		i += k
		return v, true
	}
	line := int64(0)
	for range n {
		kind, ok1 := next()
		name, ok2 := next()
		sub, ok3 := next()
		if !ok1 || !ok2 || !ok3 || name >= nstr || sub >= nstr {
			return 0, false
		}
		if kind&kindQual != 0 {
			kind &^= kindQual
			if qual, ok := next(); !ok || qual == 0 || qual > nstr {
				return 0, false
			}
		}
		u, ok := next()
		delta := int64(u >> 1)
		if u&1 != 0 {
			delta = ^delta
		}
		line += delta
		if !ok || kind != uint64(tags.Definition) && kind != uint64(tags.Reference) ||
			delta > math.MaxInt32 || delta < -math.MaxInt32 || line < 0 || line > math.MaxInt32 {
			return 0, false
		}
	}
	return i, true
}

// reader reads numbers from b, from i on; ok turns false, for good, at
// the first that is not there.
type reader struct {
	b  []byte
	i  int
	ok bool
}

// uvarint reads a uvarint: one byte, most of the time, read here.
func (r *reader) uvarint() uint64 {
	if r.i < len(r.b) && r.b[r.i] < 0x80 {
		v := r.b[r.i]
		r.i++
		return uint64(v)
	}
	v, n := binary.Uvarint(r.b[min(r.i, len(r.b)):])
	if n <= 0 {
		r.ok, r.i = false, len(r.b)
		return 0
	}
	r.i += n
	return v
}

// varint reads a varint.
func (r *reader) varint() int64 {
	u := r.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// kindQual marks, in a tag's kind, that a qualifier index follows its
// kind of definition or reference.
const kindQual = 1 << 2

// The bits of an entry's flags byte.
const (
	flagOutline   = 1 << 0 // the outline follows
	flagGenerated = 1 << 1 // the file's head says it is generated
	flagWords     = 1 << 2 // the words follow, before the outline
	flagTimedOut  = 1 << 3 // the parses that timed out and their timeout follow, after the words
	flagSkip      = 1 << 4 // why the file has no tags follows, after those
	flagRacy      = 1 << 5 // the file changed too close to its read for its stamp to tell a later change
)

// tagFormat is bumped whenever tag extraction changes in a way that the
// query files and grammar versions do not show.
const tagFormat = "tags/11"

// Fingerprint returns the SHA-256 of everything a file's tags depend on
// besides its content: the tag format, every query file and the versions
// of the modules that provide grammars and lexers.
func Fingerprint() []byte {
	h := sha256.New()
	h.Write([]byte(tagFormat + "\n"))
	names, _ := fs.Glob(queries.FS, "*")
	slices.Sort(names)
	for _, n := range names {
		data, _ := fs.ReadFile(queries.FS, n)
		h.Write([]byte(n + "\n"))
		h.Write(data)
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		var mods []string
		for _, m := range info.Deps {
			if strings.Contains(m.Path, "tree-sitter") || strings.Contains(m.Path, "chroma") {
				mods = append(mods, m.Path+"@"+m.Version+" "+m.Sum)
			}
		}
		slices.Sort(mods)
		for _, m := range mods {
			h.Write([]byte(m + "\n"))
		}
	}
	return h.Sum(nil)
}

// stampOf returns what LoadStamps reads of e, an entry as decodeInPlace
// reads it.
func stampOf(e Entry) Stamp {
	n, m := e.Encoded.Len()
	return Stamp{Size: e.Size, ModTime: e.ModTime, Change: e.Change, Inode: e.Inode, Sum: e.Sum, Racy: e.Racy,
		Generated: e.Generated, Outline: e.Outline != nil, Skip: e.Skip, TimedOut: e.TimedOut, Timeout: e.Timeout, Strings: n, Tags: m}
}

// Bits of a stamp's flags byte.
const (
	stampGenerated = 1 << iota
	stampOutline
	stampRacy
)

// appendStamp appends the form of st, but for Seen: its size (uvarint),
// modification and change times (varints), inode (uvarint), content sum
// (8 bytes, little-endian), a flags byte, Skip (uvarint length, bytes),
// TimedOut (uvarint), Timeout (varint nanoseconds), Strings and Tags
// (uvarints), then the CRC-32C of all that (4 bytes, little-endian).
func appendStamp(b []byte, st Stamp) []byte {
	start := len(b)
	b = binary.AppendUvarint(b, uint64(max(st.Size, 0)))
	b = binary.AppendVarint(b, st.ModTime)
	b = binary.AppendVarint(b, st.Change)
	b = binary.AppendUvarint(b, st.Inode)
	b = binary.LittleEndian.AppendUint64(b, st.Sum)
	var flags byte
	if st.Generated {
		flags |= stampGenerated
	}
	if st.Outline {
		flags |= stampOutline
	}
	if st.Racy {
		flags |= stampRacy
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(len(st.Skip)))
	b = append(b, st.Skip...)
	b = binary.AppendUvarint(b, uint64(max(st.TimedOut, 0)))
	b = binary.AppendVarint(b, int64(st.Timeout))
	b = binary.AppendUvarint(b, uint64(max(st.Strings, 0)))
	b = binary.AppendUvarint(b, uint64(max(st.Tags, 0)))
	return appendSum(b, start)
}

// readStamp reads what appendStamp wrote; ok is false when b is not
// that.
func readStamp(b []byte) (st Stamp, ok bool) {
	b, err := checkSum(b)
	if err != nil {
		return Stamp{}, false
	}
	r := reader{b: b, ok: true}
	size := r.uvarint()
	st.ModTime = r.varint()
	st.Change = r.varint()
	st.Inode = r.uvarint()
	if !r.ok || len(b)-r.i < 9 || size > math.MaxInt64 {
		return Stamp{}, false
	}
	st.Size = int64(size)
	st.Sum = binary.LittleEndian.Uint64(b[r.i:])
	r.i += 8
	flags := b[r.i]
	r.i++
	if flags&^(stampGenerated|stampOutline|stampRacy) != 0 {
		return Stamp{}, false
	}
	st.Generated, st.Outline, st.Racy = flags&stampGenerated != 0, flags&stampOutline != 0, flags&stampRacy != 0
	n := r.uvarint()
	if !r.ok || n > uint64(len(b)-r.i) {
		return Stamp{}, false
	}
	st.Skip = string(b[r.i : r.i+int(n)])
	r.i += int(n)
	timedOut := r.uvarint()
	st.Timeout = time.Duration(r.varint())
	strs, tags := r.uvarint(), r.uvarint()
	if !r.ok || r.i != len(b) || timedOut > math.MaxInt32 || strs > math.MaxInt32 || tags > math.MaxInt32 {
		return Stamp{}, false
	}
	st.TimedOut, st.Strings, st.Tags = int(timedOut), int(strs), int(tags)
	return st, true
}
