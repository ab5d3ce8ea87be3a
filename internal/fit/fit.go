// Package fit chooses how much of a ranked list fits a token budget. It
// is pure: the cost of each prefix comes in as a function.
package fit

import (
	"context"
	"math"
)

// Row is one row of a file that an item shows.
type Row struct {
	Line int    // 0-based
	Kind string // the kind of definition on it ("function", "type"…) or of use
	Name string // the name defined or used on it
	Qual string // what qualifies the definition (a method's class or receiver), as its tags say; "" for none
}

// LineOfInterest is the Kind of a row that shows a line of a
// definition's body that holds the request's words, not a definition.
const LineOfInterest = "line"

// Item is one entry of a ranked list: a definition, with the rows of all
// its definition tags in its file, or a file by itself (no rows).
type Item struct {
	Path  string
	Name  string // "" for a file by itself
	Rows  []Row  // sorted by line
	Score float64
	// Lines are the lines of interest of a definition, 0-based: its Rows
	// hold them too, as rows of Kind LineOfInterest.
	Lines []int
}

// Prefix returns the length of the longest prefix of a list of n items
// whose cost is at most budget. cost(k) is the cost of the first k items;
// it must not fall as k grows, and cost(0) is taken to fit. first is a
// guess of how many items fit. From it Prefix gallops until a prefix is
// too costly, then bisects. Each step of the gallop goes as far as the
// rest of the budget reaches at the mean cost of the items so far, and an
// eighth further, but at least twice the last step and at most doubling
// the prefix: a prefix much longer than the answer is seldom asked for
// (the cost of a long prefix can be dear, as each item's file is read and
// outlined), and the costs asked for stay about 2·log₂ of the answer's.
// An error from cost, or ctx being done, ends the search with that error.
func Prefix(ctx context.Context, n, budget, first int, cost func(k int) (int, error)) (int, error) {
	costOf := func(k int) (int, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		return cost(k)
	}
	// Invariant: the prefix of length lo fits; the one of length hi does
	// not (hi = n+1 stands for "nothing longer exists").
	lo, hi := 0, n+1
	k := min(max(first, 1), n)
	for least := 1; k > lo && k < hi; least *= 2 {
		c, err := costOf(k)
		if err != nil {
			return 0, err
		}
		if c > budget {
			hi = k
			break
		}
		lo = k
		if k == n {
			break
		}
		k = min(k+reach(k, c, budget, least), n)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		c, err := costOf(mid)
		if err != nil {
			return 0, err
		}
		if c > budget {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, nil
}

// reach returns how many items to add to a prefix of k items that costs
// c, at most budget: what the rest of the budget buys at their mean cost,
// and an eighth more, but no fewer than least and no more than k.
func reach(k, c, budget, least int) int {
	step := k // nothing so far had a cost: double
	if c > 0 {
		est := math.Ceil(float64(k) * float64(budget-c) / float64(c) * 9 / 8)
		step = int(min(est, float64(k)))
	}
	return min(max(step, least), k)
}
