package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// benchRun is one measured run of the map command.
type benchRun struct {
	wall, cpu time.Duration
	rssKB     int64
	files     int
	bytes     int64
}

// runBench is "repomap bench [flags] [PATH]": it maps PATH in fresh
// processes, cold (an empty tag cache) and warm (the cache filled), and
// prints files, bytes, the median cold and warm times, peak RSS and files
// per second.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("repomap bench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	runs := fl.Int("runs", 3, "measured runs of each kind")
	tokens := fl.Int("tokens", 1024, "the map's budget in `tokens`")
	var excludes list
	fl.Var(&excludes, "exclude", "leave out paths matching `glob` (repeatable)")
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: repomap bench [-runs N] [-tokens N] [-exclude GLOB] [PATH]\n\n"+
			"Maps PATH in fresh processes, cold (empty tag cache) and warm (cache filled),\n"+
			"and prints files, bytes, median times, peak RSS and files per second.\n\nflags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 1 || *runs < 1 {
		fl.Usage()
		return 2
	}
	root := "."
	if fl.NArg() == 1 {
		root = fl.Arg(0)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "repomap: bench: %v\n", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "repomap-bench-")
	if err != nil {
		fmt.Fprintf(stderr, "repomap: bench: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)

	measure := func(cacheDir string) (benchRun, error) {
		args := []string{"-cache-dir", cacheDir, "-tokens", fmt.Sprint(*tokens), "-stats-json"}
		for _, g := range excludes {
			args = append(args, "-exclude", g)
		}
		cmd := exec.CommandContext(ctx, self, append(args, root)...)
		start := time.Now()
		out, err := cmd.Output()
		if err != nil {
			return benchRun{}, fmt.Errorf("%s: %w", root, err)
		}
		r := benchRun{wall: time.Since(start)}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rssKB = ru.Maxrss
			r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
		var st struct {
			Files int
			Bytes int64
		}
		if err := json.Unmarshal(out, &st); err == nil {
			r.files, r.bytes = st.Files, st.Bytes
		}
		return r, nil
	}
	var cold, warm []benchRun
	for i := range *runs {
		r, err := measure(fmt.Sprintf("%s/cold%d", dir, i))
		if err != nil {
			fmt.Fprintf(stderr, "repomap: bench: %v\n", err)
			return 1
		}
		cold = append(cold, r)
	}
	warmDir := dir + "/cold0" // filled by the first cold run
	for range *runs {
		r, err := measure(warmDir)
		if err != nil {
			fmt.Fprintf(stderr, "repomap: bench: %v\n", err)
			return 1
		}
		warm = append(warm, r)
	}
	c, w := median(cold), median(warm)
	fmt.Fprintf(stdout, "tree        %s\n", root)
	fmt.Fprintf(stdout, "files       %d\n", cold[0].files)
	fmt.Fprintf(stdout, "bytes       %d (%.1f MB)\n", cold[0].bytes, float64(cold[0].bytes)/1e6)
	fmt.Fprintf(stdout, "cold        %s wall, %s CPU (median of %d)\n", c.wall.Round(time.Millisecond), c.cpu.Round(time.Millisecond), *runs)
	fmt.Fprintf(stdout, "warm        %s wall, %s CPU (median of %d)\n", w.wall.Round(time.Millisecond), w.cpu.Round(time.Millisecond), *runs)
	fmt.Fprintf(stdout, "peak RSS    cold %.0f MB, warm %.0f MB\n", float64(maxRSS(cold))/1024, float64(maxRSS(warm))/1024)
	if c.wall > 0 {
		fmt.Fprintf(stdout, "files/s     %.0f cold, %.0f warm\n", float64(cold[0].files)/c.wall.Seconds(), float64(cold[0].files)/w.wall.Seconds())
	}
	return 0
}

// median returns the run with the median wall time.
func median(rs []benchRun) benchRun {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b benchRun) int { return int(a.wall - b.wall) })
	return s[len(s)/2]
}

func maxRSS(rs []benchRun) int64 {
	var m int64
	for _, r := range rs {
		m = max(m, r.rssKB)
	}
	return m
}
