//go:build !unix

package main

import (
	"os"
	"time"
)

// peakRSS returns 0: the peak resident memory of a process is not known
// on this system.
func peakRSS(*os.ProcessState) int64 { return 0 }

// pageFaults returns 0: the page faults of a process are not known on
// this system.
func pageFaults(*os.ProcessState) int64 { return 0 }

// faultCost reports false: page faults are not counted on this system.
func faultCost() (time.Duration, bool) { return 0, false }
