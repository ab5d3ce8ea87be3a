package repomap

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"io/fs"
	"math"
	"time"
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

// memoSlots is how many maps the disk cache keeps, by request.
const memoSlots = 8

// memoMagic starts a kept map; its last byte is the version of the form.
const memoMagic = "rmmp\x02"

// memoKey returns the digest of what a map for req depends on beside
// the files of the tree: the build of repomap, the options of the Map
// that change a map, and the request.
func (m *Map) memoKey(req Request) [sha256.Size]byte {
	o := &m.opts
	var b bytes.Buffer
	fmt.Fprintf(&b, "repomap map\x00%s\x00", buildStamp())
	fmt.Fprintf(&b, "%d %d %q %d %q %q %q %q %q\x00", o.MaxTokens, o.ContextWindow, o.Encoding, o.MaxFileSize, o.Ranking, o.Style, o.Exclude, o.Include, fmt.Sprint(o.Roles))
	for _, r := range m.roots {
		fmt.Fprintf(&b, "%q %q\x00", r.Name, r.Dir)
	}
	b.WriteString(req.key())
	return sha256.Sum256(b.Bytes())
}

// treeDigest returns the digest of the tree as a map sees it: the files
// walked, with their stamps, those left out by the walk, and the roles
// file of each root, which need not be a file of the map.
func (x *index) treeDigest(files []file, skipped []skip) [sha256.Size]byte {
	h := sha256.New()
	var b []byte
	for _, f := range files {
		b = binary.AppendUvarint(b, uint64(f.root))
		b = appendString(b, f.path)
		b = binary.AppendVarint(b, f.size)
		b = binary.AppendVarint(b, f.mod)
		if len(b) > 1<<15 {
			h.Write(b)
			b = b[:0]
		}
	}
	b = binary.AppendUvarint(b, uint64(len(skipped)))
	for _, s := range skipped {
		b = appendString(appendString(b, s.path), s.reason)
	}
	for _, r := range x.roots {
		data, err := fs.ReadFile(r.FS, RolesFile)
		b = fmt.Appendf(b, "%t", err == nil)
		b = appendString(b, string(data))
	}
	h.Write(b)
	return [sha256.Size]byte(h.Sum(nil))
}

// keptMap is a map kept in the disk cache.
type keptMap struct {
	key, tree [sha256.Size]byte
	res       Result
	ranked    []int // the files of res.Ranked, by their place in the tree's files
}

// memoSlot returns the name of the blob a map for the digest key is
// kept in.
func memoSlot(key [sha256.Size]byte) string {
	return fmt.Sprintf("map/%d", key[0]%memoSlots)
}

// memoCache returns the root whose disk cache keeps the map for req, or
// nil: the first root's, when the Map has one root with a disk cache, its
// first map is to be made, and this build can be told apart. A map for a
// request's words is not kept: the words of a task are seldom asked for
// twice, and keeping the map of the Go standard library costs a write of
// 40 ms of CPU.
func (m *Map) memoCache(req Request) *root {
	if len(m.roots) != 1 || m.last != nil || m.idx.link != nil || m.memoOff || req.Text != "" {
		return nil
	}
	return m.idx.linkCache()
}

// readMemo returns the map kept for the digest key, or nil.
func readMemo(ctx context.Context, r *root, key [sha256.Size]byte) *keptMap {
	data, err := r.cache.LoadBlob(ctx, memoSlot(key))
	if err != nil || len(data) < len(memoMagic)+2*sha256.Size || string(data[:len(memoMagic)]) != memoMagic {
		return nil
	}
	data = data[len(memoMagic):]
	k := &keptMap{key: [sha256.Size]byte(data), tree: [sha256.Size]byte(data[sha256.Size:])}
	if k.key != key {
		return nil
	}
	data = data[2*sha256.Size:]
	n, w := binary.Uvarint(data)
	if w <= 0 || n > uint64(len(data)) {
		return nil
	}
	data = data[w:]
	k.ranked = make([]int, n)
	for i := range k.ranked {
		v, w := binary.Uvarint(data)
		if w <= 0 || v > math.MaxInt32 {
			return nil
		}
		k.ranked[i], data = int(v), data[w:]
	}
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&k.res); err != nil {
		return nil
	}
	return k
}

// storeMemo keeps res, the map for the digest key of the tree of digest
// tree, whose files are files, in r's disk cache: memoMagic, the two
// digests, the number of files of res.Ranked and the place of each in
// files (uvarints), then res without them, in gob. (The files are those
// of the tree whose digest a map read back is for: their places are 2
// bytes each rather than their paths; on a tree of 27,000 files, a kept
// map was written in a third of the time.)
func storeMemo(ctx context.Context, r *root, key, tree [sha256.Size]byte, res *Result, files []file) error {
	place := make(map[string]int, len(files))
	for i, f := range files {
		place[f.path] = i
	}
	var b bytes.Buffer
	b.WriteString(memoMagic)
	b.Write(key[:])
	b.Write(tree[:])
	b.Write(binary.AppendUvarint(nil, uint64(len(res.Ranked))))
	var num []byte
	for _, p := range res.Ranked {
		i, ok := place[p]
		if !ok {
			return fmt.Errorf("repomap: kept map: %s is not a file of the tree", p)
		}
		num = binary.AppendUvarint(num[:0], uint64(i))
		b.Write(num)
	}
	short := *res
	short.Ranked = nil
	if err := gob.NewEncoder(&b).Encode(&short); err != nil {
		return err
	}
	return r.cache.StoreBlob(ctx, memoSlot(key), b.Bytes())
}

// reused returns the kept map k as the map of files, made at start: its
// stats are those of this map, which parsed, linked, ranked and rendered
// nothing, but for the counts of the graph and of the iterations, which
// are the kept map's (as a map that starts from kept ranks does not
// iterate, and counts the iterations that made them).
//
// It returns nil when k's files are not places in files.
func (k *keptMap) reused(files []file, start, walked time.Time) *Result {
	res := k.res
	if len(k.ranked) > 0 {
		res.Ranked = make([]string, len(k.ranked))
	}
	for i, f := range k.ranked {
		if f >= len(files) {
			return nil
		}
		res.Ranked[i] = files[f].path
	}
	st := &res.Stats
	st.Reused, st.Linked = true, "cached"
	st.Parsed, st.Cached = 0, len(files)
	st.Rendered = 0
	st.Walk, st.Tags, st.Rank, st.Fit, st.Store = walked.Sub(start), 0, 0, 0, 0
	st.Total = time.Since(start)
	return &res
}
