package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"time"

	"github.com/repomap-dev/repomap/repomap"
)

// benchRun is one measured run of the map command.
type benchRun struct {
	wall, cpu time.Duration
	rssKB     int64
	faults    int64 // page faults, 0 when not known
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
processes, cold (an empty tag cache) and warm (the cache filled): for the
same request again, and for a budget never asked before (another each
run). It prints the files, the bytes, the median times, the peak memory
and the files mapped per second. Peak memory is not measured on every
system.

With --floor it also times the floor, in fresh processes too, each after
a cold map: tree-sitter's parse and tags query of the files the map
parses, on one thread, with the map's allocator, and nothing else (no tags
are made, nothing is cached or ranked). It prints the cold map's CPU time
as a ratio of the floor's, the median of the pairs' ratios: a figure that
holds from one machine to another better than times do. On a machine
shared with other work, where a run's CPU time can swing by a third, it
also prints the least cold map's CPU time over the least floor's: other
work only adds to a run's time, so the least of several runs is the
steadier figure. Files of languages that a lexer reads are not in the
floor, and are counted.

It times the floor a second time on as many threads as the map parses
on, and prints the ratio to that too. A processor may do less per second
of CPU time when all of its cores work than when one does (two threads
of one core, a virtual machine's processors on a busy host): the map,
which parses on every core, pays for that and the floor on one thread
does not. The second ratio compares the two under the same load. Run
with GOMAXPROCS=1 in the environment, the map works on one thread too, as
the floor does: the ratio is then the map's own work on top of the
floor's, with no machine in between.

Where page faults are counted, it prints those of the cold maps and of
the floors, what one takes on this machine (timed after each pair, in a
process of its own that touches each page of 64 MB of new memory once),
and the ratio without the cold map's faults beyond the floor's. A map
keeps what it makes (tags, links, the ranking), and its heap grows to
hold it; the floor keeps nothing. A page fault takes a fraction of a
microsecond on one machine and ten on another (a virtual machine whose
host keeps its page tables): that part of the map's work is the
machine's more than the map's.`,
		flags: func(fl *flag.FlagSet, c *config) {
			fl.IntVar(&c.runs, "runs", 3, "measured runs of each kind, a positive `number`")
			fl.IntVar(&c.tokens, "tokens", 1024, "the map's budget in `tokens`")
			fl.Var(&c.exclude, "exclude", "leave out paths matching `glob`; repeatable")
			fl.BoolVar(&c.floor, "floor", false, "also time the floor, and print the cold map's CPU time as a ratio of it")
			fl.BoolVar(&c.floorRun, "floor-run", false, "time nothing: run the floor once in this process and print what it did as JSON; for repomap bench --floor")
			fl.IntVar(&c.floorGo, "floor-threads", 1, "with --floor-run, the `number` of threads the floor parses on")
			fl.BoolVar(&c.faultRun, "fault-run", false, "time nothing but a page fault, in this process, and print its CPU time in nanoseconds as JSON (null when it cannot be timed); for repomap bench --floor")
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
	if c.floorRun {
		if c.floorGo < 1 {
			return e.usage("--floor-threads takes a positive number")
		}
		st, err := repomap.Floor(ctx, root, &repomap.Options{Exclude: c.exclude, Parallelism: c.floorGo})
		if err != nil {
			return fail(e, fmt.Errorf("bench: %w", err))
		}
		if err := json.NewEncoder(e.stdout).Encode(st); err != nil {
			return fail(e, fmt.Errorf("bench: %w", err))
		}
		return exitOK
	}
	if c.faultRun {
		// In a process of its own: the memory it touches would count in
		// the peak RSS of every process this one started after it.
		var ns *int64
		if cost, ok := faultCost(); ok {
			ns = new(int64(cost))
		}
		if err := json.NewEncoder(e.stdout).Encode(ns); err != nil {
			return fail(e, fmt.Errorf("bench: %w", err))
		}
		return exitOK
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

	// measure runs repomap with args and the tree, in a fresh process.
	measure := func(args ...string) (benchRun, []byte, error) {
		for _, g := range c.exclude {
			args = append(args, "-exclude", g)
		}
		cmd := exec.CommandContext(ctx, self, append(args, "--", root)...)
		start := time.Now()
		out, err := cmd.Output()
		if err != nil {
			return benchRun{}, nil, fmt.Errorf("%s: %w", root, err)
		}
		r := benchRun{wall: time.Since(start)}
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		r.rssKB, r.faults = peakRSS(cmd.ProcessState), pageFaults(cmd.ProcessState)
		return r, out, nil
	}
	mapRun := func(cacheDir string, tokens int) (benchRun, error) {
		r, out, err := measure("-cache-dir", cacheDir, "-tokens", fmt.Sprint(tokens), "-stats-json")
		if err != nil {
			return r, err
		}
		var st struct {
			Files int   `json:"files"`
			Bytes int64 `json:"bytes"`
		}
		if err := json.Unmarshal(out, &st); err == nil {
			r.files, r.bytes = st.Files, st.Bytes
		}
		return r, nil
	}
	var cold, budgets, floor, floorPar []benchRun
	var floorStats repomap.FloorStats
	var ratios, ratiosPar []float64  // cold CPU over floor CPU, pair by pair
	var faultCosts []time.Duration   // a page fault's CPU time, pair by pair
	threads := runtime.GOMAXPROCS(0) // what the map parses on, by default
	floorRun := func(threads int) (benchRun, error) {
		f, out, err := measure("bench", "-floor-run", "-floor-threads", fmt.Sprint(threads))
		if err == nil {
			err = json.Unmarshal(out, &floorStats)
		}
		if err != nil {
			return f, fmt.Errorf("bench: floor: %w", err)
		}
		return f, nil
	}
	for i := range c.runs {
		r, err := mapRun(fmt.Sprintf("%s/cold%d", dir, i), c.tokens)
		if err != nil {
			return fail(e, fmt.Errorf("bench: %w", err))
		}
		cold = append(cold, r)
		if !c.floor {
			continue
		}
		f, err := floorRun(1)
		if err != nil {
			return fail(e, err)
		}
		floor = append(floor, f)
		ratios = append(ratios, r.cpu.Seconds()/f.cpu.Seconds())
		if _, out, err := measure("bench", "-fault-run"); err == nil {
			var ns *int64
			if json.Unmarshal(out, &ns) == nil && ns != nil {
				faultCosts = append(faultCosts, time.Duration(*ns))
			}
		}
		if threads > 1 {
			f, err := floorRun(threads)
			if err != nil {
				return fail(e, err)
			}
			floorPar = append(floorPar, f)
			ratiosPar = append(ratiosPar, r.cpu.Seconds()/f.cpu.Seconds())
		}
	}
	warmDir := dir + "/cold0" // filled by the first cold run
	// warmRuns maps the tree c.runs times with the warm cache, run i for
	// the budget tokens(i).
	warmRuns := func(tokens func(i int) int) ([]benchRun, error) {
		var out []benchRun
		for i := range c.runs {
			r, err := mapRun(warmDir, tokens(i))
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	warm, err := warmRuns(func(int) int { return c.tokens })
	if err == nil {
		budgets, err = warmRuns(func(i int) int { return c.tokens + 1 + i })
	}
	if err != nil {
		return fail(e, fmt.Errorf("bench: %w", err))
	}
	cm, wm, bm := median(cold), median(warm), median(budgets)
	fmt.Fprintf(stdout, "tree        %s\n", root)
	fmt.Fprintf(stdout, "files       %d\n", cold[0].files)
	fmt.Fprintf(stdout, "bytes       %d (%.1f MB)\n", cold[0].bytes, float64(cold[0].bytes)/1e6)
	fmt.Fprintf(stdout, "cold        %s wall, %s CPU (median of %d)\n", cm.wall.Round(time.Millisecond), cm.cpu.Round(time.Millisecond), c.runs)
	fmt.Fprintf(stdout, "warm        %s wall, %s CPU (median of %d)\n", wm.wall.Round(time.Millisecond), wm.cpu.Round(time.Millisecond), c.runs)
	fmt.Fprintf(stdout, "new budget  %s wall, %s CPU (median of %d, warm, a budget never asked before)\n", bm.wall.Round(time.Millisecond), bm.cpu.Round(time.Millisecond), c.runs)
	if rss := maxRSS(cold); rss > 0 {
		fmt.Fprintf(stdout, "peak RSS    cold %.0f MB, warm %.0f MB\n", float64(rss)/1024, float64(maxRSS(warm))/1024)
	}
	if cm.wall > 0 {
		fmt.Fprintf(stdout, "files/s     %.0f cold, %.0f warm\n", float64(cold[0].files)/cm.wall.Seconds(), float64(cold[0].files)/wm.wall.Seconds())
	}
	if c.floor {
		fm := median(floor)
		fmt.Fprintf(stdout, "floor       %s wall, %s CPU (median of %d): parse and tags query of %d files, one thread; %d files a lexer reads not in it\n",
			fm.wall.Round(time.Millisecond), fm.cpu.Round(time.Millisecond), c.runs, floorStats.Files, floorStats.Lexed)
		fmt.Fprintf(stdout, "cold/floor  %s\n", ratioLine(ratios, cold, floor))
		if len(faultCosts) == len(floor) && median(cold).faults > 0 {
			fmt.Fprintf(stdout, "page faults %s\n", faultLine(cold, floor, faultCosts))
		}
		if len(floorPar) > 0 {
			fm := median(floorPar)
			fmt.Fprintf(stdout, "floor, %d threads  %s wall, %s CPU (median of %d)\n", threads, fm.wall.Round(time.Millisecond), fm.cpu.Round(time.Millisecond), c.runs)
			fmt.Fprintf(stdout, "cold/floor, %d threads  %s\n", threads, ratioLine(ratiosPar, cold, floorPar))
		}
	}
	return exitOK
}

// ratioLine describes the ratios of the pairs, their median and range,
// and the ratio of the least CPU time of the maps to the least of the
// floors: what else runs on a machine can only add to a run's CPU time,
// so that the least of several runs is the one it disturbed least.
func ratioLine(ratios []float64, maps, floors []benchRun) string {
	r := slices.Sorted(slices.Values(ratios))
	return fmt.Sprintf("%.2f of the CPU time (median of %d pairs; %.2f to %.2f); %.2f from the least of each",
		r[len(r)/2], len(r), r[0], r[len(r)-1], leastCPU(maps).Seconds()/leastCPU(floors).Seconds())
}

// faultProbe is how much new memory faultCost touches to time a page
// fault.
const faultProbe = 64 << 20

// faultLine describes the page faults of the maps and the floors, and
// what the maps' faults beyond the floors' cost, at costs[i] each in
// pair i (timed right after it): the ratio of the pairs' CPU times
// without them. A cold map keeps what it made (tags, links, the ranking)
// and its heap grows to hold it; the floor keeps nothing. Each page of
// that growth is faulted in once, which takes a fraction of a
// microsecond on one machine and ten on another (a virtual machine whose
// page tables the host keeps): the one part of the map's work above the
// floor that moves that much between machines.
func faultLine(maps, floors []benchRun, costs []time.Duration) string {
	var ratios []float64
	var more []int64
	var took []time.Duration
	for i := range min(len(maps), len(floors), len(costs)) {
		m, f := maps[i], floors[i]
		extra := max(0, m.faults-f.faults)
		more = append(more, extra)
		took = append(took, time.Duration(extra)*costs[i])
		ratios = append(ratios, (m.cpu-took[i]).Seconds()/f.cpu.Seconds())
	}
	cost := slices.Sorted(slices.Values(costs))
	slices.Sort(more)
	slices.Sort(took)
	slices.Sort(ratios)
	mid := len(ratios) / 2
	return fmt.Sprintf("cold %d, floor %d; one takes %s of CPU here (%d MB touched after each pair), the cold map's %d more %s: cold/floor without them %.2f (medians of %d pairs)",
		medianFaults(maps), medianFaults(floors), cost[len(cost)/2].Round(10*time.Nanosecond), faultProbe>>20,
		more[mid], took[mid].Round(10*time.Millisecond), ratios[mid], len(ratios))
}

// medianFaults returns the median of the runs' page faults.
func medianFaults(rs []benchRun) int64 {
	fs := make([]int64, len(rs))
	for i, r := range rs {
		fs[i] = r.faults
	}
	slices.Sort(fs)
	return fs[len(fs)/2]
}

// leastCPU returns the least CPU time of the runs.
func leastCPU(rs []benchRun) time.Duration {
	return slices.MinFunc(rs, func(a, b benchRun) int { return cmp.Compare(a.cpu, b.cpu) }).cpu
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
