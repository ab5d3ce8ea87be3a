package index

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	gitindex "github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitRules is what git says of a tree on disk from outside it
// (gitRulesOf).
type gitRules struct {
	// patterns are the ignore rules from outside the tree, rebased to it
	// (walkOptions.git).
	patterns []gitignore.Pattern
	// inRepo says that the tree lies in a git repository.
	inRepo bool
	// tracked lists the files of the tree that git tracks, which are
	// listed whatever the ignore rules say, as git lists them; nil for
	// none, or for a tree in no repository.
	tracked *trackedFiles
}

// gitRulesOf returns what git says of the tree at dir on disk from
// outside it: the ignore rules git applies to it from outside it, and
// the files of the repository's index below it.
//
// The rules are the user's core.excludesFile (by default
// $XDG_CONFIG_HOME/git/ignore, or ~/.config/git/ignore), the
// repository's info/exclude, and, unless noParent is set, the .gitignore
// files of the directories from the repository's top level down to
// dir's parent. They are rebased to dir: the patterns match paths
// relative to dir, as the walk gives them, and as git would match the
// same files from the top level. As ripgrep does for a path it is given,
// they apply below dir, not to dir or the directories above it: a tree
// that a repository above it ignores ("/versions" of pyenv, which holds
// Python's library) is mapped, with the rules that apply within it.
//
// The repository is the nearest directory at or above dir that holds a
// .git directory or a .git file (a linked worktree or a submodule), and
// nothing above its top level is read. A dir in no repository has no
// such rules. core.excludesFile is read as git reads it: from the
// system's config ($GIT_CONFIG_SYSTEM, or /etc/gitconfig, unless
// $GIT_CONFIG_NOSYSTEM), the user's ($GIT_CONFIG_GLOBAL, or
// $XDG_CONFIG_HOME/git/config and ~/.gitconfig) and the repository's,
// following include.path and includeIf "gitdir:" sections, the last one
// setting it winning. Missing files have no rules; a file that exists
// but cannot be read, or a config file git could not parse, is an error,
// since leaving its rules out could show what the repository keeps out
// of git.
func gitRulesOf(dir string, noParent bool) (gitRules, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return gitRules{}, fmt.Errorf("repomap: git rules of %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	top, gitDir, ok := enclosingRepo(abs)
	if !ok {
		return gitRules{}, nil
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil {
		return gitRules{}, fmt.Errorf("repomap: git rules of %s: %w", dir, err)
	}
	var prefix []string
	if rel != "." {
		prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	common := commonDir(gitDir)

	excludes, err := excludesFile(top, gitDir, filepath.Join(common, "config"))
	if err != nil {
		return gitRules{}, err
	}
	var ps []gitignore.Pattern
	for _, name := range []string{excludes, filepath.Join(common, "info", "exclude")} {
		add, err := readIgnoreFile(name, nil)
		if err != nil {
			return gitRules{}, err
		}
		ps = append(ps, add...)
	}
	for i := range prefix {
		if noParent {
			break
		}
		add, err := readIgnoreFile(filepath.Join(top, filepath.Join(prefix[:i]...), ".gitignore"), prefix[:i])
		if err != nil {
			return gitRules{}, err
		}
		ps = append(ps, add...)
	}
	g := gitRules{inRepo: true, tracked: newTrackedFiles(filepath.Join(gitDir, "index"), strings.Join(prefix, "/"))}
	if len(ps) > 0 {
		g.patterns = []gitignore.Pattern{rebased{prefix: prefix, patterns: ps}}
	}
	return g, nil
}

// gitPatterns returns the ignore rules of gitRulesOf(dir, false).
func gitPatterns(dir string) ([]gitignore.Pattern, error) {
	g, err := gitRulesOf(dir, false)
	return g.patterns, err
}

// rebased stands for gitignore patterns of a repository, matched against
// the paths of a tree that lies at prefix below its top level.
type rebased struct {
	prefix   []string
	patterns []gitignore.Pattern
}

// Match matches the path below the tree as git would match it from the
// top level: the last pattern that matches decides.
func (r rebased) Match(p []string, isDir bool) gitignore.MatchResult {
	full := append(slices.Clip(r.prefix), p...)
	for i := len(r.patterns) - 1; i >= 0; i-- {
		if m := r.patterns[i].Match(full, isDir); m != gitignore.NoMatch {
			return m
		}
	}
	return gitignore.NoMatch
}

// trackedFiles is the set of files of a tree that the index of the git
// repository that holds it tracks, read from the index the first time
// it is asked for: a walk asks only when an ignore rule leaves out an
// entry.
type trackedFiles struct {
	index  string // the index file
	prefix string // the tree's path below the repository's top, slash-separated; "" for the top
	// stamp tells the index file's state when the set was made: a
	// watched tree is walked again when it changes (rootWatch.since).
	stamp fileStat
	once  sync.Once
	files map[string]bool // by path relative to the tree
	dirs  map[string]bool // the directories that hold some of them
}

// newTrackedFiles returns the set of files below prefix that the index
// file at index tracks, read when first asked for.
func newTrackedFiles(index, prefix string) *trackedFiles {
	t := &trackedFiles{index: index, prefix: prefix}
	t.stamp, _ = lstat(index) // none: the zero stamp
	return t
}

// sameIndex reports whether t and u are sets of the same tree made from
// the same state of its index, or both nil.
func (t *trackedFiles) sameIndex(u *trackedFiles) bool {
	if t == nil || u == nil {
		return t == u
	}
	return t.index == u.index && t.prefix == u.prefix && t.stamp == u.stamp
}

// load reads the index, once. An index that cannot be read (none yet, a
// format go-git does not read) tracks nothing.
func (t *trackedFiles) load() {
	t.once.Do(func() {
		f, err := os.Open(t.index)
		if err != nil {
			return
		}
		defer f.Close()
		var idx gitindex.Index
		if err := gitindex.NewDecoder(f).Decode(&idx); err != nil {
			return
		}
		t.files, t.dirs = make(map[string]bool), make(map[string]bool)
		for _, e := range idx.Entries {
			name := e.Name
			if t.prefix != "" {
				var ok bool
				if name, ok = strings.CutPrefix(name, t.prefix+"/"); !ok {
					continue
				}
			}
			if e.SkipWorktree || strings.HasSuffix(name, "/") {
				continue // not in the work tree (a sparse checkout)
			}
			t.files[name] = true
			for d := path.Dir(name); d != "." && !t.dirs[d]; d = path.Dir(d) {
				t.dirs[d] = true
			}
		}
	})
}

// has reports whether git tracks the file at p; never for a nil t.
func (t *trackedFiles) has(p string) bool {
	if t == nil {
		return false
	}
	t.load()
	return t.files[p]
}

// holds reports whether git tracks a file below the directory at p;
// never for a nil t.
func (t *trackedFiles) holds(p string) bool {
	if t == nil {
		return false
	}
	t.load()
	return t.dirs[p]
}

// enclosingRepo returns the top level of the git repository that holds
// the absolute directory dir, and its git directory, or false when no
// directory at or above dir is a repository's top level.
func enclosingRepo(dir string) (top, gitDir string, ok bool) {
	for d := dir; ; {
		if g, ok := repoAt(d); ok {
			return d, g, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// repoAt returns the git directory of the repository whose top level is
// the directory d on disk, or false when d is not one: d holds a .git
// directory with a HEAD, or a .git file that names one ("gitdir: path",
// a linked worktree or a submodule).
func repoAt(d string) (gitDir string, ok bool) {
	dotGit := filepath.Join(d, ".git")
	info, err := os.Stat(dotGit)
	switch {
	case err != nil:
	case info.IsDir():
		if _, err := os.Stat(filepath.Join(dotGit, "HEAD")); err == nil {
			return dotGit, true
		}
	case info.Mode().IsRegular():
		if data, err := os.ReadFile(dotGit); err == nil {
			if g, found := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); found {
				g = strings.TrimSpace(g)
				if !filepath.IsAbs(g) {
					g = filepath.Join(d, g)
				}
				return g, true
			}
		}
	}
	return "", false
}

// commonDir returns the directory that holds the config and info/exclude
// of the repository whose git directory is gitDir: the main repository's
// for a linked worktree, gitDir itself otherwise.
func commonDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(data))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return c
}

// excludesFile returns the path of the core.excludesFile that git uses
// in the repository at top, whose git directory is gitDir and config
// file repoConfig (see gitRulesOf).
func excludesFile(top, gitDir, repoConfig string) (string, error) {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var configs []string
	if v := os.Getenv("GIT_CONFIG_NOSYSTEM"); v == "" || v == "0" || strings.EqualFold(v, "false") {
		configs = append(configs, cmpOr(os.Getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	if global := os.Getenv("GIT_CONFIG_GLOBAL"); global != "" {
		configs = append(configs, global)
	} else {
		if xdg != "" {
			configs = append(configs, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			configs = append(configs, filepath.Join(home, ".gitconfig"))
		}
	}
	configs = append(configs, repoConfig)

	c := configReader{home: home, gitDir: gitDir}
	var value string
	for _, name := range configs {
		if err := c.read(name, 0, &value); err != nil {
			return "", err
		}
	}
	switch {
	case value == "":
		if xdg == "" {
			return "", nil
		}
		return filepath.Join(xdg, "git", "ignore"), nil
	case value == "~" || strings.HasPrefix(value, "~/"):
		return filepath.Join(home, value[1:]), nil
	case !filepath.IsAbs(value):
		return filepath.Join(top, value), nil
	}
	return value, nil
}

// cmpOr returns a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// configReader reads core.excludesFile from git config files, and the
// files they include.
type configReader struct {
	home   string
	gitDir string // of the repository, for includeIf "gitdir:"
}

// maxIncludeDepth is how deep includes are followed, as git's limit.
const maxIncludeDepth = 10

// read sets *value to the core.excludesFile of the config file at name,
// when it sets one, and of the files it includes (include.path, and
// includeIf "gitdir:" or "gitdir/i:" sections whose pattern matches the
// repository), which come after it. A missing file sets nothing.
func (c configReader) read(name string, depth int, value *string) error {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("repomap: git config: %w", err)
	}
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(bytes.NewReader(data)).Decode(cfg); err != nil {
		return fmt.Errorf("repomap: git config %s: %w", name, err)
	}
	if cfg.HasSection("core") {
		if v := cfg.Section("core").Options.Get("excludesFile"); v != "" {
			*value = v
		}
	}
	if depth >= maxIncludeDepth {
		return nil
	}
	var includes []string
	for _, s := range cfg.Sections {
		switch {
		case strings.EqualFold(s.Name, "include"):
			includes = append(includes, s.Options.GetAll("path")...)
		case strings.EqualFold(s.Name, "includeIf"):
			for _, sub := range s.Subsections {
				if c.condition(sub.Name, name) {
					includes = append(includes, sub.Options.GetAll("path")...)
				}
			}
		}
	}
	for _, inc := range includes {
		switch {
		case inc == "~" || strings.HasPrefix(inc, "~/"):
			inc = filepath.Join(c.home, inc[1:])
		case !filepath.IsAbs(inc):
			inc = filepath.Join(filepath.Dir(name), inc)
		}
		if err := c.read(inc, depth+1, value); err != nil {
			return err
		}
	}
	return nil
}

// condition reports whether the condition of an includeIf section of the
// config file at name holds for the repository: "gitdir:" and
// "gitdir/i:" match its git directory as git does (a pattern that ends
// in "/" matches all below it, one without a leading "/", "~/" or "./"
// at any depth); other conditions do not hold here.
func (c configReader) condition(cond, name string) bool {
	pat, ok := strings.CutPrefix(cond, "gitdir:")
	fold := false
	if !ok {
		if pat, ok = strings.CutPrefix(cond, "gitdir/i:"); !ok {
			return false
		}
		fold = true
	}
	switch {
	case strings.HasPrefix(pat, "~/"):
		pat = filepath.ToSlash(c.home) + pat[1:]
	case strings.HasPrefix(pat, "./"):
		pat = filepath.ToSlash(filepath.Dir(name)) + pat[1:]
	case !strings.HasPrefix(pat, "/"):
		pat = "**/" + pat
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	dir := filepath.ToSlash(c.gitDir)
	if real, err := filepath.EvalSymlinks(c.gitDir); err == nil {
		dir = filepath.ToSlash(real)
	}
	if fold {
		pat, dir = strings.ToLower(pat), strings.ToLower(dir)
	}
	for _, d := range []string{dir, strings.TrimSuffix(dir, "/.git")} {
		if m := parsePattern("/"+strings.TrimPrefix(pat, "/"), nil); m.Match(strings.Split(strings.TrimPrefix(d, "/"), "/"), true) == gitignore.Exclude {
			return true
		}
	}
	return false
}

// readIgnoreFile reads the gitignore patterns of the file at name on
// disk, which apply below the directory whose path parts are domain. A
// missing file, or an empty name, has no patterns.
func readIgnoreFile(name string, domain []string) ([]gitignore.Pattern, error) {
	if name == "" {
		return nil, nil
	}
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("repomap: git rules: %w", err)
	}
	return parseIgnore(data, domain), nil
}
