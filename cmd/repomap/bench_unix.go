//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// peakRSS returns the peak resident memory, in KiB, of the process that
// ended with ps, or 0 when it is not known.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	rss := int64(ru.Maxrss)
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		rss /= 1024 // bytes there, KiB elsewhere
	}
	return rss
}

// pageFaults returns the page faults of the process that ended with ps,
// minor and major, or 0 when they are not known.
func pageFaults(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return int64(ru.Minflt) + int64(ru.Majflt)
}

// faultCost returns the CPU time one page fault takes on this machine
// now: this process maps faultProbe bytes of new memory, touches each of
// its pages once, and divides the CPU time that took by the faults it
// made. It reports false when too few faults came to tell (pages larger
// than the system's page size) or the memory could not be mapped.
func faultCost() (time.Duration, bool) {
	mem, err := syscall.Mmap(-1, 0, faultProbe, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return 0, false
	}
	defer syscall.Munmap(mem)
	var before, after syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &before) != nil {
		return 0, false
	}
	for i := 0; i < len(mem); i += os.Getpagesize() {
		mem[i] = 1
	}
	if syscall.Getrusage(syscall.RUSAGE_SELF, &after) != nil {
		return 0, false
	}
	n := int64(after.Minflt+after.Majflt) - int64(before.Minflt+before.Majflt)
	if n < int64(faultProbe/os.Getpagesize()/2) {
		return 0, false
	}
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()) - time.Duration(before.Utime.Nano()+before.Stime.Nano())
	return cpu / time.Duration(n), true
}
