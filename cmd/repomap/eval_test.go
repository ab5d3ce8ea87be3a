package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/eval"
)

// TestEvalTasks runs "repomap eval -tasks" on a one-commit repository
// under a mirrors directory, named owner+name: one task evaluated, one
// skipped for its repository's missing mirror.
func TestEvalTasks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	mirrors := t.TempDir()
	dir := filepath.Join(mirrors, "shop+cart")
	if err := os.CopyFS(dir, os.DirFS(writeTree(t, shopTree))); err != nil {
		t.Fatal(err)
	}
	git := gitIn(t, dir)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "Start")
	head := git("rev-parse", "HEAD")
	tasks := filepath.Join(t.TempDir(), "tasks.jsonl")
	lines := []string{
		`{"instance_id": "cart-1", "repo": "shop/cart", "base_commit": "` + head + `", "problem_statement": "Total is wrong after Add", "gold_files": ["cart/cart.go"]}`,
		`{"instance_id": "other-1", "repo": "shop/other", "base_commit": "` + head + `", "problem_statement": "", "gold_files": ["a.go"]}`,
	}
	if err := os.WriteFile(tasks, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	code, text, errs := runCmd(t, "eval", "-tasks", tasks, "-mirrors", mirrors, "-budgets", "100000")
	if code != 0 {
		t.Fatalf("repomap eval -tasks: exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"tasks       1 evaluated of 2 selected; skipped: 1 no mirror of the repository\n",
		"repos       shop/cart 1\n",
		"variant default: 1 maps",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("repomap eval -tasks: no %q in\n%s", want, text)
		}
	}

	code, out, errs := runCmd(t, "eval", "-tasks", tasks, "-mirrors", mirrors, "-instances", "cart-1", "-format", "json", "-cache", t.TempDir())
	if code != 0 {
		t.Fatalf("repomap eval -tasks -format json: exit %d, stderr:\n%s", code, errs)
	}
	var rep eval.TaskReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 1 || rep.Selected != 1 || len(rep.Variants[0].Rows) != 3 || rep.Tasks[0].Results[0].Map.First == 0 {
		t.Errorf("report: %d tasks of %d, rows %+v", len(rep.Tasks), rep.Selected, rep.Variants[0].Rows)
	}

	for _, args := range [][]string{
		{"eval", "-tasks", tasks},                                          // no -mirrors
		{"eval", "-mirrors", mirrors},                                      // -mirrors without -tasks
		{"eval", "-tasks", tasks, "-mirrors", mirrors, "-rev", "HEAD"},     // a history flag
		{"eval", "-tasks", tasks, "-mirrors", mirrors, dir},                // a REPO
		{"eval", "-tasks", tasks, "-mirrors", mirrors, "-limit", "-1"},     // a negative limit
		{"eval", "-tasks", tasks, "-mirrors", mirrors, "-ranking", "nope"}, // an unknown ranking
	} {
		if code, _, _ := runCmd(t, args...); code != 2 {
			t.Errorf("repomap %v: exit %d, want 2", args, code)
		}
	}
	if code, _, _ := runCmd(t, "eval", "-tasks", tasks, "-mirrors", mirrors, "-repo", "shop/other"); code != 1 {
		t.Errorf("repomap eval -tasks with no task to evaluate: exit %d, want 1", code)
	}
}

// gitIn returns a function that runs git in dir, with no user or system
// configuration, and returns its output, trimmed.
func gitIn(t *testing.T, dir string) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
			"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
}

// TestEvalCanons runs "repomap eval -canons" on a canon of shopTree, in
// text and in JSON.
func TestEvalCanons(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	repos := t.TempDir()
	dir := filepath.Join(repos, "shop", "cart")
	if err := os.CopyFS(dir, os.DirFS(writeTree(t, shopTree))); err != nil {
		t.Fatal(err)
	}
	git := gitIn(t, dir)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "Start")
	head := git("rev-parse", "HEAD")
	canons := t.TempDir()
	canon := `{"repo": "shop/cart", "commit": "` + head + `", "language": "Go", "within": ["cart/*.go"],
		"names": [{"name": "Cart", "source": "README"}, {"name": "Total", "source": "README"}, {"name": "Remove", "source": "README"}]}`
	if err := os.WriteFile(filepath.Join(canons, "cart.json"), []byte(canon), 0o644); err != nil {
		t.Fatal(err)
	}

	code, text, errs := runCmd(t, "eval", "-canons", canons, "-repos", repos, "-budgets", "1,100000", "-ranking", "default")
	if code != 0 {
		t.Fatalf("repomap eval -canons: exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"repository  language  commit        files  defined  variant  @1   @100000\n" +
			"shop/cart   Go        " + head[:12] + "  4      2/3      default  0/3  2/3\n",
		"defined by no file counted: Remove\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("repomap eval -canons: no %q in\n%s", want, text)
		}
	}

	code, out, errs := runCmd(t, "eval", "-canons", canons, "-repos", repos, "-format", "json")
	if code != 0 {
		t.Fatalf("repomap eval -canons -format json: exit %d, stderr:\n%s", code, errs)
	}
	var rep eval.CanonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// The default budgets and rankings: 2 × 2 maps.
	if len(rep.Repos) != 1 || !slices.Equal(rep.Budgets, eval.DefaultCanonBudgets()) || !slices.Equal(rep.Variants, []string{"default", "aider"}) || len(rep.Repos[0].Maps) != 4 {
		t.Errorf("report: %+v", rep)
	}

	for _, args := range [][]string{
		{"eval", "-canons", canons},                                      // no -repos
		{"eval", "-repos", repos},                                        // -repos without -canons
		{"eval", "-canons", canons, "-repos", repos, "-commits", "3"},    // a history flag
		{"eval", "-canons", canons, "-repos", repos, "-roles", "source"}, // another
		{"eval", "-canons", canons, "-repos", repos, dir},                // a REPO
		{"eval", "-canons", canons, "-repos", repos, "-tasks", "x.jsonl", "-mirrors", repos},
	} {
		if code, _, _ := runCmd(t, args...); code != 2 {
			t.Errorf("repomap %v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runCmd(t, "eval", "-canons", t.TempDir(), "-repos", repos); code != 1 || !strings.Contains(errs, "no canon") {
		t.Errorf("repomap eval -canons EMPTY: exit %d, stderr %q; want 1 and no canon", code, errs)
	}
	if code, _, errs := runCmd(t, "eval", "-canons", canons, "-repos", t.TempDir()); code != 1 || !strings.Contains(errs, "shop/cart") {
		t.Errorf("repomap eval -canons -repos EMPTY: exit %d, stderr %q; want 1 naming shop/cart", code, errs)
	}
}

// TestEvalHistoryRoles runs "repomap eval" on a two-commit history with
// and without -roles and -source-only.
func TestEvalHistoryRoles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	dir := writeTree(t, shopTree)
	git := gitIn(t, dir)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "Start")
	for p, text := range map[string]string{
		"cart/cart.go":  strings.Replace(shopTree["cart/cart.go"], "len(c.Items)", "len(c.Items) + 0", 1),
		"main.go":       strings.Replace(shopTree["main.go"], `c.Add("apple")`, "c.Add(\"apple\")\n\tc.Add(\"pear\")", 1),
		"gen/big.pb.go": "package gen\n\nfunc Generated() { Total(nil) }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("commit", "-q", "-a", "-m", "Add a pear")

	code, text, errs := runCmd(t, "eval", "-budgets", "100000", "-ranking", "default", dir)
	if code != 0 {
		t.Fatalf("repomap eval: exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"\noverview: no focus, no request; wanted: the definitions in other files that the added lines use (1 commits)\n",
		// Add, by main.go, and Total, by gen/big.pb.go.
		"\noverview: 2 definitions wanted by 1 of 1 commits; ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("repomap eval: no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "\nsource  ") {
		t.Errorf("repomap eval without -roles: a source line in\n%s", text)
	}

	code, out, errs := runCmd(t, "eval", "-budgets", "100000", "-ranking", "default", "-roles", "source,test", "-source-only", "-format", "json", dir)
	if code != 0 {
		t.Fatalf("repomap eval -roles -source-only: exit %d, stderr:\n%s", code, errs)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// gen/big.pb.go is generated: out of the wanted files and the tree.
	if !slices.Equal(rep.Roles, []string{"source", "test"}) || !rep.SourceOnly || len(rep.Commits) != 1 ||
		!slices.Equal(rep.Commits[0].Wanted, []string{"cart/cart.go", "main.go"}) || rep.Variants[0].Files != 3 ||
		len(rep.Variants[0].Overview) != 1 {
		t.Errorf("report: roles %v, source only %v, commits %+v, files %d", rep.Roles, rep.SourceOnly, rep.Commits, rep.Variants[0].Files)
	}
	code, text, _ = runCmd(t, "eval", "-budgets", "100000", "-ranking", "default", "-roles", "generated", dir)
	if code != 1 || !strings.Contains(text, "source      files of generated; the whole tree mapped\n") {
		t.Errorf("repomap eval -roles generated: exit %d (want 1: one file is left), text\n%s", code, text)
	}
	for _, args := range [][]string{
		{"eval", "-roles", "nope", dir},
		{"eval", "-roles", ",", dir},
	} {
		if code, _, _ := runCmd(t, args...); code != 2 {
			t.Errorf("repomap %v: exit %d, want 2", args, code)
		}
	}
}
