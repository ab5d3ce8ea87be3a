package repomap

import (
	"cmp"
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
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Map makes repo maps of one tree, or of several trees as one. It keeps
// what it learned about the files between renders, so that a map of a
// tree that changed a little costs little. Its methods are safe for
// concurrent use; renders run one at a time.
type Map struct {
	roots []*root
	opts  Options

	mu     sync.Mutex            // serialises renders and guards what follows
	files  map[string]*fileState // by path in the map
	blocks map[string]block      // rendered file blocks, by path and rows
	last   *lastRender           // the last map made, for the refresh modes
	parser *tags.Parser          // for outlines; nil until needed
	warned map[string]bool       // cache warnings given, once each
	closed bool
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

// root is a Root with its cache.
type root struct {
	Root
	cache  *cache.Cache    // nil without a disk cache
	loaded bool            // whether the disk cache was read
	known  map[string]bool // the paths the disk cache holds, after a store
}

// Request says what a map is for.
type Request struct {
	// Focus lists the files being worked on, as slash-separated paths in
	// the map (relative to the root, or "name/path" with several roots).
	// They steer the ranking toward what they use and are left out of the
	// map, which is about the rest of the tree.
	Focus []string

	// Mentions lists identifiers and paths the user mentioned. A mentioned
	// identifier weighs more wherever it is referenced, and files whose
	// path has it as a part (a directory, the base name, or the base name
	// without extension) rank higher; a mentioned path ranks that file
	// higher.
	Mentions []string

	// MaxTokens, when positive, overrides the Map's budget for this request.
	MaxTokens int
}

// key identifies a request for the refresh modes.
func (r Request) key() string {
	return fmt.Sprintf("%q|%q|%d", r.Focus, r.Mentions, r.MaxTokens)
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
// Dir and no FS is the directory on disk.
func NewRoots(roots []Root, opts *Options) (*Map, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		return nil, errors.New("repomap: no root")
	}
	m := &Map{opts: o, files: make(map[string]*fileState), blocks: make(map[string]block), warned: make(map[string]bool)}
	names := make(map[string]bool)
	for _, r := range roots {
		if len(roots) > 1 && (r.Name == "" || r.Name == "." || r.Name == ".." || strings.ContainsAny(r.Name, `/\`)) {
			return nil, fmt.Errorf("repomap: root name %q is not a single path element", r.Name)
		}
		if names[r.Name] {
			return nil, fmt.Errorf("repomap: two roots named %q", r.Name)
		}
		names[r.Name] = true
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
		}
		rt := &root{Root: r}
		if r.Dir != "" && !o.NoCache {
			c, err := cache.New(o.CacheDir, r.Dir, &cache.Options{Timeout: o.CacheTimeout})
			if err != nil {
				o.Logger.Warn("repomap: tag cache off", "root", r.Dir, "err", err)
			} else {
				rt.cache = c
			}
		}
		m.roots = append(m.roots, rt)
	}
	return m, nil
}

// Close releases the Map's resources. It is safe to call more than once.
func (m *Map) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.files, m.blocks, m.last = nil, nil, nil
	if m.parser != nil {
		err := m.parser.Close()
		m.parser = nil
		return err
	}
	return nil
}

// ErrClosed is returned by the methods of a closed Map.
var ErrClosed = errors.New("repomap: map is closed")

// Render returns the map of the tree for req: the best-ranked definitions
// that fit the token budget, as source lines under their file's path. The
// same tree and request give the same bytes. Files that cannot be read or
// parsed are listed by name, or left out, and logged; only a walk of a
// root that fails, a cancelled context or a closed Map give an error.
func (m *Map) Render(ctx context.Context, req Request) (string, error) {
	r, err := m.build(ctx, req)
	if err != nil {
		return "", err
	}
	return r.text, nil
}

// result is one rendered map with what went into it.
type result struct {
	text    string
	tokens  int
	budget  int
	items   []item // the ranked list
	shown   int    // how many items of it the map shows
	ranks   map[string]float64
	stats   Stats
	skipped []skip
	public  *Result
}

// lastRender is the last map made, with what it was made of.
type lastRender struct {
	req   string
	state map[string][2]int64 // path → size, modification time
	res   *result
}

// item is one entry of the ranked list: a definition, with the rows of all
// its definition tags in its file, or a file by itself (rows nil).
type item struct {
	path  string
	name  string
	rows  []int    // 0-based
	kinds []string // the kind of the definition on each row
	names []string // the name on each row, when not all are name
	score float64
}

func (m *Map) build(ctx context.Context, req Request) (*result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	start := time.Now()
	if m.opts.Refresh == RefreshManual && m.last != nil {
		return m.last.res, nil
	}
	// Loading the tokenizer takes a while: do it while the tree is read.
	encDone := make(chan error, 1)
	go func() { _, err := encoding(m.opts.Encoding); encDone <- err }()

	var st Stats
	files, skipped, err := m.walk(ctx)
	if err != nil {
		return nil, err // encDone is buffered: the loader does not wait
	}
	st.Files = len(files)
	for _, f := range files {
		st.Bytes += f.size
	}
	st.Walk = time.Since(start)
	state := make(map[string][2]int64, len(files))
	for _, f := range files {
		state[f.path] = [2]int64{f.size, f.mod}
	}
	if last := m.last; last != nil && last.req == req.key() {
		switch m.opts.Refresh {
		case RefreshFiles:
			if samePaths(last.state, state) {
				return last.res, nil
			}
		case RefreshAuto:
			if maps2Equal(last.state, state) {
				return last.res, nil
			}
		}
	}

	t := time.Now()
	more, parsed, err := m.refreshTags(ctx, files)
	if err != nil {
		return nil, err // encDone is buffered: the loader does not wait
	}
	st.Parsed, st.Cached = parsed, len(files)-parsed
	st.Tags = time.Since(t)
	skipped = append(skipped, more...)
	for _, s := range skipped {
		m.opts.Logger.Debug("repomap: skipped", "path", s.path, "reason", s.reason)
	}
	st.Skipped = len(skipped)

	t = time.Now()
	focus := cleanPaths(req.Focus)
	items, ranks, graph := m.rankItems(files, focus, req.Mentions)
	st.Nodes, st.Links = graph.nodes, graph.links
	st.Defs, st.Refs = graph.defs, graph.refs
	st.Rank = time.Since(t)

	budget := req.MaxTokens
	if budget <= 0 {
		budget = Budget(m.opts.MaxTokens, m.opts.ContextWindow, len(focus) > 0)
	}
	if err := <-encDone; err != nil {
		return nil, err
	}
	enc, _ := encoding(m.opts.Encoding)
	t = time.Now()
	text, tokens, shown, err := m.fit(ctx, items, budget, func(s string) int { return countTokens(enc, s) })
	if err != nil {
		return nil, err
	}
	st.Fit = time.Since(t)
	st.Tokens = tokens

	t = time.Now()
	m.storeCaches(ctx, files)
	st.Store = time.Since(t)
	st.Total = time.Since(start)

	res := &result{text: text, tokens: tokens, budget: budget, items: items, shown: shown, ranks: ranks, stats: st, skipped: skipped}
	m.publish(ctx, res, m.opts.Encoding, func(s string) int { return countTokens(enc, s) })
	m.last = &lastRender{req: req.key(), state: state, res: res}
	return res, nil
}

func samePaths(a, b map[string][2]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			return false
		}
	}
	return true
}

func maps2Equal(a, b map[string][2]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for p, v := range a {
		if w, ok := b[p]; !ok || w != v {
			return false
		}
	}
	return true
}

// refreshTags brings the tags of files up to date, from the disk cache or
// by parsing, and returns the files left out with why and how many were
// parsed.
func (m *Map) refreshTags(ctx context.Context, files []file) ([]skip, int, error) {
	m.loadCaches(ctx)
	more, parsed := m.extract(ctx, files)
	if err := ctx.Err(); err != nil {
		return nil, 0, fmt.Errorf("repomap: %w", err)
	}
	return more, parsed, nil
}

// walk lists the files of every root, with their paths in the map.
func (m *Map) walk(ctx context.Context) ([]file, []skip, error) {
	var files []file
	var skipped []skip
	for i, r := range m.roots {
		fs, sk, err := walkGlobs(ctx, r.FS, m.opts.Exclude, m.opts.Include)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range fs {
			f.root, f.rel = i, f.path
			if r.Name != "" {
				f.path = r.Name + "/" + f.path
			}
			files = append(files, f)
		}
		for _, s := range sk {
			if r.Name != "" {
				s.path = r.Name + "/" + s.path
			}
			skipped = append(skipped, s)
		}
	}
	return files, skipped, nil
}

// graphSize tells how large the ranking's input was.
type graphSize struct{ nodes, links, defs, refs int }

// graphOnly reports whether definitions of this kind link files in the
// ranking without being shown: every Go file of a package defines the
// package's name, which ties the files that use the package to it, but a
// package clause says nothing the path does not.
func graphOnly(sub string) bool { return sub == "package" }

// rankItems ranks the files' definitions for the focus files and mentions
// and returns the ranked list and each file's rank.
func (m *Map) rankItems(files []file, focus, mentions []string) ([]item, map[string]float64, graphSize) {
	in := rank.Input{Files: make([]rank.File, len(files)), Focus: focus}
	isPath := make(map[string]bool, len(files))
	for _, f := range files {
		isPath[f.path] = true
	}
	for _, w := range mentions {
		if p := path.Clean(strings.TrimPrefix(w, "./")); isPath[p] {
			in.MentionedFiles = append(in.MentionedFiles, p)
		}
		in.MentionedIdents = append(in.MentionedIdents, w)
	}
	var size graphSize
	rk, _ := parseRanking(m.opts.Ranking) // checked by New
	in.Reverse = rk.reverse
	// hidden holds the definitions that link files but are not shown.
	hidden := make(map[[2]string]bool)
	var count []int // per string of a file's Set: references to it
	for i, f := range files {
		rf := rank.File{Path: f.path}
		set := m.files[f.path].tags
		count = slices.Grow(count[:0], len(set.Strings))[:len(set.Strings)]
		clear(count)
		var bi map[string]bool
		if rk.builtins {
			bi = builtinsOf(f.path)
		}
		for j, t := range set.Tags {
			name := set.Strings[t.Name]
			if t.Kind == tags.Reference {
				if !builtinUse(bi, set.Sub(j), name) {
					count[t.Name]++
				}
				size.refs++
				continue
			}
			name = rankName(set.Sub(j), name)
			rf.Defs = append(rf.Defs, name)
			if graphOnly(set.Sub(j)) {
				hidden[[2]string{f.path, name}] = true
			}
		}
		// Each referenced name once, with its count.
		for k, n := range count {
			if n > 0 {
				rf.Refs = append(rf.Refs, set.Strings[k])
				rf.RefCounts = append(rf.RefCounts, n)
			}
		}
		size.defs += len(rf.Defs)
		in.Files[i] = rf
	}
	res := rank.Rank(in)
	size.nodes = len(res.Files)
	size.links = res.Links
	items := make([]item, 0, len(res.Entries))
	listed := make(map[string]bool, len(files))
	var dropped []string
	for _, e := range res.Entries {
		if e.Name != "" && hidden[[2]string{e.Path, e.Name}] && !m.hasShown(e.Path, e.Name) {
			dropped = append(dropped, e.Path)
			continue // a definition that is never shown
		}
		listed[e.Path] = true
		items = append(items, item{path: e.Path, name: e.Name, score: e.Score})
	}
	if rk.docs > 0 {
		demoteDocs(items, rk.docs)
	}
	// A file whose only definitions are never shown still belongs in the
	// list, by its rank, among the files by name alone.
	var extra []item
	for _, p := range dropped {
		if !listed[p] {
			listed[p] = true
			extra = append(extra, item{path: p, score: res.Files[p]})
		}
	}
	if len(extra) > 0 {
		first := slices.IndexFunc(items, func(it item) bool { return it.name == "" })
		if first < 0 {
			first = len(items)
		}
		tail := append(slices.Clone(items[first:]), extra...)
		slices.SortStableFunc(tail, func(a, b item) int {
			return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.path, b.path))
		})
		items = append(items[:first], tail...)
	}
	return items, res.Files, size
}

// hasShown reports whether the file at p has a shown definition of name.
func (m *Map) hasShown(p, name string) bool {
	set := m.files[p].tags
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && rankName(set.Sub(j), set.Strings[t.Name]) == name && !graphOnly(set.Sub(j)) {
			return true
		}
	}
	return false
}

// defsOf returns the rows and kinds of the shown definitions of it.name in
// its file, filling them in on first use.
func (m *Map) defsOf(it *item) {
	if it.name == "" || it.rows != nil {
		return
	}
	st := m.files[it.path]
	if st == nil {
		return
	}
	set := st.tags
	for j, t := range set.Tags {
		if t.Kind == tags.Definition && rankName(set.Sub(j), set.Strings[t.Name]) == it.name && !graphOnly(set.Sub(j)) {
			it.rows = append(it.rows, int(t.Line))
			it.kinds = append(it.kinds, set.Sub(j))
			it.names = append(it.names, set.Strings[t.Name])
		}
	}
}

// cleanPaths returns the paths cleaned, slash-separated and without a
// leading "./".
func cleanPaths(ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "./")))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
