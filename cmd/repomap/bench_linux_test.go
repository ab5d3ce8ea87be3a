package main

import (
	"os"
	"os/exec"
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
