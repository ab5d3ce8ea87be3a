package repomap

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/internal/render"
)

// Map makes repo maps of one tree, or of several trees as one. It keeps
// what it learned about the files between renders, so that a map of a
// tree that changed a little costs little. Its methods are safe for
// concurrent use; renders run one at a time.
//
// A map is made in stages, each taking what the one before gives: the
// index walks, reads, parses and caches, and gives a snapshot of the
// tree; the rank stage links references to definitions and ranks them;
// the fit finds how much of the ranked list fits the budget; the render
// writes it. The Map holds what lasts between requests: the index, with
// the compiled tags queries, and the blocks already rendered; on Linux,
// from its second render on, a watch of each tree on disk too (an
// inotify instance, a file descriptor): Close releases them.
type Map struct {
	roots  []Root         // as NewRoots took them, with FS set
	caches []*cache.Cache // per root: its disk cache, or nil
	opts   Options

	mu     sync.Mutex        // serialises requests and guards what follows
	idx    *index.Index      // the files, their tags and outlines
	links  *linkStage        // the link stage's last result
	hist   *histStage        // the histories of the roots
	blocks render.Memo       // rendered file blocks, by file version
	counts map[string][2]int // the token counts of the texts of the last map's blocks
	last   *lastRender       // the last map made, for the refresh modes
	closed bool

	memoOff bool // for tests of what a first map reads: no map is kept in the disk cache or read from it
}

// Root is one tree of a map made of several.
type Root struct {
	// Name prefixes the paths of the root's files in the map, as
	// "Name/path". It must be a single path element.
	Name string
	// FS is the tree.
	FS fs.FS
	// Dir is the tree's directory on disk, if it has one; it names the
	// root's tag cache. Without it the root is not cached on disk.
	Dir string
}

// Request says what a map is for.
type Request struct {
	// Focus lists the files being worked on, as slash-separated paths in
	// the map (relative to the root, or "name/path" with several roots).
	// They steer the ranking toward what they use and are left out of the
	// map, which is about the rest of the tree.
	Focus []string

	// Mentions lists identifiers and paths the user mentioned. A mentioned
	// identifier weighs more wherever it is referenced, and files whose
	// path has it as a part (a directory, the base name, or the base name
	// without extension) rank higher; a mentioned path ranks that file
	// higher.
	Mentions []string

	// Text is the user's words, free text such as a task or an issue:
	// what it mentions (see Map.FindMentions) counts as Mentions do.
	Text string

	// MaxTokens, when positive, overrides the Map's budget for this request.
	MaxTokens int
}

// key identifies a request for the refresh modes.
func (r Request) key() string {
	return fmt.Sprintf("%s|%d", r.rankKey(), r.MaxTokens)
}

// rankKey identifies what of a request the ranking depends on: all of it
// but the budget.
func (r Request) rankKey() string {
	return fmt.Sprintf("%q|%q|%q", cleanPaths(r.Focus), r.Mentions, r.Text)
}

// New returns a Map of the tree at dir. It is cheap: the work happens in
// Render. Its tags are cached on disk unless Options.NoCache is set.
func New(dir string, opts *Options) (*Map, error) {
	return NewRoots([]Root{{Dir: dir}}, opts)
}

// NewFS returns a Map of the tree fsys, which is not cached on disk.
func NewFS(fsys fs.FS, opts *Options) (*Map, error) {
	return NewRoots([]Root{{FS: fsys}}, opts)
}

// NewRoots returns a Map of several trees ranked as one graph: references
// from the files of one to the definitions of another count like any
// other. Each root's files appear in the map under the root's Name. With
// a single root, Name may be empty and paths are not prefixed. A Root with
// Dir and no FS is the directory on disk.
func NewRoots(roots []Root, opts *Options) (*Map, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		return nil, errors.New("repomap: no root")
	}
	m := &Map{opts: o, blocks: make(render.Memo)}
	var ixRoots []index.Root
	names := make(map[string]bool)
	for _, r := range roots {
		if len(roots) > 1 && (r.Name == "" || r.Name == "." || r.Name == ".." || strings.ContainsAny(r.Name, `/\`)) {
			return nil, fmt.Errorf("repomap: root name %q is not a single path element", r.Name)
		}
		if names[r.Name] {
			return nil, fmt.Errorf("repomap: two roots named %q", r.Name)
		}
		names[r.Name] = true
		onDisk := false
		if r.FS == nil {
			if r.Dir == "" {
				return nil, errors.New("repomap: a root has neither FS nor Dir")
			}
			info, err := os.Stat(r.Dir)
			if err != nil {
				return nil, fmt.Errorf("repomap: %w", err)
			}
			if !info.IsDir() {
				return nil, fmt.Errorf("repomap: %s is not a directory", r.Dir)
			}
			r.FS = os.DirFS(r.Dir)
			onDisk = true
		}
		var c *cache.Cache
		if r.Dir != "" && !o.NoCache {
			var err error
			if c, err = cache.New(o.CacheDir, r.Dir, &cache.Options{Timeout: o.CacheTimeout}); err != nil {
				o.Logger.Warn("repomap: tag cache off", "root", r.Dir, "err", err)
			}
		}
		m.roots, m.caches = append(m.roots, r), append(m.caches, c)
		ixRoots = append(ixRoots, index.Root{Name: r.Name, FS: r.FS, Dir: r.Dir, OnDisk: onDisk, Cache: c})
	}
	m.idx = index.New(ixRoots, m.opts.indexOptions())
	m.hist = newHistStage(m)
	m.links = &linkStage{warn: func(err error) { m.idx.Warn(0, err) }, debug: m.opts.Logger.Debug}
	if c := m.caches[0]; c != nil && buildStamp() != "" {
		m.links.disk = c
	}
	return m, nil
}

// Close waits for the Map's write to the disk cache under way, then
// releases its resources. A map's parsed tags are written while it is
// linked, so a process that exits without closing its Map may
// leave them unwritten. Close is safe to call more than once, and on a
// nil or zero Map.
func (m *Map) Close() error {
	if m == nil || m.idx == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	m.blocks, m.last, m.counts = nil, nil, nil
	m.links.close()
	m.idx.Settle() // one write at a time
	m.links.store(context.Background())
	return m.idx.Close()
}

var (
	// ErrClosed is returned by the methods of a closed Map.
	ErrClosed = errors.New("repomap: map is closed")
	// ErrNotInMap is returned, wrapped with the path, for a focus file or
	// a file given to Related that is not a file of the map.
	ErrNotInMap = errors.New("not a file of the map")
)

// Render returns the map of the tree for req: the best-ranked definitions
// that fit the token budget, as source lines under their file's path. The
// same tree and request give the same bytes, from a new Map or from one
// kept open while the tree changed. Files that cannot be read or
// parsed are listed by name, or left out, and logged; only a walk of a
// root that fails, a cancelled context or a closed Map give an error.
func (m *Map) Render(ctx context.Context, req Request) (string, error) {
	r, err := m.build(ctx, req)
	if err != nil {
		return "", err
	}
	return r.text, nil
}

// result is one rendered map with what went into it.
type result struct {
	text    string
	tokens  int
	budget  int
	ranked  *ranked // the ranked list
	shown   int     // how many items of it the map shows
	stats   Stats
	skipped []index.Omitted
	blocks  *render.Blocks  // what made its blocks
	snap    *index.Snapshot // what it was made of
	public  *Result
}

// lastRender is the last map made, with what it was made of.
type lastRender struct {
	req   string
	state map[string]stamp // by path
	heads string           // the commits the histories were read up to (Map.heads)
	res   *result

	// The request's rankKey and the snapshot ranked, when res.ranked is
	// the ranking: a map of the same tree for the same request with
	// another budget is fitted from it, not ranked again.
	rankReq string
	snap    *index.Snapshot
}

// stamp is what tells that a file changed.
type stamp struct{ size, mod int64 }

func (m *Map) build(ctx context.Context, req Request) (*result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	start := time.Now()
	if m.opts.Refresh == RefreshManual && m.last != nil {
		return m.last.res, nil
	}
	// The commits the roots' histories are read up to: the keys of what
	// is kept depend on them.
	heads := m.heads(req)
	m.hist.heads = heads
	// The map a process made before for this request, if the disk cache
	// keeps one: what it reads while the tree is walked waits until the
	// tree is found to be the same, or not.
	memoRoot := m.memoCache(req)
	var memoKey, rankKey [sha256.Size]byte
	var kept *keptMap
	var keptRank *keptRanking
	if memoRoot != nil {
		memoKey, rankKey = m.memoKey(req), m.rankMemoKey(req)
		kept, keptRank = readKept(ctx, memoRoot, memoKey, rankKey)
	}
	// Loading the tokenizer takes a while: do it while the tree is read.
	encDone := make(chan error, 1)
	var histDone <-chan histRead
	loadEncoding := func() {
		if m.historyFor(req) {
			histDone = m.startHistory(ctx, heads)
		}
		go func() { _, err := encoding(m.opts.Encoding); encDone <- err }()
		// A request's words are scored in every file's entry as the disk
		// cache is read.
		m.idx.StartPreload(ctx, index.ReadStamps, policy.WordsSeer(req.Text, *m.opts.Policy))
		// With a ranking kept for this request, the links are read only
		// if the tree changed since (linkStage.load).
		if keptRank == nil {
			m.links.preload(ctx)
		}
	}
	if kept == nil {
		loadEncoding()
	}

	var st Stats
	files, skipped, err := m.idx.Walk(ctx)
	if err != nil {
		return nil, err // encDone is buffered: the loader does not wait
	}
	var tree [sha256.Size]byte
	if memoRoot != nil {
		tree = m.idx.Digest(files, skipped)
		if kept != nil && kept.tree == tree {
			if res := kept.reused(files, start, time.Now()); res != nil {
				m.last = &lastRender{req: req.key(), state: stamps(files), heads: heads, res: &result{text: res.Text, tokens: res.Tokens, budget: res.Budget, stats: res.Stats, public: res}}
				return m.last.res, nil
			}
		}
		if kept != nil {
			loadEncoding()
		}
	}
	st.Files = len(files)
	state := stamps(files)
	for _, f := range files {
		st.Bytes += f.Size
	}
	st.Walk = time.Since(start)
	if last := m.last; last != nil && last.req == req.key() {
		switch m.opts.Refresh {
		case RefreshFiles:
			if maps.EqualFunc(last.state, state, func(stamp, stamp) bool { return true }) {
				return last.res, nil
			}
		case RefreshAuto:
			if maps.Equal(last.state, state) && last.heads == heads {
				return last.res, nil
			}
		}
	}

	snap, r, err := m.rankTree(ctx, req, files, skipped, state, tree, keptRank, histDone, &st)
	if err != nil {
		return nil, err // encDone is buffered: the loader does not wait
	}
	st.Skipped = len(snap.Skipped)
	st.Roles = make(map[string]int)
	for _, r := range snap.Roles {
		st.Roles[r.String()]++
	}
	st.Nodes, st.Links, st.Iterations, st.Linked = r.size.nodes, r.size.links, r.iters, r.linked
	st.Defs, st.Refs = r.size.defs, r.size.refs

	budget := req.MaxTokens
	if budget <= 0 {
		budget = Budget(m.opts.MaxTokens, m.opts.ContextWindow, len(req.Focus) > 0)
	}
	if err := <-encDone; err != nil {
		return nil, err
	}
	bs := m.blocksOf(snap)
	t := time.Now()
	text, tokens, shown, err := bs.Fit(ctx, r.list.Len(), r.prefix, budget)
	if err != nil {
		return nil, err
	}
	st.Fit = time.Since(t)
	st.Refit = st.Refit && !r.resumed
	st.Tokens, st.Rendered = tokens, bs.Rendered()
	st.Total = time.Since(start)

	res := &result{text: text, tokens: tokens, budget: budget, ranked: r, shown: shown, stats: st, skipped: snap.Skipped, blocks: bs, snap: snap}
	if res.public, err = publish(ctx, bs, snap, res, m.opts.Encoding); err != nil {
		return nil, err
	}
	m.counts = bs.Counts()
	if memoRoot != nil && !snap.Retry() {
		// (A map with a file the next process parses again is not
		// kept: that process's map may differ.)
		m.idx.Settle() // one write at a time
		// The ranking too, unless it was read back.
		var keep *ranked
		if !st.Refit {
			keep = r
		}
		if err := storeMemo(ctx, memoRoot, memoKey, rankKey, tree, res.public, keep, files); err != nil {
			m.idx.Warn(0, err)
		}
	}
	m.last = &lastRender{req: req.key(), state: state, heads: heads, res: res, rankReq: req.rankKey(), snap: snap}
	return res, nil
}

// rankTree returns the snapshot of files and its ranking for req, and
// fills the parse, cache and rank figures of st: the last map's ranking,
// when it was of the same files for the same request (another budget);
// else the ranking keptRank, kept in the disk cache for the request and
// the tree of digest tree, when it is of that tree; else one made now,
// with the history histDone gives (nil for none).
func (m *Map) rankTree(ctx context.Context, req Request, files []index.File, skipped []index.Omitted, state map[string]stamp, tree [sha256.Size]byte, keptRank *keptRanking, histDone <-chan histRead, st *Stats) (*index.Snapshot, *ranked, error) {
	// (Not when every map is to be made anew: a file's stamps may hide a
	// change.)
	if last := m.last; last != nil && last.snap != nil && last.rankReq == req.rankKey() &&
		m.opts.Refresh != RefreshAlways && maps.Equal(last.state, state) && last.heads == m.hist.heads && m.opts.History == nil {
		// Until this map is made, the ranking is not to be fitted again:
		// a fit that a done context cuts short leaves rows unread.
		snap := last.snap
		last.snap = nil
		st.Parsed, st.Cached, st.Refit = 0, len(files), true
		return snap, last.res.ranked, nil
	}
	t := time.Now()
	snap, err := m.idx.Update(ctx, files, skipped)
	if err != nil {
		return nil, nil, err
	}
	m.blocks.Keep(snap)
	st.Parsed, st.Cached = snap.Parsed, len(files)-snap.Parsed
	st.Tags = time.Since(t)
	for _, s := range snap.Skipped {
		m.opts.Logger.Debug("repomap: skipped", "path", s.Path, "reason", s.Reason)
	}

	t = time.Now()
	focus := cleanPaths(req.Focus)
	for _, p := range focus {
		if !snap.Has(p) {
			return nil, nil, fmt.Errorf("repomap: focus %s: %w", p, ErrNotInMap)
		}
	}
	rk := *m.opts.Policy
	q := policy.Query{Focus: focus, Mentions: req.Mentions, Text: req.Text}
	if histDone != nil {
		q.History = m.keepHistory(ctx, <-histDone)
	}
	rankAll := func(ctx context.Context) (ranked, error) {
		l, err := m.linked(ctx, snap)
		if err != nil {
			return ranked{}, err
		}
		return rankSnapshot(ctx, snap, l, m.links.memo, rk, q)
	}
	var r *ranked
	if keptRank != nil && keptRank.tree == tree {
		r = keptRank.ranked(snap, files, rk.Rows, rankAll)
		st.Refit = r != nil
	}
	if r == nil {
		rs, err := rankAll(ctx)
		if err != nil {
			return nil, nil, err
		}
		r = &rs
	}
	st.Rank = time.Since(t)
	return snap, r, nil
}

// linked returns the link stage's result for snap, kept by the Map: the
// first one made is written to the disk cache at once, while the map is
// ranked and fitted.
func (m *Map) linked(ctx context.Context, snap *index.Snapshot) (linked, error) {
	first := m.links.memo == nil
	l, err := m.links.linked(ctx, snap, *m.opts.Policy)
	if err == nil && first && l.from == "made" {
		m.idx.Settle() // one write at a time
		m.links.store(ctx)
	}
	return l, err
}

// stamps returns the stamps of files, by path.
func stamps(files []index.File) map[string]stamp {
	state := make(map[string]stamp, len(files))
	for _, f := range files {
		state[f.Path] = stamp{f.Size, f.Mod}
	}
	return state
}

// blocksOf returns the maker of the blocks of snap's files, for the Map's
// encoding, which is loaded.
func (m *Map) blocksOf(snap *index.Snapshot) *render.Blocks {
	enc, _ := encoding(m.opts.Encoding)
	return render.NewBlocks(snap, renderStyle(m.opts.Style), enc.Count, m.blocks, m.counts, m.opts.Logger)
}

// snapshot brings the index up to date and returns its snapshot. The
// caller holds m.mu.
func (m *Map) snapshot(ctx context.Context) (*index.Snapshot, error) {
	if m.closed {
		return nil, ErrClosed
	}
	m.idx.StartPreload(ctx, index.ReadDecoded, nil)
	files, skipped, err := m.idx.Walk(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := m.idx.Update(ctx, files, skipped)
	if err != nil {
		return nil, err
	}
	if err := snap.DecodeAll(ctx); err != nil { // the lookups read every file's tags
		return nil, err
	}
	m.blocks.Keep(snap)
	return snap, nil
}

// cleanPaths returns the paths cleaned, slash-separated and without a
// leading "./".
func cleanPaths(ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "./")))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
