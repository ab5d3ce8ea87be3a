package history

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// magic starts the binary form of a History; its last byte is the
// version of the form.
const magic = "rmhist\x02"

// Encode returns the binary form of h, which Decode reads back:
//
//	magic     "rmhist" and a version byte (2)
//	head      uvarint length, then the hex of Head
//	time      varint, Time
//	options   uvarint Depth, uvarint MaxFiles
//	paths     uvarint count, then each: uvarint length, bytes
//	commits   uvarint count, then each: varint of the time of the commit
//	          before it in the list (Time for the first) minus its own,
//	          uvarint length and bytes of its message, uvarint count of
//	          its files, then each file's id (uvarint)
func (h *History) Encode() []byte {
	b := []byte(magic)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(h.Head)
	b = binary.AppendVarint(b, h.Time)
	b = binary.AppendUvarint(b, uint64(h.opts.Depth))
	b = binary.AppendUvarint(b, uint64(h.opts.MaxFiles))
	b = binary.AppendUvarint(b, uint64(len(h.Paths)))
	for _, p := range h.Paths {
		str(p)
	}
	b = binary.AppendUvarint(b, uint64(len(h.Commits)))
	prev := h.Time
	for _, c := range h.Commits {
		b = binary.AppendVarint(b, prev-c.Time)
		prev = c.Time
		str(c.Message)
		b = binary.AppendUvarint(b, uint64(len(c.Files)))
		for _, f := range c.Files {
			b = binary.AppendUvarint(b, uint64(f))
		}
	}
	return b
}

// errDecode is the error of a form Decode cannot read.
var errDecode = errors.New("history: not the form of a history")

// Decode returns the History whose binary form (see Encode) is data. It
// keeps no part of data. Bytes that are not such a form give an error,
// never a panic.
func Decode(data []byte) (*History, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, errDecode
	}
	r := bytes.NewReader(data[len(magic):])
	bad := false
	uint := func() int {
		v, err := binary.ReadUvarint(r)
		bad = bad || err != nil || v > math.MaxInt32
		return int(min(v, math.MaxInt32))
	}
	// count reads a count of things of at least size bytes each.
	count := func(size int) int {
		n := uint()
		if bad || n*size > r.Len() {
			bad = true
			return 0
		}
		return n
	}
	varint := func() int64 {
		v, err := binary.ReadVarint(r)
		bad = bad || err != nil
		return v
	}
	str := func() string {
		b := make([]byte, count(1))
		_, _ = r.Read(b)
		return string(b)
	}
	h := &History{Head: str(), Time: varint()}
	h.opts = Options{Depth: uint(), MaxFiles: uint()}
	h.Paths = make([]string, count(1))
	for i := range h.Paths {
		h.Paths[i] = str()
	}
	h.Commits = make([]Commit, count(3))
	prev := h.Time
	for i := range h.Commits {
		c := &h.Commits[i]
		c.Time = prev - varint()
		prev = c.Time
		c.Message = str()
		if n := count(1); n > 0 {
			c.Files = make([]int32, n)
			for j := range c.Files {
				c.Files[j] = int32(uint())
			}
		}
	}
	if bad || r.Len() > 0 || h.opts.Depth <= 0 || h.opts.MaxFiles <= 0 {
		return nil, errDecode
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("%w: %w", errDecode, err)
	}
	return h, nil
}

// Load returns the history of the repository r up to its HEAD, head,
// read as o says: kept (nil for none) when it is of head and was read
// so; kept extended when HEAD moved on from its head (see Extend); else
// a history read anew. Changed says whether it is not kept, and so is to
// be kept in its place.
func Load(ctx context.Context, r *Repo, head string, kept *History, o Options) (h *History, changed bool, err error) {
	o = o.WithDefaults()
	if kept != nil && kept.opts == o {
		if kept.Head == head {
			return kept, false, nil
		}
		h, err := kept.Extend(ctx, r.dir, head)
		return h, err == nil, err
	}
	h, err = Read(ctx, r.dir, head, o)
	return h, err == nil, err
}
