package policy

import (
	"slices"

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

// messageLeads returns leads, the leads of the files most relevant to
// the words of text, best first, with the source files (not tests, not
// examples: a fix's commit changes its tests too) that the commits whose
// messages best match the words changed the most (v.Messages, of the
// c.MessageCommits best commits): the first leads of the c.MessageLift
// best of those among the files that lead move to the places right
// after the first file's lead, and, with c.MessageAdd, the best of those
// that do not lead joins them at place c.MessageAdd. Moved to the head,
// a file the words alone do not find was measured to cost others their
// place in the first five; at the twelfth place it costs none, and is
// within the map of 1,024 tokens.
func messageLeads(leads []Lead, s *index.Snapshot, v *history.View, text string, c History) []Lead {
	wq := newWordsQuery(text, 0)
	if wq == nil || len(leads) < 2 {
		return leads
	}
	first := make(map[string]int) // by path: the file's first lead
	for i, l := range leads {
		if _, ok := first[l.Path]; !ok {
			first[l.Path] = i
		}
	}
	leading, other := make(map[string]float64), make(map[string]float64)
	for p, w := range v.Messages(wq.hashes, c.MessageCommits) {
		if i, ok := s.Lookup(p); !ok || s.Roles[i] != index.RoleSource {
			continue
		}
		switch j, leads := first[p]; {
		case !leads:
			other[p] = w
		case j > 0:
			leading[p] = w
		}
	}
	var up []string
	if c.MessageLift > 0 {
		up = history.Top(leading, c.MessageLift)
	}
	out := []Lead{leads[0]}
	for _, p := range up {
		out = append(out, leads[first[p]])
	}
	for i, l := range leads[1:] {
		if i+1 != first[l.Path] || !slices.Contains(up, l.Path) {
			out = append(out, l)
		}
	}
	if c.MessageAdd > 0 {
		for _, p := range history.Top(other, 1) {
			out = slices.Insert(out, min(c.MessageAdd, len(out)), Lead{Path: p})
		}
	}
	return out
}
