package repomap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/memo"
	"github.com/repomap-dev/repomap/internal/render"
)

// Map makes repo maps of one tree, or of several trees as one. It keeps
// what it learned about the files between renders, so that a map of a
// tree that changed a little costs little. Its methods are safe for
// concurrent use; renders run one at a time.
//
// A map is made in stages, each taking what the one before gives: the
// index walks, reads, parses and caches, and gives a snapshot of the
// tree; the rank stage links references to definitions and ranks them;
// the fit finds how much of the ranked list fits the budget; the render
// writes it. The Map holds what lasts between requests: the index, with
// the compiled tags queries, and the blocks already rendered; on Linux,
// from its second render on, a watch of each tree on disk too (an
// inotify instance, a file descriptor): Close releases them.
type Map struct {
	roots  []Root         // as NewRoots took them, with FS set
	caches []*cache.Cache // per root: its disk cache, or nil
	keep   *memo.Store    // what a map makes from the last one, in the first root's disk cache when this build can be told apart; nil for none
	opts   Options

	mu     sync.Mutex        // serialises requests and guards what follows
	idx    *index.Index      // the files, their tags and outlines
	links  *memo.LinkStage   // the link stage's last result
	hist   *histStage        // the histories of the roots
	blocks render.Memo       // rendered file blocks, by file version
	counts map[string][2]int // the token counts of the texts of the last map's blocks
	last   *lastRender       // the last map made, for the refresh modes
	closed bool

	memoOff bool // for tests of what a first map reads: no map is kept in the disk cache or read from it
}

// Root is one tree of a map made of several.
type Root struct {
	// Name prefixes the paths of the root's files in the map, as
	// "Name/path". It must be a single path element.
	Name string
	// FS is the tree.
	FS fs.FS
	// Dir is the tree's directory on disk, if it has one; it names the
	// root's tag cache. Without it the root is not cached on disk.
	Dir string
}

// Request says what a map is for.
type Request struct {
	// Focus lists the files being worked on, as slash-separated paths in
	// the map (relative to the root, or "name/path" with several roots),
	// or as absolute paths of files inside a root on disk.
	// They steer the ranking toward what they use and are left out of the
	// map, which is about the rest of the tree.
	Focus []string

	// Mentions lists identifiers and paths the user mentioned. A mentioned
	// identifier weighs more wherever it is referenced, and files whose
	// path has it as a part (a directory, the base name, or the base name
	// without extension) rank higher; a mentioned path ranks that file
	// higher.
	Mentions []string

	// Text is the user's words, free text such as a task or an issue:
	// what it mentions (see Map.FindMentions) counts as Mentions do.
	Text string

	// MaxTokens, when positive, overrides the Map's budget for this request.
	MaxTokens int
}

// key identifies a request for the refresh modes.
func (r Request) key() string {
	return fmt.Sprintf("%s|%d", r.rankKey(), r.MaxTokens)
}

// rankKey identifies what of a request the ranking depends on: all of it
// but the budget.
func (r Request) rankKey() string {
	return fmt.Sprintf("%q|%q|%q", cleanPaths(r.Focus), r.Mentions, r.Text)
}

// New returns a Map of the tree at dir. It is cheap: the work happens in
// Render. Its tags are cached on disk unless Options.NoCache is set.
func New(dir string, opts *Options) (*Map, error) {
	return NewRoots([]Root{{Dir: dir}}, opts)
}

// NewFS returns a Map of the tree fsys, which is not cached on disk.
func NewFS(fsys fs.FS, opts *Options) (*Map, error) {
	return NewRoots([]Root{{FS: fsys}}, opts)
}

// NewRoots returns a Map of several trees ranked as one graph: references
// from the files of one to the definitions of another count like any
// other. Each root's files appear in the map under the root's Name. With
// a single root, Name may be empty and paths are not prefixed. A Root with
// Dir and no FS is the directory on disk. It is an error for the Dir of
// one root to lie in another's, whose map holds its files already.
func NewRoots(roots []Root, opts *Options) (*Map, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		return nil, errors.New("repomap: no root")
	}
	var dirs []string
	for _, r := range roots {
		if r.Dir != "" {
			dirs = append(dirs, r.Dir)
		}
	}
	if err := checkNesting(dirs); err != nil {
		return nil, err
	}
	m := &Map{opts: o, blocks: make(render.Memo)}
	var ixRoots []index.Root
	names := make(map[string]bool)
	for _, r := range roots {
		if len(roots) > 1 && (r.Name == "" || r.Name == "." || r.Name == ".." || strings.ContainsAny(r.Name, `/\`)) {
			return nil, fmt.Errorf("repomap: root name %q is not a single path element", r.Name)
		}
		if names[r.Name] {
			return nil, fmt.Errorf("repomap: two roots named %q", r.Name)
		}
		names[r.Name] = true
		onDisk := false
		if r.FS == nil {
			if r.Dir == "" {
				return nil, errors.New("repomap: a root has neither FS nor Dir")
			}
			info, err := os.Stat(r.Dir)
			if err != nil {
				return nil, fmt.Errorf("repomap: %w", err)
			}
			if !info.IsDir() {
				return nil, fmt.Errorf("repomap: %s is not a directory", r.Dir)
			}
			r.FS = os.DirFS(r.Dir)
			onDisk = true
		}
		var c *cache.Cache
		if r.Dir != "" && !o.NoCache {
			var err error
			if c, err = cache.New(o.CacheDir, r.Dir, &cache.Options{Timeout: o.CacheTimeout, Logger: o.Logger}); err != nil {
				o.Logger.Warn("repomap: tag cache off", "root", r.Dir, "err", err)
			}
		}
		m.roots, m.caches = append(m.roots, r), append(m.caches, c)
		ixRoots = append(ixRoots, index.Root{Name: r.Name, FS: r.FS, Dir: r.Dir, OnDisk: onDisk, Cache: c})
	}
	m.idx = index.New(ixRoots, m.opts.indexOptions())
	m.hist = newHistStage(m)
	if c := m.caches[0]; c != nil && memo.BuildStamp() != "" {
		m.keep = memo.NewStore(c)
	}
	m.links = memo.NewLinkStage(m.keep, func(err error) { m.idx.Warn(0, err) }, m.opts.Logger.Debug)
	return m, nil
}

// Close waits for the Map's write to the disk cache under way, then
// releases its resources. A map's parsed tags are written while it is
// linked, so a process that exits without closing its Map may
// leave them unwritten. Close is safe to call more than once, and on a
// nil or zero Map.
func (m *Map) Close() error {
	if m == nil || m.idx == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	m.blocks, m.last, m.counts = nil, nil, nil
	m.links.Close()
	m.idx.Settle() // one write at a time
	m.links.Store(context.Background())
	return m.idx.Close()
}

var (
	// ErrClosed is returned by the methods of a closed Map.
	ErrClosed = errors.New("repomap: map is closed")
	// ErrNotInMap is returned, wrapped with the path, for a focus file or
	// a file given to Related that is not a file of the map.
	ErrNotInMap = errors.New("not a file of the map")
)

// Render returns the map of the tree for req: the best-ranked definitions
// that fit the token budget, as source lines under their file's path. The
// same tree and request give the same bytes, from a new Map or from one
// kept open while the tree changed. Files that cannot be read or
// parsed are listed by name, or left out, and logged; only a walk of a
// root that fails, a cancelled context or a closed Map give an error.
func (m *Map) Render(ctx context.Context, req Request) (string, error) {
	r, err := m.build(ctx, req)
	if err != nil {
		return "", err
	}
	return r.text, nil
}

// snapshot brings the index up to date and returns its snapshot. The
// caller holds m.mu.
func (m *Map) snapshot(ctx context.Context) (*index.Snapshot, error) {
	if m.closed {
		return nil, ErrClosed
	}
	m.idx.StartPreload(ctx, index.ReadDecoded, nil)
	files, skipped, err := m.idx.Walk(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := m.idx.Update(ctx, files, skipped)
	if err != nil {
		return nil, err
	}
	if err := snap.DecodeAll(ctx); err != nil { // the lookups read every file's tags
		return nil, err
	}
	m.blocks.Keep(snap)
	return snap, nil
}

// cleanPaths returns the paths cleaned, slash-separated and without a
// leading "./".
// focusPaths returns the focus files ps as paths of snap, cleaned and
// sorted: an absolute path is made a path of the map (MapPath). A path
// that is not a file of snap is an error wrapping ErrNotInMap.
func (m *Map) focusPaths(snap *index.Snapshot, ps []string) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		mp, ok := m.MapPath(p)
		if !ok {
			return nil, fmt.Errorf("repomap: focus %s: %w: it is under no root of the map (give a path relative to the root, or an absolute path inside it)", p, ErrNotInMap)
		}
		if !snap.Has(mp) {
			return nil, fmt.Errorf("repomap: focus %s: %w", p, ErrNotInMap)
		}
		out = append(out, mp)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func cleanPaths(ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "./")))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
