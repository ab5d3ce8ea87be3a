//go:build unix

package repomap

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system.
// Benchmarks report it per operation as well as the wall time, which on
// a shared machine says more of how long others kept the cores than of
// the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
