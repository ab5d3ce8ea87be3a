package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// walkRootDir walks the tree at dir as a map walks a root on disk, with
// o, and returns the paths listed.
func walkRootDir(t *testing.T, dir string, o walkOptions) []string {
	t.Helper()
	o.root = openRoot(t, dir)
	files, _, err := walkRoot(context.Background(), Root{FS: os.DirFS(dir), Dir: dir, OnDisk: true}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	return filePaths(files)
}

// filePaths returns the paths of files.
func filePaths(files []File) []string {
	var ps []string
	for _, f := range files {
		ps = append(ps, f.Path)
	}
	return ps
}

// newRepo makes a git repository at dir/name with the files of tree, and
// returns its path.
func newRepo(t *testing.T, dir, name string, tree map[string]string) string {
	t.Helper()
	repo := filepath.Join(dir, name)
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "init", "-q")
	writeFiles(t, repo, tree)
	return repo
}

// commit commits every file of the repository at repo.
func commit(t *testing.T, repo string) {
	t.Helper()
	runGit(t, repo, "add", "-A")
	runGit(t, repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "c")
}

// checkAsGit checks that the walk of the repository at dir lists what
// git lists, and want.
func checkAsGit(t *testing.T, dir string, want []string) {
	t.Helper()
	if got := gitFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("git ls-files = %q, want %q", got, want)
	}
	if got := walkRootDir(t, dir, walkOptions{}); !slices.Equal(got, want) {
		t.Errorf("walk = %q, want %q, as git lists", got, want)
	}
}

// TestWalkAsGit checks the walk of a repository against git's list of
// its files where they used to differ: files git tracks though a rule
// ignores them, "foo/**/", ignore rules from config files that include
// others or that the environment names, and the info/exclude of nested
// repositories and submodules; no .git entry is listed.
func TestWalkAsGit(t *testing.T) {
	base := t.TempDir()
	home, _ := gitHome(t, base)

	t.Run("tracked files that a rule ignores", func(t *testing.T) {
		repo := newRepo(t, base, "tracked", map[string]string{
			"vendored.py": "def v(): pass\n", "vendor/lib.py": "def l(): pass\n", "vendor/deep/d.py": "def d(): pass\n",
			"ok.py": "def ok(): pass\n", "test/tmp/keep.txt": "x\n",
		})
		commit(t, repo)
		writeFiles(t, repo, map[string]string{
			".gitignore": "vendored.py\nvendor/\n", "vendor/new.py": "def n(): pass\n", "test/tmp/.gitignore": "*\n",
		})
		runGit(t, repo, "add", "-f", "test/tmp/.gitignore")
		commit(t, repo) // the ignore files are tracked, as pyenv's test/tmp/.gitignore of "*" is
		writeFiles(t, repo, map[string]string{"test/tmp/untracked.txt": "x\n"})
		checkAsGit(t, repo, []string{".gitignore", "ok.py", "test/tmp/.gitignore", "test/tmp/keep.txt", "vendor/deep/d.py", "vendor/lib.py", "vendored.py"})
	})
	t.Run("foo/**/", func(t *testing.T) {
		repo := newRepo(t, base, "dirs", map[string]string{
			".gitignore": "foo/**/\n", "foo/x.py": "def a(): pass\n", "foo/bar/y.py": "def b(): pass\n",
		})
		checkAsGit(t, repo, []string{".gitignore", "foo/x.py"})
		if got, want := walkRootDir(t, repo, walkOptions{noIgnore: true, exclude: []string{"foo/**/"}}), []string{".gitignore", "foo/x.py"}; !slices.Equal(got, want) {
			t.Errorf("walk with --exclude foo/**/ = %q, want %q", got, want)
		}
	})
	t.Run("config files", func(t *testing.T) {
		repo := newRepo(t, base, "config", map[string]string{
			"incign.py": "x\n", "global.py": "x\n", "system.py": "x\n", "cond.py": "x\n", "ok.py": "x\n",
		})
		writeFiles(t, home, map[string]string{
			".gi_inc": "incign.py\n", ".gitconfig-inc": "[core]\n\texcludesFile = ~/.gi_inc\n",
			".gitconfig": "[include]\n\tpath = ~/.gitconfig-inc\n",
		})
		checkAsGit(t, repo, []string{"cond.py", "global.py", "ok.py", "system.py"})

		writeFiles(t, base, map[string]string{
			"global.cfg": "[core]\n\texcludesFile = " + filepath.Join(base, "global.ign") + "\n", "global.ign": "global.py\n",
			"system.cfg": "[core]\n\texcludesFile = " + filepath.Join(base, "system.ign") + "\n", "system.ign": "system.py\n",
		})
		t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(base, "global.cfg"))
		checkAsGit(t, repo, []string{"cond.py", "incign.py", "ok.py", "system.py"})
		t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(base, "none.cfg"))
		t.Setenv("GIT_CONFIG_NOSYSTEM", "")
		t.Setenv("GIT_CONFIG_SYSTEM", filepath.Join(base, "system.cfg"))
		checkAsGit(t, repo, []string{"cond.py", "global.py", "incign.py", "ok.py"})

		t.Setenv("GIT_CONFIG_SYSTEM", filepath.Join(base, "none.cfg"))
		writeFiles(t, base, map[string]string{
			"cond.cfg": "[includeIf \"gitdir:" + filepath.Join(base, "config") + "/\"]\n\tpath = " + filepath.Join(base, "cond.inc") + "\n",
			"cond.inc": "[core]\n\texcludesFile = " + filepath.Join(base, "cond.ign") + "\n", "cond.ign": "cond.py\n",
		})
		t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(base, "cond.cfg"))
		checkAsGit(t, repo, []string{"global.py", "incign.py", "ok.py", "system.py"})
	})
	t.Run("nested repository and submodule", func(t *testing.T) {
		repo := newRepo(t, base, "outer", map[string]string{"top.py": "x\n"})
		inner := newRepo(t, repo, "inner", map[string]string{"keep.py": "x\n", "innerexcl.py": "x\n", ".git/info/exclude": "innerexcl.py\n"})
		if got := gitFiles(t, inner); !slices.Equal(got, []string{"keep.py"}) {
			t.Fatalf("git ls-files in the nested repository = %q", got)
		}
		lib := newRepo(t, base, "lib", map[string]string{"lib.py": "x\n"})
		commit(t, lib)
		runGit(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub")
		writeFiles(t, repo, map[string]string{".git/modules/sub/info/exclude": "subexcl.py\n", "sub/subexcl.py": "x\n", "sub/subok.py": "x\n"})
		got := walkRootDir(t, repo, walkOptions{})
		want := []string{".gitmodules", "inner/keep.py", "sub/lib.py", "sub/subok.py", "top.py"}
		if !slices.Equal(got, want) {
			t.Errorf("walk of a repository with a nested one and a submodule = %q, want %q", got, want)
		}
		if got, want := walkRootDir(t, filepath.Join(repo, "sub"), walkOptions{}), []string{"lib.py", "subok.py"}; !slices.Equal(got, want) {
			t.Errorf("walk of the submodule = %q, want %q", got, want)
		}
	})
	t.Run("worktree", func(t *testing.T) {
		repo := newRepo(t, base, "main", map[string]string{"a.py": "x\n"})
		commit(t, repo)
		runGit(t, repo, "worktree", "add", "-q", filepath.Join(base, "wt"))
		if got := walkRootDir(t, filepath.Join(base, "wt"), walkOptions{}); !slices.Equal(got, []string{"a.py"}) {
			t.Errorf("walk of a worktree = %q, want [a.py]: never its .git file", got)
		}
	})
}

// TestExplicitRoot checks that a root that a repository above it
// ignores is mapped, with the rules that apply below it, as ripgrep
// searches a path it is given; that NoIgnoreParent leaves out the rules
// of the directories above it; and NoIgnore every rule.
func TestExplicitRoot(t *testing.T) {
	base := t.TempDir()
	gitHome(t, base)
	repo := newRepo(t, base, "pyenv", map[string]string{
		".gitignore":                            "/versions\n*.pyc\n",
		"versions/3.11/lib/http/client.py":      "def c(): pass\n",
		"versions/3.11/lib/http/cookies.pyc":    "\x00\x01",
		"versions/3.11/lib/http/.gitignore":     "*.log\n",
		"versions/3.11/lib/http/server.log":     "x\n",
		"versions/3.11/lib/http/__init__.py":    "\n",
		"versions/3.11/lib/http/.repomapignore": "__init__.py\n",
	})
	root := filepath.Join(repo, "versions", "3.11", "lib", "http")
	for _, tc := range []struct {
		name string
		o    walkOptions
		want []string
	}{
		{"default", walkOptions{}, []string{".gitignore", ".repomapignore", "client.py"}},
		{"no ignore parent", walkOptions{noIgnoreParent: true}, []string{".gitignore", ".repomapignore", "client.py", "cookies.pyc"}},
		{"no ignore", walkOptions{noIgnore: true}, []string{".gitignore", ".repomapignore", "__init__.py", "client.py", "cookies.pyc", "server.log"}},
	} {
		if got := walkRootDir(t, root, tc.o); !slices.Equal(got, tc.want) {
			t.Errorf("%s: walk of a root in an ignored directory = %q, want %q", tc.name, got, tc.want)
		}
		// The index's Options give the walk its options.
		x := New([]Root{{FS: os.DirFS(root), Dir: root, OnDisk: true}}, defaults(Options{NoIgnore: tc.o.noIgnore, NoIgnoreParent: tc.o.noIgnoreParent}))
		files, _, err := x.Walk(context.Background())
		x.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := filePaths(files); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Index.Walk of a root in an ignored directory = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestBuiltinRules checks that a tree outside git lists no compiled
// Python, Java or Lisp, which an ignore file of its own can take back,
// and that one in a repository lists what git lists.
func TestBuiltinRules(t *testing.T) {
	base := t.TempDir()
	gitHome(t, base)
	tree := map[string]string{
		"http/client.py": "x\n", "http/__pycache__/client.cpython-311.pyc": "\x00", "http/old.pyc": "\x00",
		"A.java": "class A {}\n", "A.class": "\xca\xfe", "init.el": "x\n", "init.elc": "x\n",
	}
	plain := filepath.Join(base, "plain")
	writeFiles(t, plain, tree)
	if got, want := walkRootDir(t, plain, walkOptions{}), []string{"A.java", "http/client.py", "init.el"}; !slices.Equal(got, want) {
		t.Errorf("walk outside git = %q, want %q", got, want)
	}
	writeFiles(t, plain, map[string]string{".repomapignore": "!*.class\n"})
	if got := walkRootDir(t, plain, walkOptions{}); !slices.Contains(got, "A.class") {
		t.Errorf("walk with .repomapignore taking back *.class = %q", got)
	}
	repo := newRepo(t, base, "repo", tree)
	if got, want := walkRootDir(t, repo, walkOptions{}), gitFiles(t, repo); !slices.Equal(got, want) {
		t.Errorf("walk of a repository = %q, want what git lists: %q", got, want)
	}
}

// TestWatchedWalkTracked checks that a watched walk of a repository
// lists the files git tracks though a rule ignores them, as a new walk
// does: one removed and made again, and one added to git's index.
func TestWatchedWalkTracked(t *testing.T) {
	base := t.TempDir()
	gitHome(t, base)
	repo := newRepo(t, base, "repo", map[string]string{".gitignore": "*.gen\n", "a.py": "x\n", "a.gen": "x\n"})
	runGit(t, repo, "add", "-f", "a.gen")
	commit(t, repo)
	rw, err := newRootWatch(repo)
	if errors.Is(err, ErrNotWatched) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer rw.close()
	r := Root{FS: os.DirFS(repo), Dir: repo}
	check := func(step string, want []string) {
		t.Helper()
		files, _, err := walkRoot(context.Background(), r, walkOptions{root: openRoot(t, repo)}, rw)
		if err != nil {
			t.Fatal(err)
		}
		if rw.failed != nil {
			t.Fatalf("%s: the watch failed: %v", step, rw.failed)
		}
		if got := filePaths(files); !slices.Equal(got, want) {
			t.Errorf("%s: the watched walk lists %q, want %q", step, got, want)
		}
	}
	check("the first walk", []string{".gitignore", "a.gen", "a.py"})
	check("nothing changed", []string{".gitignore", "a.gen", "a.py"})
	if err := os.Remove(filepath.Join(repo, "a.gen")); err != nil {
		t.Fatal(err)
	}
	check("a tracked file removed", []string{".gitignore", "a.py"})
	writeFiles(t, repo, map[string]string{"a.gen": "y\n", "b.gen": "x\n"})
	check("the tracked file made again, an ignored one made", []string{".gitignore", "a.gen", "a.py"})
	runGit(t, repo, "add", "-f", "b.gen")
	check("an ignored file added to git", []string{".gitignore", "a.gen", "a.py", "b.gen"})
}
