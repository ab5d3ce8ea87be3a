package policy

import (
	"github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/rank"
)

// historyInput adds the history v to the ranking in of s for a request
// with the focus files focus, the files its words or mentions name,
// named, and the files most relevant to its words, top, with their
// relevance rel, as c says: teleport and a boost to the files that
// changed with the focus files, and with the named and relevant ones,
// and a boost to the files that changed lately. It returns the files
// that changed with the focus files to lift to the head of the list,
// best first: c.Lift of them at most.
func historyInput(in *rank.Input, s *index.Snapshot, v *history.View, c History, focus, named, top []string, rel map[string]float64) (lift []string) {
	coChanged := func(from map[string]float64, personal, boost float64, lifted int) {
		if len(from) == 0 || personal <= 0 && boost <= 0 && lifted <= 0 {
			return
		}
		w := v.CoChanged(from, c.HalfLife)
		for p := range w {
			if !s.Has(p) {
				delete(w, p)
			}
		}
		best := history.Top(w, c.Top)
		if len(best) == 0 || w[best[0]] <= 0 {
			return
		}
		norm := w[best[0]]
		lift = append(lift, best[:min(lifted, len(best))]...)
		for _, p := range best {
			share := w[p] / norm
			if personal > 0 {
				if in.Personal == nil {
					in.Personal = make(map[string]float64)
				}
				in.Personal[p] += personal * share
			}
			if boost > 0 {
				scaleFile(in, p, 1+boost*share)
			}
		}
	}
	if len(focus) > 0 {
		from := make(map[string]float64, len(focus))
		for _, p := range focus {
			from[p] = 1
		}
		coChanged(from, c.Focus, c.FocusBoost, c.Lift)
	}
	from := make(map[string]float64)
	for _, p := range named {
		from[p] = 1
	}
	for i, p := range top {
		if i == c.RequestTop {
			break
		}
		from[p] = max(from[p], rel[p])
	}
	for _, p := range focus {
		delete(from, p)
	}
	coChanged(from, c.Request, c.RequestBoost, 0)
	if c.Recency > 0 {
		for _, f := range s.Files {
			if r := v.Recency(f.Path, c.HalfLife); r > 0 {
				scaleFile(in, f.Path, 1+c.Recency*r)
			}
		}
	}
	return lift
}
