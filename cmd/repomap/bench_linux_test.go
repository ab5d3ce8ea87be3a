package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestFaultCost checks that the machine's cost of a page fault comes out
// as a few microseconds at most, not as the whole probe's time, and that
// a finished process's faults are read: any process faults in its pages.
func TestFaultCost(t *testing.T) {
	cost, ok := faultCost()
	if !ok {
		t.Skip("the probe made too few faults to time: larger pages than the system's page size")
	}
	if cost <= 0 || cost > time.Millisecond {
		t.Errorf("faultCost = %v, want a positive time under a millisecond", cost)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if n := pageFaults(cmd.ProcessState); n <= 0 {
		t.Errorf("pageFaults of a finished process = %d, want more than 0", n)
	}
}

// TestBenchFaults runs bench --floor on a small tree: it prints the page
// faults' line, and the warm map's peak RSS is the map's own, not raised
// by the memory that timing a page fault touches (64 MB, in a process of
// its own: a process started by one whose memory had once been that
// large was counted as large as it).
func TestBenchFaults(t *testing.T) {
	dir := writeTree(t, shopTree)
	var stdout, stderr bytes.Buffer
	cmd := exe(context.Background(), t, "bench", "--floor", "--runs", "2", dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "\npage faults cold ") {
		t.Errorf("bench printed no page faults' line:\n%s", out)
	}
	var cold, warm float64
	for line := range strings.Lines(out) {
		if _, err := fmt.Sscanf(line, "peak RSS    cold %f MB, warm %f MB", &cold, &warm); err == nil {
			break
		}
	}
	if warm <= 0 || warm >= faultProbe>>20 {
		t.Errorf("the warm map's peak RSS is %v MB, want more than 0 and less than the probe's %d MB:\n%s", warm, faultProbe>>20, out)
	}
}
