package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
	git := func(args ...string) string {
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
