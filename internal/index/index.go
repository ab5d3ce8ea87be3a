package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/redact"
	"github.com/repomap-dev/repomap/internal/words"
	"github.com/repomap-dev/repomap/tags"
)

// The index is the stage of a map that touches the file system: it walks
// the roots, reads and parses the files that changed, and keeps their
// tags and outlines in memory and in the roots' disk caches. Each request
// takes a snapshot of it; the stages after it work on the snapshot alone.

// Index is what a Map knows of its trees.
type Index struct {
	roots    []*root
	opts     *Options
	queries  *tags.Queries     // compiled once for the Map's life, shared by its parsers
	trees    *tags.Trees       // the syntax trees of the files parsed last after changes; nil until a change
	outliner *tags.Parser      // for the outlines of files a map shows; nil until needed
	files    map[string]*entry // by path in the map
	warned   map[string]bool   // cache warnings given, once each
	pre      *preload          // what is read from the disk caches while the tree is walked; nil when nothing is
	writing  *pendingWrite     // a write to the disk caches under way; nil when none is
	roles    map[string]roleOf // the roles given files by rolesBy, by path
	rolesBy  []roleRules       // the rules of roles, per root
	sel      selection         // Options.Exclude and Include: what the walk can list
	ids      atomic.Uint64     // the last entry's id
	last     []File            // the files of the last Update
}

// newID returns the id of a new entry.
func (x *Index) newID() uint64 { return x.ids.Add(1) }

// roleOf is the role of the file at rel whose head says it was generated
// or not.
type roleOf struct {
	rel       string
	generated bool
	role      Role
}

// preload is what the index reads from the disk caches on other
// goroutines while its first map walks the tree: the roots' entries,
// which a warm map of the Go standard library otherwise read after the
// walk.
type preload struct {
	see     *Seer         // what is made of the entries read as stamps, or nil
	caches  chan []loaded // one per root, when read
	waiting bool          // caches not yet taken
}

// loaded is a root's disk cache as Cache.Load returned it, or as
// Cache.LoadStamps did.
type loaded struct {
	entries map[string]cache.Entry
	stamps  map[string]cache.Stamp // instead of entries: what was read of them
	err     error
	read    bool // it was read: the root has a cache not read before
}

// How much of the disk caches' entries the index reads while the tree
// is walked (startPreload).
const (
	// ReadStamps reads the stamps alone (cache.LoadStamps): a map that
	// finds the links it kept reads the tags of the few files it shows,
	// and reads them when it shows them (index.fill), and the words and
	// names of every file for a request's words where they lie, as the
	// stamps are read (lazyEntry.score).
	ReadStamps = iota
	// ReadDecoded reads every entry and decodes its tags: the lookups
	// read every file's.
	ReadDecoded
	// ReadEntries reads every entry, its tags as the disk cache holds
	// them.
	ReadEntries
)

// StartPreload starts reading, while the tree is walked, the disk caches
// of the roots not read yet, as much of them as read says. With see, what
// it makes of each entry read as a stamp is kept with it (Snapshot.Seen).
func (x *Index) StartPreload(ctx context.Context, read int, see *Seer) {
	if x.pre != nil {
		return
	}
	p := &preload{see: see}
	todo := false
	for _, r := range x.roots {
		todo = todo || r.Cache != nil && !r.loaded
	}
	if todo {
		p.caches, p.waiting = make(chan []loaded, 1), true
		go func() {
			out := make([]loaded, len(x.roots))
			for i, r := range x.roots {
				if r.Cache == nil || r.loaded {
					continue
				}
				out[i].read = true
				if read == ReadStamps {
					var seen func(cache.Entry) any
					if see != nil {
						seen = see.See
					}
					out[i].stamps, out[i].err = r.Cache.LoadStamps(ctx, seen)
					continue
				}
				out[i].entries, out[i].err = r.Cache.Load(ctx)
				if read == ReadDecoded {
					decodeEntries(out[i].entries, x.opts.Parallelism)
				}
			}
			p.caches <- out
		}()
	}
	if todo {
		x.pre = p
	}
}

// New returns the index of the trees roots, with opts.
func New(roots []Root, opts Options) *Index {
	x := &Index{opts: &opts, queries: tags.NewQueries(), files: make(map[string]*entry), warned: make(map[string]bool),
		sel: newSelection(opts.Exclude, opts.Include)}
	for _, r := range roots {
		x.roots = append(x.roots, &root{Root: r})
	}
	return x
}

func (x *Index) Close() error {
	if p := x.pre; p != nil { // nothing reads the disk caches once closed
		if p.waiting {
			<-p.caches
		}
		x.pre = nil
	}
	if x.last != nil {
		x.persist(context.Background(), x.last) // what was made since the last write: the outlines of the files maps showed
	}
	x.Settle()
	x.files = nil
	for _, r := range x.roots {
		if r.watch != nil {
			r.watch.close()
			r.watch = nil
		}
	}
	if x.outliner != nil {
		x.outliner.Close()
		x.outliner = nil
	}
	if x.trees != nil {
		x.trees.Close()
	}
	return x.queries.Close()
}

// entry is what the index knows of one file, valid while its size and
// modification time are unchanged. An entry is replaced, never changed,
// when its file changes, but for lines, which are read on first use.
type entry struct {
	id        uint64 // one of its own: an entry of a file that changed is another entry
	size, mod int64
	tags      tags.Set      // its tags, once decoded: see decode
	enc       cache.Encoded // its tags as the disk cache holds them, until decoded
	outline   *tags.Outline // nil until a map shows the file, or for a file without one
	noOutline bool          // its language has no outline, or it cannot be made
	generated bool          // the head of its text says it was generated
	lines     []string      // the file's lines, once a map shows it
	words     []byte        // the binary form of the words.Bag of its text; nil for none
	redacted  int           // lines of lines whose credentials were replaced
	dirty     bool          // not yet written to the disk cache
	retry     bool          // the next process parses the file again (a parse that timed out once)
	skip      string        // why it was left out of parsing, or ""
	// timedOut counts the parses of the file, one process after another,
	// that ran out of timeout (see timedOutTries); reparse says that it is
	// to be parsed again.
	timedOut int
	timeout  time.Duration
	reparse  bool
	// lazy, when not nil, says that the tags, words and outline of the
	// entry are in the disk cache, not read yet (readStamps): fill
	// reads them, and the fields above are those of its stamp.
	lazy *lazyEntry
}

// lazyEntry is where the rest of an entry read as a stamp is, with what
// the stamp told of it.
type lazyEntry struct {
	root          int
	rel           string
	strings, tags int  // the counts of its tags
	outline       bool // it has an outline
	// seen is what the Seer of key seenBy made of it as the disk cache
	// was read; nil when none was.
	seen   any
	seenBy string
}

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

// decode decodes e's tags, if they are still as the disk cache holds
// them. A map that finds the links it kept reads the tags of the files
// it shows alone, and the names of every file's tags for a request's
// words, in place (relevance); what reads the tags of every file (the
// link stage, the lookups) decodes them first (snapshot.decodeAll). An
// entry read as a stamp is filled first (snapshot.decode does).
func (e *entry) decode() {
	if e.lazy != nil {
		panic("repomap: decode of an entry not read")
	}
	if n, m := e.enc.Len(); n > 0 || m > 0 {
		e.tags, e.enc = e.enc.Decode(), cache.Encoded{}
	}
}

// tagCounts returns the number of strings and of tags of e's tags,
// decoded or not.
func (e *entry) tagCounts() (strings, tags int) {
	if l := e.lazy; l != nil {
		return l.strings, l.tags
	}
	if n, m := e.enc.Len(); n > 0 || m > 0 {
		return n, m
	}
	return e.tags.NumStrings(), len(e.tags.Tags)
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

// fill reads the tags, words and outlines of the entries of es read as
// stamps (lazy) from the disk caches, in one read of each root's. An
// entry the cache no longer holds as its stamp says (another process
// wrote it since, or the cache cannot be read) is made by parsing its
// file, as if it had changed: the map is the same. When ctx is done, the
// entries not read stay as they are, for a later fill to read: a parse
// with a done context gives no tags, which the index would keep for the
// file and the next persist would write to the disk cache.
func (x *Index) fill(ctx context.Context, es []*entry) {
	byRoot := make(map[int][]*entry)
	seen := make(map[*entry]bool, len(es))
	for _, e := range es {
		if e.lazy != nil && !seen[e] {
			seen[e] = true
			byRoot[e.lazy.root] = append(byRoot[e.lazy.root], e)
		}
	}
	var p *tags.Parser // for the entries the caches lack
	defer func() {
		if p != nil {
			p.Close()
		}
	}()
	for ri, todo := range byRoot {
		r := x.roots[ri]
		rels := make([]string, len(todo))
		for i, e := range todo {
			rels[i] = e.lazy.rel
		}
		var got map[string]cache.Entry
		var err error
		if r.Cache != nil {
			got, err = r.Cache.Get(ctx, rels)
			if err != nil && ctx.Err() == nil {
				x.warnCache(r, err)
			}
		}
		for _, e := range todo {
			l := e.lazy
			if c, ok := got[l.rel]; ok && c.Size == e.size && c.ModTime == e.mod {
				e.enc, e.words, e.outline, e.generated, e.lazy = c.Encoded, c.Words, c.Outline, c.Generated, nil
				if len(c.Tags.Tags) > 0 || c.Tags.NumStrings() > 0 {
					e.tags = c.Tags
				}
				continue
			}
			if ctx.Err() != nil {
				continue
			}
			if p == nil {
				p = x.newParser()
			}
			f := File{Path: r.mapPath(l.rel), Root: l.root, Rel: l.rel, Size: e.size, Mod: e.mod}
			if parsed := x.parse(ctx, p, f, l.outline, nil); ctx.Err() == nil {
				id := e.id
				*e = *parsed // else the parse may have been cut short
				e.id = id    // the same entry, read at last
			}
		}
	}
}

// decodeEntries decodes the tags of entries, on at most workers
// goroutines.
func decodeEntries(entries map[string]cache.Entry, workers int) {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sets := make([]tags.Set, len(keys))
	inParallel(len(keys), workers, func(i int) { sets[i] = entries[keys[i]].Encoded.Decode() })
	for i, k := range keys {
		e := entries[k]
		if n, m := e.Encoded.Len(); n > 0 || m > 0 {
			e.Tags, e.Encoded = sets[i], cache.Encoded{}
			entries[k] = e
		}
	}
}

// inParallel calls f(i) for each i below n, on at most workers
// goroutines, and a goroutine to each 256 at least.
func inParallel(n, workers int, f func(i int)) {
	workers = max(1, min(workers, n/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
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
// process (a parse that timed out once): a map of s is not to be kept
// for it.
func (s *Snapshot) Retry() bool {
	return slices.ContainsFunc(s.entries, func(e *entry) bool { return e.retry })
}

// Paths returns the Paths of the files, in map order.
func (s *Snapshot) Paths() []string {
	out := make([]string, len(s.Files))
	for i, f := range s.Files {
		out[i] = f.Path
	}
	return out
}

// entry returns the entry of the file at p, or nil.
func (s *Snapshot) entry(p string) *entry {
	if i, ok := s.byPath[p]; ok {
		return s.entries[i]
	}
	return nil
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

// unread reports whether the file of e is still to be read, or outlined,
// before a map shows it.
func (e *entry) unread() bool {
	return e.lazy != nil || e.lines == nil || e.outline == nil && !e.noOutline
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
		text, reason := readSource(x.roots[f.Root].FS, f.Rel, x.opts.MaxFileSize, nil)
		if reason != "" {
			x.opts.Logger.Debug("repomap: render: skipped", "path", p, "reason", reason)
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

// outline returns the outline of the file at p with content text, or nil
// when it has none.
func (x *Index) outline(ctx context.Context, p string, text []byte, parser func() *tags.Parser) *tags.Outline {
	if tags.Detect(p, text) == "" {
		return nil
	}
	o, err := parser().Outline(ctx, p, text)
	if err != nil {
		if !errors.Is(err, tags.ErrNoOutline) && ctx.Err() == nil {
			x.opts.Logger.Debug("repomap: render: no outline", "path", p, "err", err)
		}
		return nil
	}
	return o
}

// newParser returns a parser with the Map's timeout and compiled queries.
func (x *Index) newParser() *tags.Parser {
	return tags.NewParser(&tags.ParserOptions{Timeout: x.opts.ParseTimeout, Queries: x.queries})
}

// outlineParser returns the parser of the outlines of the files a map
// shows, made on first use.
func (x *Index) outlineParser() *tags.Parser {
	if x.outliner == nil {
		x.outliner = x.newParser()
	}
	return x.outliner
}

// Walk lists the files of every root, with their paths in the map.
func (x *Index) Walk(ctx context.Context) ([]File, []Omitted, error) {
	var files []File
	var skipped []Omitted
	for i, r := range x.roots {
		fs, sk, err := walkRoot(ctx, r.Root, r.OnDisk, x.opts.Exclude, x.opts.Include, x.opts.Parallelism, x.watchOf(r))
		if w := r.watch; w != nil && w.failed != nil {
			x.opts.Logger.Debug("repomap: the tree is walked, not watched", "root", r.Dir, "err", w.failed)
			w.close()
			r.watch = nil
		}
		if err != nil {
			return nil, nil, err
		}
		files = slices.Grow(files, len(fs))
		for _, f := range fs {
			f.Root, f.Rel, f.Path = i, f.Path, r.mapPath(f.Path)
			if strings.Contains(f.Path, redact.Marker) && slices.ContainsFunc(files, func(g File) bool { return g.Path == f.Path }) {
				skipped = append(skipped, Omitted{f.Path, "its path, a credential redacted, is another file's"})
				continue
			}
			files = append(files, f)
		}
		for _, s := range sk {
			s.Path = r.mapPath(s.Path)
			skipped = append(skipped, s)
		}
	}
	return files, skipped, nil
}

// watchOf returns the watch of the root r (rootWatch), made on the
// root's second walk: a Map that maps its tree once does not watch it.
// It returns nil for a root that is not on disk or cannot be watched.
func (x *Index) watchOf(r *root) *rootWatch {
	if !r.OnDisk {
		return nil
	}
	if r.walks++; r.walks == 2 {
		w, err := newRootWatch(r.Dir)
		if err != nil {
			x.opts.Logger.Debug("repomap: the tree is walked, not watched", "root", r.Dir, "err", err)
			return nil
		}
		r.watch = w
	}
	return r.watch
}

// Update brings the index up to date for the files walked, from the disk
// caches or by parsing, writes what changed to the disk caches, and
// returns the snapshot. When ctx is done it keeps, and writes to the disk
// caches, the tags of the files parsed in full till then, so that maps
// cancelled one after the other still make progress, and returns ctx's
// error.
func (x *Index) Update(ctx context.Context, files []File, skipped []Omitted) (*Snapshot, error) {
	x.loadCaches(ctx)
	parsed := x.extract(ctx, files)
	x.persist(ctx, files)
	x.last = files
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repomap: %w", err)
	}
	s := &Snapshot{idx: x, Files: files, entries: make([]*entry, len(files)), Roles: make([]Role, len(files)), byPath: make(map[string]int, len(files)), Parsed: parsed}
	s.Skipped = skipped
	// The roles of files are kept while the rules are the same: a Map
	// kept open gives the files that did not change the roles it gave.
	if rules := x.roleRules(); x.roles == nil || len(x.roles) > 2*len(files) || !slices.EqualFunc(rules, x.rolesBy, slices.Equal) {
		x.roles, x.rolesBy = make(map[string]roleOf, len(files)), rules
	}
	for i, f := range files {
		e := x.files[f.Path]
		if e == nil {
			e = &entry{id: x.newID(), size: f.Size, mod: f.Mod}
		}
		s.entries[i] = e
		r, ok := x.roles[f.Path]
		if !ok || r.rel != f.Rel || r.generated != e.generated {
			r = roleOf{f.Rel, e.generated, fileRole(x.rolesBy[f.Root], f.Rel, e.generated)}
			x.roles[f.Path] = r
		}
		s.Roles[i] = r.role
		s.byPath[f.Path] = i
		if e.skip != "" {
			s.Skipped = append(s.Skipped, Omitted{f.Path, e.skip})
		}
	}
	return s, nil
}

// roleRules returns, for each root, the rules that give its files roles:
// those of its RolesFile, then Options.Roles. A RolesFile that cannot be
// read as rules is left out, with a warning.
func (x *Index) roleRules() []roleRules {
	out := make([]roleRules, len(x.roots))
	for i, r := range x.roots {
		if data, err := fs.ReadFile(r.FS, RolesFile); err == nil {
			rs, err := parseRoles(RolesFile, string(data))
			if err != nil {
				x.opts.Logger.Warn("repomap: roles file left out", "root", r.Dir, "err", err)
			}
			out[i] = rs
		}
		out[i] = append(out[i], x.opts.Roles...)
	}
	return out
}

// fileRole returns the role of the file at rel: the one the rules give
// it, or the one its path gives, or generated when its head says so.
func fileRole(rules roleRules, rel string, generated bool) Role {
	if r, ok := rules.match(rel); ok {
		return r
	}
	r := pathRole(rel)
	if generated && r != RoleVendored {
		return RoleGenerated
	}
	return r
}

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
				l := &lazyEntry{root: i, rel: rel, strings: st.Strings, tags: st.Tags, outline: st.Outline}
				if see != nil && st.Seen != nil {
					l.seen, l.seenBy = st.Seen, see.Key
				}
				e := &entry{id: x.newID(), size: st.Size, mod: st.ModTime, generated: st.Generated, skip: st.Skip, lazy: l}
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
			e := &entry{id: x.newID(), size: c.Size, mod: c.ModTime, tags: c.Tags, enc: c.Encoded, words: c.Words, outline: c.Outline, generated: c.Generated, skip: c.Skip}
			x.timedOutEntry(e, c.TimedOut, c.Timeout)
			return e
		})
	}
}

// A parse that runs out of Options.ParseTimeout leaves the file out. The
// timeout is of the clock, which a busy machine runs out sooner: the
// disk cache keeps that it did, and the next process parses the file
// again; once timedOutTries processes in a row ran out of the same
// timeout, or a shorter one than theirs, the file is left out without a
// parse until it changes. (NuttX's 145 KB gb18030.h, a list of numbers
// that tree-sitter's C parser recovers from for longer than 5 seconds,
// made every warm map of that tree take 6 seconds.)
const timedOutTries = 2

// timedOutEntry records in e, an entry of the disk cache, that the
// parses of its file ran out of timeout timedOut times in a row: e is
// then that of a file left out, or to be parsed again.
func (x *Index) timedOutEntry(e *entry, timedOut int, timeout time.Duration) {
	if timedOut == 0 {
		return
	}
	e.timedOut, e.timeout = timedOut, timeout
	if timedOut >= timedOutTries && timeout >= x.opts.ParseTimeout {
		e.skip, e.lazy = timedOutReason(timeout), nil // it has nothing more to read
		return
	}
	e.reparse = true
}

// limitChanged reports whether e, of a file parsed before, perhaps by
// another process, was left out for its size, or parsed, against what
// Options.MaxFileSize says of it now.
func (x *Index) limitChanged(e *entry) bool {
	wasLarge := strings.HasPrefix(e.skip, largerThan)
	if e.size > x.opts.MaxFileSize {
		n, k := e.enc.Len()
		return !wasLarge && (len(e.tags.Tags) > 0 || n > 0 || k > 0 || e.lazy != nil && e.lazy.tags > 0)
	}
	return wasLarge
}

// largerThan starts the reason a file too large to parse is left out.
const largerThan = "larger than "

// timedOutReason is why a file whose parse ran out of timeout is left
// out.
func timedOutReason(timeout time.Duration) string {
	return fmt.Sprintf("parse took longer than %v", timeout)
}

// adopt records that the disk cache of r holds the files of held, by
// path relative to r, and gives the index the entry newEntry makes of
// each of them it does not know. Known files are counted within the
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
			x.files[p] = newEntry(rel, v)
		}
	}
}

// isDone reports whether err is that of a context done.
func isDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
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
				w.put[f.Rel] = cache.Entry{Size: e.size, ModTime: e.mod, Tags: e.tags, Encoded: e.enc, Words: e.words, Outline: e.outline, Generated: e.generated,
					Skip: e.skip, TimedOut: e.timedOut, Timeout: e.timeout}
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

// extract brings the tags of every file up to date, parsing in parallel
// the files whose size or modification time changed, and returns how many
// files were parsed. When ctx is done it stops, and keeps the tags of the
// files parsed in full till then.
func (x *Index) extract(ctx context.Context, files []File) int {
	var todo []int
	var outlined []bool // per file of todo: whether a map showed it, with its outline
	for i, f := range files {
		if e := x.files[f.Path]; e == nil || e.size != f.Size || e.mod != f.Mod || e.reparse || x.limitChanged(e) {
			todo = append(todo, i)
			outlined = append(outlined, e != nil && (e.outline != nil || e.lazy != nil && e.lazy.outline))
		}
	}
	if len(todo) == 0 {
		return 0
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
	entries := make([]*entry, len(todo)) // nil for a file not parsed in full
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
	onParsers(ctx, x.opts.Parallelism, len(todo), newParser, func(w int, p *tags.Parser, k int) {
		e := x.parse(ctx, p, files[todo[k]], outlined[k], &bufs[w])
		if ctx.Err() == nil { // else the parse may have been cut short
			entries[k] = e
			report()
		}
	})
	parsed := 0
	for k, i := range todo {
		if e := entries[k]; e != nil {
			f := files[i]
			if old := x.files[f.Path]; e.timedOut > 0 && old != nil && old.reparse && old.size == f.Size && old.mod == f.Mod && old.timeout >= e.timeout {
				e.timedOut += old.timedOut // one more in a row
				e.retry = e.timedOut < timedOutTries
			}
			x.files[f.Path] = e
			parsed++
		}
	}
	return parsed
}

// A Map keeps the syntax trees of the files it parsed last, keptTrees
// of them, when it parsed at most keptTreesFrom files for a map: a tree
// being worked on changes in a few files, again and again, and
// tree-sitter parses a file from its tree before an edit in a small part
// of the time (server.go of net/http, 4,000 lines: 0.7 ms against 18 ms).
const (
	keptTrees     = 8
	keptTreesFrom = 64
)

// parse returns the entry of f, parsed with p, with the reason it has no
// tags when that is worth noting. With outline, the entry has the file's
// outline too, made from the same parse: a file that a map showed before
// it changed is likely to be shown again, and parsing it a second time
// for the outline cost a Map kept open more than half of a re-render
// after one file of net/http changed. It reads a file on disk into buf,
// when not nil (readFile): nothing the entry keeps is in it.
func (x *Index) parse(ctx context.Context, p *tags.Parser, f File, outline bool, buf *[]byte) *entry {
	e := &entry{id: x.newID(), size: f.Size, mod: f.Mod, dirty: true}
	r := x.roots[f.Root]
	if !r.OnDisk {
		buf = nil // its ReadFile may not be what Open reads
	}
	src, ok, reason := readForParse(r.FS, f, x.opts.MaxFileSize, buf)
	if !ok {
		e.skip = reason
		return e
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
		e.skip = timedOutReason(x.opts.ParseTimeout)
		e.timedOut, e.timeout, e.retry = 1, x.opts.ParseTimeout, 1 < timedOutTries
	default:
		e.skip = "parse: " + err.Error()
	}
	return e
}

// readForParse reads f from fsys for parsing, as readSource does (into
// buf, when not nil), unless it cannot be in a language: neither its name
// nor its content can make it one, or it is an image. It reports whether
// it read the file, and why not when that is worth noting.
func readForParse(fsys fs.FS, f File, limit int64, buf *[]byte) ([]byte, bool, string) {
	if tags.Detect(f.Rel, nil) == "" && path.Ext(f.Rel) != "" || pathRole(f.Rel) == RoleAsset {
		return nil, false, ""
	}
	if f.Size > limit {
		return nil, false, fmt.Sprintf(largerThan+"%d bytes", limit)
	}
	src, reason := readSource(fsys, f.Rel, limit, buf)
	return src, reason == "", reason
}

// readSource reads the file at name for parsing: at most limit bytes, not
// binary, with a byte order mark dropped and line endings made "\n" so
// that rows count as an editor counts lines. With buf, it reads into
// *buf (see readFile), and what it returns may be in it.
//
// The walk lists no symbolic links, but a file or a directory above it
// may have been replaced by one since: where fsys can tell, a file whose
// path has a link once it is read is refused, so that what the link leads
// to, perhaps outside the root, is not shown.
func readSource(fsys fs.FS, name string, limit int64, buf *[]byte) ([]byte, string) {
	src, err := readFile(fsys, name, buf)
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
		return nil, fmt.Sprintf(largerThan+"%d bytes", limit)
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

// Digest returns the digest of the tree as a map sees it: the files
// walked, with their stamps, those left out by the walk, and the roles
// file of each root, which need not be a file of the map.
func (x *Index) Digest(files []File, skipped []Omitted) [sha256.Size]byte {
	h := sha256.New()
	var b []byte
	for _, f := range files {
		b = binary.AppendUvarint(b, uint64(f.Root))
		b = appendString(b, f.Path)
		b = binary.AppendVarint(b, f.Size)
		b = binary.AppendVarint(b, f.Mod)
		if len(b) > 1<<15 {
			h.Write(b)
			b = b[:0]
		}
	}
	b = binary.AppendUvarint(b, uint64(len(skipped)))
	for _, s := range skipped {
		b = appendString(appendString(b, s.Path), s.Reason)
	}
	for _, r := range x.roots {
		data, err := fs.ReadFile(r.FS, RolesFile)
		b = fmt.Appendf(b, "%t", err == nil)
		b = appendString(b, string(data))
	}
	h.Write(b)
	return [sha256.Size]byte(h.Sum(nil))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Warn logs a problem with the disk cache of root r, once per root and
// kind of problem: the map goes on without it.
func (x *Index) Warn(r int, err error) { x.warnCache(x.roots[r], err) }

// Compiles returns how many tags queries the index's parsers compiled.
func (x *Index) Compiles() int { return x.queries.Compiles() }

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

// ReadSource reads the file at name of fsys as the index reads a file to
// parse or show it: at most limit bytes, not binary, with a byte order
// mark dropped and line endings made "\n". It returns why it did not
// read it, or "".
func ReadSource(fsys fs.FS, name string, limit int64) ([]byte, string) {
	return readSource(fsys, name, limit, nil)
}

// Watched reports how root r has been walked: the walks so far, and
// whether the index watches it with the events of the system, and how
// many of its walks since were full walks again.
func (x *Index) Watched(r int) (walks int, watched bool, rewalks int) {
	rt := x.roots[r]
	if rt.watch == nil {
		return rt.walks, false, 0
	}
	return rt.walks, true, rt.watch.rewalks
}

// Watchable returns nil when the directory dir can be watched for
// changes on this system, or why not.
func Watchable(dir string) error {
	rw, err := newRootWatch(dir)
	if err != nil {
		return err
	}
	rw.close()
	return nil
}
