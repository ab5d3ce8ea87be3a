package history

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/repomap-dev/repomap/internal/gittest"
)

// text is a file's content long enough for git's rename detection to
// find it moved.
func text(name string) string {
	return strings.Repeat("line of "+name+"\n", 20)
}

// commits returns the files of each commit of h, newest first, by path.
func commits(h *History) [][]string {
	var out [][]string
	for _, c := range h.Commits {
		var fs []string
		for _, f := range c.Files {
			fs = append(fs, h.Paths[f])
		}
		out = append(out, fs)
	}
	return out
}

func TestReadFollowsRenames(t *testing.T) {
	r := gittest.New(t)
	r.Commit("a change", map[string]string{"a.go": text("a"), "b.go": text("b")})
	r.Commit("a change", map[string]string{"a.go": text("a") + "more\n", "c.go": text("c")})
	r.Commit("a change", map[string]string{"pkg/a.go": "<-a.go"})                                         // a rename alone
	r.Commit("a change", map[string]string{"pkg/a.go": text("a") + "again\n", "b.go": text("b") + "x\n"}) // after it
	h, err := Read(context.Background(), r.Dir, "HEAD", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The commits before the rename knew pkg/a.go as a.go.
	want := [][]string{{"b.go", "pkg/a.go"}, {"pkg/a.go"}, {"c.go", "pkg/a.go"}, {"b.go", "pkg/a.go"}}
	if diff := cmp.Diff(want, commits(h)); diff != "" {
		t.Errorf("Read: commits (-want +got):\n%s", diff)
	}
	if h.Head != r.Git("rev-parse", "HEAD") || h.Time != 1767225600+3*86400 {
		t.Errorf("Read: head %s at %d", h.Head, h.Time)
	}
}

func TestReadSkipsLargeCommits(t *testing.T) {
	r := gittest.New(t)
	r.Commit("a change", map[string]string{"a.go": text("a"), "b.go": text("b")})
	big := map[string]string{"lib/x.go": "<-a.go"} // a rename in a large commit is followed
	for i := range 4 {
		big[fmt.Sprintf("gen/%d.go", i)] = "x"
	}
	r.Commit("a change", big)
	r.Commit("a change", map[string]string{"lib/x.go": text("a") + "x\n", "b.go": text("b") + "x\n"})
	h, err := Read(context.Background(), r.Dir, "HEAD", Options{MaxFiles: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"b.go", "lib/x.go"}, nil, {"b.go", "lib/x.go"}}
	if diff := cmp.Diff(want, commits(h)); diff != "" {
		t.Errorf("Read: commits (-want +got):\n%s", diff)
	}
}

// TestReadAtCommit checks that the history read up to a commit holds
// nothing of the commits after it.
func TestReadAtCommit(t *testing.T) {
	r := gittest.New(t)
	r.Commit("a change", map[string]string{"a.go": "a", "b.go": "b"})
	mid := r.Commit("a change", map[string]string{"a.go": "a2", "c.go": "c"})
	r.Commit("a change", map[string]string{"a.go": "a3", "z.go": "z"})
	h, err := Read(context.Background(), r.Dir, mid, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Head != mid || slices.Contains(h.Paths, "z.go") || len(h.Commits) != 2 || h.Commits[0].Message != "a change" {
		t.Errorf("Read at %s: head %s, paths %v, %d commits", mid, h.Head, h.Paths, len(h.Commits))
	}
	if co := NewView(Part{History: h}).CoChanged(map[string]float64{"a.go": 1}, 0); co["z.go"] != 0 {
		t.Errorf("CoChanged(a.go) at %s = %v: z.go changed with a.go only after it", mid, co)
	}
}

func TestReadDepth(t *testing.T) {
	r := gittest.New(t)
	for i := range 5 {
		r.Commit("a change", map[string]string{"a.go": fmt.Sprint(i), fmt.Sprintf("f%d.go", i): "x"})
	}
	h, err := Read(context.Background(), r.Dir, "HEAD", Options{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a.go", "f4.go"}, {"a.go", "f3.go"}}
	if diff := cmp.Diff(want, commits(h)); diff != "" {
		t.Errorf("Read with depth 2 (-want +got):\n%s", diff)
	}
}

// TestExtend checks that a history extended from an older HEAD is the
// history read from the new one, renames and depth included.
func TestExtend(t *testing.T) {
	r := gittest.New(t)
	r.Commit("change 1", map[string]string{"a.go": text("a"), "b.go": text("b")})
	r.Commit("change 2", map[string]string{"a.go": text("a") + "1\n", "c.go": text("c")})
	old := r.Commit("change 3", map[string]string{"c.go": text("c") + "1\n", "b.go": text("b") + "1\n"})
	r.Commit("change 4", map[string]string{"pkg/a.go": "<-a.go", "d.go": text("d")})
	r.Commit("change 5", map[string]string{"pkg/b.go": "<-b.go"})
	r.Commit("change 6", map[string]string{"pkg/b.go": text("b") + "2\n", "pkg/a.go": text("a") + "2\n"})
	r.Commit("change 7", map[string]string{"lib/b.go": "<-pkg/b.go"}) // renamed twice since old
	r.Commit("change 8", map[string]string{"lib/b.go": text("b") + "3\n", "d.go": text("d") + "3\n"})
	ctx := context.Background()
	for _, depth := range []int{5, 6, 100} {
		o := Options{Depth: depth}
		h, err := Read(ctx, r.Dir, old, o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.Extend(ctx, r.Dir, "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		want, err := Read(ctx, r.Dir, "HEAD", o)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(commits(want), commits(got)); diff != "" {
			t.Errorf("depth %d: Extend: commits (-read +extended):\n%s", depth, diff)
		}
		if string(got.Encode()) != string(want.Encode()) {
			t.Errorf("depth %d: Extend: the form of the extended history differs from the one read", depth)
		}
	}
}

// TestExtendAcrossRewrite checks that a HEAD that no longer descends from
// the history's (a rebase, a reset) gets a history read anew.
func TestExtendAcrossRewrite(t *testing.T) {
	r := gittest.New(t)
	r.Commit("a change", map[string]string{"a.go": "a", "b.go": "b"})
	base := r.Git("rev-parse", "HEAD")
	r.Commit("a change", map[string]string{"a.go": "a2", "gone.go": "g"})
	ctx := context.Background()
	h, err := Read(ctx, r.Dir, "HEAD", Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Git("reset", "-q", "--hard", base)
	r.Commit("a change", map[string]string{"a.go": "a3", "c.go": "c"})
	got, err := h.Extend(ctx, r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(got.Paths, "gone.go") || got.Head != r.Git("rev-parse", "HEAD") {
		t.Errorf("Extend after a reset: head %s, paths %v", got.Head, got.Paths)
	}
}

func TestParseLog(t *testing.T) {
	out := "\x1eaaa 100\x1fFix the parser\n\nIt read \x1e and \x1f as a record.\n\x00\nM\x00x.go\x00R090\x00old.go\x00new.go\x00C100\x00s.go\x00t.go\x00" +
		"\x1ebbb 90\x1f\x00\nD\x00y.go\x00"
	got, err := parseLog(bufio.NewReader(strings.NewReader(out)))
	if err != nil {
		t.Fatal(err)
	}
	want := []rawCommit{
		{hash: "aaa", time: 100, msg: "Fix the parser\n\nIt read \x1e and \x1f as a record.",
			files: []string{"x.go", "new.go", "t.go"}, renames: [][2]string{{"old.go", "new.go"}}},
		{hash: "bbb", time: 90, files: []string{"y.go"}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(rawCommit{})); diff != "" {
		t.Errorf("parseLog (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"M\x00x.go\x00",                     // a file before any commit
		"\x1eaaa\x00\n",                     // no time
		"\x1eaaa 1\x00\nR100\x00old.go\x00", // a rename without its new path
		"\x1eaaa 1\x00\nM\x00x.go",          // cut short
	} {
		if _, err := parseLog(bufio.NewReader(strings.NewReader(bad))); err == nil {
			t.Errorf("parseLog(%q): no error", bad)
		}
	}
}

func TestOpen(t *testing.T) {
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNoRepository) {
		t.Errorf("Open(a directory outside git) = %v, want ErrNoRepository", err)
	}
	r := gittest.New(t)
	sub := filepath.Join(r.Dir, "pkg", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	repo, err := Open(sub)
	if err != nil {
		t.Fatal(err)
	}
	if repo.Prefix() != "pkg/sub" {
		t.Errorf("Open(%s).Prefix() = %q, want pkg/sub", sub, repo.Prefix())
	}
	if _, err := repo.Head(); !errors.Is(err, ErrNoCommit) {
		t.Errorf("Head of a repository without commits = %v, want ErrNoCommit", err)
	}
	head := r.Commit("a change", map[string]string{"a.go": "a"})
	for _, step := range []struct {
		name string
		do   func()
	}{
		{"loose ref", func() {}},
		{"packed ref", func() { r.Git("pack-refs", "--all") }},
		{"detached", func() { r.Git("checkout", "-q", "--detach") }},
	} {
		step.do()
		if got, err := repo.Head(); err != nil || got != head {
			t.Errorf("%s: Head() = %s, %v, want %s", step.name, got, err, head)
		}
	}
}

func TestOpenWorktree(t *testing.T) {
	r := gittest.New(t)
	r.Commit("a change", map[string]string{"a.go": "a"})
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "side", wt)
	head := r.Commit("a change", map[string]string{"a.go": "a2"}) // main moves on; side does not
	repo, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.Head()
	if err != nil || got == head || got != r.Git("rev-parse", "side") {
		t.Errorf("Head() of a worktree = %s, %v, want side's %s", got, err, r.Git("rev-parse", "side"))
	}
}

func TestOpenShallow(t *testing.T) {
	r := gittest.New(t)
	r.Commit("a change", map[string]string{"a.go": "a"})
	r.Commit("a change", map[string]string{"a.go": "a2"})
	clone := filepath.Join(t.TempDir(), "clone")
	r.Git("clone", "-q", "--depth", "1", "file://"+r.Dir, clone)
	if _, err := Open(clone); !errors.Is(err, ErrShallow) {
		t.Errorf("Open(a shallow clone) = %v, want ErrShallow", err)
	}
}
