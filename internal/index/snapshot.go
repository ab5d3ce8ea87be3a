package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/redact"
	"github.com/repomap-dev/repomap/tags"
)

// Seer makes something of each entry of the disk cache that the index
// reads as a stamp, as it reads it, for a later stage to find with the
// file (Snapshot.Seen): the relevance of a map's request's words to the
// file, say, scored where the file's words lie. See may be called on
// several goroutines at once.
type Seer struct {
	Key string // what See makes it for
	See func(cache.Entry) any
}

// Seen returns what the Seer of key made of file i's entry as the disk
// cache was read, when it was read as a stamp and not since; ok is false
// otherwise.
func (s *Snapshot) Seen(i int, key string) (v any, ok bool) {
	if l := s.entries[i].lazy; l != nil && l.seen != nil && l.seenBy == key {
		return l.seen, true
	}
	return nil, false
}

// Words returns the binary form of the bag of words of file i's text
// (words.Bag), nil for none, and its tags, as the disk cache holds them
// (enc) or decoded (set); none when they were not read (Read).
func (s *Snapshot) Words(i int) (bag []byte, enc cache.Encoded, set tags.Set) {
	e := s.entries[i]
	if e.lazy != nil {
		return nil, cache.Encoded{}, tags.Set{}
	}
	return e.words, e.enc, e.tags
}

// Snapshot is the tree as one request sees it: the files walked, each
// with its entry.
type Snapshot struct {
	idx     *Index
	Files   []File   // in map order: by root, then path
	entries []*entry // entries[i] is that of files[i]; never nil
	Roles   []Role   // roles[i] is that of files[i]
	byPath  map[string]int
	Skipped []Omitted // files left out, with why
	Parsed  int       // files parsed for this snapshot
}

// DecodeAll reads the tags of every file of s that were not read, and
// decodes them, on as many goroutines as the index may use: what reads
// every file's tags (the link stage, the lookups) calls it first. It
// returns ctx's error when ctx is done before all are read.
func (s *Snapshot) DecodeAll(ctx context.Context) error {
	s.fillAll(ctx)
	var todo []*entry
	for _, e := range s.entries {
		if e.lazy != nil {
			return fmt.Errorf("repomap: %w", ctx.Err())
		}
		if n, m := e.enc.Len(); n > 0 || m > 0 {
			todo = append(todo, e)
		}
	}
	workers := 1
	if s.idx != nil {
		workers = s.idx.opts.Parallelism
	}
	inParallel(len(todo), workers, func(i int) { todo[i].decode() })
	return nil
}

// fillAll reads what was not read of the entries of s (fill).
func (s *Snapshot) fillAll(ctx context.Context) {
	if s.idx == nil {
		return
	}
	var todo []*entry
	for _, e := range s.entries {
		if e.lazy != nil {
			todo = append(todo, e)
		}
	}
	s.idx.fill(ctx, todo)
}

// Len returns the number of files of s.
func (s *Snapshot) Len() int { return len(s.Files) }

// Lookup returns the number of the file at p, and whether s has it.
func (s *Snapshot) Lookup(p string) (int, bool) {
	i, ok := s.byPath[p]
	return i, ok
}

// Has reports whether s has a file at p.
func (s *Snapshot) Has(p string) bool {
	_, ok := s.byPath[p]
	return ok
}

// Version returns the version of file i's entry: files of two snapshots
// of the same version have the same tags, words and lines.
func (s *Snapshot) Version(i int) uint64 { return s.entries[i].id }

// TagCounts returns the number of strings and of tags of file i, read or
// not.
func (s *Snapshot) TagCounts(i int) (strings, tags int) { return s.entries[i].tagCounts() }

// Tags returns the tags of file i, reading them from the disk cache first
// when they were not read. When ctx is done before they are read, it
// returns none; the caller's result is then not to be kept.
func (s *Snapshot) Tags(ctx context.Context, i int) tags.Set {
	e := s.entries[i]
	if e.lazy != nil {
		s.idx.fill(ctx, []*entry{e})
		if e.lazy != nil {
			return tags.Set{}
		}
	}
	e.decode()
	return e.tags
}

// Read reads from the disk cache, in one read, the entries of the files
// is that were read as stamps, before their tags are asked for.
func (s *Snapshot) Read(ctx context.Context, is []int) {
	var todo []*entry
	for _, i := range is {
		if e := s.entries[i]; e.lazy != nil {
			todo = append(todo, e)
		}
	}
	if len(todo) > 0 {
		s.idx.fill(ctx, todo)
	}
}

// Redacted returns how many lines of file i the index redacted, once
// they were read for showing (Source).
func (s *Snapshot) Redacted(i int) int { return s.entries[i].redacted }

// Retry reports whether some file of s is to be parsed again by the next
// process (a parse that timed out once), or its content checked again (a
// racy entry, see isRacy): a map of s is not to be kept for it, since
// the tree's stamps may not show what the next process finds.
func (s *Snapshot) Retry() bool {
	return slices.ContainsFunc(s.entries, func(e *entry) bool { return e.retry || e.racy })
}

// Sum returns the hash of the content of file i when it was parsed, or 0
// when it was not read: what changes when the file does, which its stamp
// may not show.
func (s *Snapshot) Sum(i int) uint64 { return s.entries[i].sum }

// Paths returns the Paths of the files, in map order.
func (s *Snapshot) Paths() []string {
	out := make([]string, len(s.Files))
	for i, f := range s.Files {
		out[i] = f.Path
	}
	return out
}

// Source is a file as a map shows it: its lines, credentials redacted,
// and its outline, nil for none.
type Source struct {
	Lines   []string
	Outline *tags.Outline
}

// Source returns the file at p ready to render, or nil when it is not in
// the snapshot or cannot be read. Its lines are read, and its outline
// made, the first time a map shows it, and kept while the file is
// unchanged; the outline goes to the disk cache with the next persist.
//
// Outlines are made for the files shown rather than with every file's
// tags: from the same parse, they cost a fifth more than the tags, which
// on the Go standard library made a cold map 1.19 times as costly, for
// outlines of thousands of files no map shows.
func (s *Snapshot) Source(ctx context.Context, p string) *Source {
	i, ok := s.byPath[p]
	if !ok {
		return nil
	}
	return s.sourceWith(ctx, i, s.idx.outlineParser)
}

// Prepare reads, and outlines, the files at ps that a map is about to
// show and that are unread, on the Map's goroutines: source then finds
// them ready. (A map for a request's words shows many files no map
// showed before, whose outlines were made one after another: a tenth of
// its CPU time on the Go standard library.)
func (s *Snapshot) Prepare(ctx context.Context, ps []string) {
	var todo []int
	var lazy []*entry
	for _, p := range ps {
		if i, ok := s.byPath[p]; ok && s.entries[i].unread() {
			todo = append(todo, i)
			if e := s.entries[i]; e.lazy != nil {
				lazy = append(lazy, e)
			}
		}
	}
	workers := min(s.idx.opts.Parallelism, len(todo))
	if workers < 2 {
		return // source does it
	}
	if len(lazy) > 0 {
		s.idx.fill(ctx, lazy)
	}
	onParsers(ctx, workers, len(todo), s.idx.newParser, func(_ int, p *tags.Parser, k int) {
		s.sourceWith(ctx, todo[k], func() *tags.Parser { return p })
	})
}

// sourceWith returns the file i of s ready to render, as source does,
// its outline made with the parser parser returns.
func (s *Snapshot) sourceWith(ctx context.Context, i int, parser func() *tags.Parser) *Source {
	x, e, f := s.idx, s.entries[i], s.Files[i]
	p := f.Path
	if e.lazy != nil {
		if x.fill(ctx, []*entry{e}); e.lazy != nil {
			return nil // ctx is done: what a map makes of it now is not kept
		}
	}
	needOutline := e.outline == nil && !e.noOutline
	if e.lines == nil || needOutline {
		text, _, reason := x.roots[f.Root].readSource(f, x.opts.MaxFileSize, nil)
		if reason.Kind != NotSkipped {
			x.opts.Logger.Debug("repomap: render: skipped", "path", p, "reason", reason.String())
			return nil
		}
		if needOutline {
			// An outline a done ctx cut short is tried again by the
			// next map: its file has one.
			e.outline = x.outline(ctx, p, text, parser)
			e.noOutline = e.outline == nil && ctx.Err() == nil
			e.dirty = e.dirty || e.outline != nil
		}
		if e.lines == nil {
			e.lines = strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
			// Credentials never reach a map: the one place lines are
			// read for showing is the one place they are redacted,
			// whole lines before the renderer cuts them.
			for i, line := range redact.Lines(e.lines) {
				e.lines[i] = line
				e.redacted++
			}
		}
	}
	return &Source{Lines: e.lines, Outline: e.outline}
}

// State is what the index holds of a file of a snapshot: for tests and
// diagnostics of what a map read, made and is yet to write.
type State struct {
	Read      bool // its tags, words and outline were read or made, not its stamp alone
	Decoded   bool // its tags are decoded, not as the disk cache holds them
	Seen      bool // its entry was read as a stamp, and a Seer made something of it
	Outlined  bool // its outline was made, or it has none to make
	Lines     bool // its lines were read for showing
	Unwritten bool // the disk cache does not hold what the index has of it
}

// State returns what the index holds of file i.
func (s *Snapshot) State(i int) State {
	e := s.entries[i]
	n, k := e.enc.Len()
	return State{
		Read:      e.lazy == nil,
		Decoded:   e.lazy == nil && n == 0 && k == 0,
		Seen:      e.lazy != nil && e.lazy.seen != nil,
		Outlined:  e.outline != nil || e.noOutline,
		Lines:     e.lines != nil,
		Unwritten: e.dirty,
	}
}
