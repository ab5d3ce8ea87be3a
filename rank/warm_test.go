package rank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// A warm start (Input.Start) must give the result of a cold start up to
// the tolerance. The power iteration stops once a step moves the iterate
// by less than N·tol in L1, and PageRank is a contraction by α, so the
// iterate is then within step·α/(1−α) < 6·N·tol of the fixed point, from
// any start: a cold and a warm result are within twice that of each other.

// fixedPointBound is how far from the fixed point, in L1, a result may
// be: α/(1−α) < 6 steps of at most N·tol.
func fixedPointBound(n int) float64 { return 6 * float64(n) * defaultTol }

// l1 returns the L1 distance between two rank maps, over both key sets.
func l1(a, b map[string]float64) float64 {
	var d float64
	for k, v := range a {
		d += math.Abs(v - b[k])
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			d += math.Abs(v)
		}
	}
	return d
}

// defScores returns the score of each definition entry of r.
func defScores(r *Result) map[string]float64 {
	out := make(map[string]float64)
	for _, e := range r.Entries {
		if e.Name != "" {
			out[e.Path+"\x00"+e.Name] = e.Score
		}
	}
	return out
}

// changeOne returns in with file i changed as an edit changes a file: a
// new definition, and its references replaced by others.
func changeOne(in Input, i int, seed uint64) Input {
	rng := rand.New(rand.NewPCG(seed, 99))
	files := make([]File, len(in.Files))
	copy(files, in.Files)
	f := files[i]
	f.Defs = append(append([]string(nil), f.Defs...), fmt.Sprintf("AddedDef%d", seed))
	f.Refs = nil
	for range 20 {
		g := files[rng.IntN(len(files))]
		if len(g.Defs) > 0 {
			f.Refs = append(f.Refs, g.Defs[rng.IntN(len(g.Defs))])
		}
	}
	files[i] = f
	in.Files = files
	return in
}

// fixedPoint returns the ranks of in's files from the explicit graph,
// iterated far past the default tolerance.
func fixedPoint(in Input) map[string]float64 {
	s := prepare(in)
	g, nodeFile := s.fileGraph()
	pers := make([]float64, len(nodeFile))
	for i, f := range nodeFile {
		pers[i] = s.personalization(f)
	}
	pr := PageRank(g, pers, &PageRankOptions{Tol: 1e-15, MaxIter: 100000})
	out := make(map[string]float64, len(pr))
	for i, f := range nodeFile {
		out[s.paths[f]] = pr[i]
	}
	return out
}

func TestWarmStartMatchesColdStart(t *testing.T) {
	for seed := range uint64(6) {
		in := synthetic(300, 2000, 15000, seed+20)
		if seed%3 == 0 {
			in.Focus, in.MentionedFiles, in.MentionedIdents = nil, nil, nil // uniform teleport
		}
		if seed%2 == 1 {
			in.Reverse = 0.5
		}
		before := Rank(in)
		after := changeOne(in, int(seed*37)%len(in.Files), seed)
		cold := Rank(after)
		warmIn := after
		warmIn.Start = before.Files
		warm := Rank(warmIn)
		t.Logf("seed %d: %d iterations cold, %d warm", seed, cold.Iterations, warm.Iterations)
		if warm.Iterations >= cold.Iterations {
			t.Errorf("seed %d: warm start took %d iterations, cold %d: want fewer", seed, warm.Iterations, cold.Iterations)
		}
		n := len(cold.Files)
		if d := l1(cold.Files, warm.Files); d > 2*fixedPointBound(n) {
			t.Errorf("seed %d: file ranks warm and cold are %g apart in L1, want <= %g", seed, d, 2*fixedPointBound(n))
		}
		// What flows to the definitions is what leaves the nodes: the
		// scores are as close as the ranks.
		if d := l1(defScores(cold), defScores(warm)); d > 2*fixedPointBound(n) {
			t.Errorf("seed %d: definition scores warm and cold are %g apart in L1, want <= %g", seed, d, 2*fixedPointBound(n))
		}
		if len(cold.Entries) != len(warm.Entries) || cold.Links != warm.Links {
			t.Errorf("seed %d: warm start gave %d entries and %d links, cold %d and %d", seed, len(warm.Entries), warm.Links, len(cold.Entries), cold.Links)
		}
		if in.Reverse > 0 {
			continue // the explicit graph has no reverse edges
		}
		// Both are near the fixed point, which the explicit graph gives.
		want := fixedPoint(after)
		for name, r := range map[string]*Result{"cold": cold, "warm": warm} {
			if d := l1(want, r.Files); d > fixedPointBound(n) {
				t.Errorf("seed %d: %s start is %g from the fixed point in L1, want <= %g", seed, name, d, fixedPointBound(n))
			}
		}
		if len(in.Focus) == 0 {
			// With a uniform teleport, gonum's PageRank of the explicit
			// graph is the oracle.
			s := prepare(after)
			g, nodeFile := s.fileGraph()
			pr := gonumPageRank(g.Len(), g.Edges(), 1e-12)
			oracle := make(map[string]float64)
			for i, f := range nodeFile {
				oracle[s.paths[f]] = pr[i]
			}
			if d := l1(oracle, warm.Files); d > fixedPointBound(n) {
				t.Errorf("seed %d: warm start is %g from gonum's PageRank in L1, want <= %g", seed, d, fixedPointBound(n))
			}
		}
	}
}

// TestWarmStartDeterministic: a warm start gives identical results for
// the same input and start, whatever the order of the files; from its own
// result, one iteration is enough.
func TestWarmStartDeterministic(t *testing.T) {
	in := synthetic(200, 1000, 8000, 3)
	in.Reverse = 0.5
	before := Rank(in)
	after := changeOne(in, 17, 3)
	after.Start = before.Files
	want := Rank(after)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3 {
		sh := shuffled(rng, after)
		sh.Reverse, sh.Start = after.Reverse, after.Start
		if diff := gocmp.Diff(want, Rank(sh)); diff != "" {
			t.Fatalf("warm Rank differs between runs or file orders (-first +again):\n%.2000s", diff)
		}
	}
	in.Start = before.Files
	if again := Rank(in); again.Iterations != 1 {
		t.Errorf("Rank started from its own result ran %d iterations, want 1", again.Iterations)
	}
}

// TestWarmStartBadStart: entries that cannot be ranks, unknown paths, an
// empty start and one whose sum overflows are all harmless.
func TestWarmStartBadStart(t *testing.T) {
	in := synthetic(100, 400, 3000, 8)
	cold := Rank(in)
	n := len(cold.Files)
	var some []string
	for p := range cold.Files {
		some = append(some, p)
	}
	for name, start := range map[string]map[string]float64{
		"empty":    {},
		"unknown":  {"no/such/file.go": 1},
		"bad":      {some[0]: math.NaN(), some[1]: -1, some[2]: 0, some[3]: math.Inf(1)},
		"overflow": {some[0]: math.MaxFloat64, some[1]: math.MaxFloat64},
		"skewed":   {some[0]: 1e6},
	} {
		in.Start = start
		got := Rank(in)
		if d := l1(cold.Files, got.Files); d > 2*fixedPointBound(n) {
			t.Errorf("Rank with a %s start is %g from the cold start in L1, want <= %g", name, d, 2*fixedPointBound(n))
		}
	}
}

// BenchmarkRankWarm measures Rank after one file changed, started cold
// and from the ranks before the change.
func BenchmarkRankWarm(b *testing.B) {
	in := synthetic(5000, 50000, 1000000, 1)
	in.Reverse = 0.5
	before := Rank(in)
	after := changeOne(in, 100, 1)
	for _, tc := range []struct {
		name  string
		start map[string]float64
	}{{"cold", nil}, {"warm", before.Files}} {
		b.Run(tc.name, func(b *testing.B) {
			after.Start = tc.start
			var r *Result
			for b.Loop() {
				r = Rank(after)
			}
			b.ReportMetric(float64(r.Iterations), "iterations")
		})
	}
}
