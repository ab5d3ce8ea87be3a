// Package fit chooses how much of a ranked list fits a token budget. It
// is pure: the cost of each prefix comes in as a function.
package fit

import "context"

// Row is one row of a file that an item shows.
type Row struct {
	Line int    // 0-based
	Kind string // the kind of definition on it ("function", "type"…) or of use
	Name string // the name defined or used on it
}

// Item is one entry of a ranked list: a definition, with the rows of all
// its definition tags in its file, or a file by itself (no rows).
type Item struct {
	Path  string
	Name  string // "" for a file by itself
	Rows  []Row  // sorted by line
	Score float64
}

// Prefix returns the length of the longest prefix of a list of n items
// whose cost is at most budget. cost(k) is the cost of the first k items;
// it must not fall as k grows, and cost(0) is taken to fit. first is a
// guess of how many items fit: Prefix gallops from it, doubling, until a
// prefix is too costly, then bisects, so that it asks for about 2·log₂ of
// the answer costs. An error from cost, or ctx being done, ends the
// search with that error.
func Prefix(ctx context.Context, n, budget, first int, cost func(k int) (int, error)) (int, error) {
	tooMuch := func(k int) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		c, err := cost(k)
		return c > budget, err
	}
	// Invariant: the prefix of length lo fits; the one of length hi does
	// not (hi = n+1 stands for "nothing longer exists").
	lo, hi := 0, n+1
	k := min(max(first, 1), n)
	for k > lo && k < hi {
		over, err := tooMuch(k)
		if err != nil {
			return 0, err
		}
		if over {
			hi = k
			break
		}
		lo = k
		if k == n {
			break
		}
		k = min(2*k, n)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		over, err := tooMuch(mid)
		if err != nil {
			return 0, err
		}
		if over {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, nil
}
