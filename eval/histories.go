package eval

import (
	"context"
	"sync"

	githistory "github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/repomap"
)

// histories gives the maps of a run the history of the repository as it
// stood at the commit whose tree they map (a commit's parent, a task's
// base commit), never later: one read per commit and per way of reading,
// shared by the variants.
type histories struct {
	dir string // the repository

	mu   sync.Mutex
	at   string // the commit the maps are of
	read map[githistory.Options]*githistory.History
}

// set makes rev, a commit hash, the commit the histories are read up to.
func (h *histories) set(rev string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if rev != h.at {
		h.at, h.read = rev, make(map[githistory.Options]*githistory.History)
	}
}

// history returns the history up to the commit set, read as o says: the
// Options.History of the variants.
func (h *histories) history(ctx context.Context, o githistory.Options) (*githistory.History, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	o = o.WithDefaults()
	if r, ok := h.read[o]; ok {
		return r, nil
	}
	r, err := githistory.Read(ctx, h.dir, h.at, o)
	if err != nil {
		return nil, err
	}
	h.read[o] = r
	return r, nil
}

// withHistory returns o with its history read by h.
func (h *histories) withHistory(o repomap.Options) repomap.Options {
	o.History = h.history
	return o
}
