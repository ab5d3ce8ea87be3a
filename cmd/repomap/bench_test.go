package main

import (
	"strings"
	"testing"
	"time"
)

// TestRatioLine checks the ratios bench prints: the median and range of
// the pairs', and the least map's CPU over the least floor's, which a run
// slowed by other work does not move.
func TestRatioLine(t *testing.T) {
	cpu := func(s ...float64) []benchRun {
		var rs []benchRun
		for _, v := range s {
			rs = append(rs, benchRun{cpu: time.Duration(v * float64(time.Second))})
		}
		return rs
	}
	// The second pair was disturbed: its map took 40 s instead of 24.
	maps, floors := cpu(26, 40, 24), cpu(20, 21, 22)
	var ratios []float64
	for i := range maps {
		ratios = append(ratios, maps[i].cpu.Seconds()/floors[i].cpu.Seconds())
	}
	got := ratioLine(ratios, maps, floors)
	want := "1.30 of the CPU time (median of 3 pairs; 1.09 to 1.90); 1.20 from the least of each"
	if got != want {
		t.Errorf("ratioLine = %q, want %q", got, want)
	}
}

// TestFaultLine checks what bench says of page faults: the medians, the
// pairs' extra faults at the machine's cost each, timed pair by pair, and
// the ratio of the pairs' CPU times without them.
func TestFaultLine(t *testing.T) {
	run := func(cpu float64, faults int64) benchRun {
		return benchRun{cpu: time.Duration(cpu * float64(time.Second)), faults: faults}
	}
	// The pairs' 100,000, 120,000 and 80,000 more faults at 10, 10 and
	// 20 us are 1.0, 1.2 and 1.6 s of their maps' 26, 27 and 25 s: 1.25,
	// 1.29 and 1.17 of the floors' 20 s.
	maps := []benchRun{run(26, 130_000), run(27, 150_000), run(25, 105_000)}
	floors := []benchRun{run(20, 30_000), run(20, 30_000), run(20, 25_000)}
	costs := []time.Duration{10 * time.Microsecond, 10 * time.Microsecond, 20 * time.Microsecond}
	got := faultLine(maps, floors, costs)
	want := "cold 130000, floor 30000; one takes 10µs of CPU here (64 MB touched after each pair), the cold map's 100000 more 1.2s: cold/floor without them 1.25 (medians of 3 pairs)"
	if got != want {
		t.Errorf("faultLine =\n%q, want\n%q", got, want)
	}
	// A floor that faulted more than its map takes nothing off.
	got = faultLine([]benchRun{run(22, 10)}, []benchRun{run(20, 50)}, []time.Duration{time.Microsecond})
	if !strings.HasSuffix(got, "the cold map's 0 more 0s: cold/floor without them 1.10 (medians of 1 pairs)") {
		t.Errorf("faultLine with fewer map faults = %q", got)
	}
}
