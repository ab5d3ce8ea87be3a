//go:build !unix

package main

import "os"

// peakRSS returns 0: the peak resident memory of a process is not known
// on this system.
func peakRSS(*os.ProcessState) int64 { return 0 }
