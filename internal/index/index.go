package index

import (
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
	busy     atomic.Int32      // extracts whose workers may still run (see cancelGrace)
	// beforeDir, when not nil, is called with each directory before a
	// walk opens it (walkOptions.beforeDir): for tests.
	beforeDir func(dir string)
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
		for _, d := range append(r.retired, r.dir) {
			if d != nil {
				d.close()
			}
		}
		r.dir, r.retired = nil, nil
	}
	if x.busy.Load() > 0 {
		// A worker that a map gave up on is still reading or parsing
		// with the trees and queries: they are left to the process.
		return nil
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

// entry is what the index knows of one file, valid while its stamp is
// unchanged and it is not racy (see extract). An entry is replaced, never
// changed, when its file changes, but for lines, which are read on first
// use.
type entry struct {
	id uint64 // one of its own: an entry of a file that changed is another entry
	stamp
	sum       uint64        // xxHash64 of the content parsed; 0 for none (not read)
	racy      bool          // the stamp cannot tell an edit made right after the read
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
	skip      Skip          // why it was left out of parsing
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

// stamp is what tells, without reading a file, that it changed: its
// size, its modification and status change times, and its inode. A file
// whose modification time was set back (cp -p, tar, rsync -a), or that
// was replaced by another of the same size and time (an atomic rename),
// has another change time or inode.
type stamp struct {
	size, mod, change int64
	ino               uint64
}

// stampOf returns the stamp of f as the walk saw it.
func stampOf(f File) stamp { return stamp{f.Size, f.Mod, f.Change, f.Ino} }

// stampOfStat returns the stamp of a file a read opened.
func stampOfStat(st fileStat) stamp { return stamp{st.size, st.mod, st.change, st.ino} }

// touched returns when the file of st was last written to, as its stamp
// tells: its change time, which every write sets from the system's clock
// and which no tool sets back, or, where the system tells none, its
// modification time.
func (st stamp) touched() int64 {
	if st.change != 0 {
		return st.change
	}
	return st.mod
}

// racyWindow returns how close to its read a file's last write
// (touched) must be for the read's stamp to be racy: an edit later in
// the same tick of the file system's clock leaves the stamp as it is. A
// file system that keeps nanoseconds stamps files from the kernel's
// coarse clock, whose tick is a few milliseconds (a jiffy: 4 ms at 250
// Hz, 10 ms at 100); one that keeps whole seconds (ext3, HFS+, and FAT's
// two) gives change times without a fraction of a second, which no
// kernel's clock gives but once in a billion.
func racyWindow(st stamp) time.Duration {
	if st.touched()%int64(time.Second) != 0 {
		return 20 * time.Millisecond
	}
	return 2 * time.Second
}

// isRacy reports whether a file of stamp st read at readAt (Unix
// nanoseconds) could change again without its stamp showing it, as git
// tells a "racily clean" entry of its index.
func isRacy(st stamp, readAt int64) bool {
	return st.touched() >= readAt-int64(racyWindow(st))
}

// maxSettle is the longest an update waits for the racy entries it made
// to be racy no longer (settleRacy).
const maxSettle = 50 * time.Millisecond

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
			if c, ok := got[l.rel]; ok && cachedStamp(c) == e.stamp && c.Sum == e.sum {
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
			f := File{Path: r.mapPath(l.rel), Root: l.root, Rel: l.rel, Size: e.size, Mod: e.mod, Change: e.change} // no inode: read as it is now
			if parsed := x.parse(ctx, p, f, l.outline, nil, nil); ctx.Err() == nil {
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

// unread reports whether the file of e is still to be read, or outlined,
// before a map shows it.
func (e *entry) unread() bool {
	return e.lazy != nil || e.lines == nil || e.outline == nil && !e.noOutline
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
		o := walkOptionsOf(*x.opts, x.dirOf(r))
		o.beforeDir = x.beforeDir
		fs, sk, err := walkRoot(ctx, r.Root, o, x.watchOf(r))
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
			if f.Path != f.Rel && r.Name == "" || r.Name != "" && f.Path != r.Name+"/"+f.Rel {
				// Redacted or quoted: it may read as another file's path.
				if slices.ContainsFunc(files, func(g File) bool { return g.Path == f.Path }) {
					skipped = append(skipped, Omitted{f.Path, Skip{Kind: SkipClash}})
					continue
				}
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

// dirOf returns the directory of the root r open on disk (rootDir), or
// nil when r is not on disk or this system opens no directories so. The
// directory is opened again when the one at r.Dir is no longer the one
// open (the root was moved or made anew); the one open before stays open
// until the index is closed, for what may still read through it.
func (x *Index) dirOf(r *root) *rootDir {
	if !r.OnDisk {
		return nil
	}
	d, err := openRootDir(r.Dir)
	if err != nil {
		return nil // the walk fails, or lists through the tree's fs.FS
	}
	if r.dir != nil && r.dir.same(d) {
		d.close()
		return r.dir
	}
	if r.dir != nil {
		r.retired = append(r.retired, r.dir)
	}
	r.dir = d
	return d
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
	// The roles of files are kept while the rules are the same: a Map
	// kept open gives the files that did not change the roles it gave.
	if rules := x.roleRules(); x.roles == nil || len(x.roles) > 2*len(files) || !slices.EqualFunc(rules, x.rolesBy, slices.Equal) {
		x.roles, x.rolesBy = make(map[string]roleOf, len(files)), rules
	}
	parsed := x.extract(ctx, files)
	x.persist(ctx, files)
	x.last = files
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repomap: %w", err)
	}
	s := &Snapshot{idx: x, Files: files, entries: make([]*entry, len(files)), Roles: make([]Role, len(files)), byPath: make(map[string]int, len(files)), Parsed: parsed}
	s.Skipped = skipped
	for i, f := range files {
		e := x.files[f.Path]
		if e == nil {
			e = &entry{id: x.newID(), stamp: stampOf(f)}
		}
		s.entries[i] = e
		r, ok := x.roles[f.Path]
		if !ok || r.rel != f.Rel || r.generated != e.generated {
			r = roleOf{f.Rel, e.generated, fileRole(x.rolesBy[f.Root], f.Rel, e.generated)}
			x.roles[f.Path] = r
		}
		s.Roles[i] = r.role
		s.byPath[f.Path] = i
		if e.skip.Kind != NotSkipped && e.skip.Kind != SkipVendored {
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

// installDirs are the directories that package managers fill, whose
// files are copies of other projects that no commit holds (Go's vendor/
// and third_party/ directories are committed, and a build resolves
// imports there: their files are parsed).
var installDirs = set("node_modules bower_components jspm_packages")

// unparsed reports whether the file f is to be left without a parse,
// without Options.ParseVendored: it lies in a directory of installDirs
// and is vendored, as the rules of roles or its path say (a rule can
// give it another role, and its content cannot make it vendored: see
// fileRole).
func (x *Index) unparsed(f File) bool {
	if x.opts.ParseVendored || !slices.ContainsFunc(strings.Split(path.Dir(f.Rel), "/"), func(d string) bool { return installDirs[strings.ToLower(d)] }) {
		return false
	}
	if r, ok := x.roles[f.Path]; ok && r.rel == f.Rel {
		return r.role == RoleVendored
	}
	if r, ok := x.rolesBy[f.Root].match(f.Rel); ok {
		return r == RoleVendored
	}
	return pathRole(f.Rel) == RoleVendored
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

// cachedStamp returns the stamp of the disk cache's entry c.
func cachedStamp(c cache.Entry) stamp { return stamp{c.Size, c.ModTime, c.Change, c.Inode} }

// A parse that runs out of Options.ParseTimeout leaves the file out. The
// timeout is of the processor's time where the system tells it (tags'
// budget), which a busy machine does not run out sooner, and elsewhere
// of the clock: the disk cache keeps that it did, and the next process
// parses the file again; once timedOutTries processes in a row ran out of the same
// timeout, or a shorter one than theirs, the file is left out without a
// parse until it changes. (NuttX's 145 KB gb18030.h, a list of numbers
// that tree-sitter's C parser recovers from for longer than 5 seconds,
// made every warm map of that tree take 6 seconds.)
const timedOutTries = 2

// isDone reports whether err is that of a context done.
func isDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// cancelGrace is how long a map whose context is done waits for the
// reads and parses under way before it keeps what finished.
const cancelGrace = time.Second

// A Map keeps the syntax trees of the files it parsed last, keptTrees
// of them, when it parsed at most keptTreesFrom files for a map: a tree
// being worked on changes in a few files, again and again, and
// tree-sitter parses a file from its tree before an edit in a small part
// of the time (server.go of net/http, 4,000 lines: 0.7 ms against 18 ms).
const (
	keptTrees     = 8
	keptTreesFrom = 64
)

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
		b = binary.AppendVarint(b, f.Change)
		b = binary.AppendUvarint(b, f.Ino)
		if len(b) > 1<<15 {
			h.Write(b)
			b = b[:0]
		}
	}
	b = binary.AppendUvarint(b, uint64(len(skipped)))
	for _, s := range skipped {
		b = appendString(appendString(b, s.Path), s.Skip.encode())
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

// Compiles returns how many tags queries the index's parsers compiled.
func (x *Index) Compiles() int { return x.queries.Compiles() }

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
