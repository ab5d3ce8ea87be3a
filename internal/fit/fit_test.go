package fit

import (
	"context"
	"errors"
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
