package repomap

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/internal/memo"
)

// writeTree writes files (slash-separated path → text) under a new
// temporary directory, and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	return indextest.Tree(t, files)
}

var smallTree = map[string]string{
	"a.go":     "package p\n\nfunc Alpha() int { return Beta() }\n",
	"b.go":     "package p\n\nfunc Beta() int { return 2 }\n",
	"c/c.py":   "def gamma():\n    return 3\n",
	"d/use.py": "from c import gamma\n\ngamma()\n",
}

// buildUnkept is buildAt with a Map that neither reads the maps the
// disk cache keeps nor keeps its own: for tests of what a first map reads.
func buildUnkept(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	m, err := New(root, &opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.memoOff = true
	r, err := m.Build(context.Background(), Request{MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func buildAt(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	m, err := New(root, &opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.Build(context.Background(), Request{MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCacheWarm(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	cold := buildAt(t, root, Options{CacheDir: dir})
	if cold.Stats.Parsed != 4 {
		t.Fatalf("cold map parsed %d files, want 4", cold.Stats.Parsed)
	}
	warm := buildUnkept(t, root, Options{CacheDir: dir})
	if warm.Stats.Parsed != 0 || warm.Text != cold.Text {
		t.Errorf("warm map parsed %d files (want 0); same text: %v", warm.Stats.Parsed, warm.Text == cold.Text)
	}
	// Nothing is written into the tree.
	entries, _ := os.ReadDir(root)
	if len(entries) != 4 {
		t.Errorf("the tree has %d entries after mapping, want 4", len(entries))
	}
	// A changed file is parsed again, and only it.
	later := time.Now().Add(time.Minute)
	if err := os.WriteFile(filepath.Join(root, "b.go"), []byte("package p\n\nfunc Beta() int { return 3 }\n\nfunc Delta() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(root, "b.go"), later, later)
	touched := buildAt(t, root, Options{CacheDir: dir})
	if touched.Stats.Parsed != 1 || !strings.Contains(touched.Text, "Delta") {
		t.Errorf("after changing b.go: parsed %d, map:\n%s", touched.Stats.Parsed, touched.Text)
	}
	// A deleted file is pruned from the cache.
	os.Remove(filepath.Join(root, "d", "use.py"))
	buildAt(t, root, Options{CacheDir: dir})
	c, err := cache.New(dir, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries2, err := c.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := entries2["d/use.py"]; ok || len(entries2) != 3 {
		t.Errorf("cache holds %d entries after a delete, want 3 without d/use.py", len(entries2))
	}
	// NoCache writes nothing.
	other := t.TempDir()
	buildAt(t, root, Options{CacheDir: other, NoCache: true})
	if es, _ := os.ReadDir(other); len(es) != 0 {
		t.Errorf("NoCache wrote %d files into the cache dir", len(es))
	}
}

// TestCacheFaults checks that the map comes out whatever state the cache
// is in.
func TestCacheFaults(t *testing.T) {
	root := writeTree(t, smallTree)
	want := buildAt(t, root, Options{NoCache: true}).Text

	t.Run("locked", func(t *testing.T) {
		dir := t.TempDir()
		buildAt(t, root, Options{CacheDir: dir})
		c, _ := cache.New(dir, root, nil)
		holder, err := bolt.Open(c.Path(), 0o644, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		var log bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))
		m, err := New(root, &Options{CacheDir: dir, CacheTimeout: 100 * time.Millisecond, Logger: logger})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		for range 3 {
			r, err := m.Build(context.Background(), Request{MaxTokens: 1000, Mentions: []string{time.Now().String()}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != want && !strings.Contains(r.Text, "Alpha") {
				t.Errorf("map with a locked cache:\n%s", r.Text)
			}
		}
		if n := strings.Count(log.String(), "tag cache not used"); n != 1 {
			t.Errorf("a locked cache gave %d warnings, want 1:\n%s", n, log.String())
		}
	})
	t.Run("garbage", func(t *testing.T) {
		dir := t.TempDir()
		c, _ := cache.New(dir, root, nil)
		os.WriteFile(c.Path(), bytes.Repeat([]byte("not a database "), 1000), 0o644)
		if got := buildAt(t, root, Options{CacheDir: dir}).Text; got != want {
			t.Errorf("map with a garbage cache:\n%s\nwant:\n%s", got, want)
		}
		if r := buildUnkept(t, root, Options{CacheDir: dir}); r.Stats.Parsed != 0 {
			t.Errorf("the rebuilt cache was not used: parsed %d", r.Stats.Parsed)
		}
	})
	t.Run("unwritable", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		os.WriteFile(f, nil, 0o644)
		// A cache dir below a regular file cannot be made, even by root.
		if got := buildAt(t, root, Options{CacheDir: filepath.Join(f, "cache")}).Text; got != want {
			t.Errorf("map with an unwritable cache dir:\n%s\nwant:\n%s", got, want)
		}
	})
}

// TestConcurrentMaps maps one tree from four Maps at once, each with its
// own open of the same cache, as four processes would.
func TestConcurrentMaps(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	want := buildAt(t, root, Options{NoCache: true}).Text
	var wg sync.WaitGroup
	texts := make([]string, 4)
	for i := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := New(root, &Options{CacheDir: dir})
			if err != nil {
				t.Error(err)
				return
			}
			defer m.Close()
			for range 5 {
				r, err := m.Build(context.Background(), Request{MaxTokens: 1000})
				if err != nil {
					t.Error(err)
					return
				}
				texts[i] = r.Text
			}
		}()
	}
	wg.Wait()
	for i, text := range texts {
		if text != want {
			t.Errorf("map %d differs:\n%s\nwant:\n%s", i, text, want)
		}
	}
}

func TestRefreshModes(t *testing.T) {
	root := writeTree(t, smallTree)
	edit := func(n int) {
		p := filepath.Join(root, "b.go")
		os.WriteFile(p, []byte("package p\n\nfunc Beta() int { return 2 }\n"+strings.Repeat("\nfunc Extra() {}\n", n)), 0o644)
		when := time.Now().Add(time.Duration(n) * time.Minute)
		os.Chtimes(p, when, when)
	}
	for _, tc := range []struct {
		mode          Refresh
		edit, newFile bool // what changes between the first and the second map
		same          bool // whether the second map is the first one again
	}{
		{RefreshAuto, false, false, true},
		{RefreshAuto, true, false, false},
		{RefreshAlways, false, false, false},
		{RefreshFiles, true, false, true},
		{RefreshFiles, false, true, false},
		{RefreshManual, true, true, true},
	} {
		edit(0)
		m, err := New(root, &Options{NoCache: true, Refresh: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		req := Request{MaxTokens: 1000}
		first, err := m.Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if tc.edit {
			edit(1)
		}
		extra := filepath.Join(root, "e.go")
		if tc.newFile {
			os.WriteFile(extra, []byte("package p\n"), 0o644)
		}
		second, err := m.Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(extra)
		m.Close()
		if got := second == first; got != tc.same {
			t.Errorf("%v with edit=%v new file=%v: map reused = %v, want %v", tc.mode, tc.edit, tc.newFile, got, tc.same)
		}
		if !tc.same && tc.edit && !strings.Contains(second.Text, "Extra") {
			t.Errorf("%v: the new map does not show the edit:\n%s", tc.mode, second.Text)
		}
	}
}

// TestLaterWritesKept changes a file under a Map kept open, whose writes
// after its first go on a goroutine of their own, and checks that what
// they write is in the disk cache once the Map is closed: the changed
// file's tags, and its outline, which the map made after its tags were
// handed to a write.
func TestLaterWritesKept(t *testing.T) {
	files := map[string]string{"main.go": "package p\n\nfunc Main() { Used() }\n"}
	for i := range 30 {
		files[fmt.Sprintf("f%02d.go", i)] = fmt.Sprintf("package p\n\n// Filler%d fills.\nfunc Filler%d() int { return %d }\n", i, i, i)
	}
	files["used.go"] = "package p\n"
	root := writeTree(t, files)
	dir := t.TempDir()
	ctx := context.Background()
	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if r, err := m.Build(ctx, Request{MaxTokens: 30}); err != nil {
		t.Fatal(err)
	} else if strings.Contains(r.Text, "used.go") {
		t.Fatalf("the first map shows used.go:\n%s", r.Text)
	}
	// used.go, not shown before, is parsed without its outline, which
	// the map then makes.
	later := time.Now().Add(time.Minute)
	p := filepath.Join(root, "used.go")
	if err := os.WriteFile(p, []byte("package p\n\n// Used is used.\nfunc Used() int { return Helper() }\n\nfunc Helper() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, later, later)
	r, err := m.Build(ctx, Request{MaxTokens: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Parsed != 1 || !strings.Contains(r.Text, "used.go") {
		t.Fatalf("after the change, %d files parsed (want 1), and the map:\n%s", r.Stats.Parsed, r.Text)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := cache.New(dir, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := entries["used.go"]
	if !ok {
		t.Fatal("used.go is not in the disk cache")
	}
	if info, err := os.Stat(filepath.Join(root, "used.go")); err != nil || e.ModTime != info.ModTime().UnixNano() || e.Size != info.Size() {
		t.Errorf("the disk cache holds used.go as of %d (%d bytes), want the last change", e.ModTime, e.Size)
	}
	if e.Outline == nil {
		t.Error("the disk cache holds no outline of used.go, which the maps showed")
	}
	if r := buildUnkept(t, root, Options{CacheDir: dir}); r.Stats.Parsed != 0 {
		t.Errorf("a new Map parsed %d files, want none", r.Stats.Parsed)
	}
}

// TestMapReused maps a tree on disk with new Maps, as commands run one
// after the other do: the first map of a Map for a request and a tree
// another Map mapped before is read from the disk cache, the same Result
// but for its stats; another request, another option, a changed file or
// a changed roles file (ignored by git, so not a file of the map) make
// the map anew, and it is the map of a Map without a cache. A map for
// words is never kept.
func TestMapReused(t *testing.T) {
	files := maps.Clone(smallTree)
	files[".gitignore"] = ".repomaproles\n"
	files[".repomaproles"] = "# none\n"
	root := writeTree(t, files)
	dir := t.TempDir()
	ctx := context.Background()
	build := func(o Options, req Request) *Result {
		t.Helper()
		m, err := New(root, &o)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		r, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	same := func(a, b *Result) bool {
		return a.Text == b.Text && a.Tokens == b.Tokens && a.Budget == b.Budget && a.Encoding == b.Encoding &&
			reflect.DeepEqual(a.Files, b.Files) && reflect.DeepEqual(a.Ranked, b.Ranked) && reflect.DeepEqual(a.Skipped, b.Skipped) &&
			reflect.DeepEqual(a.RankedFiles, b.RankedFiles) && reflect.DeepEqual(a.RankedDefs, b.RankedDefs)
	}
	later := time.Now().Add(time.Minute)
	touch := func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		later = later.Add(time.Second)
		os.Chtimes(p, later, later)
	}
	plain, focus := Request{MaxTokens: 500}, Request{MaxTokens: 500, Focus: []string{"a.go"}}
	cached := Options{CacheDir: dir}
	// The map for a focus is kept in the slot of the one for no request
	// when their keys share it, one time in memo.Slots, as the keys hold
	// the root's path: then the map for no request is not kept after it.
	km, err := New(root, &cached)
	if err != nil {
		t.Fatal(err)
	}
	kept := memo.Map.Blob(km.memoKey(plain)) != memo.Map.Blob(km.memoKey(focus))
	km.Close()
	for i, step := range []struct {
		name   string
		change func()
		o      Options
		req    Request
		reused bool
	}{
		{"first", nil, cached, plain, false},
		{"again", nil, cached, plain, true},
		{"a focus", nil, cached, focus, false},
		{"the focus again", nil, cached, focus, true},
		{"no request again", nil, cached, plain, kept},
		{"another budget", nil, Options{CacheDir: dir, MaxTokens: 300}, Request{}, false},
		{"another ranking", nil, Options{CacheDir: dir, Ranking: RankingAider}, plain, false},
		{"a file changed", func() {
			touch("b.go", "package p\n\nfunc Beta() int { return Gamma() }\n\nfunc Gamma() int { return 1 }\n")
		}, cached, plain, false},
		{"after the change", nil, cached, plain, true},
		{"the roles changed", func() { touch(".repomaproles", "test b.go\n") }, cached, plain, false},
		{"after them", nil, cached, plain, true},
		{"a file added", func() { touch("c/more.py", "def more():\n    return gamma()\n") }, cached, plain, false},
		{"words", nil, cached, Request{MaxTokens: 500, Text: "gamma is wrong"}, false},
		{"the words again", nil, cached, Request{MaxTokens: 500, Text: "gamma is wrong"}, false},
	} {
		if step.change != nil {
			step.change()
		}
		got := build(step.o, step.req)
		o := step.o
		o.CacheDir, o.NoCache = "", true
		want := build(o, step.req)
		if got.Stats.Reused != step.reused {
			t.Errorf("%d %s: Reused %v, want %v", i, step.name, got.Stats.Reused, step.reused)
		}
		if !same(got, want) {
			t.Errorf("%d %s: the map differs from a new Map's without a cache:\n%s\nwant:\n%s", i, step.name, got.Text, want.Text)
		}
		if got.Stats.Reused && (got.Stats.Parsed != 0 || got.Stats.Files != want.Stats.Files || got.Stats.Defs != want.Stats.Defs) {
			t.Errorf("%d %s: reused stats %+v, want those of %+v", i, step.name, got.Stats, want.Stats)
		}
	}
	// A Map's maps after its first are its own, and a damaged kept map
	// is made anew.
	m, err := New(root, &Options{CacheDir: dir, Refresh: RefreshAlways})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range 2 {
		r, err := m.Build(ctx, plain)
		if err != nil {
			t.Fatal(err)
		}
		if r.Stats.Reused != (i == 0) {
			t.Errorf("map %d of one Map: Reused %v", i, r.Stats.Reused)
		}
	}
	c, err := cache.New(dir, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for slot := range memo.Slots {
		if err := c.StoreBlob(ctx, memo.Map.Blob(memo.Key{byte(slot)}), []byte(string(memo.Map)+strings.Repeat("x", 100))); err != nil {
			t.Fatal(err)
		}
	}
	if r := build(cached, plain); r.Stats.Reused || !same(r, build(Options{NoCache: true}, plain)) {
		t.Errorf("with damaged kept maps: Reused %v, or the map differs", r.Stats.Reused)
	}
}

// TestRefitKept makes maps of one tree for several budgets, each by a new
// Map on one disk cache: after the first, each is fitted from the ranking
// the first kept (Stats.Refit), and is the map of a Map without a cache.
// With few items kept, a map that needs more ranks the tree again (and
// is the same map); after a file changed, the ranking kept is not used.
func TestRefitKept(t *testing.T) {
	tree := synthTree(120)
	files := textsOf(tree)
	ctx := context.Background()
	budgets := []int{1024, 300, 50000, 700}
	for _, c := range []struct {
		kept  int
		refit []bool // per budget
	}{
		{keptItems, []bool{false, true, true, true}},
		// The items the first map made, more than 5, serve 300 tokens
		// but not a map of them all: that map ranks again, and keeps all.
		{5, []bool{false, true, false, true}},
	} {
		kept := c.kept
		for _, req := range []Request{{}, {Focus: []string{"pkg1/file005.go"}}} {
			t.Run(fmt.Sprintf("%d items, %+v", kept, req), func(t *testing.T) {
				defer func(n int) { keptItems = n }(keptItems)
				keptItems = kept
				root, dir := writeTree(t, files), t.TempDir()
				mapAt := func(budget int) *Result {
					t.Helper()
					m, err := New(root, &Options{CacheDir: dir})
					if err != nil {
						t.Fatal(err)
					}
					defer m.Close()
					req.MaxTokens = budget
					r, err := m.Build(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					sameMap(t, r, build(t, tree, nil, req))
					return r
				}
				for i, budget := range budgets {
					if r := mapAt(budget); r.Stats.Refit != c.refit[i] {
						t.Errorf("%d tokens, %d items kept: refit %t, want %t", budget, kept, r.Stats.Refit, c.refit[i])
					}
				}
				later := time.Now().Add(time.Minute)
				p := filepath.Join(root, "pkg2", "file006.go")
				if err := os.WriteFile(p, []byte(files["pkg2/file006.go"]+"\nfunc Extra(w *Widget3) string { return Helper7(w.Name) }\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(p, later, later)
				tree["pkg2/file006.go"] = &fstest.MapFile{Data: []byte(files["pkg2/file006.go"] + "\nfunc Extra(w *Widget3) string { return Helper7(w.Name) }\n")}
				defer func() { tree["pkg2/file006.go"] = &fstest.MapFile{Data: []byte(files["pkg2/file006.go"])} }()
				if r := mapAt(2000); r.Stats.Refit {
					t.Error("after a file changed, the map was fitted from the ranking kept before")
				}
			})
		}
	}
}

// TestFilterKeepsCache checks that a map with Include or Exclude leaves
// the cache's entries of the files it leaves out: they are not deleted
// files, and the next map of the whole tree reads them, not parses them.
func TestFilterKeepsCache(t *testing.T) {
	for _, opts := range []Options{
		{Include: []string{"c"}},
		{Exclude: []string{"c", "d"}},
		{Exclude: []string{"*.go"}},
		{Include: []string{"*.py"}, Exclude: []string{"d/"}},
	} {
		t.Run(fmt.Sprint(opts.Include, opts.Exclude), func(t *testing.T) {
			root := writeTree(t, smallTree)
			dir := t.TempDir()
			full := buildUnkept(t, root, Options{CacheDir: dir})
			opts.CacheDir = dir
			part := buildUnkept(t, root, opts)
			if part.Stats.Files == 0 || part.Stats.Files == full.Stats.Files {
				t.Fatalf("the filtered map has %d of %d files: the case filters nothing or all", part.Stats.Files, full.Stats.Files)
			}
			again := buildUnkept(t, root, Options{CacheDir: dir})
			if again.Stats.Parsed != 0 || again.Text != full.Text {
				t.Errorf("after a map with Include %q Exclude %q, the whole tree's map parsed %d files (want 0); same text: %v",
					opts.Include, opts.Exclude, again.Stats.Parsed, again.Text == full.Text)
			}
			// A file deleted while a filter hid it is dropped by the
			// next map that sees the whole tree.
			os.Remove(filepath.Join(root, "d", "use.py"))
			buildUnkept(t, root, opts)
			buildUnkept(t, root, Options{CacheDir: dir})
			c, err := cache.New(dir, root, nil)
			if err != nil {
				t.Fatal(err)
			}
			held, err := c.Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := held["d/use.py"]; ok || len(held) != 3 {
				t.Errorf("cache holds %d entries after a delete, want 3 without d/use.py", len(held))
			}
		})
	}
}
