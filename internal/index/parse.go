package index

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/repomap-dev/repomap/internal/words"
	"github.com/repomap-dev/repomap/tags"
)

// extract brings the tags of every file up to date, parsing in parallel
// the files that changed, and returns how many files were parsed. A file
// whose size changed is parsed. One whose size is the same but whose
// stamp is not, or whose entry is racy, is read and its content's hash
// compared with the entry's: the same content keeps its tags, with the
// new stamp. When ctx is done it stops, and keeps the tags of the files
// parsed in full till then; it waits at most cancelGrace for a read or
// a parse under way.
func (x *Index) extract(ctx context.Context, files []File) int {
	var todo []int
	var outlined []bool // per file of todo: whether a map showed it, with its outline
	var olds []*entry   // per file of todo: the entry whose content it may still have, or nil
	var lazy []*entry
	var unparsed []bool // per file of todo: vendored, left without a parse
	for i, f := range files {
		e := x.files[f.Path]
		var old *entry
		vendored := x.unparsed(f)
		switch {
		case e == nil || e.size != f.Size || e.reparse || x.limitChanged(e) || vendored != (e.skip.Kind == SkipVendored):
		case e.stamp != stampOf(f) || e.racy:
			if e.sum != 0 {
				old = e
				if e.lazy != nil {
					lazy = append(lazy, e)
				}
			}
		default:
			continue
		}
		todo = append(todo, i)
		outlined = append(outlined, e != nil && (e.outline != nil || e.lazy != nil && e.lazy.outline))
		olds = append(olds, old)
		unparsed = append(unparsed, vendored)
	}
	if len(todo) == 0 {
		return 0
	}
	if len(lazy) > 0 {
		x.fill(ctx, lazy) // what they hold, which their files may still have
	}
	// A few files changed: their trees are kept, for the next edit of
	// them to be parsed from them.
	var trees *tags.Trees
	if len(todo) <= keptTreesFrom {
		if x.trees == nil {
			x.trees = tags.NewTrees(keptTrees)
		}
		trees = x.trees
	}
	entries := make([]atomic.Pointer[entry], len(todo)) // nil for a file not parsed in full
	var done atomic.Int64
	var progressMu sync.Mutex
	reported := 0
	report := func() {
		if x.opts.Progress == nil {
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
			x.opts.Progress(n, len(todo))
		}
	}
	newParser := func() *tags.Parser {
		return tags.NewParser(&tags.ParserOptions{Timeout: x.opts.ParseTimeout, Queries: x.queries, Trees: trees})
	}
	bufs := make([][]byte, x.opts.Parallelism) // each worker's read buffer
	finished := make(chan struct{})
	x.busy.Add(1)
	go func() {
		defer close(finished)
		defer x.busy.Add(-1)
		onParsers(ctx, x.opts.Parallelism, len(todo), newParser, func(w int, p *tags.Parser, k int) {
			old := olds[k]
			if old != nil && old.lazy != nil {
				old = nil // not read from the disk cache: parsed anew
			}
			var e *entry
			if f := files[todo[k]]; unparsed[k] {
				e = &entry{id: x.newID(), stamp: stampOf(f), dirty: true, skip: Skip{Kind: SkipVendored}}
			} else {
				e = x.parse(ctx, p, f, outlined[k], &bufs[w], old)
			}
			if ctx.Err() == nil { // else the parse may have been cut short
				entries[k].Store(e)
				report()
			}
		})
	}()
	select {
	case <-finished:
	case <-ctx.Done():
		// The workers stop between files, and tree-sitter within a
		// parse; a read that blocks (a file system that hangs) is not
		// waited on for long: what finished is kept, and written.
		select {
		case <-finished:
		case <-time.After(cancelGrace):
			x.opts.Logger.Debug("repomap: cancelled while files were still read", "after", cancelGrace)
		}
	}
	parsed := 0
	var racy []int // files whose entries are racy
	for k, i := range todo {
		if e := entries[k].Load(); e != nil {
			f := files[i]
			if old := x.files[f.Path]; e.timedOut > 0 && old != nil && old.reparse && old.stamp == stampOf(f) && old.timeout >= e.timeout {
				e.timedOut += old.timedOut // one more in a row
				e.retry = e.timedOut < timedOutTries
			}
			if e.id != idOf(olds[k]) {
				parsed++
			}
			if e.racy {
				racy = append(racy, i)
			}
			x.files[f.Path] = e
		}
	}
	return parsed + x.settleRacy(ctx, files, racy)
}

// settleRacy checks again the racy entries of files (at racy), once the
// file system's clock has ticked past their stamps, when that is at most
// maxSettle away: a file whose content is the same then has an entry
// that is not racy, and one whose content changed is parsed again. It
// returns how many it parsed. (A map right after an edit would otherwise
// leave an entry that the next process checks again, and keep no map:
// Snapshot.Retry.) On a file system of whole seconds the entries stay
// racy.
func (x *Index) settleRacy(ctx context.Context, files []File, racy []int) int {
	var until int64
	for _, i := range racy {
		e := x.files[files[i].Path]
		until = max(until, e.touched()+int64(racyWindow(e.stamp)))
	}
	wait := time.Duration(until - time.Now().UnixNano())
	if len(racy) == 0 || wait > maxSettle || ctx.Err() != nil {
		return 0
	}
	time.Sleep(max(wait, 0) + time.Millisecond)
	p := x.newParser()
	defer p.Close()
	parsed := 0
	for _, i := range racy {
		f := files[i]
		old := x.files[f.Path]
		e := x.parse(ctx, p, f, old.outline != nil, nil, old)
		if ctx.Err() != nil {
			break
		}
		if e.id != old.id {
			parsed++
		}
		x.files[f.Path] = e
	}
	return parsed
}

// idOf returns e's id, or 0 for nil.
func idOf(e *entry) uint64 {
	if e == nil {
		return 0
	}
	return e.id
}

// parse returns the entry of f, parsed with p, with the reason it has no
// tags when that is worth noting. With outline, the entry has the file's
// outline too, made from the same parse: a file that a map showed before
// it changed is likely to be shown again, and parsing it a second time
// for the outline cost a Map kept open more than half of a re-render
// after one file of net/http changed. It reads a file on disk into buf,
// when not nil (readInto): nothing the entry keeps is in it. With old,
// an entry of the file read before, a content that hashes as old's did
// is not parsed: the entry is old's, with the stamp of the file now.
func (x *Index) parse(ctx context.Context, p *tags.Parser, f File, outline bool, buf *[]byte, old *entry) *entry {
	e := &entry{id: x.newID(), stamp: stampOf(f), dirty: true}
	r := x.roots[f.Root]
	readAt := time.Now().UnixNano()
	src, st, ok, reason := readForParse(r, f, x.opts.MaxFileSize, buf)
	if st.regular {
		e.stamp = stampOfStat(st) // what was read
	}
	if !ok {
		e.skip = reason
		return e
	}
	if src != nil {
		e.sum = xxhash.Sum64(src)
		e.racy = isRacy(e.stamp, readAt)
	}
	if old != nil && e.sum != 0 && old.sum == e.sum {
		same := *old
		same.stamp, same.racy, same.dirty = e.stamp, e.racy, true
		return &same
	}
	e.generated = generatedText(f.Rel, src)
	if tags.Detect(f.Rel, src) == "" {
		return e
	}
	var tf tags.File
	var err error
	var bag []byte
	if outline {
		// A file a map showed before it changed: its words are counted
		// on a goroutine of their own while it is parsed, as its outline
		// is made (Parser.File), for a Map kept open waits for it alone.
		counted := make(chan []byte, 1)
		go func() { counted <- words.AppendCount(nil, src) }()
		tf, err = p.File(ctx, f.Path, src)
		bag = <-counted
	} else if tf.Set, err = p.ParseSet(ctx, f.Path, src); err == nil {
		bag = words.AppendCount(nil, src)
	}
	switch {
	case err == nil:
		e.tags = tf.Set
		e.words = bag
		e.outline = tf.Outline
		e.noOutline = outline && tf.Outline == nil
	case ctx.Err() != nil:
	case errors.Is(err, tags.ErrTimeout):
		// See timedOutTries. (A Map kept open does not pay for it again
		// while the file is unchanged.)
		e.skip = Skip{Kind: SkipTimedOut, Timeout: x.opts.ParseTimeout}
		e.timedOut, e.timeout, e.retry = 1, x.opts.ParseTimeout, 1 < timedOutTries
	default:
		e.skip = Skip{Kind: SkipParse, Err: err.Error()}
	}
	return e
}

// readForParse reads f of r for parsing, as readSource does (into buf,
// when not nil), unless it cannot be in a language: neither its name nor
// its content can make it one, or it is an image. It reports whether it
// read the file, and why not when that is worth noting, and returns what
// the system told of the file it opened (the zero fileStat for none).
func readForParse(r *root, f File, limit int64, buf *[]byte) ([]byte, fileStat, bool, Skip) {
	if tags.Detect(f.Rel, nil) == "" && path.Ext(f.Rel) != "" || pathRole(f.Rel) == RoleAsset {
		return nil, fileStat{}, false, Skip{}
	}
	if f.Size > limit {
		return nil, fileStat{}, false, Skip{Kind: SkipLarge, Limit: limit}
	}
	src, st, reason := r.readSource(f, limit, buf)
	return src, st, reason.Kind == NotSkipped, reason
}

// readSource reads the file f of r for parsing or showing: at most limit
// bytes, not binary, with a byte order mark dropped and line endings
// made "\n" so that rows count as an editor counts lines. With buf, it
// reads into *buf (see readInto), and what it returns may be in it. It
// returns what the system told of the file it opened, and why it did not
// read it, if it did not.
//
// It reads what the walk saw, or nothing. On disk, the file is opened
// relative to the root's directory, following no symbolic link, without
// waiting on a FIFO (rootDir), and read only when it is a regular file
// with the walk's device and inode, through the size limit: a file
// replaced by a link to /dev/zero, a FIFO or a larger file since the
// walk, or a directory above it replaced by a link out of the root, is
// not read. Elsewhere, where fsys can tell, a file whose path has a link
// is refused before it is opened.
func (r *root) readSource(f File, limit int64, buf *[]byte) ([]byte, fileStat, Skip) {
	var in io.Reader
	var st fileStat
	if r.dir != nil {
		file, s, err := r.dir.openFile(f.Rel)
		if err != nil {
			return nil, fileStat{}, openFailure(err)
		}
		defer file.Close()
		if st = s; st.regular && f.Ino != 0 && (st.ino != f.Ino || st.dev != f.Dev) {
			return nil, fileStat{}, Skip{Kind: SkipChanged}
		}
		in = file
	} else {
		if lfs, ok := r.FS.(fs.ReadLinkFS); ok {
			for i := range len(f.Rel) + 1 {
				if i < len(f.Rel) && f.Rel[i] != '/' {
					continue
				}
				info, err := lfs.Lstat(f.Rel[:i])
				if err != nil {
					return nil, fileStat{}, unreadable(err)
				}
				if info.Mode()&fs.ModeSymlink != 0 {
					return nil, fileStat{}, Skip{Kind: SkipSymlink}
				}
			}
		}
		if !r.OnDisk {
			// A tree in memory, or of the caller's making: read as it
			// reads its files (fs.ReadFileFS).
			return r.readFS(f, limit)
		}
		file, err := r.FS.Open(f.Rel)
		if err != nil {
			return nil, fileStat{}, unreadable(err)
		}
		defer file.Close()
		info, err := file.Stat()
		if err != nil {
			return nil, fileStat{}, unreadable(err)
		}
		st, in = statOfInfo(info), file
	}
	if !st.regular {
		return nil, fileStat{}, Skip{Kind: SkipIrregular}
	}
	if st.size > limit {
		return nil, st, Skip{Kind: SkipLarge, Limit: limit}
	}
	src, err := readInto(in, st.size, limit, buf)
	if err != nil {
		return nil, st, unreadable(err)
	}
	return cleanSource(src, st, limit)
}

// readFS reads the file f of r, a tree not on disk, with fs.ReadFile, as
// readSource does.
func (r *root) readFS(f File, limit int64) ([]byte, fileStat, Skip) {
	info, err := fs.Stat(r.FS, f.Rel)
	if err != nil {
		return nil, fileStat{}, unreadable(err)
	}
	st := statOfInfo(info)
	switch {
	case !st.regular:
		return nil, fileStat{}, Skip{Kind: SkipIrregular}
	case st.size > limit:
		return nil, st, Skip{Kind: SkipLarge, Limit: limit}
	}
	src, err := fs.ReadFile(r.FS, f.Rel)
	if err != nil {
		return nil, st, unreadable(err)
	}
	return cleanSource(src, st, limit)
}

// cleanSource returns src, read from a file of st, ready to parse or
// show, or why it is not: larger than limit, or binary.
func cleanSource(src []byte, st fileStat, limit int64) ([]byte, fileStat, Skip) {
	if int64(len(src)) > limit {
		return nil, st, Skip{Kind: SkipLarge, Limit: limit}
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, st, Skip{Kind: SkipBinary}
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	return src, st, Skip{}
}

// ReadSource reads the file at name of fsys as the index reads a file to
// parse or show it: at most limit bytes, not binary, with a byte order
// mark dropped and line endings made "\n". It returns why it did not
// read it, if it did not.
func ReadSource(fsys fs.FS, name string, limit int64) ([]byte, Skip) {
	src, _, reason := (&root{Root: Root{FS: fsys}}).readSource(File{Rel: name}, limit, nil)
	return src, reason
}

// timedOutEntry records in e, an entry of the disk cache, that the
// parses of its file ran out of timeout timedOut times in a row: e is
// then that of a file left out, or to be parsed again.
func (x *Index) timedOutEntry(e *entry, timedOut int, timeout time.Duration) {
	if timedOut == 0 {
		return
	}
	e.timedOut, e.timeout = timedOut, timeout
	if timedOut >= timedOutTries && timeout >= x.opts.ParseTimeout {
		e.skip, e.lazy = Skip{Kind: SkipTimedOut, Timeout: timeout}, nil // it has nothing more to read
		return
	}
	e.reparse = true
}

// limitChanged reports whether e, of a file parsed before, perhaps by
// another process, was left out for its size, or parsed, against what
// Options.MaxFileSize says of it now.
func (x *Index) limitChanged(e *entry) bool {
	wasLarge := e.skip.Kind == SkipLarge
	if e.size > x.opts.MaxFileSize {
		n, k := e.enc.Len()
		return !wasLarge && (len(e.tags.Tags) > 0 || n > 0 || k > 0 || e.lazy != nil && e.lazy.tags > 0)
	}
	return wasLarge
}
