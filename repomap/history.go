package repomap

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/history"
)

// The history stage finds, for the roots of a Map that lie in git
// repositories, which files changed together, when, and what the commits'
// messages said (package history),
// for the rank stage. A root's history is read up to HEAD once, kept in
// the root's disk cache by HEAD (blob historyBlob), and extended when
// HEAD moves on; a root outside git, in a shallow clone, or whose
// history cannot be read is ranked as if it had none, with one Debug line
// saying why.

// historyBlob names the blob a root's disk cache keeps its history in.
const historyBlob = "history"

// histStage is the history stage of a Map.
type histStage struct {
	roots []histRoot
	// The view of the histories of roots.
	view *history.View
	// heads are the commits the map being made reads the histories up
	// to (Map.heads).
	heads string
}

// histRoot is one root's history.
type histRoot struct {
	name  string // the root's name in the map, "" with one root
	dir   string // its directory on disk; "" for none
	cache *cache.Cache
	repo  *history.Repo // nil until opened, or when it has no history
	off   bool          // it has no history: why was logged
	hist  *history.History
}

// newHistStage returns the history stage of the roots of m.
func newHistStage(m *Map) *histStage {
	h := &histStage{}
	for i, r := range m.roots {
		name := ""
		if len(m.roots) > 1 {
			name = r.Name
		}
		h.roots = append(h.roots, histRoot{name: name, dir: r.Dir, cache: m.caches[i]})
	}
	return h
}

// historyFor reports whether the map for req is ranked with a history:
// whether the ranking has one, and a part of it that req can use.
func (m *Map) historyFor(req Request) bool {
	c := m.opts.Policy.History
	if !c.On || m.opts.NoHistory {
		return false
	}
	focus := len(req.Focus) > 0 && (c.Focus > 0 || c.FocusBoost > 0 || c.Lift > 0)
	request := (len(req.Mentions) > 0 || req.Text != "") && (c.Request > 0 || c.RequestBoost > 0) ||
		req.Text != "" && c.Messages()
	return c.Recency > 0 || focus || request
}

// heads returns the commits HEAD names in the repositories of the roots
// of m, as their files say now, joined: what a map's history depends on.
// "" when no root has a history, or the map for req is ranked without.
// It opens each root's repository the first time, and logs why one has
// no history.
func (m *Map) heads(req Request) string {
	if !m.historyFor(req) || m.opts.History != nil {
		return ""
	}
	var b strings.Builder
	for i := range m.hist.roots {
		r := &m.hist.roots[i]
		if r.off || r.dir == "" {
			continue
		}
		if r.repo == nil {
			repo, err := history.Open(r.dir)
			if err != nil {
				m.historyOff(r, err)
				continue
			}
			r.repo = repo
		}
		head, err := r.repo.Head()
		if err != nil {
			m.historyOff(r, err)
			continue
		}
		b.WriteString(r.name + "@" + head + "\x00")
	}
	return b.String()
}

// historyOff turns the history of r off, and says why.
func (m *Map) historyOff(r *histRoot, err error) {
	r.off, r.repo, r.hist = true, nil, nil
	m.opts.Logger.Debug("repomap: ranked without history", "root", r.dir, "reason", err)
}

// histRead is what loadHistory read: each root's history, and whether it
// is to be kept in the root's disk cache.
type histRead struct {
	hists   []*history.History
	changed []bool
	errs    []error
}

// startHistory starts reading the histories of the roots of m up to
// heads, while the tree is read; keepHistory takes what it read from the
// channel. It reads a copy of the history stage, never m itself.
func (m *Map) startHistory(ctx context.Context, heads string) <-chan histRead {
	roots := slices.Clone(m.hist.roots)
	o := history.Options{Depth: m.opts.Policy.History.Depth, MaxFiles: m.opts.Policy.History.MaxFiles}
	done := make(chan histRead, 1)
	go func() { done <- loadHistory(ctx, roots, heads, o, m.opts.History) }()
	return done
}

// loadHistory reads the histories of roots up to heads (from heads) as
// o says, or with read when it is set.
func loadHistory(ctx context.Context, roots []histRoot, heads string, o history.Options, read func(context.Context, history.Options) (*history.History, error)) histRead {
	n := len(roots)
	out := histRead{hists: make([]*history.History, n), changed: make([]bool, n), errs: make([]error, n)}
	if read != nil {
		out.hists[0], out.errs[0] = read(ctx, o)
		return out
	}
	at := make(map[string]string)
	for rec := range strings.SplitSeq(heads, "\x00") {
		if name, head, ok := strings.Cut(rec, "@"); ok {
			at[name] = head
		}
	}
	for i, r := range roots {
		head, ok := at[r.name]
		if !ok || r.repo == nil {
			continue
		}
		kept := r.hist
		if kept == nil && r.cache != nil {
			_ = r.cache.ReadBlobs(ctx, []string{historyBlob}, func(blobs [][]byte) error {
				if blobs[0] != nil {
					kept, _ = history.Decode(blobs[0]) // a form it cannot read is read anew
				}
				return nil
			})
		}
		out.hists[i], out.changed[i], out.errs[i] = history.Load(ctx, r.repo, head, kept, o)
	}
	return out
}

// historyView returns the view of the histories of the roots of m as
// HEAD names them now, for the map for req, read at once; nil when there
// is none.
func (m *Map) historyView(ctx context.Context, req Request) *history.View {
	if !m.historyFor(req) {
		return nil
	}
	heads := m.heads(req)
	return m.keepHistory(ctx, <-m.startHistory(ctx, heads))
}

// keepHistory keeps what loadHistory read, writes the histories that
// changed to the roots' disk caches, and returns the view of them all;
// nil when there is none.
func (m *Map) keepHistory(ctx context.Context, rd histRead) *history.View {
	same := m.hist.view != nil
	for i, r := range m.hist.roots {
		same = same && rd.errs[i] == nil && rd.hists[i] == r.hist
	}
	if same {
		return m.hist.view
	}
	var parts []history.Part
	for i := range m.hist.roots {
		r := &m.hist.roots[i]
		if err := rd.errs[i]; err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			m.historyOff(r, err)
			continue
		}
		h := rd.hists[i]
		if h == nil {
			continue
		}
		r.hist = h
		if rd.changed[i] && r.cache != nil {
			m.idx.Settle() // one write at a time
			if err := r.cache.StoreBlob(ctx, historyBlob, h.Encode()); err != nil {
				m.idx.Warn(i, err)
			}
		}
		prefix := ""
		if r.repo != nil {
			prefix = r.repo.Prefix()
		}
		parts = append(parts, history.Part{History: h, Prefix: prefix, Name: r.name})
	}
	if len(parts) == 0 {
		m.hist.view = nil
		return nil
	}
	m.hist.view = history.NewView(parts...)
	return m.hist.view
}
