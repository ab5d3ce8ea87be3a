package items

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
)

// eagerItems is the rank stage's list of items made over the whole
// sorted ranking at once, as the map made it before the list was made
// as it is read: the oracle of TestItemListLazy.
func eagerItems(res *rank.Result, hidden map[string][]string, mixed []policy.Lead, every, spread int, tier map[string]int) []fit.Item {
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

// interleave moves up, in the definitions of items, the definition of
// each of leads (the most relevant first: a named one, or a file's best)
// to at least the every-th place after the one before, so that the map
// shows the definitions most relevant to the request's words beside
// those the graph ranks first. A moved item takes the score of the one
// it goes before.
func interleave(items []fit.Item, leads []policy.Lead, every int) {
	end := slices.IndexFunc(items, func(it fit.Item) bool { return it.Name == "" })
	if end < 0 {
		end = len(items)
	}
	defs := items[:end]
	moved := make([]bool, len(defs))
	var lifted []int // the items to move, by relevance
	for _, d := range leads {
		if i := slices.IndexFunc(defs, func(it fit.Item) bool {
			return it.Path == d.Path && (d.Name == "" || it.Name == d.Name)
		}); i >= 0 {
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
		// Definitions to move up: the best of some of the best ranked
		// files, which the list reaches before their turn, and some by
		// name: low in the list, hidden, or none of their file's.
		mid, low := res.Entries[len(res.Entries)/3], res.Entries[len(res.Entries)/2]
		for _, mixed := range [][]policy.Lead{nil, fileLeads([]string{"twin/p2/f6.go", "p0/f4.go", "p1/f1.go", "nowhere.go", "p0/f4.go", "twin/p0/f0.go", "p3/f27.go"}),
			fileLeads([]string{last, res.Entries[5].Path, "twin/p3/f29.go", res.Entries[0].Path, res.Entries[1].Path, "p2/f10.go"}),
			{{Path: low.Path, Name: low.Name}, {Path: "p0/f4.go", Name: "pkg0"}, {Path: res.Entries[1].Path}, {Path: mid.Path, Name: mid.Name}, {Path: "p2/f10.go", Name: "nothing"}, {Path: low.Path, Name: low.Name}}} {
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
					newRanked := func() *List {
						l := newItemList(x.Ranking(in), hidden, mixed, every, spreading{names: sp.keep}, in.Tier)
						return &List{n: l.len(), maker: l}
					}
					r := newRanked()
					if r.Len() != len(want) {
						t.Fatalf("%s: %d items, want %d", name, r.Len(), len(want))
					}
					// Files before any item is made, then items a few at a
					// time, then all.
					if got := r.Files(); !slices.Equal(got, wantFiles) {
						t.Errorf("%s: files() = %v, want %v", name, got, wantFiles)
					}
					for k := range min(len(want), 40) {
						r.Make(k)
						if len(r.items) < k || !sameItems(r.items[:k], want[:k]) {
							t.Fatalf("%s: the first %d items =\n%v, want\n%v", name, k, r.items, want[:k])
						}
					}
					if got := r.All(); !sameItems(got, want) {
						t.Errorf("%s: all() =\n%v, want\n%v", name, got, want)
					}
					r = newRanked()
					r.Make(len(want) / 2)
					if got := r.Files(); !slices.Equal(got, wantFiles) {
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

// TestInterleave: the k-th definition to move up (a file's best, or one
// by name) moves up to place k·every, unless it is there already; the
// others keep their order, and files by name alone stay at the end.
func TestInterleave(t *testing.T) {
	var items []fit.Item
	for i, p := range []string{"a", "a", "b", "c", "c", "d", "e", "f", "g"} {
		items = append(items, fit.Item{Path: p, Name: fmt.Sprint("n", i), Score: float64(100 - i)})
	}
	items = append(items, fit.Item{Path: "h", Score: 1})
	interleave(items, []policy.Lead{{Path: "g"}, {Path: "b"}, {Path: "c", Name: "n4"}, {Path: "x"}}, 2)
	var got []string
	for _, it := range items {
		got = append(got, it.Path+":"+it.Name)
	}
	want := []string{"g:n8", "a:n0", "b:n2", "a:n1", "c:n4", "c:n3", "d:n5", "e:n6", "f:n7", "h:"}
	if !slices.Equal(got, want) {
		t.Errorf("interleave = %q, want %q", got, want)
	}
	for i := 1; i < len(items)-1; i++ {
		if items[i].Score > items[i-1].Score {
			t.Errorf("score rises at %d: %v after %v", i, items[i].Score, items[i-1].Score)
		}
	}
}

// TestBuildVariants checks that the items of the head of a ranked list
// that are another build's copy of an item before them are found: the
// same name with qualifiers the one before has too, in another file of
// code of the same Go package.
func TestBuildVariants(t *testing.T) {
	root := indextest.Tree(t, map[string]string{
		"os/file_unix.go":    "//go:build unix\n\npackage os\n\ntype File struct{}\n\nfunc (f *File) Close() error { return nil }\n\ntype Errno uintptr\n",
		"os/file_windows.go": "//go:build windows\n\npackage os\n\nfunc (f *File) Close() error { return nil }\n\ntype Errno uintptr\n\nfunc (e Errno) Close() {}\n",
		"os/root.go":         "package os\n\ntype Root struct{}\n\nfunc (r *Root) Close() error { return nil }\n",
		"os/file_test.go":    "package os\n\ntype Errno uintptr\n",
		"io/io.go":           "package io\n\ntype Errno uintptr\n",
	})
	s := indextest.Snapshot(t, os.DirFS(root))
	head := []fit.Item{
		{Path: "os/file_windows.go", Name: "Close"}, // File's and Errno's
		{Path: "os/root.go", Name: "Close"},         // another type's
		{Path: "os/file_unix.go", Name: "Close"},    // File's: a copy
		{Path: "os/file_unix.go", Name: "Errno"},
		{Path: "io/io.go", Name: "Errno"},           // another package's
		{Path: "os/file_test.go", Name: "Errno"},    // a test's
		{Path: "os/file_windows.go", Name: "Errno"}, // a copy
		{Path: "os/file_unix.go", Name: "File"},
	}
	want := []bool{false, false, true, false, false, false, true, false}
	if got := buildVariants(context.Background(), s, head); !slices.Equal(got, want) {
		t.Errorf("buildVariants = %v, want %v", got, want)
	}
	if got := buildVariants(context.Background(), s, head[:2]); got != nil {
		t.Errorf("buildVariants without copies = %v, want nil", got)
	}
	// In the spread order, the copies go after every other definition of
	// their tier, in their order.
	for i := range head {
		head[i].Score = float64(len(head) - i)
	}
	spreadNames(head, nil, spreading{variants: func(h []fit.Item) []bool { return buildVariants(context.Background(), s, h) }})
	var order []string
	for _, it := range head {
		order = append(order, it.Path+" "+it.Name)
	}
	wantOrder := []string{"os/file_windows.go Close", "os/root.go Close", "os/file_unix.go Errno", "io/io.go Errno", "os/file_test.go Errno", "os/file_unix.go File", "os/file_unix.go Close", "os/file_windows.go Errno"}
	if !slices.Equal(order, wantOrder) {
		t.Errorf("spread order %q, want %q", order, wantOrder)
	}
}

// TestSpreadDocs checks ranking change docitems=N: past a document's
// first N definitions in the list, the others go after every other
// definition of their tier, whatever their scores; code keeps its order,
// a document of a lower tier stays below, and names spread as before.
func TestSpreadDocs(t *testing.T) {
	items := []fit.Item{
		{Path: "docs/proxies.md", Name: "#Proxies", Score: 10},
		{Path: "docs/proxies.md", Name: "#SOCKS", Score: 9},
		{Path: "a.py", Name: "Proxy", Score: 8},
		{Path: "docs/proxies.md", Name: "#Auth", Score: 7},
		{Path: "b.py", Name: "connect", Score: 6},
		{Path: "b.py", Name: "Proxy", Score: 5},
		{Path: "CHANGELOG.md", Name: "#0.1", Score: 4},
		{Path: "c.py", Name: "close", Score: 1},
		{Path: "c.py", Score: 1},
	}
	spreadNames(items, map[string]int{"CHANGELOG.md": 2}, spreading{names: 1, docs: 1})
	var got []string
	for _, it := range items {
		got = append(got, it.Path+" "+it.Name)
	}
	// b.py's Proxy counts as 2.5 and stays above c.py's close; the page's
	// second and third headings follow c.py's close, the last of tier 0.
	want := []string{"docs/proxies.md #Proxies", "a.py Proxy", "b.py connect", "b.py Proxy", "c.py close",
		"docs/proxies.md #SOCKS", "docs/proxies.md #Auth", "CHANGELOG.md #0.1", "c.py "}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestItemRows checks that rows=N shows at most the first N definitions
// of a name in a file, where a name defined many times in one file
// would otherwise take a large part of the budget as one item.
func TestItemRows(t *testing.T) {
	var src strings.Builder
	src.WriteString("package p\n")
	for i := range 6 {
		fmt.Fprintf(&src, "\ntype T%d int\n\nfunc (T%d) String() string { return \"\" }\n", i, i)
	}
	s := indextest.Snapshot(t, fstest.MapFS{"p.go": {Data: []byte(src.String())}})
	lines := func(max int) []int {
		x := &rowIndex{snap: s, files: make(map[string][]shownDef), max: max}
		var out []int
		for _, r := range x.rows(context.Background(), "p.go", "String") {
			out = append(out, r.Line)
		}
		return out
	}
	all := lines(0)
	if len(all) != 6 {
		t.Fatalf("rows of String: %v, want the 6 methods", all)
	}
	if got := lines(2); !slices.Equal(got, all[:2]) {
		t.Errorf("rows of String with max 2: %v, want the first two, %v", got, all[:2])
	}
}

// TestSpreadNames checks ranking change spread=N: past a name's first N
// definitions in the list, each next one of the name goes down as if
// its score halved for each one before it past N, tiers staying in
// order, and the file-only entries after the definitions stay put.
func TestSpreadNames(t *testing.T) {
	items := []fit.Item{
		{Path: "a.go", Name: "Render", Score: 10},
		{Path: "b.go", Name: "Render", Score: 9},
		{Path: "c.go", Name: "Render", Score: 8},
		{Path: "d.go", Name: "New", Score: 5},
		{Path: "e.go", Name: "Parse", Score: 3},
		{Path: "docs/x.md", Name: "Render", Score: 9},
		{Path: "f.go", Score: 1},
	}
	spreadNames(items, map[string]int{"docs/x.md": 2}, spreading{names: 1})
	var got []string
	for _, it := range items {
		got = append(got, it.Path)
	}
	// Render's scores count as 10, 4.5 and 2; the page is in tier 2.
	want := []string{"a.go", "d.go", "b.go", "e.go", "c.go", "docs/x.md", "f.go"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// fileLeads returns the leads of the best definitions of the files ps.
func fileLeads(ps []string) []policy.Lead {
	out := make([]policy.Lead, len(ps))
	for i, p := range ps {
		out[i] = policy.Lead{Path: p}
	}
	return out
}
