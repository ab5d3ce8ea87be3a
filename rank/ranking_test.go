package rank

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// tiedInput returns a graph whose definitions tie often: every file of a
// synthetic graph has a twin with the same tags under another path, and
// some files define names nothing references (self-edges of one weight),
// with tiers and scales on some files and one focus file.
func tiedInput(seed uint64) Input {
	in := synthetic(40, 160, 1200, seed)
	for _, f := range slices.Clone(in.Files) {
		in.Files = append(in.Files, File{Path: "twin/" + f.Path, Defs: f.Defs, Refs: f.Refs, RefCounts: f.RefCounts})
	}
	for i := range 5 {
		f := File{Path: fmt.Sprintf("lone/l%d.go", i)}
		for j := range 6 {
			f.Defs = append(f.Defs, fmt.Sprintf("unused%d", j))
		}
		in.Files = append(in.Files, f, File{Path: fmt.Sprintf("lone/empty%d.txt", i)})
	}
	in.Focus = []string{in.Files[3].Path}
	in.Tier = map[string]int{}
	in.Scale = map[string]float64{}
	for i, f := range in.Files {
		switch i % 7 {
		case 1:
			in.Tier[f.Path] = 1
		case 2:
			in.Scale[f.Path] = 0.5
		}
	}
	return in
}

// TestRankingLazy checks that the entries a Ranking makes as they are
// asked for, in any order, are those of the whole list sorted at once,
// ties included, and that the whole list is in the documented order:
// tier, score descending, path, name.
func TestRankingLazy(t *testing.T) {
	for seed := range uint64(4) {
		in := tiedInput(seed)
		x := NewIndex(in.Files)
		full := x.Rank(in).Entries
		r := x.Ranking(in)
		defs := full[:r.Len()]
		if slices.ContainsFunc(defs, func(e Entry) bool { return e.Name == "" }) || len(full) > len(defs) && full[len(defs)].Name != "" {
			t.Fatalf("seed %d: Len() = %d does not end the definition entries", seed, r.Len())
		}
		if got := r.Tail(); !slices.Equal(got, full[len(defs):]) {
			t.Errorf("seed %d: Tail() = %v, want %v", seed, got, full[len(defs):])
		}
		ties := 0
		for i := 1; i < len(defs); i++ {
			a, b := defs[i-1], defs[i]
			ta, tb := max(in.Tier[a.Path], 0), max(in.Tier[b.Path], 0)
			if c := cmp.Or(cmp.Compare(ta, tb), cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path), strings.Compare(a.Name, b.Name)); c >= 0 {
				t.Fatalf("seed %d: entries %d and %d out of order: %v, %v", seed, i-1, i, a, b)
			}
			if a.Score == b.Score {
				ties++
			}
		}
		if ties < len(defs)/4 {
			t.Fatalf("seed %d: %d ties of %d entries; the test needs many", seed, ties, len(defs))
		}

		// One at a time (off the heap), then a jump (the rest sorted).
		r = x.Ranking(in)
		for i := range len(defs) / 3 {
			if got := r.At(i); got != defs[i] {
				t.Fatalf("seed %d: At(%d) one at a time = %v, want %v", seed, i, got, defs[i])
			}
		}
		if got := r.At(len(defs) - 1); got != defs[len(defs)-1] {
			t.Fatalf("seed %d: At(last) = %v, want %v", seed, got, defs[len(defs)-1])
		}
		// In a random order.
		r = x.Ranking(in)
		rng := rand.New(rand.NewPCG(seed, 7))
		for range 200 {
			i := rng.IntN(len(defs))
			if got := r.At(i); got != defs[i] {
				t.Fatalf("seed %d: At(%d) in random order = %v, want %v", seed, i, got, defs[i])
			}
		}
		if got := r.Result().Entries; !slices.Equal(got, full) {
			t.Errorf("seed %d: Result() after reading some differs from Rank", seed)
		}

		// Per file: Of, Hide; Compare agrees with the places.
		r = x.Ranking(in)
		place := make(map[Entry]int)
		for i, e := range defs {
			place[e] = i
		}
		byFile := make(map[string][]Entry)
		for _, e := range defs {
			byFile[e.Path] = append(byFile[e.Path], e)
		}
		for _, f := range in.Files {
			want := byFile[f.Path]
			if got := r.Of(f.Path); !slices.Equal(got, want) {
				t.Errorf("seed %d: Of(%s) = %v, want %v", seed, f.Path, got, want)
			}
			// Names of half the file's definitions, twice, and others.
			names := []string{"nowhere"}
			for _, d := range f.Defs[:len(f.Defs)/2] {
				names = append(names, Ident(d), Ident(d))
			}
			wantOf := 0
			for _, e := range want {
				if slices.Contains(names, e.Name) {
					wantOf++
				}
			}
			h := r.Hide(map[string][]string{f.Path: names, "nowhere": {"x"}})
			if whole := slices.Contains(h.Whole(), f.Path); h.Defs() != wantOf || whole != (wantOf > 0 && wantOf == len(want)) {
				t.Errorf("seed %d: Hide(%s: %v) has %d entries, the file's all: %t; want %d of %d", seed, f.Path, names, h.Defs(), whole, wantOf, len(want))
			}
		}
		for range 500 {
			a, b := defs[rng.IntN(len(defs))], defs[rng.IntN(len(defs))]
			if got, want := r.Compare(a, b), cmp.Compare(place[a], place[b]); got != want {
				t.Errorf("seed %d: Compare(%v, %v) = %d, want %d", seed, a, b, got, want)
			}
		}

		// Leaders: the order in which files first appear once the
		// entries skip drops are left out.
		skip := make(map[string][]string)
		for i, e := range defs {
			if i%3 == 0 || strings.HasPrefix(e.Path, "lone/l1") {
				skip[e.Path] = append(skip[e.Path], e.Name, "nowhere")
			}
		}
		var want []string
		for _, e := range defs {
			if !slices.Contains(skip[e.Path], e.Name) && !slices.Contains(want, e.Path) {
				want = append(want, e.Path)
			}
		}
		if got := r.Leaders(r.Hide(skip)); !slices.Equal(got, want) {
			t.Errorf("seed %d: Leaders = %v, want %v", seed, got, want)
		}
		// Hide of many files at once: its count, and its whole files in
		// path order.
		hidden, shown := 0, make(map[string]bool)
		for _, e := range defs {
			if slices.Contains(skip[e.Path], e.Name) {
				hidden++
			} else {
				shown[e.Path] = true
			}
		}
		var whole []string
		for p := range skip {
			if len(byFile[p]) > 0 && !shown[p] {
				whole = append(whole, p)
			}
		}
		slices.Sort(whole)
		if h := r.Hide(skip); h.Defs() != hidden || !slices.Equal(h.Whole(), whole) {
			t.Errorf("seed %d: Hide of %d files has %d entries and whole files %v; want %d and %v", seed, len(skip), h.Defs(), h.Whole(), hidden, whole)
		}
	}
}

// TestConverged checks that a ranking given where an earlier one of the
// same query ended its iteration gives the same result without
// iterating, and that ranks of other nodes are not used.
func TestConverged(t *testing.T) {
	in := tiedInput(3)
	in.Reverse = 0.5
	x := NewIndex(in.Files)
	want := x.Rank(in)
	in.Converged = &Converged{Files: want.Files, Iterations: want.Iterations}
	got := x.Rank(in)
	if !slices.Equal(got.Entries, want.Entries) || got.Iterations != want.Iterations || !maps.Equal(got.Files, want.Files) {
		t.Errorf("Rank with Converged differs from Rank without")
	}
	// Ranks off by a little: used as they are, so the scores move.
	off := maps.Clone(want.Files)
	for p := range off {
		off[p] *= 1.001
	}
	in.Converged = &Converged{Files: off, Iterations: 1}
	if got := x.Rank(in); maps.Equal(got.Files, want.Files) || !maps.Equal(got.Files, off) {
		t.Errorf("Rank did not use the ranks of Converged")
	}
	// Ranks of other nodes: the iteration runs.
	delete(off, in.Files[0].Path)
	off["elsewhere.go"] = 0.5
	in.Converged = &Converged{Files: off, Iterations: 1}
	if got := x.Rank(in); !slices.Equal(got.Entries, want.Entries) || !maps.Equal(got.Files, want.Files) {
		t.Errorf("Rank used the ranks of other nodes")
	}
}

// TestCompareIdent checks compareIdent against comparing Ident's result.
func TestCompareIdent(t *testing.T) {
	parts := []string{"", "a", "ab", "b", "a\x00", "a\x00s", "ab\x00s", "\x00s", "aa", "a\x00a"}
	for _, key := range parts {
		for _, ident := range []string{"", "a", "ab", "aa", "b", "abc"} {
			if got, want := compareIdent(key, ident), strings.Compare(Ident(key), ident); got != want {
				t.Errorf("compareIdent(%q, %q) = %d, want %d", key, ident, got, want)
			}
		}
	}
}
