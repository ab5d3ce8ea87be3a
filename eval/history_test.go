package eval

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/gitcmd"
)

// testRepo is a git repository in a temporary directory whose history a
// test writes, deterministically: fixed author, committer and dates, and
// no user or system git configuration.
type testRepo struct {
	t    *testing.T
	dir  string
	home string
	n    int // commits made, for the dates
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	r := &testRepo{t: t, dir: t.TempDir(), home: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

// env is the environment of the test's git commands.
func (r *testRepo) env() []string {
	date := fmt.Sprintf("@%d +0000", 1767225600+60*r.n) // 2026-01-01, a minute a commit
	env := []string{
		"HOME=" + r.home,
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE=" + date,
	}
	for _, kv := range gitcmd.Env() { // PATH and the rest, without GIT_DIR & co
		name, _, _ := strings.Cut(kv, "=")
		if name != "HOME" && !strings.HasPrefix(name, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// git runs git in the repository and returns its output, trimmed.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = r.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (an empty content deletes the file) and commits
// them with msg; it returns the new commit's hash.
func (r *testRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for p, content := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if content == "" {
			if err := os.Remove(full); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A", "-f") // -f: third_party/ is tracked though ignored
	r.git("commit", "-q", "--no-verify", "-m", msg)
	r.n++
	return r.git("rev-parse", "HEAD")
}

// merge merges branch into the current branch with a merge commit.
func (r *testRepo) merge(branch, msg string) string {
	r.t.Helper()
	r.git("merge", "-q", "--no-ff", "--no-verify", "-m", msg, branch)
	r.n++
	return r.git("rev-parse", "HEAD")
}

// The files of the scripted history (see scriptedHistory).
const (
	storeV1 = `package store

// DB is a key-value store.
type DB struct {
	data map[string]string
}

// Open opens the store in dir.
func Open(dir string) *DB {
	return &DB{data: map[string]string{}}
}

// Get returns the value of key.
func (db *DB) Get(key string) string {
	return db.data[key]
}
`
	cliV1 = `package main

import "example.com/app/store"

func main() {
	db := store.Open("data")
	println(db.Get("greeting"))
}
`
	libV1 = `package lib

// Version is the library's version.
const Version = "1.0"
`
	logo = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
)

// history is a scripted history.
type history struct {
	repo *testRepo
	// c are the commits, by their number in scriptedHistory.
	c     []string
	merge string
}

// scriptedHistory writes this history, oldest first:
//
//	c0  "Start" (root)                                                     a root commit
//	c1  "store: Open takes a timeout"  store.go, cli/main.go               evaluated
//	c2  "store: document Open"         store.go, +scripts/NOTES            1 source file
//	c3  "lib: update to 1.1"           cli/main.go, third_party/lib/lib.go evaluated
//	c4  "store: a lint script"         store.go, +scripts/lint             1 was in the parent
//	c5  "tools: clamp handles lo > hi" tools/clamp.py, tools/notes.py      evaluated (on branch neg)
//	m   "Merge branch 'neg'"                                               merges are not read
//	c6  "Generate the tables"          +21 files under gen/                more than 20
//
// The tree of c0:
//
//	.gitignore              "/third_party/": the map never shows lib.go
//	assets/logo.png         binary, not a source file
//	cli/main.go             uses store.Open and Get: its links all go to store.go
//	store/store.go          defines DB, Open and Get
//	third_party/lib/lib.go  tracked, though ignored
//	tools/clamp.py          comments only: a source file without tags, so
//	tools/notes.py          not a node of the ranking graph
//
// scripts/NOTES (text, no "#!") is not a source file; scripts/lint
// ("#!/bin/sh") is one.
func scriptedHistory(t *testing.T) *history {
	r := newTestRepo(t)
	h := &history{repo: r}
	add := func(msg string, files map[string]string) { h.c = append(h.c, r.commit(msg, files)) }
	add("Start", map[string]string{
		".gitignore":             "/third_party/\n",
		"assets/logo.png":        logo,
		"cli/main.go":            cliV1,
		"store/store.go":         storeV1,
		"third_party/lib/lib.go": libV1,
		"tools/clamp.py":         "# Clamp will live here.\n",
		"tools/notes.py":         "# Notes on the tools.\n",
	})
	add("store: Open takes a timeout\n\nThe timeout is in seconds.", map[string]string{
		"store/store.go": strings.Replace(storeV1, "Open(dir string)", "Open(dir string, timeout int)", 1),
		"cli/main.go":    strings.Replace(cliV1, `store.Open("data")`, `store.Open("data", 5)`, 1),
	})
	add("store: document Open", map[string]string{
		"store/store.go": strings.Replace(storeV1, "Open(dir string)", "Open(dir string, timeout int)", 1) + "\n// Open makes dir if need be.\n",
		"scripts/NOTES":  "Release notes.\n",
	})
	add("lib: update to 1.1", map[string]string{
		"cli/main.go":            strings.Replace(cliV1, `store.Open("data")`, `store.Open("data", 10)`, 1),
		"third_party/lib/lib.go": strings.Replace(libV1, "1.0", "1.1", 1),
	})
	add("store: a lint script", map[string]string{
		"store/store.go": strings.Replace(storeV1, "Open(dir string)", "Open(dir string, timeout int)", 1) + "\n// Open makes dir if need be; see scripts/lint.\n",
		"scripts/lint":   "#!/bin/sh\nset -e\n",
	})
	r.git("checkout", "-q", "-b", "neg")
	add("tools: clamp handles lo > hi", map[string]string{
		"tools/clamp.py": "# Clamp will live here; lo > hi gives lo.\n",
		"tools/notes.py": "# Notes on the tools: clamp.\n",
	})
	r.git("checkout", "-q", "main")
	h.merge = r.merge("neg", "Merge branch 'neg'")
	gen := make(map[string]string)
	for i := range 21 {
		gen[fmt.Sprintf("gen/t%02d.go", i)] = fmt.Sprintf("package gen\n\nconst T%02d = %d\n", i, i)
	}
	add("Generate the tables", gen)
	return h
}
