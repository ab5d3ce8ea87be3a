package history

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Defaults of Options.
const (
	// DefaultDepth is how many commits a history reads by default: the
	// newest, as git log lists them. On django, reading 2,000 adds about
	// a tenth to the processor time of a cold map, 5,000 a sixth; the
	// histories measured (docs/history.md) rank the same with either.
	DefaultDepth = 2000
	// DefaultMaxFiles is the most files a commit may change for its files
	// to count as changed together: a commit that touches more (a sweep
	// over the tree, a move of a package, a vendored update) says little
	// about which of them belong together.
	DefaultMaxFiles = 30
)

// Options says how a history is read. The zero value means the defaults.
type Options struct {
	// Depth is the most commits read, newest first; 0 means DefaultDepth.
	Depth int
	// MaxFiles is the most files a commit may change for its files to be
	// kept; 0 means DefaultMaxFiles. A larger commit still counts toward
	// Depth, and its renames are still followed.
	MaxFiles int
}

// WithDefaults returns o with its defaults applied: the options a
// history read with o says it was read with.
func (o Options) WithDefaults() Options {
	if o.Depth <= 0 {
		o.Depth = DefaultDepth
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	return o
}

// History is which files the commits of a repository changed together,
// and when: the non-merge commits reachable from one commit, newest
// first, as many as Options.Depth allows. Every path is the name its
// file has at Head: a file that a commit renamed (as git's rename
// detection finds it) goes by its later name in the commits before the
// rename too.
type History struct {
	// Head is the commit the history was read from, in hex, and Time its
	// committer time, in Unix seconds.
	Head string
	Time int64
	// Paths are the files the commits changed, slash-separated from the
	// top of the repository, by their ids in Commit.Files.
	Paths []string
	// Commits are the commits read, newest first.
	Commits []Commit

	opts Options
}

// Commit is one commit of a History.
type Commit struct {
	// Time is the committer time, Unix seconds.
	Time int64
	// Message is the start of the commit's message (its subject, and the
	// body up to about a kilobyte): what the words of a request are
	// matched against.
	Message string
	// Files are the ids of the files the commit changed (added, modified,
	// deleted or renamed), in the order of their paths; nil for a commit
	// that changed more than Options.MaxFiles files, or none.
	Files []int32
}

// Options returns the options h was read with, defaults applied.
func (h *History) Options() Options { return h.opts }

// rawCommit is a commit as git log lists it.
type rawCommit struct {
	hash string
	time int64
	msg  string // as message keeps it
	// files are the paths the commit left changed; renames are (old, new)
	// pairs of paths, new being among files.
	files   []string
	renames [][2]string
}

// build returns the History of the commits raw, newest first, read from
// head at time t, with o: each path is named as at head, by the renames
// of the commits after it.
func build(head string, t int64, raw []rawCommit, o Options) *History {
	h := &History{Head: head, Time: t, opts: o}
	alias := make(map[string]string) // a name before a rename → the name at head
	ids := make(map[string]int32)
	name := func(p string) string {
		if n, ok := alias[p]; ok {
			return n
		}
		return p
	}
	for _, c := range raw {
		cm := Commit{Time: c.time, Message: c.msg}
		if len(c.files) <= o.MaxFiles {
			names := make([]string, 0, len(c.files))
			for _, p := range c.files {
				names = append(names, name(p))
			}
			slices.Sort(names)
			names = slices.Compact(names)
			for _, n := range names {
				id, ok := ids[n]
				if !ok {
					id = int32(len(h.Paths))
					ids[n] = id
					h.Paths = append(h.Paths, n)
				}
				cm.Files = append(cm.Files, id)
			}
		}
		// The commits before this one knew the file by its old name.
		for _, r := range c.renames {
			if r[0] != r[1] {
				alias[r[0]] = name(r[1])
			}
		}
		h.Commits = append(h.Commits, cm)
	}
	return h
}

// extend returns the history of the commits raw (newest first), which
// lead from head, at time t, to h.Head, followed by h's: the names of h's
// paths as at head, and at most o.Depth commits, the oldest dropped.
func (h *History) extend(head string, t int64, raw []rawCommit) *History {
	n := build(head, t, raw, h.opts)
	// The renames of the new commits, by the names at h.Head.
	alias := make(map[string]string)
	for i := len(raw) - 1; i >= 0; i-- { // oldest first: a later rename renames again
		for _, r := range raw[i].renames {
			if r[0] == r[1] {
				continue
			}
			for old, cur := range alias {
				if cur == r[0] {
					alias[old] = r[1]
				}
			}
			if _, ok := alias[r[0]]; !ok {
				alias[r[0]] = r[1]
			}
		}
	}
	ids := make(map[string]int32, len(n.Paths))
	for i, p := range n.Paths {
		ids[p] = int32(i)
	}
	remap := make([]int32, len(h.Paths))
	for i, p := range h.Paths {
		if a, ok := alias[p]; ok {
			p = a
		}
		id, ok := ids[p]
		if !ok {
			id = int32(len(n.Paths))
			ids[p] = id
			n.Paths = append(n.Paths, p)
		}
		remap[i] = id
	}
	for _, c := range h.Commits[:min(len(h.Commits), max(h.opts.Depth-len(n.Commits), 0))] {
		cm := Commit{Time: c.Time, Message: c.Message}
		for _, f := range c.Files {
			cm.Files = append(cm.Files, remap[f])
		}
		n.Commits = append(n.Commits, cm)
	}
	n.sortFiles()
	n.prune()
	return n
}

// sortFiles puts the files of each commit in the order of their paths,
// with no id twice (two names a rename made one).
func (h *History) sortFiles() {
	for i := range h.Commits {
		fs := h.Commits[i].Files
		slices.SortFunc(fs, func(a, b int32) int { return cmp.Compare(h.Paths[a], h.Paths[b]) })
		h.Commits[i].Files = slices.Compact(fs)
	}
}

// prune drops the paths no commit of h changes, and numbers the others
// in the order the commits, newest first, change them: the ids a read
// from Head would give.
func (h *History) prune() {
	remap := make([]int32, len(h.Paths))
	for i := range remap {
		remap[i] = -1
	}
	var paths []string
	for _, c := range h.Commits {
		for _, f := range c.Files {
			if remap[f] < 0 {
				remap[f] = int32(len(paths))
				paths = append(paths, h.Paths[f])
			}
		}
	}
	for i := range h.Commits {
		for j, f := range h.Commits[i].Files {
			h.Commits[i].Files[j] = remap[f]
		}
	}
	h.Paths = paths
}

// Errors of Read and Open, for the reasons a tree's history is not read.
var (
	// ErrNoRepository is returned for a directory that is in no git
	// repository.
	ErrNoRepository = errors.New("not in a git repository")
	// ErrShallow is returned for a shallow clone, whose history is cut.
	ErrShallow = errors.New("a shallow clone")
	// ErrNoCommit is returned for a repository whose HEAD names no
	// commit yet.
	ErrNoCommit = errors.New("no commit at HEAD")
	// ErrNoGit is returned when the git binary is not on PATH.
	ErrNoGit = errors.New("no git binary")
)

// check returns an error when h is not well formed: an id out of range,
// a commit's files out of order.
func (h *History) check() error {
	for i, c := range h.Commits {
		for j, f := range c.Files {
			if f < 0 || int(f) >= len(h.Paths) {
				return fmt.Errorf("history: commit %d: file id %d of %d", i, f, len(h.Paths))
			}
			if j > 0 && h.Paths[c.Files[j-1]] >= h.Paths[f] {
				return fmt.Errorf("history: commit %d: files out of order", i)
			}
		}
	}
	return nil
}
