package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// scriptedTasks returns tasks over the scripted history (see
// scriptedHistory), as repository "example/app", and the mirrors that
// hold it:
//
//	app-1  base c0  gold store/store.go, cli/main.go (+ assets/logo.png, not
//	                source; missing.go, absent)
//	app-2  base c4  gold tools/clamp.py, named in the statement
//	app-3  base c1  gold tools/notes.py, named by its stem
//	app-4  base c0  gold docs/none.md only: skipped
//	app-5  a base commit the mirror does not have: skipped
//	app-6  repository other/repo, without a mirror: skipped
func scriptedTasks(t *testing.T) ([]Task, map[string]string, *history) {
	h := scriptedHistory(t)
	c := h.c
	tasks := []Task{
		{InstanceID: "app-1", Repo: "example/app", BaseCommit: c[0],
			ProblemStatement: "Get returns the wrong value",
			GoldFiles:        []string{"store/store.go", "cli/main.go", "assets/logo.png", "missing.go"}},
		{InstanceID: "app-2", Repo: "example/app", BaseCommit: c[4][:12],
			ProblemStatement: "clamp should handle lo > hi, see tools/clamp.py",
			GoldFiles:        []string{"tools/clamp.py"}},
		{InstanceID: "app-3", Repo: "example/app", BaseCommit: c[1],
			ProblemStatement: "the tools notes are out of date",
			GoldFiles:        []string{"tools/notes.py"}},
		{InstanceID: "app-4", Repo: "example/app", BaseCommit: c[0], GoldFiles: []string{"docs/none.md"}},
		{InstanceID: "app-5", Repo: "example/app", BaseCommit: strings.Repeat("0123456789", 4), GoldFiles: []string{"cli/main.go"}},
		{InstanceID: "app-6", Repo: "other/repo", BaseCommit: c[0], GoldFiles: []string{"cli/main.go"}},
	}
	return tasks, map[string]string{"example/app": h.repo.dir}, h
}

// TestRunTasks checks every figure of a run over the scripted tasks
// against numbers worked out by hand.
//
// At 1 token no map shows a file; at 100,000 every map shows every file
// of the tree (third_party/lib/lib.go aside, which is ignored), and the
// baselines every candidate: the source files among the ranked files.
// The ranked lists follow from the structure of the ranking, as in
// TestRunScriptedHistory: store/store.go and cli/main.go (the graph; in
// which order depends on the weights, and no figure here does), then the
// files without tags by path, mentioned or not, the source files (and
// scripts/NOTES) before .gitignore and assets/logo.png.
//
// BM25 (the documents are path and contents):
//
//	app-1: store/store.go holds get, returns, the, value: first.
//	app-2: clamp is only in tools/clamp.py, twice: first.
//	app-3: notes is only in tools/notes.py, twice: first.
//
// The random order sorts the candidates by SHA-256 of
// "0\x00<instance>\x00<path>"; from sha256sum:
//
//	app-1: tools/clamp.py, cli/main.go, tools/notes.py, store/store.go
//	app-2: tools/clamp.py, store/store.go, cli/main.go, tools/notes.py, scripts/lint
//	app-3: cli/main.go, tools/notes.py, store/store.go, tools/clamp.py
func TestRunTasks(t *testing.T) {
	tasks, mirrors, h := scriptedTasks(t)
	rep, err := RunTasks(context.Background(), TaskConfig{Tasks: tasks, Mirrors: mirrors, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	c := h.c

	wantSkipped := map[string]int{SkipNoGold: 1, SkipNoCommit: 1, SkipNoMirror: 1}
	if diff := cmp.Diff(wantSkipped, rep.Skipped); diff != "" {
		t.Errorf("Skipped (-want +got):\n%s", diff)
	}
	wantSkippedTasks := []SkippedTask{
		{"app-5", "example/app", SkipNoCommit},
		{"app-4", "example/app", SkipNoGold},
		{"app-6", "other/repo", SkipNoMirror},
	}
	if diff := cmp.Diff(wantSkippedTasks, rep.SkippedTasks); diff != "" {
		t.Errorf("SkippedTasks (-want +got):\n%s", diff)
	}
	if rep.Selected != 6 {
		t.Errorf("Selected = %d, want 6", rep.Selected)
	}

	out := func(first, found2, files2 int) Outcome {
		return Outcome{First: first, Found: []int{0, found2}, Files: []int{0, files2}}
	}
	// In the order of their base commits: c0, c1, c4.
	want := []TaskRun{
		{
			InstanceID: "app-1", Repo: "example/app", BaseCommit: c[0],
			Gold: []string{"cli/main.go", "store/store.go"}, Dropped: []string{"assets/logo.png", "missing.go"},
			// Every word is an identifier; no file is named.
			Mentions: Mentioned{Idents: 5},
			Results: []TaskResult{{
				// .gitignore, assets/logo.png, cli/main.go, store/store.go,
				// tools/clamp.py, tools/notes.py; 4 candidates.
				Map:    out(1, 2, 6),
				BM25:   out(1, 2, 4),
				Random: out(2, 2, 4),
			}},
		},
		{
			InstanceID: "app-3", Repo: "example/app", BaseCommit: c[1],
			Gold:     []string{"tools/notes.py"},
			Mentions: Mentioned{Files: 1, Idents: 7},
			Results: []TaskResult{{
				// The graph, then tools/clamp.py, tools/notes.py: 4th.
				Map:    out(4, 1, 6),
				BM25:   out(1, 1, 4),
				Random: out(2, 1, 4),
			}},
		},
		{
			InstanceID: "app-2", Repo: "example/app", BaseCommit: c[4],
			Gold: []string{"tools/clamp.py"},
			// tools/clamp.py by its path; clamp, should, handle, lo, hi,
			// see, tools, py.
			Mentions: Mentioned{Files: 1, Idents: 8},
			Results: []TaskResult{{
				// Mentioned, but outside the graph: store/store.go,
				// cli/main.go, then scripts/NOTES, scripts/lint,
				// tools/clamp.py: 5th.
				Map:    out(5, 1, 8),
				BM25:   out(1, 1, 5),
				Random: out(1, 1, 5),
			}},
		},
	}
	ignore := cmp.Options{
		cmpopts.IgnoreFields(Outcome{}, "Tokens"),
		cmpopts.IgnoreFields(TaskResult{}, "Seconds", "BM25Seconds"),
	}
	if diff := cmp.Diff(want, rep.Tasks, ignore); diff != "" {
		t.Errorf("Tasks (-want +got):\n%s", diff)
	}
	for _, tr := range rep.Tasks {
		r := tr.Results[0]
		if r.Map.Tokens[0] != 0 || r.Map.Tokens[1] <= 0 || r.Map.Tokens[1] > extremes[1] || len(r.Seconds) != 2 {
			t.Errorf("%s: map tokens %v, seconds %v", tr.InstanceID, r.Map.Tokens, r.Seconds)
		}
		if !slices.Equal(r.BM25.Tokens, []int{0, 0}) || !slices.Equal(r.Random.Tokens, []int{0, 0}) {
			t.Errorf("%s: baselines' tokens %v, %v, want none", tr.InstanceID, r.BM25.Tokens, r.Random.Tokens)
		}
	}

	// The figures: means over the 3 tasks.
	v := rep.Variants[0]
	type m = TaskMetrics
	mrrMap, mrrRandom := (1+1.0/4+1.0/5)/3, (0.5+0.5+1)/3
	wantRows := []TaskRow{
		{
			Budget: 1,
			Map:    m{MRR: mrrMap, Top5: 1},
			BM25:   m{MRR: 1, Top5: 1},
			Random: m{MRR: mrrRandom, Top5: 1},
		},
		{
			Budget: 100_000,
			Map:    m{Recall: 1, All: 1, Any: 1, MRR: mrrMap, Top5: 1, Files: 20.0 / 3},
			BM25:   m{Recall: 1, All: 1, Any: 1, MRR: 1, Top5: 1, Files: 13.0 / 3},
			Random: m{Recall: 1, All: 1, Any: 1, MRR: mrrRandom, Top5: 1, Files: 13.0 / 3},
		},
	}
	approx := cmp.Options{
		cmpopts.EquateApprox(0, 1e-12),
		cmpopts.IgnoreFields(TaskMetrics{}, "Tokens", "Seconds"),
	}
	if diff := cmp.Diff(wantRows, v.Rows, approx); diff != "" {
		t.Errorf("Rows (-want +got):\n%s", diff)
	}
	if r := v.Rows[1]; r.Map.Tokens <= 0 || r.BM25.Tokens != 0 || r.Random.Seconds != 0 {
		t.Errorf("tokens and seconds: %+v", r)
	}
	// Trees of 6, 6 and 8 files; c1 changes store/store.go and
	// cli/main.go, c4 the same two and adds scripts/NOTES and scripts/lint.
	if v.Files != 20 || v.Parsed != 12 || v.Builds != 6 {
		t.Errorf("Files, Parsed, Builds = %d, %d, %d; want 20, 12, 6", v.Files, v.Parsed, v.Builds)
	}

	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"tasks       3 evaluated of 6 selected; skipped: 1 base commit not in the mirror, " +
			"1 no gold file is a source file at the base commit, 1 no mirror of the repository\n",
		"repos       example/app 3\n",
		"tags computed for 12 of 20 files (40.0% reused)",
		// MRR 0.483, 1, 0.667; top5 1, 1, 1.
		"  0.000  0.000  0.000  0.483  1.000       0    0.0",
		"  1.000  1.000  1.000  1.000  1.000     1.000  1.000  1.000  0.667  1.000\n",
		"example/app      3  0.000       1.000   0.000        1.000\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("WriteText: no %q in\n%s", want, text.String())
		}
	}
}

// TestRunTasksCache checks that a second run with a disk cache gives the
// same figures, parsing only what the cache does not hold: the cache of
// each variant keeps the last tree mapped.
func TestRunTasksCache(t *testing.T) {
	tasks, mirrors, _ := scriptedTasks(t)
	cfg := TaskConfig{Tasks: tasks, Mirrors: mirrors, Budgets: extremes, CacheDir: t.TempDir()}
	first, err := RunTasks(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	second, err := RunTasks(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ignore := cmp.Options{
		cmpopts.IgnoreFields(TaskResult{}, "Seconds", "BM25Seconds"),
		cmpopts.IgnoreFields(TaskMetrics{}, "Seconds"),
	}
	if diff := cmp.Diff(first.Tasks, second.Tasks, ignore); diff != "" {
		t.Errorf("tasks differ (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(first.Variants[0].Rows, second.Variants[0].Rows, ignore); diff != "" {
		t.Errorf("rows differ (-first +second):\n%s", diff)
	}
	// The cache holds the tree of c4: before c0, store/store.go and
	// cli/main.go differ from it; then as without a cache.
	if p1, p2 := first.Variants[0].Parsed, second.Variants[0].Parsed; p1 != 12 || p2 != 8 {
		t.Errorf("Parsed = %d then %d, want 12 then 8", p1, p2)
	}
}

func TestSelectTasks(t *testing.T) {
	tasks := []Task{
		{InstanceID: "a-1", Repo: "o/a"}, {InstanceID: "b-1", Repo: "o/b"},
		{InstanceID: "a-2", Repo: "o/a"}, {InstanceID: "c-1", Repo: "o/c"},
	}
	for _, tc := range []struct {
		cfg  TaskConfig
		want []string
	}{
		{TaskConfig{}, []string{"a-1", "b-1", "a-2", "c-1"}},
		{TaskConfig{Limit: 2}, []string{"a-1", "b-1"}},
		{TaskConfig{Repos: []string{"o/a", "o/c"}}, []string{"a-1", "a-2", "c-1"}},
		{TaskConfig{Repos: []string{"o/a", "o/c"}, Limit: 2}, []string{"a-1", "a-2"}},
		{TaskConfig{Instances: []string{"c-1", "b-1"}}, []string{"b-1", "c-1"}},
		{TaskConfig{Instances: []string{"c-1", "b-1"}, Repos: []string{"o/b"}}, []string{"b-1"}},
	} {
		tc.cfg.Tasks = tasks
		var got []string
		for _, t := range selectTasks(tc.cfg) {
			got = append(got, t.InstanceID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("selectTasks(repos %v, instances %v, limit %d) = %v, want %v",
				tc.cfg.Repos, tc.cfg.Instances, tc.cfg.Limit, got, tc.want)
		}
	}
}

func TestCutOutcome(t *testing.T) {
	order := []string{"a", "g1", "b", "g2", "c"}
	got := cutOutcome(order, []string{"g1", "g2"}, []int{0, 1, 2, 4, 9})
	want := Outcome{First: 2, Found: []int{0, 0, 1, 2, 2}, Files: []int{0, 1, 2, 4, 5}, Tokens: make([]int, 5)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cutOutcome (-want +got):\n%s", diff)
	}
}

func TestReadTasks(t *testing.T) {
	in := `{"instance_id": "x-1", "repo": "o/x", "base_commit": "abc", "problem_statement": "it fails", "gold_files": ["a.py"]}

{"instance_id": "x-2", "repo": "o/x", "base_commit": "def", "gold_files": []}
`
	got, err := ReadTasks(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Task{
		{InstanceID: "x-1", Repo: "o/x", BaseCommit: "abc", ProblemStatement: "it fails", GoldFiles: []string{"a.py"}},
		{InstanceID: "x-2", Repo: "o/x", BaseCommit: "def", GoldFiles: []string{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadTasks (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		`{"instance_id": "x-1", "repo": "o/x"}`,
		`{"instance_id": "x-1", "repo": "o/x", "base_commit": "a"}` + "\n" + `{"instance_id": "x-1", "repo": "o/x", "base_commit": "b"}`,
		`{"instance_id": `,
	} {
		if _, err := ReadTasks(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadTasks(%q): no error", bad)
		}
	}
}

func TestTaskConfigErrors(t *testing.T) {
	tasks, mirrors, _ := scriptedTasks(t)
	for _, cfg := range []TaskConfig{
		{Tasks: tasks, Mirrors: mirrors, Limit: -1},
		{Tasks: tasks, Mirrors: mirrors, Budgets: []int{}},
		{Tasks: tasks, Mirrors: mirrors, Budgets: []int{0}},
		{Tasks: tasks, Mirrors: mirrors, Variants: []Variant{{Name: "a"}, {Name: "a"}}},
		{Tasks: tasks, Mirrors: map[string]string{"example/app": t.TempDir()}}, // not a repository
	} {
		if _, err := RunTasks(context.Background(), cfg); err == nil {
			t.Errorf("RunTasks(limit %d, budgets %v, variants %v): no error", cfg.Limit, cfg.Budgets, cfg.Variants)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunTasks(ctx, TaskConfig{Tasks: tasks, Mirrors: mirrors}); err == nil {
		t.Error("RunTasks with a cancelled context: no error")
	}
}

// TestRunTasksPartialMirror checks that a file whose blob the mirror
// lacks is left out of the tree, not a failure: mirrors may leave their
// largest files out.
func TestRunTasksPartialMirror(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("Start", map[string]string{
		"app/core.py": "def handle(request):\n    return request\n",
		"data/big.py": "TABLE = [1, 2, 3]\n",
	})
	oid := r.git("rev-parse", base+":data/big.py")
	if err := os.Remove(filepath.Join(r.dir, ".git", "objects", oid[:2], oid[2:])); err != nil {
		t.Fatal(err)
	}
	tasks := []Task{
		{InstanceID: "p-1", Repo: "o/p", BaseCommit: base, ProblemStatement: "handle drops the request",
			GoldFiles: []string{"app/core.py", "data/big.py"}},
	}
	rep, err := RunTasks(context.Background(), TaskConfig{Tasks: tasks, Mirrors: map[string]string{"o/p": r.dir}, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 1 {
		t.Fatalf("%d tasks evaluated, want 1", len(rep.Tasks))
	}
	tr := rep.Tasks[0]
	if !slices.Equal(tr.Gold, []string{"app/core.py"}) || !slices.Equal(tr.Dropped, []string{"data/big.py"}) ||
		tr.Results[0].Map.First != 1 || tr.Results[0].Map.Files[1] != 1 {
		t.Errorf("task = %+v", tr)
	}
}
