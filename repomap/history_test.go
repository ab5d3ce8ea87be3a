package repomap

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/gittest"
	"github.com/repomap-dev/repomap/internal/history"
)

// The files of the history tests: a.go, m.go and z.go each use Shared,
// and nothing else links them, so that without history m.go and z.go
// rank alike for a focus on a.go (m.go first, by path).
var histTree = map[string]string{
	"s.go": "package p\n\nfunc Shared() int { return 1 }\n",
	"a.go": "package p\n\nfunc A() int { return Shared() }\n",
	"m.go": "package p\n\nfunc M() int { return Shared() }\n",
	"z.go": "package p\n\nfunc Z() int { return Shared() }\n",
}

// histRepo returns a repository of histTree in which a.go and z.go
// changed together twice, and m.go alone.
func histRepo(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Commit("start", histTree)
	r.Commit("a and z", map[string]string{"a.go": histTree["a.go"] + "// 1\n", "z.go": histTree["z.go"] + "// 1\n"})
	r.Commit("m", map[string]string{"m.go": histTree["m.go"] + "// 1\n"})
	r.Commit("a and z again", map[string]string{"a.go": histTree["a.go"] + "// 2\n", "z.go": histTree["z.go"] + "// 2\n"})
	return r
}

// historyOptions returns options with the history on, and a cache in a
// directory of the test's.
func historyOptions(t *testing.T, logger *slog.Logger) Options {
	return Options{Policy: experimentPolicy(t, "default+history"), CacheDir: t.TempDir(), Logger: logger}
}

// rankedFor returns the files the map of m for a focus on a.go ranks.
func rankedFor(t *testing.T, m *Map) []string {
	t.Helper()
	r, err := m.Build(context.Background(), Request{Focus: []string{"a.go"}, MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return r.Ranked
}

// before reports whether a comes before b in list.
func before(list []string, a, b string) bool {
	i, j := slices.Index(list, a), slices.Index(list, b)
	return i >= 0 && j >= 0 && i < j
}

func TestHistoryFocus(t *testing.T) {
	r := histRepo(t)
	for _, noHistory := range []bool{false, true} {
		o := historyOptions(t, nil)
		o.NoHistory = noHistory
		m, err := New(r.Dir, &o)
		if err != nil {
			t.Fatal(err)
		}
		got := rankedFor(t, m)
		m.Close()
		if want := !noHistory; before(got, "z.go", "m.go") != want {
			t.Errorf("NoHistory %v: ranked %v: z.go before m.go is %v, want %v", noHistory, got, !want, want)
		}
	}
}

// TestHistoryHeadMoves checks that a Map kept open, and a new one reading
// the disk cache, rank with the history as HEAD says it is, even when a
// commit changed no file of the tree since the last map.
func TestHistoryHeadMoves(t *testing.T) {
	r := gittest.New(t)
	r.Commit("start", histTree)
	r.Commit("m alone", map[string]string{"m.go": histTree["m.go"] + "// 1\n"})
	// a.go and z.go are changed in the work tree, not yet committed.
	r.Write(map[string]string{"a.go": histTree["a.go"] + "// 1\n", "z.go": histTree["z.go"] + "// 1\n"})
	o := historyOptions(t, nil)
	m, err := New(r.Dir, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := rankedFor(t, m); before(got, "z.go", "m.go") {
		t.Fatalf("before the commit: ranked %v, want m.go before z.go", got)
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "a and z") // the files stay as they are
	head := r.Git("rev-parse", "HEAD")
	if got := rankedFor(t, m); !before(got, "z.go", "m.go") {
		t.Errorf("after the commit, the same Map: ranked %v, want z.go before m.go", got)
	}
	m2, err := New(r.Dir, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if got := rankedFor(t, m2); !before(got, "z.go", "m.go") {
		t.Errorf("after the commit, a new Map: ranked %v, want z.go before m.go", got)
	}
	// The disk cache keeps the history read up to HEAD.
	c, err := cache.New(o.CacheDir, r.Dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	blob, err := c.LoadBlob(context.Background(), historyBlob)
	if err != nil {
		t.Fatal(err)
	}
	h, err := history.Decode(blob)
	if err != nil || h.Head != head || len(h.Commits) != 3 {
		t.Errorf("kept history: %v, %v (want head %s, 3 commits)", h, err, head)
	}
}

// TestNoHistory checks that a tree outside git, a shallow clone, and a
// corrupt repository map exactly as with NoHistory, with and without a
// request's words, and that the Map says why in one Debug line.
func TestNoHistory(t *testing.T) {
	r := histRepo(t)
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "2", "file://"+r.Dir, shallow)
	// A repository whose objects are gone: HEAD names a commit git
	// cannot read.
	noObjects := histRepo(t)
	objects := filepath.Join(noObjects.Dir, ".git", "objects")
	removeAll(t, objects)
	if err := os.MkdirAll(filepath.Join(objects, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A repository whose HEAD is not a ref or a commit.
	badHead := histRepo(t)
	if err := os.WriteFile(filepath.Join(badHead.Dir, ".git", "HEAD"), []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A .git file that names no git directory.
	badLink := writeTree(t, histTree)
	if err := os.WriteFile(filepath.Join(badLink, ".git"), []byte("not a link\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, reason string
	}{
		{"outside git", writeTree(t, histTree), "not in a git repository"},
		{"shallow clone", shallow, "a shallow clone"},
		{"objects gone", noObjects.Dir, "exit status 128"},
		{"bad HEAD", badHead.Dir, "HEAD"},
		{"bad .git file", badLink, "not a .git file"},
	} {
		reqs := []Request{
			{Focus: []string{"a.go"}, MaxTokens: 1000},
			{Text: "change Shared and A", MaxTokens: 1000},
		}
		var logs bytes.Buffer
		o := historyOptions(t, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		got := buildAll(t, tc.dir, &o, reqs)
		o.NoHistory, o.Logger, o.CacheDir = true, nil, t.TempDir()
		want := buildAll(t, tc.dir, &o, reqs)
		for i := range reqs {
			if got[i].Text != want[i].Text || !slices.Equal(got[i].Ranked, want[i].Ranked) {
				t.Errorf("%s, request %d: map\n%s\nwant as without history:\n%s", tc.name, i, got[i].Text, want[i].Text)
			}
		}
		if n := strings.Count(logs.String(), "ranked without history"); n != 1 || !strings.Contains(logs.String(), tc.reason) {
			t.Errorf("%s: %d lines on the history, want 1 saying %q:\n%s", tc.name, n, tc.reason, logs.String())
		}
	}
}

// buildAll returns the maps of the tree at dir for reqs, made by one Map
// with o.
func buildAll(t *testing.T, dir string, o *Options, reqs []Request) []*Result {
	t.Helper()
	m, err := New(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var out []*Result
	for _, req := range reqs {
		r, err := m.Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// removeAll removes dir and what it holds.
func removeAll(t *testing.T, dir string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryDepth checks that Options.HistoryDepth limits the commits
// read: a.go changed with m.go twice, then with z.go once; the whole
// history puts m.go first, the last commit alone z.go.
func TestHistoryDepth(t *testing.T) {
	r := gittest.New(t)
	r.Commit("start", histTree)
	r.Commit("a and m", map[string]string{"a.go": histTree["a.go"] + "// 1\n", "m.go": histTree["m.go"] + "// 1\n"})
	r.Commit("a and m again", map[string]string{"a.go": histTree["a.go"] + "// 2\n", "m.go": histTree["m.go"] + "// 2\n"})
	r.Commit("a and z", map[string]string{"a.go": histTree["a.go"] + "// 3\n", "z.go": histTree["z.go"] + "// 3\n"})
	for _, tc := range []struct {
		depth   int
		zBefore bool
	}{{0, false}, {1, true}, {3, false}} {
		o := historyOptions(t, nil)
		o.HistoryDepth = tc.depth
		m, err := New(r.Dir, &o)
		if err != nil {
			t.Fatal(err)
		}
		got := rankedFor(t, m)
		m.Close()
		if before(got, "z.go", "m.go") != tc.zBefore {
			t.Errorf("HistoryDepth %d: ranked %v, want z.go before m.go %v", tc.depth, got, tc.zBefore)
		}
	}
	o := historyOptions(t, nil)
	o.HistoryDepth = -1
	if _, err := New(r.Dir, &o); err == nil {
		t.Error("HistoryDepth -1: no error")
	}
}

// TestHistoryMessages checks that, for a request's words, the file that
// past commits whose messages match the words changed moves up among the
// files the words find, and only with the history.
func TestHistoryMessages(t *testing.T) {
	tree := map[string]string{
		"a.py": "def widget_parser():\n    return 'parse the widget'\n",
		"b.py": "def widget_helper():\n    return 'widget parser'\n",
		"c.py": "def widget_store():\n    return 1\n",
		"d.py": "def widget_other():\n    return 'widget parser'\n",
	}
	r := gittest.New(t)
	r.Commit("start", tree)
	r.Commit("Fix the frobnicator's overflow", map[string]string{"c.py": tree["c.py"] + "# bounded\n"})
	r.Commit("Tidy the helpers", map[string]string{"b.py": tree["b.py"] + "# tidy\n", "d.py": tree["d.py"] + "# tidy\n"})
	place := make(map[bool]int) // by NoHistory: c.py's place in the ranked files
	for _, noHistory := range []bool{false, true} {
		o := Options{CacheDir: t.TempDir(), NoHistory: noHistory}
		m, err := New(r.Dir, &o)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Build(context.Background(), Request{Text: "the widget parser overflows: a frobnicator bug", MaxTokens: 1000})
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		place[noHistory] = slices.Index(res.Ranked, "c.py")
		t.Logf("NoHistory %v: ranked %v", noHistory, res.Ranked)
	}
	if !(place[false] >= 0 && place[false] < place[true]) {
		t.Errorf("c.py's place in the ranked files: %d with the history, %d without; want it higher with", place[false], place[true])
	}
}
