package repomap

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/items"
	"github.com/repomap-dev/repomap/internal/memo"
)

// A map depends on the files of its tree, their stamps telling when one
// changed, and on the request and the options of its Map alone: a new
// Map whose first map is for the request and the tree of the last first
// map made with the same options (by another process, as a command run
// again) gives the bytes that map gave. So a Map's first map is kept in
// the first root's disk cache under the digest of the request and the
// options (memoKey), with the digest of the tree it was made of
// (treeDigest), and the first map of the next Map, when both digests are
// the same, is read back instead of made: a warm map of the Go standard
// library is then the walk of its tree and one read. A map for another
// request, or after a file changed, is made as before, and kept in turn.
// A few maps are kept, for a few requests, each in a slot of its own; the
// maps for a request's words are not (memoCache).

// memoKey returns the digest of what a map for req depends on beside
// the files of the tree: the build of repomap, the options of the Map
// that change a map, and the request.
func (m *Map) memoKey(req Request) [sha256.Size]byte { return m.memoDigest(req, true) }

// rankMemoKey returns the digest of what the ranking of a map for req
// depends on beside the files: memoKey's but the budget.
func (m *Map) rankMemoKey(req Request) [sha256.Size]byte { return m.memoDigest(req, false) }

func (m *Map) memoDigest(req Request, budget bool) [sha256.Size]byte {
	o := m.opts
	what, rq := "ranking", req.rankKey()
	if budget {
		what, rq = "map", req.key()
	} else {
		o.MaxTokens, o.ContextWindow = 0, 0
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "repomap %s\x00%s\x00", what, memo.BuildStamp())
	// Every option that can change a map (see Options).
	enc, err := json.Marshal(o)
	if err != nil {
		panic("repomap: options do not encode: " + err.Error()) // plain values always do
	}
	b.Write(enc)
	b.WriteByte(0)
	for _, r := range m.roots {
		fmt.Fprintf(&b, "%q %q\x00", r.Name, r.Dir)
	}
	fmt.Fprintf(&b, "%q\x00", m.hist.heads) // the history the ranking read
	b.WriteString(rq)
	return sha256.Sum256(b.Bytes())
}

// keptMap is a map kept in the disk cache.
type keptMap struct {
	key, tree [sha256.Size]byte
	res       Result
	ranked    []int // the files of res.Ranked, by their place in the tree's files
}

// memoCache returns the root whose disk cache keeps the map for req, or
// nil: the first root's, when the Map has one root with a disk cache, its
// first map is to be made, and this build can be told apart. A map for a
// request's words is not kept: the words of a task are seldom asked for
// twice, and keeping the map of the Go standard library costs a write of
// 40 ms of CPU.
func (m *Map) memoCache(req Request) *memo.Store {
	if len(m.roots) != 1 || m.last != nil || !m.links.Empty() || m.memoOff || req.Text != "" || m.opts.History != nil {
		return nil
	}
	return m.keep
}

// readKept returns the map kept for the digest key and the ranking kept
// for the digest rankKey, each nil when there is none, from one read of
// st.
func readKept(ctx context.Context, st *memo.Store, key, rankKey [sha256.Size]byte) (km *keptMap, kr *keptRanking) {
	st.Get(ctx, []memo.Want{{Kind: memo.Map, Key: key}, {Kind: memo.Ranking, Key: rankKey}}, func(blobs [][]byte) error {
		km, kr = readMemo(blobs[0], key), readRanking(blobs[1], rankKey)
		return nil
	})
	return km, kr
}

// readMemo returns the map kept in data for the digest key, or nil. It
// keeps no part of data.
func readMemo(data []byte, key [sha256.Size]byte) *keptMap {
	rest, tree, ok := memo.Map.Open(data, key, 1)
	if !ok {
		return nil
	}
	k := &keptMap{key: key, tree: tree[0]}
	d := memo.Decoder{B: rest}
	k.ranked = d.Ints()
	if d.Bad {
		return nil
	}
	data = d.B
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&k.res); err != nil {
		return nil
	}
	return k
}

// storeMemo keeps res, the map for the digest key of the tree of digest
// tree, whose files are files, in r's disk cache, and with rk (unless
// nil) its ranking, for the digest rankKey, in one write: see
// encodeMemo and encodeRanking.
func storeMemo(ctx context.Context, st *memo.Store, key, rankKey, tree [sha256.Size]byte, res *Result, rk *ranked, files []index.File) error {
	place := make(map[string]int, len(files))
	for i, f := range files {
		place[f.Path] = i
	}
	kept, err := encodeMemo(key, tree, res, place)
	if err != nil {
		return err
	}
	forms := []memo.Form{{Kind: memo.Map, Key: key, Data: kept}}
	if rk != nil {
		ranking, err := encodeRanking(rankKey, tree, res.Ranked, rk, place)
		if err != nil {
			return err
		}
		forms = append(forms, memo.Form{Kind: memo.Ranking, Key: rankKey, Data: ranking})
	}
	return st.Set(ctx, forms...)
}

// encodeMemo returns the form of the kept map res, for the digest key of
// the tree of digest tree, whose files are at places: memo.Map's frame
// with the two digests, the number of files of res.Ranked and the place
// of each (uvarints), then res without them, in gob. (The files are those of the
// tree whose digest a map read back is for: their places are 2 bytes
// each rather than their paths; on a tree of 27,000 files, a kept map was
// written in a third of the time.)
func encodeMemo(key, tree [sha256.Size]byte, res *Result, place map[string]int) ([]byte, error) {
	var b bytes.Buffer
	b.Write(memo.Map.Frame(key, tree))
	ranked, err := appendPlaces(nil, res.Ranked, place)
	if err != nil {
		return nil, err
	}
	b.Write(ranked)
	short := *res
	short.Ranked = nil
	if err := gob.NewEncoder(&b).Encode(&short); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appendPlaces appends the number of paths ps and the place of each
// (uvarints) to b.
func appendPlaces(b []byte, ps []string, place map[string]int) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(ps)))
	for _, p := range ps {
		i, ok := place[p]
		if !ok {
			return nil, fmt.Errorf("repomap: kept map: %s is not a file of the tree", p)
		}
		b = binary.AppendUvarint(b, uint64(i))
	}
	return b, nil
}

// A map for a budget never asked before is fitted from the ranking of a
// map made before of the same tree for the same request, when one is
// kept: the ranking is the same, whatever the budget. The first map of a
// Map that the disk cache keeps (see memoCache) keeps its ranking too,
// under the digest of the request and the options but the budget: its
// first keptItems items, the ranks of their files, the order of the files
// (Result.Ranked) and the counts of the graph. A map that needs more
// items than are kept ranks the tree again (ranked.resume).

// keptItems is how many items of a ranking are kept at least: on the Go
// standard library, enough for a map of about 40,000 tokens. (A variable
// for the tests.)
var keptItems = 2048

// keptRanking is a ranking kept in the disk cache.
type keptRanking struct {
	key, tree [sha256.Size]byte
	n         int // the items in all
	size      graphSize
	iters     int
	order     []int      // Result.Ranked, by the files' places in the tree
	items     []keptItem // the first items
	ranks     []float64  // the rank of each item's file
}

// keptItem is an item of a kept ranking, its file by its place.
type keptItem struct {
	place int
	name  string
	score float64
	lines []int // its lines of interest
}

// encodeRanking returns the form of the ranking rk, for the digest key,
// of the tree of digest tree whose files are at places, and whose map
// ranked the files as order: memo.Ranking's frame with the two digests,
// then uvarints: the items in all, the counts of the graph (nodes,
// links, definitions, references), the iterations, order's places
// (appendPlaces), the number of items kept, and per item its file's
// place, its name (memo.AppendString), the bits of its score and of its
// file's rank (8 bytes each), and the number of its lines of interest
// and each.
func encodeRanking(key, tree [sha256.Size]byte, order []string, rk *ranked, place map[string]int) ([]byte, error) {
	rk.list.Make(min(rk.list.Len(), max(keptItems, len(rk.list.Made())))) // without their rows
	made := rk.list.Made()
	b := memo.Ranking.Frame(key, tree)
	for _, v := range []int{rk.list.Len(), rk.size.nodes, rk.size.links, rk.size.defs, rk.size.refs, rk.iters} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	b, err := appendPlaces(b, order, place)
	if err != nil {
		return nil, err
	}
	b = binary.AppendUvarint(b, uint64(len(made)))
	for _, it := range made {
		i, ok := place[it.Path]
		if !ok {
			return nil, fmt.Errorf("repomap: kept ranking: %s is not a file of the tree", it.Path)
		}
		b = binary.AppendUvarint(b, uint64(i))
		b = memo.AppendString(b, it.Name)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(it.Score))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(rk.ranks[it.Path]))
		b = binary.AppendUvarint(b, uint64(len(it.Lines)))
		for _, l := range it.Lines {
			b = binary.AppendUvarint(b, uint64(l))
		}
	}
	return b, nil
}

// readRanking returns the ranking kept in data for the digest key, or
// nil. It keeps no part of data.
func readRanking(data []byte, key [sha256.Size]byte) *keptRanking {
	rest, tree, ok := memo.Ranking.Open(data, key, 1)
	if !ok {
		return nil
	}
	k := &keptRanking{key: key, tree: tree[0]}
	d := memo.Decoder{B: rest}
	k.n, k.size.nodes, k.size.links, k.size.defs, k.size.refs, k.iters = d.Int(), d.Int(), d.Int(), d.Int(), d.Int(), d.Int()
	k.order = d.Ints()
	n := d.Count(19) // a place, a name's length and a count of lines, a byte each at least, and two floats
	k.items, k.ranks = make([]keptItem, n), make([]float64, n)
	for i := range n {
		k.items[i] = keptItem{place: d.Int(), name: d.String(), score: d.Float()}
		k.ranks[i] = d.Float()
		if lines := d.Ints(); len(lines) > 0 {
			k.items[i].lines = lines
		}
	}
	if d.Bad || len(d.B) > 0 || n > k.n {
		return nil
	}
	return k
}

// pathsAt returns the paths of the files at places, nil for none; ok is
// false when a place is not one of files.
func pathsAt(files []index.File, places []int) (paths []string, ok bool) {
	if len(places) > 0 {
		paths = make([]string, len(places))
	}
	for i, f := range places {
		if f >= len(files) {
			return nil, false
		}
		paths[i] = files[f].Path
	}
	return paths, true
}

// ranked returns the ranking k of the tree whose files are files, for
// the snapshot s, or nil when k's files are not places in files. When a
// map needs more items than k keeps, resume ranks s again.
func (k *keptRanking) ranked(s *index.Snapshot, files []index.File, maxRows int, resume func(context.Context) (ranked, error)) *ranked {
	r := &ranked{ranks: make(map[string]float64), size: k.size, iters: k.iters, linked: "cached", resume: resume}
	var ok bool
	if r.order, ok = pathsAt(files, k.order); !ok {
		return nil
	}
	if r.order == nil {
		r.order = []string{} // the files' order is kept, and has none
	}
	made := make([]fit.Item, len(k.items))
	for i, it := range k.items {
		if it.place >= len(files) {
			return nil
		}
		p := files[it.place].Path
		made[i] = fit.Item{Path: p, Name: it.name, Score: it.score, Lines: it.lines}
		r.ranks[p] = k.ranks[i]
	}
	r.list = items.Kept(s, made, k.n, maxRows)
	return r
}

// reused returns the kept map k as the map of files, made at start: its
// stats are those of this map, which parsed, linked, ranked and rendered
// nothing, but for the counts of the graph and of the iterations, which
// are the kept map's (as a map that starts from kept ranks does not
// iterate, and counts the iterations that made them).
//
// It returns nil when k's files are not places in files.
func (k *keptMap) reused(files []index.File, start, walked time.Time) *Result {
	res := k.res
	var ok bool
	if res.Ranked, ok = pathsAt(files, k.ranked); !ok {
		return nil
	}
	st := &res.Stats
	st.Reused, st.Linked = true, "cached"
	st.Parsed, st.Cached = 0, len(files)
	st.Rendered = 0
	st.Walk, st.Tags, st.Rank, st.Fit, st.Store = walked.Sub(start), 0, 0, 0, 0
	st.Total = time.Since(start)
	return &res
}
