// Package gittest makes git repositories for tests: a repository in a
// temporary directory whose commits a test writes, deterministically.
package gittest

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Repo is a git repository in a temporary directory. Its commits have
// fixed names and dates, the n-th (from 0) on day n after 2026-01-01,
// and git reads no user or system configuration.
type Repo struct {
	// Dir is the work tree.
	Dir string

	t    testing.TB
	home string
	n    int
}

// New returns a new repository with a branch main and no commit. It
// skips the test when git is not on PATH.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	r := &Repo{Dir: t.TempDir(), t: t, home: t.TempDir()}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Env returns the environment of the repository's git commands.
func (r *Repo) Env() []string {
	date := fmt.Sprintf("@%d +0000", 1767225600+86400*r.n)
	env := []string{
		"HOME=" + r.home, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE=" + date,
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name != "HOME" && !strings.HasPrefix(name, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// Git runs git in the repository and returns its output, trimmed.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.Dir}, args...)...)
	cmd.Env = r.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes files into the work tree, by slash-separated path: ""
// deletes a file, and "<-old" moves the file old there (git mv).
func (r *Repo) Write(files map[string]string) {
	r.t.Helper()
	for _, p := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		content := files[p]
		if content == "" {
			r.Git("rm", "-q", p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if old, ok := strings.CutPrefix(content, "<-"); ok {
			r.Git("mv", old, p)
			continue
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Commit writes files (see Write), commits all of the work tree with the
// message msg, and returns the new commit's hash.
func (r *Repo) Commit(msg string, files map[string]string) string {
	r.t.Helper()
	r.Write(files)
	r.Git("add", "-A", "-f")
	r.Git("commit", "-q", "--no-verify", "--allow-empty", "-m", msg)
	r.n++
	return r.Git("rev-parse", "HEAD")
}
