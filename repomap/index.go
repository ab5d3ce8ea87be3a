package repomap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sync"
	"sync/atomic"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/tags"
)

// fileState is what a Map knows of one file, valid while its size and
// modification time are unchanged.
type fileState struct {
	size, mod int64
	tags      tags.Set
	outline   *tags.Outline // nil until the file is rendered, or none
	lines     []string      // the file's lines once rendered
	dirty     bool          // not yet written to the disk cache
	skip      string        // why it was left out of parsing, or ""
}

// loadCaches reads the disk cache of each root not read yet, keeping the
// entries of files this Map does not know.
func (m *Map) loadCaches(ctx context.Context) {
	for _, r := range m.roots {
		if r.cache == nil || r.loaded {
			continue
		}
		r.loaded = true
		entries, err := r.cache.Load(ctx)
		if err != nil {
			m.warnCache(r, err)
			continue
		}
		for rel, e := range entries {
			p := rel
			if r.Name != "" {
				p = r.Name + "/" + rel
			}
			if _, ok := m.files[p]; ok {
				continue
			}
			m.files[p] = &fileState{size: e.Size, mod: e.ModTime, tags: e.Tags, outline: e.Outline}
		}
	}
}

// storeCaches writes what changed to each root's disk cache, and drops
// the entries of files that are gone.
func (m *Map) storeCaches(ctx context.Context, files []file) {
	for i, r := range m.roots {
		if r.cache == nil {
			continue
		}
		live := make(map[string]bool)
		put := make(map[string]cache.Entry)
		for _, f := range files {
			if f.root != i {
				continue
			}
			live[f.rel] = true
			if st := m.files[f.path]; st != nil && st.dirty {
				put[f.rel] = cache.Entry{Size: st.size, ModTime: st.mod, Tags: st.tags, Outline: st.outline}
			}
		}
		if len(put) == 0 && !r.hasGone(live) {
			continue
		}
		if err := r.cache.Store(ctx, put, func(p string) bool { return live[p] }); err != nil {
			m.warnCache(r, err)
			continue
		}
		r.known = live
		for _, f := range files {
			if st := m.files[f.path]; f.root == i && st != nil {
				st.dirty = false
			}
		}
	}
	// Forget files that are gone.
	live := make(map[string]bool, len(files))
	for _, f := range files {
		live[f.path] = true
	}
	for p := range m.files {
		if !live[p] {
			delete(m.files, p)
		}
	}
}

// hasGone reports whether the disk cache may hold files that are not in
// live.
func (r *root) hasGone(live map[string]bool) bool {
	if r.known == nil {
		return true
	}
	for p := range r.known {
		if !live[p] {
			return true
		}
	}
	return false
}

// warnCache logs a cache problem once per root and kind of problem: the
// map goes on without the disk cache.
func (m *Map) warnCache(r *root, err error) {
	key := r.Dir + "\x00" + err.Error()
	if errors.Is(err, cache.ErrLocked) {
		key = r.Dir + "\x00locked"
	}
	if m.warned[key] {
		return
	}
	m.warned[key] = true
	m.opts.Logger.Warn("repomap: tag cache not used", "root", r.Dir, "err", err)
}

// extract brings the tags of every file up to date, parsing in parallel
// the files whose size or modification time changed, and returns the
// files left out with why and how many files were parsed. When ctx is
// done it stops, and keeps the tags of the files parsed in full till then,
// so that builds cancelled one after the other still make progress.
func (m *Map) extract(ctx context.Context, files []file) ([]skip, int) {
	var todo []int
	for i, f := range files {
		if st := m.files[f.path]; st == nil || st.size != f.size || st.mod != f.mod {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return m.skipsOf(files), 0
	}
	states := make([]*fileState, len(todo)) // nil for a file not parsed in full
	var next, done atomic.Int64
	var progressMu sync.Mutex
	reported := 0
	report := func() {
		if m.opts.Progress == nil {
			return
		}
		n := int(done.Add(1))
		if n%64 != 0 && n != len(todo) {
			return
		}
		progressMu.Lock()
		defer progressMu.Unlock()
		if n > reported { // in order, whichever worker gets here first
			reported = n
			m.opts.Progress(n, len(todo))
		}
	}
	var wg sync.WaitGroup
	for range min(m.opts.Parallelism, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := tags.NewParser(&tags.ParserOptions{Timeout: m.opts.ParseTimeout})
			defer p.Close()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(todo) || ctx.Err() != nil {
					return
				}
				f := files[todo[k]]
				ts, reason := m.tagsOf(ctx, p, f)
				if ctx.Err() != nil {
					return // the parse may have been cut short
				}
				states[k] = &fileState{size: f.size, mod: f.mod, tags: tags.Pack(ts), dirty: true, skip: reason}
				report()
			}
		}()
	}
	wg.Wait()
	parsed := 0
	for k, i := range todo {
		if st := states[k]; st != nil {
			f := files[i]
			m.files[f.path] = st
			m.dropBlocks(f.path)
			parsed++
		}
	}
	if ctx.Err() != nil {
		return nil, 0
	}
	return m.skipsOf(files), parsed
}

// skipsOf returns the files left out of parsing, with why, as far as the
// Map knows: the reasons of files whose tags came from the disk cache are
// not kept there.
func (m *Map) skipsOf(files []file) []skip {
	var out []skip
	for _, f := range files {
		if st := m.files[f.path]; st != nil && st.skip != "" {
			out = append(out, skip{f.path, st.skip})
		}
	}
	return out
}

// tagsOf returns the tags of f, or the reason it has none worth noting.
func (m *Map) tagsOf(ctx context.Context, p *tags.Parser, f file) ([]tags.Tag, string) {
	if tags.Detect(f.rel, nil) == "" && path.Ext(f.rel) != "" {
		return nil, "" // neither its name nor its content can make it a language
	}
	if f.size > m.opts.MaxFileSize {
		return nil, fmt.Sprintf("larger than %d bytes", m.opts.MaxFileSize)
	}
	src, reason := readSource(m.roots[f.root].FS, f.rel, m.opts.MaxFileSize)
	if reason != "" {
		return nil, reason
	}
	if tags.Detect(f.rel, src) == "" {
		return nil, ""
	}
	ts, err := p.Parse(ctx, f.path, src)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ""
		}
		if errors.Is(err, tags.ErrTimeout) {
			return nil, fmt.Sprintf("parse took longer than %v", m.opts.ParseTimeout)
		}
		return nil, "parse: " + err.Error()
	}
	return ts, ""
}

// readSource reads the file at name for parsing: at most limit bytes, not
// binary, with a byte order mark dropped and line endings made "\n" so
// that rows count as an editor counts lines.
//
// The walk lists no symbolic links, but a file or a directory above it
// may have been replaced by one since: where fsys can tell, a file whose
// path has a link once it is read is refused, so that what the link leads
// to, perhaps outside the root, is not shown.
func readSource(fsys fs.FS, name string, limit int64) ([]byte, string) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, "unreadable: " + errText(err)
	}
	if lfs, ok := fsys.(fs.ReadLinkFS); ok {
		for i := range len(name) + 1 {
			if i < len(name) && name[i] != '/' {
				continue
			}
			info, err := lfs.Lstat(name[:i])
			if err != nil {
				return nil, "unreadable: " + errText(err)
			}
			if info.Mode()&fs.ModeSymlink != 0 {
				return nil, "symbolic link"
			}
		}
	}
	if int64(len(src)) > limit {
		return nil, fmt.Sprintf("larger than %d bytes", limit)
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, "binary"
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	return src, ""
}
