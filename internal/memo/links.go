package memo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
)

// The link stage's result, and the rank index made of it, depend on the
// files of a snapshot and their tags alone (and on the ranking's link
// settings): on a warm map of a large tree they are most of the work, for
// the same result as the last time. So a LinkStage keeps the last one, in
// memory for the Map's next request and in the first root's disk cache
// for the next process, under a digest of everything it depends on.

// Linked is the link stage's result, with where it came from: "made",
// "updated" from the last one after some files changed, "kept" in
// memory, or "cached" in the disk cache.
type Linked struct {
	link.Linked
	From string
}

// linkMemo is the link stage's result for the files whose digest is key.
type linkMemo struct {
	key    [sha256.Size]byte
	l      Linked
	stored bool         // the first root's disk cache holds it
	lk     *link.Linker // what made it, for the next change; nil when it was read from the disk cache

	// The end of the power iteration of the map for no request (the
	// overview), with the Map's ranking, once one was made; and whether
	// the disk cache holds it. An overview of a tree that did not change
	// is the same ranking of the same graph: a warm map of the Go
	// standard library spent 0.1 s of CPU, a fifth of it, iterating to
	// the ranks of the map before.
	overview       *rank.Converged
	overviewStored bool
	// overviewQuery is what overview's ranks are of (OverviewQuery), and
	// overviewBlob, until an overview reads it, the disk cache's ranks,
	// kept under a digest of the query too.
	overviewQuery string
	overviewBlob  []byte
}

// OverviewQuery returns what the ranks of a map for no request depend on
// beside the graph: the ranking rk, and the files whose teleport share
// is their own, the front doors (policy.Doors), which the roles of
// files choose.
func OverviewQuery(rk policy.Config, doors []string) string {
	return strings.Join(append([]string{rk.Fingerprint()}, doors...), "\x00")
}

// ranksKey returns the digest the overview ranks of the link stage's
// result of digest key are kept under, for the query q (OverviewQuery).
func ranksKey(key [sha256.Size]byte, q string) [sha256.Size]byte {
	return sha256.Sum256(append(append(key[:], 0), q...))
}

// encodeRanks returns the binary form of c, for the digest key:
// Ranks' frame, the iterations, the number of files, then each
// file's path (AppendString) and rank (8 bytes, little-endian IEEE
// 754), in path order.
func encodeRanks(c *rank.Converged, key [sha256.Size]byte) []byte {
	b := Ranks.Frame(key)
	b = binary.AppendUvarint(b, uint64(c.Iterations))
	b = binary.AppendUvarint(b, uint64(len(c.Files)))
	for _, p := range slices.Sorted(maps.Keys(c.Files)) {
		b = AppendString(b, p)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c.Files[p]))
	}
	return b
}

// decodeRanks reads what encodeRanks wrote for the digest key, or nil
// when data is not that.
func decodeRanks(data []byte, key [sha256.Size]byte) *rank.Converged {
	rest, _, ok := Ranks.Open(data, key, 0)
	if !ok {
		return nil
	}
	d := Decoder{B: rest}
	iters := d.Int()
	n := d.Count(9) // a path's length, a byte at least, and a float
	c := &rank.Converged{Files: make(map[string]float64, n), Iterations: iters}
	for range n {
		p := d.String()
		c.Files[p] = d.Float()
	}
	if d.Bad || len(d.B) > 0 {
		return nil
	}
	return c
}

// BuildStamp returns what tells this program apart from other builds of
// it: the path, size and modification time of its executable, or "" when
// they cannot be known. A link stage's result kept on disk is only read
// by the build that wrote it, since its rules may differ from another's.
var BuildStamp = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return exe + "\x00" + strconv.FormatInt(info.Size(), 10) + "\x00" + strconv.FormatInt(info.ModTime().UnixNano(), 10)
})

// linkDigest returns the digest of what the link stage's result for s
// with rk depends on: the build, the ranking's link settings, and each
// file's path, stamp, content hash and tags as counted. Why a file has no tags is not
// in it: the disk cache does not keep it, and a process that read the
// entries back would not find the links the process that parsed them
// kept (on the Go standard library, which has files too large to parse,
// the first warm map after a cold one linked anew, for 2 s).
func linkDigest(s *index.Snapshot, rk policy.Config) [sha256.Size]byte {
	h := sha256.New()
	var b []byte
	b = append(b, "repomap link\x00"...)
	b = append(b, BuildStamp()...)
	b = append(append(append(b, 0), rk.LinkFingerprint()...), 0)
	for i, f := range s.Files {
		b = binary.AppendUvarint(b, uint64(f.Root))
		b = binary.AppendUvarint(b, uint64(len(f.Path)))
		b = append(b, f.Path...)
		b = binary.AppendVarint(b, f.Size)
		b = binary.AppendVarint(b, f.Mod)
		b = binary.AppendUvarint(b, s.Sum(i)) // its content, which its stamp may not show
		nstr, ntags := s.TagCounts(i)
		b = binary.AppendUvarint(b, uint64(ntags))
		b = binary.AppendUvarint(b, uint64(nstr))
		if len(b) > 1<<15 {
			h.Write(b)
			b = b[:0]
		}
	}
	h.Write(b)
	return [sha256.Size]byte(h.Sum(nil))
}

// A LinkStage keeps the link stage's last result for a Map: in memory,
// and in a disk cache for the next process. A nil LinkStage keeps
// nothing: each result is made anew.
type LinkStage struct {
	memo *linkMemo     // nil before the first
	disk *Store        // nil for none
	pre  chan keptLink // the kept result, read while the tree is walked; nil when none is
	// warn reports a problem with the disk cache; debug logs one worth
	// noting.
	warn  func(error)
	debug func(msg string, args ...any)
}

// NewLinkStage returns a LinkStage that keeps its results in disk too,
// unless it is nil; warn reports a problem with the disk cache, and
// debug logs one worth noting.
func NewLinkStage(disk *Store, warn func(error), debug func(msg string, args ...any)) *LinkStage {
	return &LinkStage{disk: disk, warn: warn, debug: debug}
}

// Preload starts reading the kept result from the disk cache, for a
// Map's first map.
func (ls *LinkStage) Preload(ctx context.Context) {
	if ls == nil || ls.disk == nil || ls.memo != nil || ls.pre != nil {
		return
	}
	ls.pre = make(chan keptLink, 1)
	go func() { ls.pre <- readLinked(ctx, ls.disk, nil) }()
}

// Close waits for a read under way.
func (ls *LinkStage) Close() {
	if ls != nil && ls.pre != nil {
		<-ls.pre
		ls.pre = nil
	}
}

// Linked returns the link stage's result for s with rk, with its rank
// index: the one ls kept when the digest is the same, or from the disk
// cache for the first of a Map's life, or updated from the last one after
// some files changed, or made, and kept. With ls nil, it is made anew.
func (ls *LinkStage) Linked(ctx context.Context, s *index.Snapshot, rk policy.Config) (Linked, error) {
	if ls == nil {
		files, err := link.Files(ctx, s)
		if err != nil {
			return Linked{}, err
		}
		return Linked{link.New(files, rk.Link).Linked(false), "made"}, nil
	}
	key := linkDigest(s, rk)
	if m := ls.memo; m != nil && m.key == key {
		l := m.l
		l.From = "kept"
		return l, nil
	}
	first := ls.memo == nil
	if first {
		if l, ranks, ok := ls.load(ctx, key); ok {
			l.From = "cached"
			ls.memo = &linkMemo{key: key, l: l, stored: true}
			ls.memo.overviewBlob = ranks
			return l, nil
		}
	}
	files, err := link.Files(ctx, s) // the link stage reads the tags of every file
	if err != nil {
		return Linked{}, err
	}
	var l Linked
	var lk *link.Linker
	next := &linkMemo{key: key}
	if m := ls.memo; m != nil && m.lk != nil && m.lk.Update(files) {
		lk = m.lk
		l = Linked{lk.Linked(false), "updated"}
		if l.Index == m.l.Index {
			// The same rank index, so the same ranks for no request.
			next.overview, next.overviewQuery = m.overview, m.overviewQuery
		}
	} else {
		lk = link.New(files, rk.Link)
		l = Linked{lk.Linked(false), "made"}
	}
	next.l, next.lk = l, lk
	ls.memo = next
	return l, nil
}

// load returns the link stage's result kept in the disk cache for the
// digest key, if there is one: the one read while the tree was walked,
// or read now.
func (ls *LinkStage) load(ctx context.Context, key [sha256.Size]byte) (Linked, []byte, bool) {
	if ls.disk == nil {
		return Linked{}, nil, false
	}
	var k keptLink
	read := false
	if ls.pre != nil {
		k, read, ls.pre = <-ls.pre, true, nil
	}
	if !read || isDone(k.loadErr) && ctx.Err() == nil {
		k = readLinked(ctx, ls.disk, &key)
	}
	switch {
	case k.loadErr != nil:
		ls.warn(k.loadErr)
		return Linked{}, nil, false
	case k.err == nil && k.key != key, errors.Is(k.err, errOtherFiles):
		return Linked{}, nil, false
	case k.err != nil:
		ls.debug("repomap: link cache not used", "err", k.err)
		return Linked{}, nil, false
	}
	return k.l, k.ranks, true
}

// keptLink is the link stage's result as a disk cache kept it, with the
// digest it was kept for, or why it cannot be had.
type keptLink struct {
	l       Linked
	ranks   []byte // the RanksBlob beside it, not decoded
	key     [sha256.Size]byte
	loadErr error // reading it
	err     error // decoding it
}

// readLinked reads the link stage's result from st: the one for the
// digest want, or with want nil whichever it holds.
func readLinked(ctx context.Context, st *Store, want *[sha256.Size]byte) keptLink {
	// Both are read in one read of the disk cache, and the links are
	// decoded from its bytes rather than copied out of it first. Each
	// kind has one blob, whatever the key.
	var k keptLink
	err := st.Get(ctx, []Want{{Kind: Links}, {Kind: Ranks}}, func(blobs [][]byte) error {
		data := blobs[0]
		k.key, _ = Links.KeyOf(data)
		if want != nil {
			k.key = *want
		}
		k.l, k.err = decodeLinked(data, k.key)
		if k.err == nil && blobs[1] != nil {
			k.ranks = bytes.Clone(blobs[1]) // without, the ranking iterates
		}
		return nil
	})
	if err != nil {
		return keptLink{loadErr: err}
	}
	return k
}

// Store writes the link stage's result to the disk cache, unless it
// holds it already. The caller waits for the index's write first: one
// write at a time.
func (ls *LinkStage) Store(ctx context.Context) {
	m := ls.memo
	if ls == nil || ls.disk == nil || m == nil {
		return
	}
	if !m.stored {
		data, err := encodeLinked(m.l, m.key)
		if err == nil {
			err = ls.disk.Set(ctx, Form{Links, m.key, data})
		}
		if err != nil {
			ls.warn(err)
			return
		}
		m.stored = true
	}
	if m.overview != nil && !m.overviewStored {
		key := ranksKey(m.key, m.overviewQuery)
		if err := ls.disk.Set(ctx, Form{Ranks, key, encodeRanks(m.overview, key)}); err != nil {
			ls.warn(err)
			return
		}
		m.overviewStored = true
	}
}

// Empty reports whether ls keeps no result yet.
func (ls *LinkStage) Empty() bool { return ls == nil || ls.memo == nil }

// Last returns the result ls keeps, and the linker that made it, for the
// next change: nil when it was read from the disk cache.
func (ls *LinkStage) Last() (Linked, *link.Linker, bool) {
	if ls.Empty() {
		return Linked{}, nil, false
	}
	return ls.memo.l, ls.memo.lk, true
}

// Overview returns where the power iteration of the last map for no
// request of the result ls keeps ended, if it was for the query q
// (OverviewQuery), from memory or the disk cache; nil when there is
// none, or with ls nil. The next KeepOverview is for q.
func (ls *LinkStage) Overview(q string) *rank.Converged {
	if ls.Empty() {
		return nil
	}
	m := ls.memo
	if m.overview != nil && m.overviewQuery != q {
		m.overview, m.overviewStored = nil, false
	}
	if m.overview == nil && m.overviewBlob != nil {
		m.overview = decodeRanks(m.overviewBlob, ranksKey(m.key, q))
		m.overviewStored, m.overviewBlob = m.overview != nil, nil
	}
	m.overviewQuery = q
	return m.overview
}

// KeepOverview keeps c, the end of the power iteration of a map for no
// request, for the query the last Overview was for, unless one is kept.
func (ls *LinkStage) KeepOverview(c *rank.Converged) {
	if !ls.Empty() && ls.memo.overview == nil {
		ls.memo.overview, ls.memo.overviewStored = c, false
	}
}

// OverviewKept reports whether ls keeps the ranks of a map for no
// request, and whether the disk cache holds them.
func (ls *LinkStage) OverviewKept() (kept, stored bool) {
	if ls.Empty() {
		return false, false
	}
	return ls.memo.overview != nil, ls.memo.overviewStored
}

// errOtherFiles says that a kept link stage's result is for other files.
var errOtherFiles = errors.New("memo: link cache is for other files")

// encodeLinked returns the binary form of l, for the files of digest
// key: Links' frame, then l in its binary form
// (link.Linked.AppendBinary).
func encodeLinked(l Linked, key [sha256.Size]byte) ([]byte, error) {
	return l.AppendBinary(Links.Frame(key))
}

// decodeLinked reads what encodeLinked wrote, for the files of digest
// key; errOtherFiles when it was written for others. What it returns
// keeps nothing of data.
func decodeLinked(data []byte, key [sha256.Size]byte) (Linked, error) {
	got, ok := Links.KeyOf(data)
	if !ok {
		return Linked{}, errors.New("memo: link cache: not of this version")
	}
	rest, _, ok := Links.Open(data, key, 0)
	if !ok || got != key {
		return Linked{}, errOtherFiles
	}
	var l Linked
	if err := l.UnmarshalBinary(rest); err != nil {
		return Linked{}, fmt.Errorf("memo: link cache: %w", err)
	}
	return l, nil
}

// isDone reports whether err is that of a context done.
func isDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
