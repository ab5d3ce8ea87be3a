package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/gittest"
	githistory "github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/repomap"
)

// TestHistoryAtParent checks that the maps of a commit are ranked with
// the history as it stood at its parent: the same ranking as a map of
// the parent's tree with the history read up to the parent, and not the
// one the history up to the newest commit gives.
func TestHistoryAtParent(t *testing.T) {
	r := gittest.New(t)
	tree := map[string]string{
		"s.go": "package p\n\nfunc Shared() int { return 1 }\n",
		"a.go": "package p\n\nfunc A() int { return Shared() }\n",
		"m.go": "package p\n\nfunc M() int { return Shared() }\n",
		"z.go": "package p\n\nfunc Z() int { return Shared() }\n",
	}
	edit := func(n string, files ...string) map[string]string {
		out := make(map[string]string)
		for _, f := range files {
			out[f] = tree[f] + "// " + n + "\n"
		}
		return out
	}
	r.Commit("start", tree)
	r.Commit("a and m", edit("1", "a.go", "m.go"))
	r.Commit("a and z", edit("2", "a.go", "z.go"))
	r.Commit("a and z again", edit("3", "a.go", "z.go"))
	pol, err := experiment.Parse("default+history")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rep, err := Run(ctx, Config{Dir: r.Dir, Commits: 2, Budgets: []int{100000}, Variants: []Variant{{
		Name: "history", Options: func() *repomap.Options { p := pol; return &repomap.Options{Policy: &p} },
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Commits) != 2 {
		t.Fatalf("%d commits evaluated, want 2", len(rep.Commits))
	}
	// first returns where z.go is in the ranked list of the map of the
	// tree of the commit at for a focus on a.go, with the history up to
	// the commit upTo.
	first := func(at, upTo string) int {
		r.Git("checkout", "-q", at)
		m, err := repomap.New(r.Dir, &repomap.Options{Policy: &pol, NoCache: true,
			History: func(ctx context.Context, o githistory.Options) (*githistory.History, error) {
				return githistory.Read(ctx, r.Dir, upTo, o)
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		res, err := m.Build(ctx, repomap.Request{Focus: []string{"a.go"}, MaxTokens: 100000})
		if err != nil {
			t.Fatal(err)
		}
		return slices.Index(res.Ranked, "z.go") + 1
	}
	for _, c := range rep.Commits {
		if c.Focus != "a.go" || !slices.Equal(c.Wanted, []string{"a.go", "z.go"}) {
			t.Fatalf("commit %s: focus %s, wanted %v", c.Subject, c.Focus, c.Wanted)
		}
		got := c.Results[0].Focus.Map.First
		if want := first(c.Parent, c.Parent); got != want {
			t.Errorf("commit %q: z.go ranked %d, want %d as with the history at its parent", c.Subject, got, want)
		}
	}
	// The test can tell: with the history up to the newest commit, the
	// older commit's map ranks z.go higher.
	older := rep.Commits[1]
	if leak := first(older.Parent, rep.Head); leak >= older.Results[0].Focus.Map.First {
		t.Errorf("with the newest history z.go ranks %d, not above %d: the test cannot tell a leak", leak, older.Results[0].Focus.Map.First)
	}
}

func TestHistories(t *testing.T) {
	r := gittest.New(t)
	c0 := r.Commit("start", map[string]string{"a.go": "a", "b.go": "b"})
	c1 := r.Commit("next", map[string]string{"a.go": "a2", "c.go": "c"})
	h := &histories{dir: r.Dir}
	ctx := context.Background()
	for _, at := range []string{c1, c0, c1} {
		h.set(at)
		got, err := h.history(ctx, githistory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		again, _ := h.history(ctx, githistory.Options{Depth: githistory.DefaultDepth})
		if got.Head != at || got != again {
			t.Errorf("history at %s: head %s; read twice for the same options: %v", at, got.Head, got != again)
		}
		if at == c0 && slices.Contains(got.Paths, "c.go") {
			t.Errorf("history at %s holds c.go, which a later commit added", at)
		}
	}
}
