package index

import (
	"context"
	"errors"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/tags"
)

// loadCaches reads the disk cache of each root not read yet, keeping the
// entries of files the index does not know.
func (x *Index) loadCaches(ctx context.Context) {
	var pre []loaded
	var see *Seer
	if p := x.pre; p != nil && p.waiting {
		pre, see = <-p.caches, p.see
		x.pre = nil
	}
	for i, r := range x.roots {
		if r.Cache == nil || r.loaded {
			continue
		}
		r.loaded = true
		usable := i < len(pre) && pre[i].read && !(isDone(pre[i].err) && ctx.Err() == nil)
		if usable && pre[i].stamps != nil {
			adopt(x, r, pre[i].stamps, func(rel string, st cache.Stamp) *entry {
				skip, ok := decodeSkip(st.Skip)
				if !ok {
					return nil
				}
				l := &lazyEntry{root: i, rel: rel, strings: st.Strings, tags: st.Tags, outline: st.Outline}
				if see != nil && st.Seen != nil {
					l.seen, l.seenBy = st.Seen, see.Key
				}
				e := &entry{id: x.newID(), stamp: stamp{st.Size, st.ModTime, st.Change, st.Inode}, sum: st.Sum, racy: st.Racy,
					generated: st.Generated, skip: skip, lazy: l}
				x.timedOutEntry(e, st.TimedOut, st.Timeout)
				return e
			})
			continue
		}
		var entries map[string]cache.Entry
		var err error
		if usable {
			entries, err = pre[i].entries, pre[i].err
		} else {
			// Not read while the tree was walked, or read for an
			// earlier map that was cancelled.
			entries, err = r.Cache.Load(ctx)
		}
		if err != nil {
			x.warnCache(r, err)
			continue
		}
		adopt(x, r, entries, func(_ string, c cache.Entry) *entry {
			skip, ok := decodeSkip(c.Skip)
			if !ok {
				return nil
			}
			e := &entry{id: x.newID(), stamp: cachedStamp(c), sum: c.Sum, racy: c.Racy,
				tags: c.Tags, enc: c.Encoded, words: c.Words, outline: c.Outline, generated: c.Generated, skip: skip}
			x.timedOutEntry(e, c.TimedOut, c.Timeout)
			return e
		})
	}
}

// adopt records that the disk cache of r holds the files of held, by
// path relative to r, and gives the index the entry newEntry makes of
// each of them it does not know: none when newEntry returns nil, for an
// entry it cannot read (its file is parsed again). Known files are counted within the
// index's selection: the cache may hold files that Options.Exclude or
// Include leave out, which are not gone.
func adopt[V any](x *Index, r *root, held map[string]V, newEntry func(rel string, v V) *entry) {
	r.known = func(rel string) bool { _, ok := held[rel]; return ok }
	r.nKnown = 0
	for rel := range held {
		if x.sel.selects(rel) {
			r.nKnown++
		}
	}
	for rel, v := range held {
		p := r.mapPath(rel)
		if _, ok := x.files[p]; !ok {
			if e := newEntry(rel, v); e != nil {
				x.files[p] = e
			}
		}
	}
}

// persist writes what changed to each root's disk cache in one batch,
// drops the entries of files that are gone from it (walked no more,
// though the selection would list them), and forgets them. A
// root whose cache holds every file and no other, none of them changed,
// is not written: a warm map of a tree of 27,000 files spent a fifth of
// its CPU time making sets of paths to find that out.
//
// The write goes on a goroutine of its own, which the next persist, a
// write of the links and Close wait for (settle): a cold map is linked
// while the tags it parsed are written, and a Map kept open
// that writes one changed file of the Go standard library (a tenth of a
// second) can be read meanwhile. A process keeps what it parsed when it
// closes its Map.
func (x *Index) persist(ctx context.Context, files []File) {
	x.Settle()
	entries := 0 // files with an entry
	var writes []rootWrite
	for i, r := range x.roots {
		if r.Cache == nil {
			continue
		}
		w := rootWrite{root: i}
		n, known := 0, 0 // the root's files, and those its cache holds
		for _, f := range files {
			if f.Root != i {
				continue
			}
			n++
			if r.known != nil && r.known(f.Rel) {
				known++
			}
			if e := x.files[f.Path]; e != nil && e.dirty && e.lazy == nil {
				if w.put == nil {
					w.put = make(map[string]cache.Entry)
				}
				w.put[f.Rel] = cache.Entry{Size: e.size, ModTime: e.mod, Change: e.change, Inode: e.ino, Sum: e.sum, Racy: e.racy,
					Tags: e.tags, Encoded: e.enc, Words: e.words, Outline: e.outline, Generated: e.generated,
					Skip: e.skip.encode(), TimedOut: e.timedOut, Timeout: e.timeout}
				w.written = append(w.written, written{e, e.outline})
			}
		}
		gone := r.known == nil || known != r.nKnown // the cache holds files that are gone, or may
		if len(w.put) == 0 && !gone {
			continue // nothing new, and nothing gone
		}
		w.live = make(map[string]bool, n)
		for _, f := range files {
			if f.Root == i {
				w.live[f.Rel] = true
			}
		}
		if gone {
			// A file the selection leaves out is not gone: a map of
			// part of the tree keeps the cache of the rest.
			live, sel := w.live, x.sel
			w.keep = func(p string) bool { return live[p] || !sel.selects(p) }
		}
		writes = append(writes, w)
	}
	if len(writes) > 0 {
		p := &pendingWrite{done: make(chan struct{}), writes: writes}
		go func() {
			defer close(p.done)
			for k := range p.writes {
				w := &p.writes[k]
				// The write must happen even when the map was
				// cancelled: it is what keeps the work done.
				w.err = x.roots[w.root].Cache.Store(context.WithoutCancel(ctx), w.put, w.keep)
			}
		}()
		x.writing = p
	}
	for _, f := range files {
		if x.files[f.Path] != nil {
			entries++
		}
	}
	if entries == len(x.files) {
		return // every entry is of a file of files
	}
	live := make(map[string]bool, len(files))
	for _, f := range files {
		live[f.Path] = true
	}
	for p := range x.files {
		if !live[p] {
			delete(x.files, p)
		}
	}
}

// pendingWrite is a write to the disk caches under way on another
// goroutine.
type pendingWrite struct {
	done   chan struct{} // closed when it is over
	writes []rootWrite
}

// rootWrite is what one write puts in a root's disk cache, and how it
// went.
type rootWrite struct {
	root    int
	put     map[string]cache.Entry
	written []written             // the entries of put
	keep    func(rel string) bool // which entries stay; nil for all
	live    map[string]bool       // the root's files
	err     error
}

// written is an entry that a write put, with its outline then: an entry
// whose outline was made since is still to be written.
type written struct {
	e       *entry
	outline *tags.Outline
}

// Settle waits for the index's write under way, if there is one, and
// takes what it did.
func (x *Index) Settle() {
	if p := x.writing; p != nil {
		<-p.done
		x.writing = nil
		x.took(p.writes)
	}
}

// took records what the writes did: which files each root's cache holds,
// and that the entries they put are written; or warns.
func (x *Index) took(writes []rootWrite) {
	for _, w := range writes {
		r := x.roots[w.root]
		if w.err != nil {
			x.warnCache(r, w.err)
			continue
		}
		live := w.live
		r.known, r.nKnown = func(rel string) bool { return live[rel] }, len(live)
		for _, d := range w.written {
			if d.e.outline == d.outline {
				d.e.dirty = false
			}
		}
	}
}

// warnCache logs a cache problem once per root and kind of problem: the
// map goes on without the disk cache.
func (x *Index) warnCache(r *root, err error) {
	key := r.Dir + "\x00" + err.Error()
	if errors.Is(err, cache.ErrLocked) {
		key = r.Dir + "\x00locked"
	}
	if x.warned[key] {
		return
	}
	x.warned[key] = true
	x.opts.Logger.Warn("repomap: tag cache not used", "root", r.Dir, "err", err)
}

// Warn logs a problem with the disk cache of root r, once per root and
// kind of problem: the map goes on without it.
func (x *Index) Warn(r int, err error) { x.warnCache(x.roots[r], err) }
