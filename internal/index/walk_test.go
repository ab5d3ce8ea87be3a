package index

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// globTree is a monorepo-like tree for the exclude and include globs.
var globTree = fstest.MapFS{
	"go.mod":                         {Data: []byte("module x\n")},
	"main.go":                        {Data: []byte("package main\n")},
	"main_test.go":                   {Data: []byte("package main\n")},
	"vendor/dep/dep.go":              {Data: []byte("package dep\n")},
	"services/api/api.go":            {Data: []byte("package api\n")},
	"services/api/api.pb.go":         {Data: []byte("package api\n")},
	"services/api/testdata/in.go":    {Data: []byte("package testdata\n")},
	"services/web/web.go":            {Data: []byte("package web\n")},
	"services/web/web_test.go":       {Data: []byte("package web\n")},
	"libs/util/util.go":              {Data: []byte("package util\n")},
	"libs/util/testdata/golden.txt":  {Data: []byte("x\n")},
	"docs/guide.md":                  {Data: []byte("# guide\n")},
	"services/api/vendor/inner.go":   {Data: []byte("package inner\n")},
	"services/api/internal/deep.go":  {Data: []byte("package internal\n")},
	"services/api/internal/deep.txt": {Data: []byte("x\n")},
}

// recordFS records the directories a walk reads.
type recordFS struct {
	fs.FS
	mu   sync.Mutex
	dirs []string
}

func (r *recordFS) ReadDir(name string) ([]fs.DirEntry, error) {
	r.mu.Lock()
	r.dirs = append(r.dirs, name)
	r.mu.Unlock()
	return fs.ReadDir(r.FS, name)
}

func TestWalkGlobs(t *testing.T) {
	all := func() []string {
		var ps []string
		for p := range globTree {
			ps = append(ps, p)
		}
		slices.Sort(ps)
		return ps
	}()
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(p string) bool {
			for _, d := range drop {
				if p == d || strings.HasPrefix(p, d+"/") {
					return true
				}
			}
			return false
		})
	}
	for _, tc := range []struct {
		name             string
		exclude, include []string
		want             []string
		notEntered       []string // directories the walk must not read
	}{
		{name: "none", want: all},
		{
			name:       "exclude a directory at the root",
			exclude:    []string{"/vendor"},
			want:       without("vendor"),
			notEntered: []string{"vendor", "vendor/dep"},
		},
		{
			name:       "a name without a slash matches at any depth",
			exclude:    []string{"vendor"},
			want:       without("vendor", "services/api/vendor"),
			notEntered: []string{"vendor", "services/api/vendor"},
		},
		{
			name:       "exclude a directory at any depth",
			exclude:    []string{"**/testdata"},
			want:       without("services/api/testdata", "libs/util/testdata"),
			notEntered: []string{"services/api/testdata", "libs/util/testdata"},
		},
		{
			name:    "exclude files anywhere",
			exclude: []string{"*_test.go", "**/*.pb.go"},
			want:    without("main_test.go", "services/web/web_test.go", "services/api/api.pb.go"),
		},
		{
			name:    "a glob with a slash matches from the root",
			exclude: []string{"services/*/*_test.go", "libs/*.go"},
			want:    without("services/web/web_test.go"),
		},
		{
			name:    "a trailing slash matches directories only",
			exclude: []string{"internal/", "deep.txt/"},
			want:    without("services/api/internal"),
		},
		{
			name:    "a leading ./ anchors at the root",
			exclude: []string{"./vendor/", "./services/api/vendor"},
			want:    without("vendor", "services/api/vendor"),
		},
		{
			name:       "include a subtree",
			include:    []string{"services/api"},
			want:       []string{"services/api/api.go", "services/api/api.pb.go", "services/api/internal/deep.go", "services/api/internal/deep.txt", "services/api/testdata/in.go", "services/api/vendor/inner.go"},
			notEntered: []string{"vendor", "libs", "docs", "services/web"},
		},
		{
			name:       "include with wildcards",
			include:    []string{"services/*/*.go"},
			want:       []string{"services/api/api.go", "services/api/api.pb.go", "services/web/web.go", "services/web/web_test.go"},
			notEntered: []string{"vendor", "libs", "docs"},
		},
		{
			name:    "include files anywhere",
			include: []string{"**/*.md", "go.mod"},
			want:    []string{"docs/guide.md", "go.mod"},
		},
		{
			name:    "include names at any depth",
			include: []string{"*.txt", "util/"},
			want:    []string{"libs/util/testdata/golden.txt", "libs/util/util.go", "services/api/internal/deep.txt"},
		},
		{
			name:    "exclude wins over include",
			include: []string{"services/api"},
			exclude: []string{"**/testdata", "**/vendor", "**/*.txt"},
			want:    []string{"services/api/api.go", "services/api/api.pb.go", "services/api/internal/deep.go"},
		},
		{
			name:    "an include that matches nothing",
			include: []string{"nowhere/**"},
			want:    nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rfs := &recordFS{FS: globTree}
			files, _, err := walkGlobs(context.Background(), rfs, tc.exclude, tc.include)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("walkGlobs(exclude %q, include %q) =\n%q\nwant\n%q", tc.exclude, tc.include, got, tc.want)
			}
			for _, d := range tc.notEntered {
				if slices.Contains(rfs.dirs, d) {
					t.Errorf("walkGlobs(exclude %q, include %q) read directory %s", tc.exclude, tc.include, d)
				}
			}
		})
	}
}

func TestRepomapIgnore(t *testing.T) {
	tree := fstest.MapFS{
		".gitignore":      {Data: []byte("gen/\n*.out\n")},
		".repomapignore":  {Data: []byte("# big and dull\nfixtures/\n*.sql\n!keep.out\n")},
		"main.go":         {Data: []byte("package main\n")},
		"schema.sql":      {Data: []byte("create table t;\n")},
		"fixtures/a.json": {Data: []byte("{}\n")},
		"gen/x.go":        {Data: []byte("package gen\n")},
		"drop.out":        {Data: []byte("x\n")},
		"keep.out":        {Data: []byte("x\n")},
		"sub/fixtures.go": {Data: []byte("package sub\n")},
	}
	files, _, err := walk(context.Background(), tree)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	// .repomapignore adds to .gitignore, and its "!" patterns take back
	// what the root's .gitignore leaves out.
	want := []string{".gitignore", ".repomapignore", "keep.out", "main.go", "sub/fixtures.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %q, want %q", got, want)
	}
}

// openRoot returns the directory at dir open for a walk on disk, closed
// when the test ends; nil where the system opens none (rootDir).
func openRoot(t *testing.T, dir string) *rootDir {
	t.Helper()
	d, err := openRootDir(dir)
	if err != nil {
		return nil
	}
	t.Cleanup(d.close)
	return d
}

// writeFiles writes the files of tree under dir.
func writeFiles(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for name, data := range tree {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runGit runs git in dir and returns what it prints.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s in %s: %v", strings.Join(args, " "), dir, err)
	}
	return string(out)
}

// gitHome points git and gitPatterns at an empty home directory and
// config directory under base, and away from the system's config.
func gitHome(t *testing.T, base string) (home, xdg string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home, xdg = filepath.Join(base, "home"), filepath.Join(base, "xdg")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	return home, xdg
}

// walkDir walks the tree at dir with git's rules, as a root on disk.
func walkDir(t *testing.T, dir string) []string {
	t.Helper()
	return walkRootDir(t, dir, walkOptions{})
}

// gitFiles lists the files git does not ignore under dir, relative to it.
func gitFiles(t *testing.T, dir string) []string {
	t.Helper()
	var ps []string
	for line := range strings.Lines(runGit(t, dir, "ls-files", "-co", "--exclude-standard")) {
		ps = append(ps, strings.TrimSuffix(line, "\n"))
	}
	slices.Sort(ps)
	return ps
}

// checkGitWalk checks that the walk of the tree at dir, called name, and
// git list the files want.
func checkGitWalk(t *testing.T, dir, name string, want []string) {
	t.Helper()
	if got := walkDir(t, dir); !slices.Equal(got, want) {
		t.Errorf("walk of %s = %q, want %q", name, got, want)
	}
	if got := gitFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("git ls-files in %s = %q, want %q", name, got, want)
	}
}

func TestGitPatterns(t *testing.T) {
	base := t.TempDir()
	home, xdg := gitHome(t, base)
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "init", "-q")
	writeFiles(t, repo, map[string]string{
		".gitignore":          "secret.yaml\n/a/b/local.txt\n*.log\n!keep.log\nbuild/\n",
		"a/.gitignore":        "gen/\n",
		"a/b/.gitignore":      "*.tmp\n",
		".git/info/exclude":   "*.swp\n",
		"a/b/main.go":         "package main\n",
		"a/b/secret.yaml":     "password: hunter2\n",
		"a/b/local.txt":       "x\n",
		"a/b/sub/local.txt":   "x\n",
		"a/b/x.log":           "x\n",
		"a/b/keep.log":        "x\n",
		"a/b/y.tmp":           "x\n",
		"a/b/f.swp":           "x\n",
		"a/b/.envrc":          "export TOKEN=x\n",
		"a/b/gen/g.go":        "package gen\n",
		"a/b/sub/gen/h.go":    "package gen\n",
		"a/b/sub/ok.go":       "package sub\n",
		"a/build/out/o.go":    "package out\n",
		"a/build/out/keep.go": "package out\n",
	})
	writeFiles(t, xdg, map[string]string{"git/ignore": ".envrc\n"})
	root := filepath.Join(repo, "a", "b")

	t.Run("rules from above the root", func(t *testing.T) {
		want := []string{".gitignore", "keep.log", "main.go", "sub/local.txt", "sub/ok.go"}
		checkGitWalk(t, root, "a/b", want)
	})
	t.Run("the top level", func(t *testing.T) {
		if got, want := walkDir(t, repo), gitFiles(t, repo); !slices.Equal(got, want) {
			t.Errorf("walk of the top level = %q, want what git lists: %q", got, want)
		}
	})
	t.Run("a root in an ignored directory", func(t *testing.T) {
		// Named as the root, it is mapped, as ripgrep searches a path it
		// is given: the rules apply below it.
		if got, want := walkDir(t, filepath.Join(repo, "a", "build", "out")), []string{"keep.go", "o.go"}; !slices.Equal(got, want) {
			t.Errorf("walk of a/build/out = %q, want %q", got, want)
		}
	})
	t.Run("core.excludesFile in ~/.gitconfig", func(t *testing.T) {
		writeFiles(t, home, map[string]string{
			".gitconfig": "[core]\n\texcludesFile = ~/ignores\n",
			"ignores":    "sub/\n",
		})
		defer os.Remove(filepath.Join(home, ".gitconfig"))
		// The file named replaces the default one: .envrc is back.
		want := []string{".envrc", ".gitignore", "keep.log", "main.go"}
		checkGitWalk(t, root, "a/b", want)
	})
	t.Run("core.excludesFile in the repository's config", func(t *testing.T) {
		writeFiles(t, home, map[string]string{
			".gitconfig": "[core]\n\texcludesFile = ~/ignores\n",
			"ignores":    "sub/\n",
			"repo-ign":   "main.go\n",
		})
		defer os.Remove(filepath.Join(home, ".gitconfig"))
		runGit(t, repo, "config", "core.excludesFile", filepath.Join(home, "repo-ign"))
		defer runGit(t, repo, "config", "--unset", "core.excludesFile")
		want := []string{".envrc", ".gitignore", "keep.log", "sub/local.txt", "sub/ok.go"}
		checkGitWalk(t, root, "a/b", want)
	})
}

func TestWalkRoot(t *testing.T) {
	base := t.TempDir()
	gitHome(t, base)
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "init", "-q")
	writeFiles(t, repo, map[string]string{
		".gitignore":      "secret.yaml\n",
		"a/b/main.go":     "package main\n",
		"a/b/secret.yaml": "password: hunter2\n",
	})
	dir := filepath.Join(repo, "a", "b")
	list := func(r Root) []string {
		o := walkOptions{include: []string{"*.go", "*.yaml"}, workers: 2}
		if r.Dir != "" {
			o.root = openRoot(t, r.Dir)
		}
		files, _, err := walkRoot(context.Background(), r, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		return filePaths(files)
	}
	// A root on disk follows git's rules from above it.
	if got, want := list(Root{FS: os.DirFS(dir), Dir: dir}), []string{"main.go"}; !slices.Equal(got, want) {
		t.Errorf("walkRoot(a/b on disk) = %q, want %q", got, want)
	}
	// A root that is only a file system knows nothing above it.
	if got, want := list(Root{FS: os.DirFS(dir)}), []string{"main.go", "secret.yaml"}; !slices.Equal(got, want) {
		t.Errorf("walkRoot(a/b as an fs.FS) = %q, want %q", got, want)
	}
}

// TestWalkOnDisk checks that a walk that reads a tree's directories on
// disk (diskDir) lists what a walk through its fs.FS lists: the files
// with their sizes and modification times, in order, and the skips.
func TestWalkOnDisk(t *testing.T) {
	dir := t.TempDir()
	tree := map[string]string{".gitignore": "*.log\nbuild/\n", "a.go": "package a\n", "b/c/d.py": "x = 1\n",
		"b/c/e.log": "log\n", "b/build/f.go": "package f\n", "b/z.txt": "zz\n", "b-x/y.js": "var y\n", "b.md": "# B\n"}
	writeFiles(t, dir, tree)
	when := time.Date(2025, 5, 6, 7, 8, 9, 123456789, time.UTC)
	for p := range tree {
		when = when.Add(time.Minute)
		if err := os.Chtimes(filepath.Join(dir, p), when, when); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", filepath.Join(dir, "link.go")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("b", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	r := Root{Dir: dir, FS: os.DirFS(dir)}
	for _, workers := range []int{1, 3} {
		wantFiles, wantSkips, err := walkRoot(context.Background(), r, walkOptions{workers: workers}, nil)
		if err != nil {
			t.Fatal(err)
		}
		files, skips, err := walkRoot(context.Background(), r, walkOptions{workers: workers, root: openRoot(t, dir)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range files {
			if runtime.GOOS == "linux" && files[i].Ino == 0 {
				t.Errorf("on disk, %s has no inode", files[i].Path)
			}
			files[i].Change, files[i].Dev, files[i].Ino = 0, 0, 0 // which the fs.FS does not tell
		}
		if !slices.Equal(files, wantFiles) || !slices.Equal(skips, wantSkips) || len(files) != 6 || len(skips) != 2 {
			t.Errorf("on disk, %d workers: %v, skips %v; through the fs.FS: %v, skips %v", workers, files, skips, wantFiles, wantSkips)
		}
	}
}

func TestGitPatternsWorktree(t *testing.T) {
	base := t.TempDir()
	gitHome(t, base)
	repo, wt := filepath.Join(base, "repo"), filepath.Join(base, "wt")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "init", "-q")
	runGit(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "empty")
	runGit(t, repo, "worktree", "add", "-q", wt)
	// A linked worktree's .git is a file; info/exclude is the main
	// repository's.
	writeFiles(t, repo, map[string]string{".git/info/exclude": "*.key\n"})
	writeFiles(t, wt, map[string]string{"sub/a.go": "package sub\n", "sub/prod.key": "x\n"})
	want := []string{"a.go"}
	sub := filepath.Join(wt, "sub")
	checkGitWalk(t, sub, "a worktree's sub", want)
}

func TestGitPatternsNoRepository(t *testing.T) {
	base := t.TempDir()
	home, xdg := gitHome(t, base)
	if err := exec.Command("git", "-C", base, "rev-parse", "--show-toplevel").Run(); err == nil {
		t.Skip("the temporary directory lies in a git repository")
	}
	// A home directory that is no repository, with ignore files that
	// would leave out everything.
	writeFiles(t, home, map[string]string{
		".gitignore":       "*\n",
		".gitconfig":       "[core]\n\texcludesFile = ~/.gitignore\n",
		"proj/main.go":     "package main\n",
		"proj/.gitignore":  "*.out\n",
		"proj/x.out":       "x\n",
		"proj/lib/util.go": "package lib\n",
	})
	writeFiles(t, xdg, map[string]string{"git/ignore": "*\n"})
	proj := filepath.Join(home, "proj")
	git, err := gitPatterns(proj)
	if err != nil || git != nil {
		t.Errorf("gitPatterns(a directory in no repository) = %v, %v; want none", git, err)
	}
	// The tree's own ignore files still count, as they do for any tree.
	want := []string{".gitignore", "lib/util.go", "main.go"}
	if got := walkDir(t, proj); !slices.Equal(got, want) {
		t.Errorf("walk of a tree in no repository = %q, want %q", got, want)
	}
}

func TestGitPatternsUnreadable(t *testing.T) {
	base := t.TempDir()
	gitHome(t, base)
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "init", "-q")
	writeFiles(t, repo, map[string]string{".git/config": "[core\n"})
	if _, err := gitPatterns(filepath.Join(repo, "a")); err == nil {
		t.Errorf("gitPatterns with a malformed repository config succeeded, want an error")
	}
}

// walkGlobs is walkTree with only the exclude and include globs.
func walkGlobs(ctx context.Context, fsys fs.FS, exclude, include []string) ([]File, []Omitted, error) {
	return walkTree(ctx, fsys, walkOptions{exclude: exclude, include: include})
}

// TestQuickPattern checks that the quick test in front of a pattern never
// changes what it matches: every pattern of a set that ignore files use,
// against every path built from parts that they name, gives what
// gitignore.ParsePattern's pattern gives, and the quick test does skip
// the patterns that name what a path does not have.
func TestQuickPattern(t *testing.T) {
	lines := []string{
		"dist", "dist/", "/dist", "!dist", "*.log", "!*.log", "*.log/", "lib/*.js", "/packages/*/lib",
		"**/node_modules", "!**/test/fixtures/**/node_modules", "a/**/b", "a/**", "**/x.go",
		"x.go ", `x\ `, "[ab].go", "?.go", "*", "**", "/", "\\#not", ".DS_Store", "*.min.js",
		"packages/babel-standalone/babel.js", "/.vscode/**", "!/.vscode/settings.json", "*.*",
		"foo*bar", "[", "build/", "**/build", "a/b/",
	}
	parts := []string{"a", "b", "dist", "lib", "x.go", "x.log", "packages", "p", "node_modules", "test",
		"fixtures", "build", ".vscode", "settings.json", "babel.js", "a.go", "c.min.js", "x ", "foobazbar"}
	rng := rand.New(rand.NewPCG(1, 2))
	var paths [][]string
	for range 3000 {
		p := make([]string, 1+rng.IntN(5))
		for i := range p {
			p[i] = parts[rng.IntN(len(parts))]
		}
		paths = append(paths, p)
	}
	skipped := 0
	for _, domain := range [][]string{nil, {"a"}, {"packages", "p"}} {
		for _, line := range lines {
			plain, quick := parsePattern(line, domain), newQuickPattern(line, domain)
			for _, p := range paths {
				for _, dir := range []bool{false, true} {
					if got, want := quick.Match(p, dir), plain.Match(p, dir); got != want {
						t.Fatalf("pattern %q (domain %q) on %q (dir %v) = %v, want %v", line, domain, p, dir, got, want)
					}
				}
				if quick.name != "" && !slices.Contains(p, quick.name) {
					skipped++
				}
			}
		}
	}
	if q := newQuickPattern("/packages/*/lib/", nil); q.name != "packages" || q.suffix != "" {
		t.Errorf("/packages/*/lib/: name %q, suffix %q; want packages and none", q.name, q.suffix)
	}
	if q := newQuickPattern("!*.tsbuildinfo", nil); q.name != "" || q.suffix != ".tsbuildinfo" {
		t.Errorf("!*.tsbuildinfo: name %q, suffix %q; want none and .tsbuildinfo", q.name, q.suffix)
	}
	if skipped == 0 {
		t.Errorf("no path was skipped by a pattern's name")
	}
}

// TestIgnoreSet checks that an ignoreSet, made at the top and taken
// down each path a directory at a time, with the rules of a nested
// ignore file added on the way, decides as gitignore's matcher of all
// the rules does, for random sets of rules and paths.
func TestIgnoreSet(t *testing.T) {
	lines := []string{
		"dist", "dist/", "/dist", "!dist", "*.log", "!*.log", "*.log/", "lib/*.js", "/packages/*/lib",
		"**/node_modules", "!**/test/fixtures/**/node_modules", "a/**/b", "a/**", "**/x.go", "!x.go",
		"[ab].go", "?.go", "*.min.js", "foo*bar", "build/", "**/build", "a/b/", "test", "!test/", "*.go",
	}
	parts := []string{"a", "b", "dist", "lib", "x.go", "x.log", "packages", "p", "node_modules", "test",
		"fixtures", "build", "a.go", "c.min.js", "foobazbar", "q"}
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(n int) []gitignore.Pattern {
		var ps []gitignore.Pattern
		for range n {
			ps = append(ps, newQuickPattern(lines[rng.IntN(len(lines))], nil))
		}
		return ps
	}
	tried := 0
	for range 200 {
		// Rules from outside the tree (not quick ones), the top's, and a
		// nested ignore file's at nestAt.
		outside := []gitignore.Pattern{parsePattern(lines[rng.IntN(len(lines))], nil)}
		top := append(outside, pick(1+rng.IntN(12))...)
		nestAt := []string{parts[rng.IntN(len(parts))]}
		var nested []gitignore.Pattern
		for _, l := range []string{lines[rng.IntN(len(lines))], lines[rng.IntN(len(lines))]} {
			nested = append(nested, newQuickPattern(l, nestAt))
		}
		for range 50 {
			p := make([]string, 1+rng.IntN(5))
			for i := range p {
				p[i] = parts[rng.IntN(len(parts))]
			}
			if rng.IntN(2) == 0 {
				p[0] = nestAt[0]
			}
			set, all := newIgnoreSet(nil, top, nil), slices.Clone(top)
			var scratch []int32
			for i := range p {
				if i == 1 && p[0] == nestAt[0] {
					set, all = newIgnoreSet(set, nested, p[:1]), append(all, nested...)
				}
				for _, dir := range []bool{false, true} {
					got, s := set.match(p[:i+1], dir, scratch)
					scratch = s
					if want := gitignore.NewMatcher(all).Match(p[:i+1], dir); got != want {
						t.Fatalf("rules %q, nested at %q %q: %q (dir %v) ignored %v, want %v", top, nestAt, nested, p[:i+1], dir, got, want)
					}
					tried++
				}
				set = set.below(p[i])
			}
		}
	}
	if tried < 10000 {
		t.Errorf("%d paths tried, want 10,000 at least", tried)
	}
}

// TestWalkOrder checks that the walk lists the files of a wide and deep
// tree in the order fs.WalkDir visits them, with the skips in order too,
// run after run, on one goroutine to five; and that a cancelled walk ends
// with the context's error.
func TestWalkOrder(t *testing.T) {
	tree := fstest.MapFS{}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 600 {
		dir := ""
		for range rng.IntN(5) {
			dir += string(rune('a'+rng.IntN(6))) + "/"
		}
		// Names of files sort before, between and after those of
		// directories ("a12.go" after "a", before "b").
		tree[dir+string(rune('a'+rng.IntN(7)))+strconv.Itoa(i)+".go"] = &fstest.MapFile{Data: []byte("package p\n")}
		if i%50 == 0 {
			tree[dir+"link"+strconv.Itoa(i)] = &fstest.MapFile{Mode: fs.ModeSymlink}
		}
	}
	var want []string
	var wantSkips []string
	fs.WalkDir(tree, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			wantSkips = append(wantSkips, p)
		case !d.IsDir():
			want = append(want, p)
		}
		return nil
	})
	for run := range 5 {
		files, skipped, err := walkTree(context.Background(), tree, walkOptions{workers: run + 1})
		if err != nil {
			t.Fatal(err)
		}
		var got, gotSkips []string
		for _, f := range files {
			got = append(got, f.Path)
		}
		for _, s := range skipped {
			gotSkips = append(gotSkips, s.Path)
		}
		if !slices.Equal(got, want) || !slices.Equal(gotSkips, wantSkips) {
			t.Fatalf("run %d: %d files, %d skips, not in fs.WalkDir's order (%d, %d)", run, len(got), len(gotSkips), len(want), len(wantSkips))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := walkTree(ctx, tree, walkOptions{workers: 4}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: %v, want context.Canceled", err)
	}
}

func TestWalkIgnores(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "build/\n*.log\n")
	write("main.go", "package main\n")
	write("debug.log", "x")
	write("build/out.go", "package build\n")
	write("sub/.gitignore", "gen_*.go\n!gen_keep.go\n")
	write("sub/gen_a.go", "package sub\n")
	write("sub/gen_keep.go", "package sub\n")
	write("sub/real.go", "package sub\n")
	write("other/gen_a.go", "package other\n") // the pattern of sub/.gitignore does not reach here
	write(".git/config", "[core]\n")
	write(".git/info/exclude", "secret.go\n")
	write("secret.go", "package main\n")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "passwd"), []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(root, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}

	files, skipped, err := walk(context.Background(), os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	want := []string{".gitignore", "main.go", "other/gen_a.go", "sub/.gitignore", "sub/gen_keep.go", "sub/real.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %v, want %v", got, want)
	}
	var links []string
	for _, s := range skipped {
		links = append(links, s.Path+": "+s.Skip.String())
	}
	if wantSkip := []string{"loop: symbolic link", "passwd: symbolic link"}; !slices.Equal(links, wantSkip) {
		t.Errorf("walk skipped %v, want %v", links, wantSkip)
	}
}
