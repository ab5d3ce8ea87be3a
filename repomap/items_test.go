package repomap

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/rank"
)

// eagerItems is the rank stage's list of items made over the whole
// sorted ranking at once, as the map made it before the list was made
// as it is read: the oracle of TestItemListLazy.
func eagerItems(res *rank.Result, hidden map[string][]string, mixed []string, every, spread int, tier map[string]int) []fit.Item {
	items := make([]fit.Item, 0, len(res.Entries))
	listed := make(map[string]bool)
	var dropped []string
	for _, e := range res.Entries {
		if e.Name != "" && slices.Contains(hidden[e.Path], e.Name) {
			dropped = append(dropped, e.Path)
			continue
		}
		listed[e.Path] = true
		items = append(items, fit.Item{Path: e.Path, Name: e.Name, Score: e.Score})
	}
	if spread > 0 {
		spreadNames(items, tier, spreading{names: spread})
	}
	if every > 0 {
		interleave(items, mixed, every)
	}
	var extra []fit.Item
	for _, p := range dropped {
		if !listed[p] {
			listed[p] = true
			extra = append(extra, fit.Item{Path: p, Score: res.Files[p]})
		}
	}
	if len(extra) > 0 {
		first := slices.IndexFunc(items, func(it fit.Item) bool { return it.Name == "" })
		if first < 0 {
			first = len(items)
		}
		tail := append(slices.Clone(items[first:]), extra...)
		slices.SortStableFunc(tail, func(a, b fit.Item) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path))
		})
		items = append(items[:first], tail...)
	}
	return items
}

// interleave moves up, in the definitions of items, the best definition
// of each of files (the most relevant first) to at least the every-th
// place after the one of the file before, so that the map shows the
// files most relevant to the request's words beside those the graph
// ranks first. A moved item takes the score of the one it goes before.
func interleave(items []fit.Item, files []string, every int) {
	end := slices.IndexFunc(items, func(it fit.Item) bool { return it.Name == "" })
	if end < 0 {
		end = len(items)
	}
	defs := items[:end]
	best := make(map[string]int, len(files)) // a file's first definition
	for i, it := range defs {
		if _, ok := best[it.Path]; !ok {
			best[it.Path] = i
		}
	}
	moved := make([]bool, len(defs))
	var lifted []int // the items to move, by relevance
	for _, p := range files {
		if i, ok := best[p]; ok {
			lifted = append(lifted, i)
		}
	}
	out := make([]fit.Item, 0, len(defs))
	next, a := 0, 0 // the next item of lifted, and of defs
	for len(out) < len(defs) {
		if next < len(lifted) && (len(out) >= next*every || a == len(defs)) {
			i := lifted[next]
			next++
			if moved[i] || i < a {
				continue // already out, in its own place
			}
			moved[i] = true
			it := defs[i]
			if a < len(defs) {
				it.Score = max(it.Score, defs[a].Score)
			}
			out = append(out, it)
			continue
		}
		if !moved[a] {
			out = append(out, defs[a])
		}
		a++
	}
	copy(defs, out)
}

// tiedRanking returns the input of a ranking whose definitions tie
// often (every file has a twin with the same tags), with names hidden in
// many files: the best of some, every one of others.
func tiedRanking(seed uint64) (rank.Input, map[string][]string) {
	rng := rand.New(rand.NewPCG(seed, 11))
	var in rank.Input
	hidden := make(map[string][]string)
	for i := range 30 {
		f := rank.File{Path: fmt.Sprintf("p%d/f%d.go", i%4, i)}
		for range 1 + rng.IntN(8) {
			f.Defs = append(f.Defs, fmt.Sprintf("name%d", rng.IntN(60)))
		}
		for range rng.IntN(30) {
			f.Refs = append(f.Refs, fmt.Sprintf("name%d", rng.IntN(70)))
		}
		f.Defs = append(f.Defs, fmt.Sprintf("pkg%d", i%4))
		f.Refs = append(f.Refs, fmt.Sprintf("pkg%d", (i+1)%4))
		twin := rank.File{Path: "twin/" + f.Path, Defs: f.Defs, Refs: f.Refs}
		in.Files = append(in.Files, f, twin)
		hidden[f.Path] = []string{fmt.Sprintf("pkg%d", i%4)}
		if i%5 == 0 { // every definition hidden
			hidden[twin.Path] = slices.Concat(f.Defs, f.Defs[:1])
		}
	}
	in.Files = append(in.Files, rank.File{Path: "alone.txt"}, rank.File{Path: "notes/alone.md"})
	in.Focus = []string{"p1/f1.go"}
	in.Tier = map[string]int{"p3/f3.go": 1, "twin/p3/f7.go": 2, "alone.txt": 1}
	in.Reverse = 0.5
	return in, hidden
}

// TestItemListLazy checks that the items the rank stage makes as the fit
// reads them, and the order of their files, are those of the whole list
// made at once (eagerItems), ties, hidden definitions and the files moved
// up for a request's words included.
func TestItemListLazy(t *testing.T) {
	for seed := range uint64(6) {
		in, hidden := tiedRanking(seed)
		x := rank.NewIndex(in.Files)
		res := x.Rank(in)
		ties := 0
		for i := 1; i < len(res.Entries); i++ {
			if res.Entries[i].Name != "" && res.Entries[i].Score == res.Entries[i-1].Score {
				ties++
			}
		}
		if ties < 10 {
			t.Fatalf("seed %d: %d ties; the test needs many", seed, ties)
		}
		// Files to move up: some of the best ranked among them, which
		// the list reaches before their turn.
		last := res.Entries[len(res.Entries)-1].Path
		for _, mixed := range [][]string{nil, {"twin/p2/f6.go", "p0/f4.go", "p1/f1.go", "nowhere.go", "p0/f4.go", "twin/p0/f0.go", "p3/f27.go"},
			{last, res.Entries[5].Path, "twin/p3/f29.go", res.Entries[0].Path, res.Entries[1].Path, "p2/f10.go"}} {
			for _, sp := range []struct{ keep, head int }{{0, 0}, {1, 4096}, {1, 7}, {2, 12}} {
				for _, every := range []int{0, 1, 2, 3} {
					spreadHead = sp.head
					want := eagerItems(res, hidden, mixed, every, sp.keep, in.Tier)
					if sp.keep > 0 && every == 0 && sameItems(want, eagerItems(res, hidden, mixed, 0, 0, in.Tier)) {
						t.Fatalf("seed %d: spread %d in %d moves nothing; the test needs it to", seed, sp.keep, sp.head)
					}
					var wantFiles []string
					for _, it := range want {
						if !slices.Contains(wantFiles, it.Path) {
							wantFiles = append(wantFiles, it.Path)
						}
					}
					name := fmt.Sprintf("seed %d, every %d, %d files moved up, spread %d in %d", seed, every, len(mixed), sp.keep, sp.head)
					newRanked := func() *ranked {
						l := newItemList(x.Ranking(in), hidden, mixed, every, spreading{names: sp.keep}, in.Tier)
						return &ranked{n: l.len(), list: l}
					}
					r := newRanked()
					if r.n != len(want) {
						t.Fatalf("%s: %d items, want %d", name, r.n, len(want))
					}
					// Files before any item is made, then items a few at a
					// time, then all.
					if got := r.files(); !slices.Equal(got, wantFiles) {
						t.Errorf("%s: files() = %v, want %v", name, got, wantFiles)
					}
					for k := range min(len(want), 40) {
						r.make(k)
						if len(r.items) < k || !sameItems(r.items[:k], want[:k]) {
							t.Fatalf("%s: the first %d items =\n%v, want\n%v", name, k, r.items, want[:k])
						}
					}
					if got := r.all(); !sameItems(got, want) {
						t.Errorf("%s: all() =\n%v, want\n%v", name, got, want)
					}
					r = newRanked()
					r.make(len(want) / 2)
					if got := r.files(); !slices.Equal(got, wantFiles) {
						t.Errorf("%s: files() after half the items = %v, want %v", name, got, wantFiles)
					}
				}
			}
		}
		spreadHead = 4096
	}
}

// sameItems reports whether a and b are the same items, rows aside.
func sameItems(a, b []fit.Item) bool {
	return slices.EqualFunc(a, b, func(x, y fit.Item) bool {
		return x.Path == y.Path && x.Name == y.Name && x.Score == y.Score
	})
}
