package repomap

import (
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"time"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/internal/render"
)

// Options configures a Map. A nil *Options, and every zero field, means
// the default. The maps a Map keeps in the disk cache for the next
// process are keyed by every field that can change a map: all but those
// tagged json:"-", which say where and how a map is made, not what it is.
type Options struct {
	// MaxTokens is the most tokens a map may have: a hard cap. Zero derives
	// the budget from ContextWindow, or uses DefaultTokens without one.
	MaxTokens int

	// ContextWindow is the context window of the model the map is for, in
	// tokens. With MaxTokens zero, the budget is an eighth of it, between
	// 1,024 and 4,096 tokens; when a request has no focus files it is
	// doubled, as far as the window less 4,096 tokens allows.
	ContextWindow int

	// Encoding names the tokenizer that measures the map: O200kBase (the
	// default) or Cl100kBase.
	Encoding string

	// Parallelism is the number of files parsed at once; zero means
	// runtime.GOMAXPROCS(0).
	Parallelism int `json:"-"`

	// MaxFileSize is the largest file, in bytes, whose tags are read;
	// larger files are listed by name only. Zero means 1 MiB.
	MaxFileSize int64

	// ParseTimeout bounds the time spent parsing one file; a file that
	// takes longer is listed by name only. Zero means 5 seconds.
	ParseTimeout time.Duration

	// CacheDir is where tag caches are kept; "" means the directory
	// repomap in os.UserCacheDir(): $XDG_CACHE_HOME/repomap, else
	// ~/.cache/repomap, on Linux; ~/Library/Caches/repomap on macOS;
	// %LocalAppData%\repomap on Windows. Only roots on disk are cached.
	CacheDir string `json:"-"`

	// NoCache turns the disk cache off.
	NoCache bool `json:"-"`

	// CacheTimeout bounds the wait for another process holding a cache;
	// zero means one second. After it the map is made without the cache.
	CacheTimeout time.Duration `json:"-"`

	// Refresh says when a Map may return its last map again; the default
	// is RefreshAuto.
	Refresh Refresh `json:"-"`

	// Ranking names the ranking: RankingDefault ("" too) or RankingAider.
	Ranking string `json:"-"`

	// Policy, when not nil, is the ranking in full, in place of the one
	// Ranking names: for experiments within this module (package eval
	// makes them), as its type is internal.
	Policy *policy.Config

	// Style names how a map shows a definition: StyleCompact ("" too) or
	// StyleAider.
	Style string

	// Progress, when set, is called from time to time while files are
	// parsed, with the number parsed so far and the number to parse. It
	// may be called from several goroutines, but never at once.
	Progress func(done, total int) `json:"-"`

	// Stage, when set, is called as a map enters each of its stages, with
	// the stage's name: "index" (the tree walked, files parsed), "link",
	// "rank", "render", then "keep" (what the next map reuses written). A
	// map that reuses a kept one whole enters fewer. It is called from the
	// goroutine of Build; a command shows with it where a long map is.
	Stage func(stage string) `json:"-"`

	// Exclude lists patterns of paths to leave out of the map, with the
	// meaning they have in a .gitignore file, in the glob syntax of
	// github.com/bmatcuk/doublestar. A pattern matches a path relative
	// to its root, slash separated: one without a slash, or with one at
	// its end only, matches a name at any depth ("vendor", "*_test.go",
	// "testdata/"); one with a slash at its start or in its middle, or
	// that starts with "./", matches from the root ("/vendor",
	// "services/*/gen"); "**" matches any number of directories
	// ("**/*.pb.go", "docs/**/*.png"), and "{a,b}" either. A pattern that
	// ends in "/" matches directories only. A directory that matches is
	// left out with all it holds, and not walked. A pattern that starts
	// with "!" is an error: taking back what others leave out is for an
	// ignore file.
	Exclude []string

	// Include, when not empty, keeps only the files whose path relative
	// to their root matches one of its patterns (meaning and syntax as for
	// Exclude), or that lie under a directory that matches one:
	// "services/api" keeps one subtree of a monorepo, "*.go" the Go files
	// at any depth. Exclude applies after it. Directories that can hold
	// no match are not walked.
	Include []string

	// Roles give roles to the files whose paths match their globs, in place
	// of the ones found from the files' paths and content (see Role); they
	// come after the rules of a root's RolesFile, and the last rule that
	// matches a path wins.
	Roles []RoleRule

	// Logger receives diagnostics: files skipped and why at Debug level,
	// a cache that cannot be used at Warn level. Nil means none.
	Logger *slog.Logger `json:"-"`
}

// Defaults.
const (
	DefaultTokens       = 1024
	DefaultMaxFileSize  = 1 << 20
	DefaultParseTimeout = 5 * time.Second
)

// withDefaults returns a copy of o with defaults applied, or an error
// naming the first invalid field.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	switch {
	case c.MaxTokens < 0:
		return c, fmt.Errorf("repomap: MaxTokens %d is negative", c.MaxTokens)
	case c.ContextWindow < 0:
		return c, fmt.Errorf("repomap: ContextWindow %d is negative", c.ContextWindow)
	case c.Parallelism < 0:
		return c, fmt.Errorf("repomap: Parallelism %d is negative", c.Parallelism)
	case c.MaxFileSize < 0:
		return c, fmt.Errorf("repomap: MaxFileSize %d is negative", c.MaxFileSize)
	case c.ParseTimeout < 0:
		return c, fmt.Errorf("repomap: ParseTimeout %v is negative", c.ParseTimeout)
	case c.Refresh < RefreshAuto || c.Refresh > RefreshManual:
		return c, fmt.Errorf("repomap: unknown refresh mode %d", c.Refresh)
	}
	if err := index.CheckGlobs("Exclude", c.Exclude); err != nil {
		return c, err
	}
	if err := index.CheckGlobs("Include", c.Include); err != nil {
		return c, err
	}
	for _, r := range c.Roles {
		if !index.ValidRoleRule(r) {
			return c, fmt.Errorf("repomap: Roles: malformed rule %q %v", r.Glob, r.Role)
		}
	}
	c.Exclude, c.Include, c.Roles = slices.Clone(c.Exclude), slices.Clone(c.Include), slices.Clone(c.Roles)
	if c.Encoding == "" {
		c.Encoding = O200kBase
	}
	if c.Policy != nil {
		p := *c.Policy
		c.Policy = &p
	} else {
		p, err := namedPolicy(c.Ranking)
		if err != nil {
			return c, err
		}
		c.Policy = &p
	}
	if err := CheckStyle(c.Style); err != nil {
		return c, err
	}
	if c.Encoding != O200kBase && c.Encoding != Cl100kBase {
		return c, fmt.Errorf("repomap: unknown encoding %q (want %s or %s)", c.Encoding, O200kBase, Cl100kBase)
	}
	if c.Parallelism == 0 {
		c.Parallelism = runtime.GOMAXPROCS(0)
	}
	if c.MaxFileSize == 0 {
		c.MaxFileSize = DefaultMaxFileSize
	}
	if c.ParseTimeout == 0 {
		c.ParseTimeout = DefaultParseTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// The rankings a Map can use.
const (
	// RankingDefault is repomap's ranking: Aider's, with each language's
	// rules of resolution, edges back from definitions to their users,
	// the files' roles, the relevance of files to the request's words,
	// and front doors and READMEs in a map for no request.
	RankingDefault = policy.NameDefault
	// RankingAider is Aider's ranking, kept for comparison.
	RankingAider = policy.NameAider
)

// namedPolicy returns the ranking that Options.Ranking names.
func namedPolicy(name string) (policy.Config, error) {
	switch name {
	case "", RankingDefault:
		return policy.Default(), nil
	case RankingAider:
		return policy.Aider(), nil
	}
	return policy.Config{}, fmt.Errorf("repomap: unknown ranking %q (want %s or %s)", name, RankingDefault, RankingAider)
}

// CheckRanking returns an error when name is not a ranking that
// Options.Ranking takes.
func CheckRanking(name string) error {
	_, err := namedPolicy(name)
	return err
}

// indexOptions returns what the index takes of o, which has its defaults.
func (o *Options) indexOptions() index.Options {
	return index.Options{Parallelism: o.Parallelism, MaxFileSize: o.MaxFileSize, ParseTimeout: o.ParseTimeout,
		Exclude: o.Exclude, Include: o.Include, Roles: o.Roles, Progress: o.Progress, Logger: o.Logger}
}

// Budget returns the token budget of a map: maxTokens when it is
// positive; otherwise, from the model's context window, an eighth of it
// clamped to [1024, 4096], and with no focus files doubled, as far as
// window−4096 allows (never below the undoubled budget); otherwise
// DefaultTokens.
func Budget(maxTokens, window int, hasFocus bool) int {
	if maxTokens > 0 {
		return maxTokens
	}
	if window <= 0 {
		return DefaultTokens
	}
	b := min(max(window/8, 1024), 4096)
	if !hasFocus {
		b = max(b, min(2*b, window-4096))
	}
	return b
}

// Refresh says when a Map made before may be returned again instead of a
// new one, for agents that ask for a map on every turn. Tags are always
// reused for files whose size and modification time are unchanged.
type Refresh int

// The refresh modes.
const (
	// RefreshAuto makes a new map when the request or any file changed
	// (size, modification time, files added or removed), found by cheap
	// stat calls; otherwise it returns the last map.
	RefreshAuto Refresh = iota
	// RefreshAlways makes a new map every time.
	RefreshAlways
	// RefreshFiles makes a new map only when the request or the set of
	// files changed: edits to files already there do not count.
	RefreshFiles
	// RefreshManual returns the last map, whatever changed, once there is
	// one.
	RefreshManual
)

var refreshNames = []string{"auto", "always", "files", "manual"}

// String returns the mode's name: auto, always, files or manual.
func (r Refresh) String() string {
	if r >= 0 && int(r) < len(refreshNames) {
		return refreshNames[r]
	}
	return fmt.Sprintf("Refresh(%d)", int(r))
}

// ParseRefresh returns the mode named s.
func ParseRefresh(s string) (Refresh, error) {
	for i, n := range refreshNames {
		if s == n {
			return Refresh(i), nil
		}
	}
	return 0, fmt.Errorf("repomap: unknown refresh mode %q (want auto, always, files or manual)", s)
}

// Stats describes how a map was made.
type Stats struct {
	Files   int   `json:"files"`   // files found
	Bytes   int64 `json:"bytes"`   // their total size
	Parsed  int   `json:"parsed"`  // files read and parsed
	Cached  int   `json:"cached"`  // files whose tags came from memory or the disk cache
	Skipped int   `json:"skipped"` // files left out of parsing, with a reason
	Defs    int   `json:"defs"`    // definition tags
	Refs    int   `json:"refs"`    // reference tags
	Nodes   int   `json:"nodes"`   // files in the ranking graph
	Links   int   `json:"links"`   // links between them: (referencing file, defining file, identifier)
	Tokens  int   `json:"tokens"`  // tokens of the map

	// Linked says where the links between files came from: "made" by
	// the link stage, "kept" by a Map kept open from its last map of the
	// same files, "updated" by a Map kept open from its last map's after
	// some files changed (their links made again, and the links that
	// depend on them), or "cached" in the disk cache by the last process
	// that mapped them.
	Linked string `json:"linked"`

	// Reused says that the map is the one a Map made before of the
	// same files for the same request, with the same options, kept in
	// the disk cache: nothing was parsed, linked, ranked or rendered.
	// The counts of definitions, references, the graph and the
	// iterations are those of that map.
	Reused bool `json:"reused"`

	// Refit says that the map was fitted to its budget from the ranking
	// of a map made before of the same files for the same request with
	// another budget: nothing was parsed, linked or ranked. The counts of
	// the graph and the iterations are those of that ranking.
	Refit bool `json:"refit"`

	// Iterations counts the PageRank's power iterations. A Map kept open
	// starts them where a new one does, so that both give the same bytes.
	Iterations int `json:"iterations"`
	// Rendered counts the file blocks the fit rendered and counted for
	// this map; a Map kept open reuses those of files that did not change.
	Rendered int `json:"rendered"`

	// Roles counts the files of each role (see Role), by the role's name.
	Roles map[string]int `json:"roles"`

	// Redacted counts the lines, in the files whose lines the map shows,
	// whose credentials were replaced by a marker.
	Redacted int `json:"redacted"`

	// The time of each stage, in nanoseconds in JSON.
	Walk  time.Duration `json:"walk"`
	Tags  time.Duration `json:"tags"`
	Rank  time.Duration `json:"rank"`
	Fit   time.Duration `json:"fit"`
	Store time.Duration `json:"store"`
	Total time.Duration `json:"total"`
}

// The styles a Map can render in (Options.Style).
const (
	// StyleCompact shows each definition as its signature, a multi-line
	// signature whole up to where the body opens when it has at most
	// render.SigCut+1 rows (longer, its first rows and its last), under the header lines
	// of the declarations around it (its type, class, impl or namespace;
	// the function a nested function is in), and nothing of any body: a
	// struct or a class is its header line, with its members only when
	// they are ranked too. Every shown line is a real source line.
	StyleCompact = "compact"
	// StyleAider is the rule of Aider's repo map: each definition with the
	// header rows of every syntax scope around it, up to ten rows each.
	StyleAider = "aider"
	// styleCompactDoc is StyleCompact with the first line of each shown
	// definition's doc comment (or docstring): an experiment, measured
	// and not kept as a style of its own; see the README.
	styleCompactDoc = "compact+doc"
)

// renderStyle returns the render.Style of a checked style name.
func renderStyle(name string) render.Style {
	switch name {
	case StyleAider:
		return render.Aider
	case styleCompactDoc:
		return render.CompactDoc
	}
	return render.Compact
}

// CheckStyle returns an error when name is not a style Options.Style
// takes.
func CheckStyle(name string) error {
	switch name {
	case "", StyleCompact, StyleAider, styleCompactDoc:
		return nil
	}
	return fmt.Errorf("repomap: unknown style %q (want %s or %s)", name, StyleCompact, StyleAider)
}
