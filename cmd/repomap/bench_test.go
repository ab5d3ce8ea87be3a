package main

import (
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
