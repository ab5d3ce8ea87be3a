package repomap

import (
	"bytes"
	"context"
	"log/slog"
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

// TestNoHistory checks that a tree outside git, and a shallow clone, map
// as with NoHistory, and that the Map says why once.
func TestNoHistory(t *testing.T) {
	r := histRepo(t)
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "2", "file://"+r.Dir, shallow)
	for _, tc := range []struct {
		name, dir, reason string
	}{
		{"outside git", writeTree(t, histTree), "not in a git repository"},
		{"shallow clone", shallow, "a shallow clone"},
	} {
		var logs bytes.Buffer
		o := historyOptions(t, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		m, err := New(tc.dir, &o)
		if err != nil {
			t.Fatal(err)
		}
		got := rankedFor(t, m)
		if _, err := m.Build(context.Background(), Request{Text: "Shared"}); err != nil {
			t.Fatal(err)
		}
		m.Close()
		o.NoHistory, o.Logger = true, nil
		m, err = New(tc.dir, &o)
		if err != nil {
			t.Fatal(err)
		}
		want := rankedFor(t, m)
		m.Close()
		if !slices.Equal(got, want) {
			t.Errorf("%s: ranked %v, want %v as without history", tc.name, got, want)
		}
		if n := strings.Count(logs.String(), "ranked without history"); n != 1 || !strings.Contains(logs.String(), tc.reason) {
			t.Errorf("%s: %d lines on the history, want 1 saying %q:\n%s", tc.name, n, tc.reason, logs.String())
		}
	}
}
