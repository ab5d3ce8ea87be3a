package repomap

// Robustness under faults and load: cancellation in the middle of a cold
// scan, trees of 50,000 files, a Map kept for 1,000 renders while files
// change, and one Map used from several goroutines at once.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/internal/corpus"
)

// rbGenTree writes n source files under dir, perDir to a directory, in
// Go, Python and JavaScript, each defining a few names and calling names
// of other files, with body lines of filler to make them take some
// parsing; body is the number of filler lines per function.
func rbGenTree(t testing.TB, dir string, n, perDir, body int) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		b.Reset()
		d := filepath.Join(dir, fmt.Sprintf("d%03d", i/perDir))
		if i%perDir == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		j, k := (i*7+3)%n, (i*13+5)%n
		var name string
		switch i % 3 {
		case 0, 1:
			name = fmt.Sprintf("f%06d.go", i)
			fmt.Fprintf(&b, "package d%03d\n\n// Item%d is an item.\ntype Item%d struct {\n\tName string\n}\n\n", i/perDir, i, i)
			for f := range 3 {
				fmt.Fprintf(&b, "func Func%d_%d(x int) int {\n", i, f)
				for l := range body {
					fmt.Fprintf(&b, "\tx = x*%d + %d // filler\n", l+1, f)
				}
				fmt.Fprintf(&b, "\treturn Func%d_%d(x) + Func%d_%d(x)\n}\n\n", j, f, k, (f+1)%3)
			}
		case 2:
			name = fmt.Sprintf("f%06d.py", i)
			fmt.Fprintf(&b, "class Item%d:\n    def method(self):\n        return func%d_0(1)\n\n", i, j)
			for f := range 3 {
				fmt.Fprintf(&b, "def func%d_%d(x):\n", i, f)
				for l := range body {
					fmt.Fprintf(&b, "    x = x * %d + %d  # filler\n", l+1, f)
				}
				fmt.Fprintf(&b, "    return func%d_%d(x)\n\n", k, f)
			}
		}
		if err := os.WriteFile(filepath.Join(d, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// procStatus returns a field of /proc/self/status in bytes (VmRSS,
// VmHWM…), or 0 where there is none.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// openFDs returns the number of open file descriptors, or 0 where it
// cannot tell.
func openFDs() int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	return len(es)
}

// TestCancelColdScan cancels a cold scan of a big tree once the first
// files are parsed (at the first progress report): Build returns the
// context's error (how soon after is logged), the files parsed till then
// are in the disk cache once its write is over, so that a new Map
// resumes from them, and the disk cache and the Map are fine afterwards:
// the next maps, from the same Map and from a new one on the same cache,
// equal one made without cache.
func TestCancelColdScan(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: cold scans of thousands of files")
	}
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"generated", func(t *testing.T) string {
			dir := t.TempDir()
			rbGenTree(t, dir, 3000, 100, 10)
			return dir
		}},
		{"goroot-net", func(t *testing.T) string {
			return corpus.GoSrc(t, "net")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			cacheDir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var cancelledAt time.Time
			var once sync.Once
			m, err := New(dir, &Options{CacheDir: cacheDir, Progress: func(done, total int) {
				once.Do(func() {
					cancelledAt = time.Now()
					cancel()
				})
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			_, err = m.Build(ctx, Request{})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Build(cancelled at the first progress report) error = %v, want context.Canceled", err)
			}
			t.Logf("Build returned %v after the cancel", time.Since(cancelledAt))
			// What the cancelled build parsed is written on after it
			// returned; Close would wait for the write, as this does.
			m.idx.Settle()

			resumed := rbBuildDir(t, dir, &Options{CacheDir: cacheDir, Refresh: RefreshAlways})
			if resumed.Stats.Cached == 0 || resumed.Stats.Parsed == 0 {
				t.Errorf("a new Map after the cancel read %d files from the cache and parsed %d, want some of each", resumed.Stats.Cached, resumed.Stats.Parsed)
			}
			want := rbBuildDir(t, dir, &Options{NoCache: true})
			if resumed.Text != want.Text {
				t.Errorf("map resumed from the cache after a cancelled build differs from the map without cache")
			}
			again, err := m.Build(context.Background(), Request{})
			if err != nil {
				t.Fatalf("Build after the cancel: %v", err)
			}
			if again.Text != want.Text {
				t.Errorf("map after a cancelled build differs from the map without cache")
			}
			fresh := rbBuildDir(t, dir, &Options{CacheDir: cacheDir})
			if fresh.Text != want.Text {
				t.Errorf("map from the cache after a cancelled build differs from the map without cache")
			}
			if fresh.Stats.Cached != fresh.Stats.Files {
				t.Errorf("new Map read %d of %d files from the cache, want all", fresh.Stats.Cached, fresh.Stats.Files)
			}
		})
	}
}

// TestCancelAnyTime cancels cold builds at moments from 1 ms to 2 s into
// them, on one cache: every build returns the map or the context's error
// soon after the cancel (the figures are logged), and the cache gives the
// same map as no cache in the end.
func TestCancelAnyTime(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: many cancelled scans")
	}
	dir := t.TempDir()
	rbGenTree(t, dir, 1500, 100, 5)
	cacheDir := t.TempDir()
	for _, d := range []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, 2 * time.Second} {
		m, err := New(dir, &Options{CacheDir: cacheDir})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), d)
		start := time.Now()
		_, err = m.Build(ctx, Request{})
		late := time.Since(start) - d
		cancel()
		switch {
		case err == nil:
			t.Logf("Build with a %v timeout: done before it", d)
		case !errors.Is(err, context.DeadlineExceeded):
			t.Errorf("Build cancelled after %v: error %v, want the context's", d, err)
		case late > time.Second:
			t.Errorf("Build cancelled after %v returned %v after the cancel", d, late)
		default:
			t.Logf("Build cancelled after %v returned %v after the cancel", d, late)
		}
		m.Close()
	}
	want := rbBuildDir(t, dir, &Options{NoCache: true})
	got := rbBuildDir(t, dir, &Options{CacheDir: cacheDir})
	if got.Text != want.Text {
		t.Errorf("map from a cache written by cancelled builds differs from the map without cache")
	}
}

// rbBuildDir returns the map of the tree at dir.
func rbBuildDir(t *testing.T, dir string, opts *Options) *Result {
	t.Helper()
	m, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.Build(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestManyFiles maps a tree of 50,000 small files, more than the usual
// limits on open files (1,024 to 20,000), without running out of file
// descriptors or memory: the file descriptors open while files are parsed
// stay few, and the peak RSS and time are logged.
func TestManyFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: writes and maps 50,000 files")
	}
	const n = 50000
	dir := t.TempDir()
	start := time.Now()
	var b strings.Builder
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("d%03d", i/1000))
		if i%1000 == 0 {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		b.Reset()
		fmt.Fprintf(&b, "package d%03d\n\nfunc F%d() int { return F%d() }\n", i/1000, i, (i*7+1)%n)
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%06d.go", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d files in %v", n, time.Since(start))

	fds0 := openFDs()
	var mu sync.Mutex
	maxFDs := fds0
	progress := func(done, total int) {
		if done%4096 > 64 && done != total {
			return
		}
		n := openFDs()
		mu.Lock()
		maxFDs = max(maxFDs, n)
		mu.Unlock()
	}
	m, err := New(dir, &Options{NoCache: true, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	start = time.Now()
	r, err := m.Build(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("mapped %d files in %v (walk %v, tags %v, rank %v, fit %v); peak RSS of the test process %d MiB; file descriptors %d before, at most %d while parsing",
		r.Stats.Files, took, r.Stats.Walk, r.Stats.Tags, r.Stats.Rank, r.Stats.Fit, procStatus("VmHWM")>>20, fds0, maxFDs)
	if r.Stats.Files != n || r.Stats.Parsed != n || r.Stats.Skipped != 0 {
		t.Errorf("Stats = %+v, want %d files all parsed, none skipped", r.Stats, n)
	}
	if r.Tokens == 0 || r.Tokens > DefaultTokens {
		t.Errorf("map has %d tokens, want some, at most %d", r.Tokens, DefaultTokens)
	}
	if maxFDs > fds0+4*runtime.GOMAXPROCS(0)+16 {
		t.Errorf("%d file descriptors open while parsing, %d before: they grow with the files", maxFDs, fds0)
	}
	if hwm := procStatus("VmHWM"); hwm > 2<<30 {
		t.Errorf("peak RSS %d MiB, more than 2 GiB for 50,000 small files", hwm>>20)
	}
}

// TestLongRun renders one Map 1,000 times while a file changes between
// renders, as an agent does over a long session, and checks that its
// memory stays flat: the RSS (which counts tree-sitter's C allocations)
// and the Go heap after 1,000 renders are near what they were after 100.
func TestLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 1,000 renders")
	}
	if procStatus("VmRSS") == 0 {
		t.Skip("no /proc/self/status")
	}
	dir := t.TempDir()
	rbWrite(t, dir, textsOf(synthTree(40)))
	m, err := New(dir, &Options{CacheDir: t.TempDir(), MaxTokens: 2048})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	changed := filepath.Join(dir, "pkg0", "file000.go")
	base := time.Now().Add(-time.Hour)
	measure := func() (rss, heap int64) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return procStatus("VmRSS"), int64(ms.HeapAlloc)
	}
	var rss100, heap100 int64
	start := time.Now()
	for i := 1; i <= 1000; i++ {
		// A new function each time, with a name never seen before.
		src := fmt.Sprintf("package pkg0\n\nfunc Changed%d(s string) string {\n\treturn Helper1(s) + %q\n}\n", i, strings.Repeat("x", i%50))
		if err := os.WriteFile(changed, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		mtime := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(changed, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		r, err := m.Build(ctx, Request{Focus: []string{fmt.Sprintf("pkg%d/file%03d.go", i%4, i%40)}})
		if err != nil {
			t.Fatal(err)
		}
		if i > 1 && r.Stats.Parsed != 1 {
			t.Fatalf("render %d parsed %d files, want the one changed", i, r.Stats.Parsed)
		}
		if i%10 == 0 {
			if _, err := m.Definitions(ctx, fmt.Sprintf("Changed%d", i), "Helper1"); err != nil {
				t.Fatal(err)
			}
			if _, err := m.Related(ctx, "pkg0/file000.go", Request{MaxTokens: 0}); err != nil {
				t.Fatal(err)
			}
		}
		switch i {
		case 100:
			rss100, heap100 = measure()
		case 1000:
			rss, heap := measure()
			t.Logf("1,000 renders in %v; after 100: RSS %d MiB, Go heap %d KiB; after 1,000: RSS %d MiB, Go heap %d KiB",
				time.Since(start), rss100>>20, heap100>>10, rss>>20, heap>>10)
			if rss-rss100 > 32<<20 {
				t.Errorf("RSS grew by %d MiB from render 100 to render 1,000", (rss-rss100)>>20)
			}
			if heap-heap100 > 1<<20 {
				t.Errorf("Go heap grew by %d KiB from render 100 to render 1,000", (heap-heap100)>>10)
			}
		}
	}
}

// TestConcurrentUse calls Build, Render, Definitions, References, Related
// and FindMentions of one Map from several goroutines at once, while a
// file of the tree changes, then closes the Map while they run: every call
// returns a result or ErrClosed, and under -race no data race shows.
func TestConcurrentUse(t *testing.T) {
	dir := t.TempDir()
	rbWrite(t, dir, textsOf(synthTree(24)))
	m, err := New(dir, &Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rounds := 12
	if testing.Short() {
		rounds = 4
	}
	calls := []func(i int) error{
		func(i int) error {
			_, err := m.Build(ctx, Request{Focus: []string{fmt.Sprintf("pkg%d/file%03d.go", i%4, i%24)}, MaxTokens: 512 + 64*i})
			return err
		},
		func(i int) error {
			_, err := m.Render(ctx, Request{Mentions: []string{"Widget3", "Render"}})
			return err
		},
		func(i int) error {
			_, err := m.Definitions(ctx, fmt.Sprintf("NewWidget%d", i%24), "Render")
			return err
		},
		func(i int) error { _, err := m.References(ctx, fmt.Sprintf("Helper%d", i%24)); return err },
		func(i int) error {
			_, err := m.Related(ctx, fmt.Sprintf("pkg%d/file%03d.go", i%4, i%24), Request{MaxTokens: 400})
			return err
		},
		func(i int) error {
			_, err := m.FindMentions(ctx, fmt.Sprintf("look at file%03d.go and Widget%d", i%24, i))
			return err
		},
	}
	run := func(closeAfter int) {
		var wg sync.WaitGroup
		for c, call := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range rounds {
					if err := call(i); err != nil && !(closeAfter >= 0 && errors.Is(err, ErrClosed)) {
						t.Errorf("call %d, round %d: %v", c, i, err)
					}
				}
			}()
		}
		wg.Add(1)
		go func() { // the tree changes under the Map
			defer wg.Done()
			name := filepath.Join(dir, "pkg1", "file001.go")
			for i := range rounds {
				src := fmt.Sprintf("package pkg1\n\nfunc Moving%d() { Helper2(\"\") }\n", i)
				if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
					t.Error(err)
				}
				time.Sleep(time.Millisecond)
			}
		}()
		if closeAfter >= 0 {
			time.Sleep(time.Duration(closeAfter) * time.Millisecond)
			if err := m.Close(); err != nil {
				t.Errorf("Close while in use: %v", err)
			}
		}
		wg.Wait()
	}
	run(-1)
	// The Map is still right: its map equals a new Map's.
	got, err := m.Render(ctx, Request{})
	if err != nil {
		t.Fatal(err)
	}
	if want := rbBuildDir(t, dir, &Options{NoCache: true}).Text; got != want {
		t.Errorf("map after concurrent use differs from a new Map's:\n%s\nwant:\n%s", got, want)
	}
	run(20)
	if _, err := m.Render(ctx, Request{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Render after Close: %v, want ErrClosed", err)
	}
}

// TestCancelKeepsProgress builds a map of a big tree again and again with
// a deadline much shorter than the cold scan, as an agent with a time
// limit per request does: the files parsed before each cancel are kept,
// so that a build ends in time after a few tries, and its map is the one
// a Map that was never cancelled makes.
func TestCancelKeepsProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: many cancelled scans")
	}
	dir := t.TempDir()
	rbGenTree(t, dir, 2000, 100, 10)
	m, err := New(dir, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	const deadline = 150 * time.Millisecond
	var r *Result
	tries := 0
	for r == nil && tries < 100 {
		tries++
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		r, err = m.Build(ctx, Request{})
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Build: %v", err)
		}
	}
	if r == nil {
		t.Fatalf("no build with a %v deadline ended in %d tries", deadline, tries)
	}
	t.Logf("a build with a %v deadline ended after %d tries", deadline, tries)
	if want := rbBuildDir(t, dir, &Options{NoCache: true}); r.Text != want.Text {
		t.Errorf("map made over cancelled builds differs from one made at once:\n%s\nwant:\n%s", r.Text, want.Text)
	}
}
