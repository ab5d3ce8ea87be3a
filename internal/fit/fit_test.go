package fit

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestPrefix(t *testing.T) {
	// Item i costs costs[i]; a prefix costs their sum.
	costs := []int{5, 1, 7, 0, 3, 9, 2, 2, 4}
	sum := func(k int) int {
		n := 0
		for _, c := range costs[:k] {
			n += c
		}
		return n
	}
	for budget := -1; budget <= sum(len(costs))+1; budget++ {
		// The answer by looking at every prefix.
		want := 0
		for k := range len(costs) + 1 {
			if sum(k) <= budget {
				want = k
			}
		}
		if budget < 0 {
			want = 0
		}
		for _, first := range []int{0, 1, 3, 8, 9, 100} {
			calls := 0
			got, err := Prefix(context.Background(), len(costs), budget, first, func(k int) (int, error) {
				calls++
				return sum(k), nil
			})
			if err != nil || got != want {
				t.Errorf("Prefix(n=%d, budget=%d, first=%d) = %d, %v; want %d", len(costs), budget, first, got, err, want)
			}
			if calls > 2*len(costs) {
				t.Errorf("Prefix(budget=%d, first=%d) asked for %d costs", budget, first, calls)
			}
		}
	}
	if got, err := Prefix(context.Background(), 0, 10, 5, func(int) (int, error) {
		t.Fatal("cost of an empty list asked for")
		return 0, nil
	}); got != 0 || err != nil {
		t.Errorf("Prefix of no items = %d, %v; want 0", got, err)
	}
}

// prefixSums returns cost(k) for items of the given costs: their sum.
func prefixSums(costs []int) []int {
	sums := make([]int, len(costs)+1)
	for i, c := range costs {
		sums[i+1] = sums[i] + c
	}
	return sums
}

// TestPrefixShapes checks Prefix against every prefix on lists whose item
// costs are even, grow, shrink, or are mostly nothing, for many budgets and
// first guesses, and that it asks for few costs.
func TestPrefixShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// In a slice, not a map: the shapes draw from r in the same order
	// every run, so a failure comes back with the same costs.
	shapes := []struct {
		name string
		cost func(i int) int
	}{
		{"even", func(int) int { return 20 + r.IntN(10) }},
		{"growing", func(i int) int { return 1 + i/4 + r.IntN(3) }},
		{"falling", func(i int) int { return max(1, 300-i) }},
		{"sparse", func(int) int {
			if r.IntN(20) == 0 {
				return 50
			}
			return 0
		}},
	}
	for _, sh := range shapes {
		name, shape := sh.name, sh.cost
		for _, n := range []int{1, 2, 7, 100, 1000} {
			costs := make([]int, n)
			for i := range costs {
				costs[i] = shape(i)
			}
			sums := prefixSums(costs)
			for range 40 {
				budget := r.IntN(sums[n] + 2)
				want := 0
				for k, c := range sums {
					if c <= budget {
						want = k
					}
				}
				for _, first := range []int{0, 1, budget / 25, want, n} {
					calls := 0
					got, err := Prefix(context.Background(), n, budget, first, func(k int) (int, error) {
						calls++
						return sums[k], nil
					})
					if err != nil || got != want {
						t.Fatalf("%s, n=%d: Prefix(budget=%d, first=%d) = %d, %v; want %d", name, n, budget, first, got, err, want)
					}
					if limit := 2*bits.Len(uint(n)) + 2; calls > limit {
						t.Errorf("%s, n=%d: Prefix(budget=%d, first=%d) asked for %d costs, more than %d", name, n, budget, first, calls, limit)
					}
				}
			}
		}
	}
}

// TestPrefixReach checks that on items of about the same cost Prefix does
// not ask for a prefix much longer than the answer (doubling from the
// guess would ask for up to twice it): each asked for costs the reading
// and outlining of its items' files.
func TestPrefixReach(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	costs := make([]int, 5000)
	for i := range costs {
		costs[i] = 8 + r.IntN(20) // about 18 tokens: more items fit than the guess of 25 each
	}
	sums := prefixSums(costs)
	for _, budget := range []int{256, 1000, 1024, 2048, 4096, 5000, 8192, 16384, 40000} {
		first := budget / 25 // the map's guess: 25 tokens an item
		longest := 0
		got, err := Prefix(context.Background(), len(costs), budget, first, func(k int) (int, error) {
			longest = max(longest, k)
			return sums[k], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if limit := max(first, got+got/8+2); longest > limit {
			t.Errorf("budget %d: answer %d, but a prefix of %d asked for (at most %d wanted)", budget, got, longest, limit)
		}
	}
}

func TestPrefixStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Prefix(ctx, 10, 100, 2, func(k int) (int, error) { return k, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Prefix with a cancelled context: %v, want context.Canceled", err)
	}
	bad := errors.New("bad")
	if _, err := Prefix(context.Background(), 10, 100, 2, func(k int) (int, error) { return 0, bad }); !errors.Is(err, bad) {
		t.Errorf("Prefix with a failing cost: %v, want it", err)
	}
}
