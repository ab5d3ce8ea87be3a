package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

// benchRun is one measured run of the map command.
type benchRun struct {
	wall, cpu time.Duration
	rssKB     int64
	files     int
	bytes     int64
}

func benchCommand() *command {
	return &command{
		name:  "bench",
		usage: "repomap bench [flags] [PATH]",
		short: "time the map of a tree, with a cold and a warm tag cache",
		long: `
Bench maps the tree at PATH (by default the current directory) in fresh
processes, cold (an empty tag cache) and warm (the cache filled), and
prints the files, the bytes, the median times, the peak memory and the
files mapped per second. Peak memory is not measured on every system.`,
		flags: func(fl *flag.FlagSet, c *config) {
			fl.IntVar(&c.runs, "runs", 3, "measured runs of each kind, a positive `number`")
			fl.IntVar(&c.tokens, "tokens", 1024, "the map's budget in `tokens`")
			fl.Var(&c.exclude, "exclude", "leave out paths matching `glob`; repeatable")
		},
		run: runBench,
	}
}

// runBench maps PATH in fresh processes, cold (an empty tag cache) and
// warm (the cache filled), and prints files, bytes, the median cold and
// warm times, peak RSS and files per second.
func runBench(ctx context.Context, e *env, c *config, args []string) int {
	if msg := c.check(); msg != "" {
		return e.usage(msg)
	}
	if c.runs < 1 {
		return e.usage("--runs takes a positive number")
	}
	if len(args) > 1 {
		return e.usage("one PATH at most")
	}
	root := "."
	if len(args) == 1 {
		root = args[0]
	}
	stdout := e.stdout
	self, err := os.Executable()
	if err != nil {
		return fail(e, fmt.Errorf("bench: %w", err))
	}
	dir, err := os.MkdirTemp("", "repomap-bench-")
	if err != nil {
		return fail(e, fmt.Errorf("bench: %w", err))
	}
	defer os.RemoveAll(dir)

	measure := func(cacheDir string) (benchRun, error) {
		args := []string{"-cache-dir", cacheDir, "-tokens", fmt.Sprint(c.tokens), "-stats-json"}
		for _, g := range c.exclude {
			args = append(args, "-exclude", g)
		}
		cmd := exec.CommandContext(ctx, self, append(args, root)...)
		start := time.Now()
		out, err := cmd.Output()
		if err != nil {
			return benchRun{}, fmt.Errorf("%s: %w", root, err)
		}
		r := benchRun{wall: time.Since(start)}
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		r.rssKB = peakRSS(cmd.ProcessState)
		var st struct {
			Files int   `json:"files"`
			Bytes int64 `json:"bytes"`
		}
		if err := json.Unmarshal(out, &st); err == nil {
			r.files, r.bytes = st.Files, st.Bytes
		}
		return r, nil
	}
	var cold, warm []benchRun
	for i := range c.runs {
		r, err := measure(fmt.Sprintf("%s/cold%d", dir, i))
		if err != nil {
			return fail(e, fmt.Errorf("bench: %w", err))
		}
		cold = append(cold, r)
	}
	warmDir := dir + "/cold0" // filled by the first cold run
	for range c.runs {
		r, err := measure(warmDir)
		if err != nil {
			return fail(e, fmt.Errorf("bench: %w", err))
		}
		warm = append(warm, r)
	}
	cm, wm := median(cold), median(warm)
	fmt.Fprintf(stdout, "tree        %s\n", root)
	fmt.Fprintf(stdout, "files       %d\n", cold[0].files)
	fmt.Fprintf(stdout, "bytes       %d (%.1f MB)\n", cold[0].bytes, float64(cold[0].bytes)/1e6)
	fmt.Fprintf(stdout, "cold        %s wall, %s CPU (median of %d)\n", cm.wall.Round(time.Millisecond), cm.cpu.Round(time.Millisecond), c.runs)
	fmt.Fprintf(stdout, "warm        %s wall, %s CPU (median of %d)\n", wm.wall.Round(time.Millisecond), wm.cpu.Round(time.Millisecond), c.runs)
	if rss := maxRSS(cold); rss > 0 {
		fmt.Fprintf(stdout, "peak RSS    cold %.0f MB, warm %.0f MB\n", float64(rss)/1024, float64(maxRSS(warm))/1024)
	}
	if cm.wall > 0 {
		fmt.Fprintf(stdout, "files/s     %.0f cold, %.0f warm\n", float64(cold[0].files)/cm.wall.Seconds(), float64(cold[0].files)/wm.wall.Seconds())
	}
	return exitOK
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
