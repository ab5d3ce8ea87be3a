package eval

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/repomap-dev/repomap/repomap"
)

// The budgets of the exact test: at 1 token no map shows a file, at
// 100,000 every map shows every file it can.
var extremes = []int{1, 100_000}

// TestRunScriptedHistory checks every figure of a run over the scripted
// history (see scriptedHistory) against numbers worked out by hand.
//
// The ranked lists follow from the structure of the ranking (package
// rank: definitions by score, then the other graph nodes, then the files
// outside the graph by path), not from its weights, except where said:
//
//   - cli/main.go refers only to what store/store.go defines, so with
//     cli/main.go as the focus, store/store.go ranks first.
//   - The graph's nodes are store/store.go and cli/main.go; the files
//     without tags (.gitignore, assets/logo.png, scripts/NOTES,
//     scripts/lint, tools/*.py) come after them, by path.
//   - Without personalization toward it, cli/main.go ranks after
//     store/store.go: cli/main.go sends its rank to the definitions of
//     store/store.go, and its own only definition, main, is referenced
//     by no file. (This one depends on the weights.)
//   - third_party/lib/lib.go is ignored: never in the map, never ranked.
//
// The random order sorts the candidates by SHA-256 of
// "0\x00<commit>\x00<path>" (seed 0); the orders, from sha256sum:
//
//	c1: tools/notes.py, store/store.go, tools/clamp.py  (focus cli/main.go left out)
//	    cli/main.go, tools/notes.py, store/store.go, tools/clamp.py
//	c3: store/store.go, tools/clamp.py, tools/notes.py  (focus left out)
//	    store/store.go, tools/clamp.py, tools/notes.py, cli/main.go
//	c5: scripts/lint, tools/notes.py, store/store.go, cli/main.go  (focus left out)
//	    scripts/lint, tools/notes.py, tools/clamp.py, store/store.go, cli/main.go
func TestRunScriptedHistory(t *testing.T) {
	h := scriptedHistory(t)
	rep, err := Run(context.Background(), Config{Dir: h.repo.dir, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	c := h.c

	// Which commits: newest first, the merge not read.
	if rep.Head != c[6] || rep.Scanned != 7 {
		t.Errorf("Head, Scanned = %s, %d; want %s (c6), 7", rep.Head, rep.Scanned, c[6])
	}
	wantSkipped := map[string]int{SkipRoot: 1, SkipFew: 1, SkipFewThere: 1, SkipMany: 1}
	if diff := cmp.Diff(wantSkipped, rep.Skipped); diff != "" {
		t.Errorf("Skipped (-want +got):\n%s", diff)
	}

	// found, files: per budget (1, 100000).
	out := func(first int, found1, found2, files2 int) Outcome {
		return Outcome{First: first, Found: []int{found1, found2}, Files: []int{0, files2}}
	}
	wantCommits := []Commit{
		{
			// Before c5: .gitignore, assets/logo.png, cli/main.go, scripts/NOTES,
			// scripts/lint, store/store.go, tools/clamp.py, tools/notes.py.
			Hash: c[5], Parent: c[4], Subject: "tools: clamp handles lo > hi",
			Wanted: []string{"tools/clamp.py", "tools/notes.py"}, Focus: "tools/clamp.py",
			Mentioned: []string{"tools/clamp.py"},
			Results: []CommitResult{{
				Focus: Outcomes{
					// 2 nodes, then the files by name, the source ones
					// (NOTES, lint, notes.py) before .gitignore and the
					// logo: 5th. Every file but the focus is shown at
					// 100000: 7.
					Map: out(5, 0, 1, 7),
					// Candidates: store, cli, lint, notes.py; notes.py is 2nd.
					Random:   out(2, 0, 1, 4),
					PageRank: out(5, 0, 1, 8),
				},
				Message: Outcomes{
					// clamp.py is mentioned, but it is outside the graph:
					// 2 nodes, then NOTES, lint, clamp.py.
					Map:      out(5, 0, 2, 8),
					Random:   out(2, 0, 2, 5),
					PageRank: out(5, 0, 2, 8),
				},
			}},
		},
		{
			// Before c3: .gitignore, assets/logo.png, cli/main.go, scripts/NOTES,
			// store/store.go, tools/clamp.py, tools/notes.py.
			Hash: c[3], Parent: c[2], Subject: "lib: update to 1.1",
			Wanted: []string{"cli/main.go", "third_party/lib/lib.go"}, Focus: "cli/main.go",
			Results: []CommitResult{{
				Focus: Outcomes{
					// The only other wanted file is ignored.
					Map:      out(0, 0, 0, 6),
					Random:   out(0, 0, 0, 3),
					PageRank: out(0, 0, 0, 7),
				},
				Message: Outcomes{
					// No file mentioned; cli/main.go after store/store.go.
					Map:      out(2, 0, 1, 7),
					Random:   out(4, 0, 1, 4),
					PageRank: out(2, 0, 1, 7),
				},
			}},
		},
		{
			// Before c1: .gitignore, assets/logo.png, cli/main.go,
			// store/store.go, tools/clamp.py, tools/notes.py.
			Hash: c[1], Parent: c[0], Subject: "store: Open takes a timeout",
			Wanted: []string{"cli/main.go", "store/store.go"}, Focus: "cli/main.go",
			Mentioned: []string{"store/store.go"},
			Results: []CommitResult{{
				Focus: Outcomes{
					Map:      out(1, 0, 1, 5),
					Random:   out(2, 0, 1, 3),
					PageRank: out(1, 0, 1, 6),
				},
				Message: Outcomes{
					// Both graph nodes are wanted: the first is.
					Map:      out(1, 0, 2, 6),
					Random:   out(1, 0, 2, 4),
					PageRank: out(1, 0, 2, 6),
				},
			}},
		},
	}
	ignore := cmp.Options{
		cmpopts.IgnoreFields(Commit{}, "Message", "Overview"), // see TestOverview
		cmpopts.IgnoreFields(CommitResult{}, "Overview"),
		cmpopts.IgnoreFields(Outcome{}, "Tokens"),
	}
	if diff := cmp.Diff(wantCommits, rep.Commits, ignore); diff != "" {
		t.Errorf("Commits (-want +got):\n%s", diff)
	}
	for _, cm := range rep.Commits {
		for _, r := range cm.Results {
			for _, o := range []Outcome{r.Focus.Map, r.Focus.PageRank, r.Message.Map, r.Message.PageRank} {
				if o.Tokens[0] != 0 || o.Tokens[1] <= 0 || o.Tokens[1] > extremes[1] {
					t.Errorf("%s: tokens %v, want 0 then in (0, %d]", cm.Subject, o.Tokens, extremes[1])
				}
			}
			for _, o := range []Outcome{r.Focus.Random, r.Message.Random} {
				if !slices.Equal(o.Tokens, []int{0, 0}) {
					t.Errorf("%s: random baseline's tokens %v, want none", cm.Subject, o.Tokens)
				}
			}
		}
	}

	// The figures: means over the 3 commits.
	v := rep.Variants[0]
	if v.Name != "default" || len(rep.Variants) != 1 {
		t.Errorf("Variants = %+v, want one named default", rep.Variants)
	}
	type m = Metrics
	// Focus: reciprocal ranks 1/5, 0, 1 (map and pagerank), 1/2, 0, 1/2
	// (random); at 100000 tokens, 1 of 1, 0 of 1 and 1 of 1 wanted files
	// shown. Files at 100000: map 7, 6, 5; random 4, 3, 3; pagerank 8, 7, 6.
	wantFocus := []Row{
		{Budget: 1, Map: m{MRR: (1.0/5 + 1) / 3}, Random: m{MRR: 1.0 / 3}, PageRank: m{MRR: (1.0/5 + 1) / 3}},
		{
			Budget:   100_000,
			Map:      m{Recall: 2.0 / 3, HitRate: 2.0 / 3, MRR: (1.0/5 + 1) / 3, Files: 6},
			Random:   m{Recall: 2.0 / 3, HitRate: 2.0 / 3, MRR: 1.0 / 3, Files: 10.0 / 3},
			PageRank: m{Recall: 2.0 / 3, HitRate: 2.0 / 3, MRR: (1.0/5 + 1) / 3, Files: 7},
		},
	}
	// Message: reciprocal ranks 1/5, 1/2, 1 (map and pagerank), 1/2,
	// 1/4, 1 (random); at 100000 tokens, 2 of 2, 1 of 2 and 2 of 2 shown.
	// Files at 100000: map and pagerank 8, 7, 6; random 5, 4, 4.
	wantMessage := []Row{
		{Budget: 1, Map: m{MRR: (1.0/5 + 0.5 + 1) / 3}, Random: m{MRR: (0.5 + 0.25 + 1) / 3}, PageRank: m{MRR: (1.0/5 + 0.5 + 1) / 3}},
		{
			Budget:   100_000,
			Map:      m{Recall: 2.5 / 3, HitRate: 1, MRR: (1.0/5 + 0.5 + 1) / 3, Files: 7},
			Random:   m{Recall: 2.5 / 3, HitRate: 1, MRR: (0.5 + 0.25 + 1) / 3, Files: 13.0 / 3},
			PageRank: m{Recall: 2.5 / 3, HitRate: 1, MRR: (1.0/5 + 0.5 + 1) / 3, Files: 7},
		},
	}
	approx := cmp.Options{
		cmpopts.EquateApprox(0, 1e-12),
		cmpopts.IgnoreFields(Metrics{}, "Tokens"),
	}
	if diff := cmp.Diff(wantFocus, v.Focus, approx); diff != "" {
		t.Errorf("Focus rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantMessage, v.Message, approx); diff != "" {
		t.Errorf("Message rows (-want +got):\n%s", diff)
	}
	for _, rows := range [][]Row{v.Focus, v.Message} {
		if rows[0].Map.Tokens != 0 || rows[1].Map.Tokens <= 0 || rows[1].Random.Tokens != 0 {
			t.Errorf("tokens: %+v", rows)
		}
	}

	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"commits     3 evaluated of 7 non-merge commits scanned; skipped: 1 fewer than 2 source files touched, " +
			"1 fewer than 2 touched source files in the parent, 1 more than 20 source files touched, 1 root commit\n",
		"tags computed for 12 of 21 files (42.9% reused)\n",
		"\n       1   0.000  0.000  0.400       0    0.0     0.000  0.000  0.333       0.000  0.000  0.400       0    0.0\n",
		"\n       1   0.000  0.000  0.567       0    0.0     0.000  0.000  0.583       0.000  0.000  0.567       0    0.0\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("WriteText: no %q in\n%s", want, text.String())
		}
	}

	// Reuse: the trees before c5 (8 files, all parsed), c3 (7 files:
	// store/store.go and cli/main.go differ from before c5) and c1 (6
	// files: the same two differ from before c3). 3 questions × 2 budgets
	// a commit.
	if v.Files != 21 || v.Parsed != 12 || v.Builds != 18 {
		t.Errorf("Files, Parsed, Builds = %d, %d, %d; want 21, 12, 18", v.Files, v.Parsed, v.Builds)
	}
}

// TestRunStopsEarly checks that reading the history stops at the last
// commit wanted.
func TestRunStopsEarly(t *testing.T) {
	h := scriptedHistory(t)
	rep, err := Run(context.Background(), Config{Dir: h.repo.dir, Commits: 2, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rep.Commits {
		got = append(got, c.Hash)
	}
	// c6 skipped, c5 taken, c4 skipped, c3 taken: four read.
	if want := []string{h.c[5], h.c[3]}; !slices.Equal(got, want) || rep.Scanned != 4 {
		t.Errorf("commits %v, scanned %d; want %v (c5, c3), 4", got, rep.Scanned, want)
	}
	// From a revision: the history of c4 has c3 and c1.
	rep, err = Run(context.Background(), Config{Dir: h.repo.dir, Rev: h.c[4], Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, c := range rep.Commits {
		got = append(got, c.Hash)
	}
	if want := []string{h.c[3], h.c[1]}; !slices.Equal(got, want) {
		t.Errorf("commits from c4: %v, want %v (c3, c1)", got, want)
	}
}

// TestRunVariants checks that variants are measured side by side, each
// with its own options.
func TestRunVariants(t *testing.T) {
	h := scriptedHistory(t)
	rep, err := Run(context.Background(), Config{
		Dir:     h.repo.dir,
		Budgets: extremes,
		Variants: []Variant{
			{Name: "o200k"},
			{Name: "cl100k", Options: func() *repomap.Options {
				// MaxTokens is the request's; Refresh is always.
				return &repomap.Options{Encoding: repomap.Cl100kBase, MaxTokens: 5, Refresh: repomap.RefreshManual}
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Variants) != 2 || rep.Variants[0].Name != "o200k" || rep.Variants[1].Name != "cl100k" {
		t.Fatalf("Variants = %+v", rep.Variants)
	}
	a, b := rep.Variants[0], rep.Variants[1]
	// The same maps at these budgets, counted by two tokenizers.
	noTokens := cmpopts.IgnoreFields(Metrics{}, "Tokens")
	if diff := cmp.Diff(a.Focus, b.Focus, noTokens); diff != "" {
		t.Errorf("focus rows differ (-o200k +cl100k):\n%s", diff)
	}
	if diff := cmp.Diff(a.Message, b.Message, noTokens); diff != "" {
		t.Errorf("message rows differ (-o200k +cl100k):\n%s", diff)
	}
	if a.Files != b.Files || a.Parsed != b.Parsed {
		t.Errorf("files/parsed: %d/%d and %d/%d", a.Files, a.Parsed, b.Files, b.Parsed)
	}
	for _, c := range rep.Commits {
		if len(c.Results) != 2 {
			t.Errorf("%s: %d results, want 2", c.Subject, len(c.Results))
		}
	}
}

// TestRunMonotone checks, at many budgets, that a larger budget never
// shows fewer files: a map is a prefix of the ranked list, and the random
// baseline a prefix of its order.
func TestRunMonotone(t *testing.T) {
	h := scriptedHistory(t)
	budgets := []int{1, 8, 16, 24, 32, 48, 64, 96, 128, 256, 100_000}
	rep, err := Run(context.Background(), Config{Dir: h.repo.dir, Budgets: budgets})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Commits {
		for q, o := range map[string]Outcomes{"focus": c.Results[0].Focus, "message": c.Results[0].Message} {
			for name, out := range map[string]Outcome{"map": o.Map, "random": o.Random, "pagerank": o.PageRank} {
				for j := 1; j < len(budgets); j++ {
					if out.Found[j] < out.Found[j-1] || out.Files[j] < out.Files[j-1] {
						t.Errorf("%s %s %s: found %v, files %v: not monotone", c.Subject, q, name, out.Found, out.Files)
						break
					}
				}
				for j, n := range out.Tokens {
					if n > budgets[j] {
						t.Errorf("%s %s %s: %d tokens at budget %d", c.Subject, q, name, n, budgets[j])
					}
				}
			}
		}
		for name, out := range map[string]OverviewOutcome{"map": c.Results[0].Overview.Map, "random": c.Results[0].Overview.Random} {
			for j := range budgets {
				if out.Found[j] > out.InFiles[j] || j > 0 && (out.Found[j] < out.Found[j-1] || out.InFiles[j] < out.InFiles[j-1] || out.Files[j] < out.Files[j-1]) {
					t.Errorf("%s overview %s: found %v, in files %v, files %v: not monotone", c.Subject, name, out.Found, out.InFiles, out.Files)
					break
				}
			}
		}
	}
}

// TestRunDoesNotWrite checks that a run leaves the repository as it was:
// the same "git status", and every file and directory under the work
// tree and .git with the same size, mode and modification time.
func TestRunDoesNotWrite(t *testing.T) {
	h := scriptedHistory(t)
	// An uncommitted change and an untracked file, which a checkout would
	// trip over.
	if err := os.WriteFile(filepath.Join(h.repo.dir, "cli", "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.repo.dir, "untracked.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status := func() string {
		return h.repo.git("--no-optional-locks", "status", "--porcelain=v1", "--ignored", "--untracked-files=all")
	}
	beforeFiles, beforeStatus := snapshot(t, h.repo.dir), status()
	if _, err := Run(context.Background(), Config{Dir: h.repo.dir, Budgets: []int{64, 1024}}); err != nil {
		t.Fatal(err)
	}
	afterStatus, afterFiles := status(), snapshot(t, h.repo.dir)
	if diff := cmp.Diff(beforeStatus, afterStatus); diff != "" {
		t.Errorf("git status changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeFiles, afterFiles); diff != "" {
		t.Errorf("files changed (-before +after):\n%s", diff)
	}
}

// snapshot returns the size, mode and modification time of every file and
// directory under dir, by path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := make(map[string]string)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = fmt.Sprintf("%v %d %v", info.Mode(), info.Size(), info.ModTime().UTC())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTreeFS checks the tree of a commit against io/fs's rules, and that
// the same blob has the same size and time.
func TestTreeFS(t *testing.T) {
	h := scriptedHistory(t)
	ctx := context.Background()
	r := &repo{dir: h.repo.dir}
	bl, err := r.openBlobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bl.Close()
	files, err := r.tree(ctx, h.c[4])
	if err != nil {
		t.Fatal(err)
	}
	fsys := &treeFS{blobs: bl}
	fsys.set(newTree(files))
	if err := fstest.TestFS(fsys, ".gitignore", "assets/logo.png", "cli/main.go", "scripts/lint", "store/store.go",
		"third_party/lib/lib.go", "tools/clamp.py"); err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(fsys, "cli/main.go")
	if err != nil || !strings.Contains(string(data), `store.Open("data", 10)`) {
		t.Errorf("cli/main.go = %q, %v", data, err)
	}

	// tools/clamp.py is the same before c4 and c5; store/store.go is not.
	old, err := r.tree(ctx, h.c[0])
	if err != nil {
		t.Fatal(err)
	}
	stat := func(t *tree, p string) fs.FileInfo {
		fsys.set(t)
		info, err := fs.Stat(fsys, p)
		if err != nil {
			panic(err)
		}
		return info
	}
	t0, t4 := newTree(old), newTree(files)
	if a, b := stat(t0, "tools/clamp.py"), stat(t4, "tools/clamp.py"); !a.ModTime().Equal(b.ModTime()) || a.Size() != b.Size() {
		t.Errorf("tools/clamp.py: %v %d and %v %d, want the same", a.ModTime(), a.Size(), b.ModTime(), b.Size())
	}
	if a, b := stat(t0, "store/store.go"), stat(t4, "store/store.go"); a.ModTime().Equal(b.ModTime()) {
		t.Errorf("store/store.go: the same time %v for two contents", a.ModTime())
	}
	if got := blobTime(files["cli/main.go"].oid); got.UnixNano() < 0 || !got.Equal(blobTime(files["cli/main.go"].oid)) {
		t.Errorf("blobTime = %v", got)
	}
}

// TestRandomOrder checks the random baseline's order against sha256sum:
//
//	printf '7\0deadbeef\0a.go' | sha256sum   →  05c8d139…
//	…b.go → e578b4a2…, c.go → 31cd1ae9…, d.go → 485d9e7c…
//	with seed -3: a.go 90bc3991…, b.go c2e47137…, c.go bdd6ffbc…, d.go d2710df4…
func TestRandomOrder(t *testing.T) {
	files := []string{"a.go", "b.go", "c.go", "d.go"}
	for _, tc := range []struct {
		seed int64
		want []string
	}{
		{7, []string{"a.go", "c.go", "d.go", "b.go"}},
		{-3, []string{"a.go", "c.go", "b.go", "d.go"}},
	} {
		if got := randomOrder(tc.seed, "deadbeef", files); !slices.Equal(got, tc.want) {
			t.Errorf("randomOrder(%d, deadbeef, %v) = %v, want %v", tc.seed, files, got, tc.want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	h := scriptedHistory(t)
	for _, cfg := range []Config{
		{Dir: h.repo.dir, Commits: -1},
		{Dir: h.repo.dir, Budgets: []int{}},
		{Dir: h.repo.dir, Budgets: []int{1024, 0}},
		{Dir: h.repo.dir, Variants: []Variant{{Name: "a"}, {Name: "a"}}},
		{Dir: h.repo.dir, Variants: []Variant{{Name: "bad", Options: func() *repomap.Options { return &repomap.Options{Encoding: "nope"} }}}},
		{Dir: h.repo.dir, Rev: "no-such-branch"},
		{Dir: h.repo.dir, Rev: "--all"},
		{Dir: t.TempDir()}, // not a repository
	} {
		if rep, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run(%+v) = %d commits, want an error", cfg, len(rep.Commits))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Config{Dir: h.repo.dir}); err == nil {
		t.Error("Run with a cancelled context: no error")
	}
}

// TestHistoryOddMessages checks that messages which look like the
// output's framing do not confuse the reading of the history.
func TestHistoryOddMessages(t *testing.T) {
	r := newTestRepo(t)
	r.commit("Start", map[string]string{"a.go": "package a\n\nvar A = 0\n", "b.go": "package b\n\nvar B = 0\n"})
	msg := ":100644 100644 0000 1111 M\n\x1eabc def\n\nbody: a.go b.go"
	hash := r.commit(msg, map[string]string{"a.go": "package a\n\nvar A = 1\n", "b.go": "package b\n\nvar B = 2\n"})
	rep, err := Run(context.Background(), Config{Dir: r.dir, Budgets: []int{1024}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Commits) != 1 {
		t.Fatalf("%d commits, want 1", len(rep.Commits))
	}
	c := rep.Commits[0]
	if c.Hash != hash || c.Subject != ":100644 100644 0000 1111 M" || !slices.Equal(c.Wanted, []string{"a.go", "b.go"}) ||
		!strings.Contains(c.Message, "\x1eabc def") {
		t.Errorf("commit = %+v", c)
	}
	if f := c.Results[0].Message.Map.First; f != 1 || math.IsNaN(rep.Variants[0].Message[0].Map.Recall) {
		t.Errorf("message: first %d, rows %+v", f, rep.Variants[0].Message)
	}
}
