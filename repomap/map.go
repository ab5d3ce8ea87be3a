package repomap

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Map makes repo maps of one tree. Its methods are safe for concurrent
// use; renders run one at a time.
type Map struct {
	fsys fs.FS
	opts Options

	mu      sync.Mutex           // serialises renders and guards what follows
	sources map[string]*srcEntry // per path: text and outline, for rendering
	parser  *tags.Parser         // for outlines; nil until needed
	closed  bool
}

// srcEntry is a cached source, valid while the file's size and
// modification time are unchanged.
type srcEntry struct {
	size, mod int64
	src       *source
}

// Request says what a map is for.
type Request struct {
	// Focus lists the files being worked on, as slash-separated paths
	// relative to the root. They steer the ranking toward what they use
	// and are left out of the map, which is about the rest of the tree.
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

// New returns a Map of the tree at root. It is cheap: the work happens in
// Render.
func New(root string, opts *Options) (*Map, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("repomap: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("repomap: %s is not a directory", root)
	}
	return NewFS(os.DirFS(root), opts)
}

// NewFS returns a Map of the tree fsys.
func NewFS(fsys fs.FS, opts *Options) (*Map, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Map{fsys: fsys, opts: o, sources: make(map[string]*srcEntry)}, nil
}

// Close releases the Map's resources. It is safe to call more than once.
func (m *Map) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.sources = nil
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
// parsed are listed by name, or left out, and logged; only a walk of the
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
	files   int    // files found
	skipped []skip
}

// item is one entry of the ranked list: a definition, with the rows of all
// its definition tags in its file, or a file by itself (rows nil).
type item struct {
	path  string
	name  string
	rows  []int
	score float64
}

func (m *Map) build(ctx context.Context, req Request) (*result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	files, skipped, err := walk(ctx, m.fsys)
	if err != nil {
		return nil, err
	}
	fileTags, more := m.extract(ctx, files)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repomap: %w", err)
	}
	skipped = append(skipped, more...)
	for _, s := range skipped {
		m.opts.Logger.Debug("skipped", "path", s.path, "reason", s.reason)
	}

	focus := cleanPaths(req.Focus)
	items := rankItems(files, fileTags, focus, req.Mentions)
	budget := req.MaxTokens
	if budget <= 0 {
		budget = Budget(m.opts.MaxTokens, m.opts.ContextWindow, len(focus) > 0)
	}
	enc, err := encoding(m.opts.Encoding)
	if err != nil {
		return nil, err
	}
	text, tokens, shown, err := m.fit(ctx, items, budget, func(s string) int { return countTokens(enc, s) })
	if err != nil {
		return nil, err
	}
	return &result{text: text, tokens: tokens, budget: budget, items: items, shown: shown, files: len(files), skipped: skipped}, nil
}

// extract reads and parses the files in parallel and returns their tags,
// by index, and the files left out with why.
func (m *Map) extract(ctx context.Context, files []file) ([][]tags.Tag, []skip) {
	out := make([][]tags.Tag, len(files))
	reasons := make([]string, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(m.opts.Parallelism, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := tags.NewParser(&tags.ParserOptions{Timeout: m.opts.ParseTimeout})
			defer p.Close()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				out[i], reasons[i] = m.tagsOf(ctx, p, files[i])
			}
		}()
	}
	wg.Wait()
	var skipped []skip
	for i, r := range reasons {
		if r != "" {
			skipped = append(skipped, skip{files[i].path, r})
		}
	}
	return out, skipped
}

// tagsOf returns the tags of f, or the reason it has none worth noting.
func (m *Map) tagsOf(ctx context.Context, p *tags.Parser, f file) ([]tags.Tag, string) {
	if tags.Detect(f.path, nil) == "" && path.Ext(f.path) != "" {
		return nil, "" // neither its name nor its content can make it a language
	}
	if f.size > m.opts.MaxFileSize {
		return nil, fmt.Sprintf("larger than %d bytes", m.opts.MaxFileSize)
	}
	src, reason := readSource(m.fsys, f.path, m.opts.MaxFileSize)
	if reason != "" {
		return nil, reason
	}
	if tags.Detect(f.path, src) == "" {
		return nil, ""
	}
	ts, err := p.Parse(ctx, f.path, src)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ""
		}
		return nil, "parse: " + err.Error()
	}
	return ts, ""
}

// readSource reads the file at name for parsing: at most limit bytes, not
// binary, with a byte order mark dropped and line endings made "\n" so
// that rows count as an editor counts lines.
func readSource(fsys fs.FS, name string, limit int64) ([]byte, string) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, "unreadable: " + errText(err)
	}
	if int64(len(src)) > limit {
		return nil, fmt.Sprintf("larger than %d bytes", limit)
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, "binary"
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	return src, ""
}

// graphOnly reports whether definitions of this kind link files in the
// ranking without being shown: every Go file of a package defines the
// package's name, which ties the files that use the package to it, but a
// package clause says nothing the path does not.
func graphOnly(sub string) bool { return sub == "package" }

// rankItems ranks the files' definitions for the focus files and mentions
// and returns the ranked list.
func rankItems(files []file, fileTags [][]tags.Tag, focus, mentions []string) []item {
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
	// rows[path][name] lists the rows of the shown definitions of name.
	rows := make(map[string]map[string][]int, len(files))
	for i, f := range files {
		rf := rank.File{Path: f.path}
		for _, t := range fileTags[i] {
			if t.Kind == tags.Reference {
				rf.Refs = append(rf.Refs, t.Name)
				continue
			}
			rf.Defs = append(rf.Defs, t.Name)
			if graphOnly(t.Sub) {
				continue
			}
			byName := rows[f.path]
			if byName == nil {
				byName = make(map[string][]int)
				rows[f.path] = byName
			}
			byName[t.Name] = append(byName[t.Name], t.Line)
		}
		in.Files[i] = rf
	}
	res := rank.Rank(in)
	items := make([]item, 0, len(res.Entries))
	for _, e := range res.Entries {
		if e.Name == "" {
			items = append(items, item{path: e.Path, score: e.Score})
			continue
		}
		r := rows[e.Path][e.Name]
		if len(r) == 0 {
			continue // a definition that is never shown
		}
		items = append(items, item{path: e.Path, name: e.Name, rows: r, score: e.Score})
	}
	return items
}

// cleanPaths returns the paths cleaned, slash-separated and without a
// leading "./".
func cleanPaths(ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, path.Clean(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./")))
	}
	return out
}

// fit returns the largest prefix of items whose rendered map has at most
// budget tokens, rendered, with its token count and length.
func (m *Map) fit(ctx context.Context, items []item, budget int, count func(string) int) (string, int, int, error) {
	type probe struct {
		text   string
		tokens int
	}
	cache := make(map[int]probe)
	try := func(k int) (probe, error) {
		if p, ok := cache[k]; ok {
			return p, nil
		}
		if err := ctx.Err(); err != nil {
			return probe{}, fmt.Errorf("repomap: %w", err)
		}
		text := m.renderItems(ctx, items[:k])
		p := probe{text, count(text)}
		cache[k] = p
		return p, nil
	}
	// Invariant: the prefix of length lo fits; the one of length hi does
	// not (hi = len+1 stands for "nothing longer exists").
	lo, hi := 0, len(items)+1
	k := min(max(budget/25, 1), len(items))
	for k > lo && k < hi {
		p, err := try(k)
		if err != nil {
			return "", 0, 0, err
		}
		if p.tokens > budget {
			hi = k
			break
		}
		lo = k
		if k == len(items) {
			break
		}
		k = min(2*k, len(items))
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		p, err := try(mid)
		if err != nil {
			return "", 0, 0, err
		}
		if p.tokens <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	best, err := try(lo)
	if err != nil {
		return "", 0, 0, err
	}
	return best.text, best.tokens, lo, nil
}

// renderItems renders the map of the given items: files in path order,
// each with its shown definitions, or by name alone.
func (m *Map) renderItems(ctx context.Context, items []item) string {
	lois := make(map[string][]int)
	for _, it := range items {
		if _, ok := lois[it.path]; !ok {
			lois[it.path] = nil
		}
		lois[it.path] = append(lois[it.path], it.rows...)
	}
	paths := make([]string, 0, len(lois))
	for p := range lois {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, cmp.Compare)
	var b strings.Builder
	for _, p := range paths {
		b.WriteByte('\n')
		rows := lois[p]
		if len(rows) == 0 {
			writeLine(&b, p)
			continue
		}
		src := m.source(ctx, p)
		if src == nil {
			writeLine(&b, p)
			continue
		}
		src.render(&b, p, rows)
	}
	return b.String()
}

// source returns the file at p ready to render, from the cache while the
// file is unchanged, or nil when it cannot be read.
func (m *Map) source(ctx context.Context, p string) *source {
	info, err := fs.Stat(m.fsys, p)
	if err != nil {
		m.opts.Logger.Debug("render: skipped", "path", p, "reason", errText(err))
		return nil
	}
	size, mod := info.Size(), info.ModTime().UnixNano()
	if e := m.sources[p]; e != nil && e.size == size && e.mod == mod {
		return e.src
	}
	text, reason := readSource(m.fsys, p, m.opts.MaxFileSize)
	if reason != "" {
		m.opts.Logger.Debug("render: skipped", "path", p, "reason", reason)
		return nil
	}
	if m.parser == nil {
		m.parser = tags.NewParser(&tags.ParserOptions{Timeout: m.opts.ParseTimeout})
	}
	outline, err := m.parser.Outline(ctx, p, text)
	if err != nil {
		m.opts.Logger.Debug("render: no outline", "path", p, "err", err)
	}
	src := newSource(string(text), outline)
	m.sources[p] = &srcEntry{size: size, mod: mod, src: src}
	return src
}
