package repomap

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"time"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/memo"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/internal/render"
)

// A map is made in stages, each a package that takes the value the one
// before gives and returns its own:
//
//	index   walk the roots, read and parse what changed   → index.Snapshot
//	link    tie references to definitions                 → link.Linked
//	policy  shape the ranking's input for the request     → rank.Input
//	rank    personalized PageRank                         → rank.Ranking
//	items   the ranked list, each item with its rows      → items.List
//	render  the longest prefix that fits, written         → the map's text
//
// build composes them. Around the stages, what a Map keeps lets a stage's
// work be skipped: a map or a ranking the disk cache keeps for the request
// and the tree (mapmemo.go), the link stage's last result (memo.LinkStage),
// the last map for the refresh modes and a refit to another budget, and
// the blocks rendered before. A stage that a done context stops returns
// its error, and no stage after it runs (stage).

// Stages of a map, as stage names them.
const (
	stageIndex  = "index"
	stageLink   = "link"
	stageRank   = "rank"
	stageRender = "render"
	stageKeep   = "keep"
)

// stage is called between two stages of a map, before the one named: it
// returns the context's error when it is done, and no stage runs after
// it.
func (m *Map) stage(ctx context.Context, name string) error {
	if m.opts.Stage != nil {
		m.opts.Stage(name)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("repomap: %w", err)
	}
	return nil
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

// stamp is what tells that a file changed (index.File).
type stamp struct {
	size, mod, change int64
	ino               uint64
}

// build makes the map for req.
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
		// if the tree changed since (memo.LinkStage.Linked).
		if keptRank == nil {
			m.links.Preload(ctx)
		}
	}
	if kept == nil {
		loadEncoding()
	}

	if err := m.stage(ctx, stageIndex); err != nil {
		return nil, err
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

	snap, r, err := m.rank(ctx, req, files, skipped, state, tree, keptRank, histDone, &st)
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
	if err := m.stage(ctx, stageRender); err != nil {
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
	if err := m.stage(ctx, stageKeep); err != nil {
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

// rank returns the snapshot of files and its ranking for req, and fills
// the parse, cache and rank figures of st: the last map's ranking, when
// it was of the same files for the same request (another budget); else
// the ranking keptRank, kept in the disk cache for the request and the
// tree of digest tree, when it is of that tree; else one made now, by
// the index, link, policy, rank and items stages in turn, with the
// history histDone gives (nil for none).
func (m *Map) rank(ctx context.Context, req Request, files []index.File, skipped []index.Omitted, state map[string]stamp, tree [sha256.Size]byte, keptRank *keptRanking, histDone <-chan histRead, st *Stats) (*index.Snapshot, *ranked, error) {
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
		m.opts.Logger.Debug("repomap: skipped", "path", s.Path, "reason", s.Skip.String())
	}

	t = time.Now()
	focus, err := m.focusPaths(snap, req.Focus)
	if err != nil {
		return nil, nil, err
	}
	q := policy.Query{Focus: focus, Mentions: req.Mentions, Text: req.Text}
	if histDone != nil {
		q.History = m.keepHistory(ctx, <-histDone)
	}
	var r *ranked
	if keptRank != nil && keptRank.tree == tree {
		r = keptRank.ranked(snap, files, m.opts.Policy.Rows, func(ctx context.Context) (ranked, error) { return m.rankSnapshot(ctx, snap, q) })
		st.Refit = r != nil
	}
	if r == nil {
		rs, err := m.rankSnapshot(ctx, snap, q)
		if err != nil {
			return nil, nil, err
		}
		r = &rs
	}
	st.Rank = time.Since(t)
	return snap, r, nil
}

// rankSnapshot links the files of snap (the Map keeps the result), and
// ranks them for q: the link, policy, rank and items stages.
func (m *Map) rankSnapshot(ctx context.Context, snap *index.Snapshot, q policy.Query) (ranked, error) {
	if err := m.stage(ctx, stageLink); err != nil {
		return ranked{}, err
	}
	l, err := m.linked(ctx, snap)
	if err != nil {
		return ranked{}, err
	}
	if err := m.stage(ctx, stageRank); err != nil {
		return ranked{}, err
	}
	return rankSnapshot(ctx, snap, l, m.links, *m.opts.Policy, q)
}

// linked returns the link stage's result for snap, kept by the Map: the
// first one made is written to the disk cache at once, while the map is
// ranked and fitted.
func (m *Map) linked(ctx context.Context, snap *index.Snapshot) (memo.Linked, error) {
	first := m.links.Empty()
	l, err := m.links.Linked(ctx, snap, *m.opts.Policy)
	if err == nil && first && l.From == "made" {
		m.idx.Settle() // one write at a time
		m.links.Store(ctx)
	}
	return l, err
}

// stamps returns the stamps of files, by path.
func stamps(files []index.File) map[string]stamp {
	state := make(map[string]stamp, len(files))
	for _, f := range files {
		state[f.Path] = stamp{f.Size, f.Mod, f.Change, f.Ino}
	}
	return state
}

// blocksOf returns the maker of the blocks of snap's files, for the Map's
// encoding, which is loaded.
func (m *Map) blocksOf(snap *index.Snapshot) *render.Blocks {
	enc, _ := encoding(m.opts.Encoding)
	return render.NewBlocks(snap, renderStyle(m.opts.Style), enc.Count, m.blocks, m.counts, m.opts.Logger)
}
