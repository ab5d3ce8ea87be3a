package rank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sameFullIndex compares indexes field by field, with what only Update
// reads.
var sameFullIndex = []cmp.Option{cmp.AllowUnexported(Index{}, outsideRefs{}, lists{}), cmpopts.IgnoreFields(Index{}, "kw"), cmpopts.EquateEmpty()}

// randomFile returns a file at p with a few of keys defined and
// referenced, some keys outside, some references counted.
func randomFile(rng *rand.Rand, p string, keys []string) File {
	f := File{Path: p}
	for range rng.IntN(5) {
		f.Defs = append(f.Defs, keys[rng.IntN(len(keys))])
	}
	if rng.IntN(10) == 0 {
		f.Defs = append(f.Defs, "")
	}
	counted := rng.IntN(2) == 0
	for range rng.IntN(8) {
		f.Refs = append(f.Refs, keys[rng.IntN(len(keys))])
		if counted {
			n := rng.IntN(4)
			if rng.IntN(20) == 0 {
				n = math.MaxInt32
			}
			f.RefCounts = append(f.RefCounts, n)
		}
	}
	if rng.IntN(10) == 0 {
		f.Refs = append(f.Refs, "")
		if counted {
			f.RefCounts = append(f.RefCounts, 2)
		}
	}
	if counted && rng.IntN(10) == 0 {
		f.RefCounts = f.RefCounts[:len(f.RefCounts)/2] // not one per reference: ignored
	}
	return f
}

// TestIndexUpdate changes random files of random indexes, replacing,
// adding and removing a few at a time, and checks that Update gives the
// index NewIndex makes of the changed files, and the same ranking.
func TestIndexUpdate(t *testing.T) {
	sameKeys := 0 // updates that kept the keys
	recounts := 0 // updates that kept the lists but for counts
	defer func() {
		if sameKeys < 100 {
			t.Errorf("%d updates kept the keys, want at least 100", sameKeys)
		}
		if recounts < 100 {
			t.Errorf("%d updates kept the lists but for counts, want at least 100", recounts)
		}
	}()
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		keys := make([]string, 3+rng.IntN(30))
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d", rng.IntN(40))
			if rng.IntN(3) == 0 {
				keys[i] = Key(keys[i], fmt.Sprintf("s%d", rng.IntN(3)))
			}
		}
		byPath := make(map[string]File)
		paths := func() []string {
			return slices.Sorted(func(yield func(string) bool) {
				for p := range byPath {
					if !yield(p) {
						return
					}
				}
			})
		}
		for range rng.IntN(12) {
			p := fmt.Sprintf("f%d", rng.IntN(20))
			byPath[p] = randomFile(rng, p, keys)
		}
		all := func() []File {
			var fs []File
			for _, p := range paths() {
				fs = append(fs, byPath[p])
			}
			return fs
		}
		x := NewIndex(all())
		x.keyWeights("w", func(key string) float64 { return float64(len(key) % 3) }, nil)
		for step := range 6 {
			var changed []File
			var removed []string
			for range rng.IntN(4) {
				p := fmt.Sprintf("f%d", rng.IntN(20))
				// A path both removed and in the files is replaced.
				changed = slices.DeleteFunc(changed, func(f File) bool { return f.Path == p })
				removed = slices.DeleteFunc(removed, func(q string) bool { return q == p })
				if rng.IntN(4) == 0 {
					removed = append(removed, p)
					delete(byPath, p)
					continue
				}
				f := randomFile(rng, p, keys)
				if rng.IntN(5) == 0 {
					// Two files of one path are one file: byPath holds
					// the one.
					g := randomFile(rng, p, keys)
					changed = append(changed, g)
					changed = append(changed, f)
					byPath[p] = merged(f, g)
					continue
				}
				changed = append(changed, f)
				byPath[p] = f
			}
			if step%2 == 1 && len(byPath) > 0 {
				// An edit of a file's references that keeps the keys: a
				// count up, or its references in another order.
				ps := paths()
				f := byPath[ps[rng.IntN(len(ps))]]
				f.Refs = slices.Clone(f.Refs)
				f.RefCounts = nil
				rng.Shuffle(len(f.Refs), func(i, j int) { f.Refs[i], f.Refs[j] = f.Refs[j], f.Refs[i] })
				if len(f.Refs) > 0 {
					f.Refs = append(f.Refs, f.Refs[0])
				}
				changed = slices.DeleteFunc(changed, func(g File) bool { return g.Path == f.Path })
				removed = slices.DeleteFunc(removed, func(q string) bool { return q == f.Path })
				changed = append(changed, f)
				byPath[f.Path] = f
			}
			if y := x.updateSameKeys(internFiles(changed), removed); y != nil {
				sameKeys++
				if diff := cmp.Diff(NewIndex(all()), y, sameFullIndex...); diff != "" {
					t.Fatalf("seed %d step %d: updateSameKeys(%+v) differs from NewIndex (-want +got):\n%s", seed, step, changed, diff)
				}
			}
			y, ok := x.Update(changed, removed)
			if !ok {
				t.Fatalf("seed %d step %d: Update refused an index NewIndex made", seed, step)
			}
			if len(x.refIdent) > 0 && len(y.refIdent) > 0 && &x.refIdent[0] == &y.refIdent[0] {
				recounts++ // y shares x's references
			}
			want := NewIndex(all())
			if diff := cmp.Diff(want, y, sameFullIndex...); diff != "" {
				t.Fatalf("seed %d step %d: Update(%+v, %q) differs from NewIndex (-want +got):\n%s", seed, step, changed, removed, diff)
			}
			in := Input{Reverse: 0.5}
			if ps := paths(); len(ps) > 0 {
				in.Focus = ps[:1]
			}
			if got, want := y.Rank(in), want.Rank(in); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: ranking differs", seed, step)
			}
			// The key weights x kept go to y: KeyWeight weighs y's new
			// keys alone, for the ranking a new index gives.
			var called []string
			in.KeyWeight = func(key string) float64 {
				called = append(called, key)
				return float64(len(key) % 3)
			}
			in.KeyWeightName = "w"
			got := y.Rank(in)
			for _, key := range called {
				if _, had := slices.BinarySearch(x.names, key); had {
					t.Fatalf("seed %d step %d: KeyWeight(%q) called again after Update", seed, step, key)
				}
			}
			in.KeyWeightName = ""
			if want := want.Rank(in); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: ranking with kept key weights differs", seed, step)
			}
			x = y
		}
	}
}

// merged returns one file with the definitions and references of a and
// b, both at its path.
func merged(a, b File) File {
	m := File{Path: a.Path, Defs: slices.Concat(a.Defs, b.Defs), Refs: slices.Concat(a.Refs, b.Refs)}
	for _, f := range []File{a, b} {
		for j := range f.Refs {
			m.RefCounts = append(m.RefCounts, int(refCountOf(&f, j)))
		}
	}
	return m
}

// TestIndexUpdateEdges checks Update on an index without references
// (whose files then reference their own definitions), on one whose
// files all go, and on one read from its binary form, which it refuses.
func TestIndexUpdateEdges(t *testing.T) {
	a := File{Path: "a", Defs: []string{"A", Key("B", "s")}}
	b := File{Path: "b", Defs: []string{"B"}}
	c := File{Path: "c", Defs: []string{"C"}, Refs: []string{"A", "Z"}}
	for _, tc := range []struct {
		name    string
		before  []File
		files   []File
		removed []string
		after   []File
	}{
		{"references come", []File{a, b}, []File{c}, nil, []File{a, b, c}},
		{"references go", []File{a, b, c}, nil, []string{"c"}, []File{a, b}},
		{"all go", []File{a, b, c}, nil, []string{"a", "b", "c", "d"}, nil},
		{"from none", nil, []File{b, c}, nil, []File{b, c}},
		{"outside key defined", []File{c}, []File{{Path: "z", Defs: []string{"Z"}}}, nil, []File{c, {Path: "z", Defs: []string{"Z"}}}},
		{"definer of a referenced key goes", []File{a, c}, nil, []string{"a"}, []File{c}},
	} {
		x := NewIndex(tc.before)
		y, ok := x.Update(tc.files, tc.removed)
		if !ok {
			t.Fatalf("%s: Update refused", tc.name)
		}
		if diff := cmp.Diff(NewIndex(tc.after), y, sameFullIndex...); diff != "" {
			t.Errorf("%s: Update differs from NewIndex (-want +got):\n%s", tc.name, diff)
		}
	}
	data, err := NewIndex([]File{a, c}).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var y Index
	if err := y.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if z, ok := y.Update([]File{b}, nil); ok || z != nil {
		t.Errorf("Update of an index read from its binary form = %v, %v; want nil, false", z, ok)
	}
}

// TestDefinersOf checks that the definers of an identifier are those of
// its keys in every scope, and no other.
func TestDefinersOf(t *testing.T) {
	x := NewIndex([]File{
		{Path: "d", Defs: []string{Key("Run", "s1")}},
		{Path: "a", Defs: []string{"Run"}},
		{Path: "b", Defs: []string{"Runner", Key("Run", "s2")}},
		{Path: "c", Defs: []string{"Ru", "Runs"}},
		{Path: "e", Refs: []string{"Run"}},
	})
	for ident, want := range map[string][]string{"Run": {"a", "b", "d"}, "Ru": {"c"}, "Runner": {"b"}, "R": nil, "Zz": nil} {
		if got := x.DefinersOf(ident); !slices.Equal(got, want) {
			t.Errorf("DefinersOf(%q) = %q, want %q", ident, got, want)
		}
	}
}
