package tags

import (
	"runtime"
	"time"
)

// budget is the time a parse and the query on its tree may take
// (ParserOptions.Timeout): time of the processor, spent by the thread
// that does them, where the system tells it (threadCPU), and time of the
// clock elsewhere. A busy machine gives a parse less of the processor in
// the same time of the clock: timed by the clock, a file that parses in
// 0.9 s on an idle machine ran out of 5 s on one shared with two busy
// loops, and the file was left out of later maps, on an idle machine
// too, until it changed. Timed by the processor, it parses on both.
//
// Tree-sitter stops a parse and a query at a time of the clock: the
// budget gives each step what is left of it, stretched by how much
// longer than the thread's processor time the work took so far on the
// clock (wall); a parse cut short so is resumed, with what is left.
type budget struct {
	limit time.Duration
	wall0 time.Time
	cpu0  time.Duration
	cpu   bool // the thread's processor time is measured
}

// newBudget returns the budget of limit, from now on, for work done on
// the calling goroutine, which it keeps to its thread until release; nil
// for no limit.
func newBudget(limit time.Duration) *budget {
	if limit <= 0 {
		return nil
	}
	runtime.LockOSThread()
	b := &budget{limit: limit, wall0: time.Now()}
	b.cpu0, b.cpu = threadCPU()
	return b
}

// release ends the budget's hold of the thread. It is safe on nil.
func (b *budget) release() {
	if b != nil {
		runtime.UnlockOSThread()
	}
}

// used returns the time spent of the budget.
func (b *budget) used() time.Duration {
	if b.cpu {
		if now, ok := threadCPU(); ok {
			return now - b.cpu0
		}
	}
	return time.Since(b.wall0)
}

// spent reports whether the budget is spent; never for nil.
func (b *budget) spent() bool { return b != nil && b.used() >= b.limit }

// wall returns the time of the clock that the next step may take: zero
// for no limit (nil), else what is left of the budget, stretched by how
// much longer than its processor time the work so far took on the
// clock, and at least a microsecond.
func (b *budget) wall() time.Duration {
	if b == nil {
		return 0
	}
	used := b.used()
	left := b.limit - used
	if b.cpu && used > 0 {
		if w := time.Since(b.wall0); w > used {
			left = time.Duration(float64(left) * float64(w) / float64(used))
		}
	}
	return max(left, time.Microsecond)
}
