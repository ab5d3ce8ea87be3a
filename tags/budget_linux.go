package tags

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the processor time the calling thread has spent, and
// whether the system tells it.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
