package repomap

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/items"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/internal/render"
	"github.com/repomap-dev/repomap/tags"
)

// Definition is one definition found by Map.Definitions.
type Definition struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Kind string `json:"kind"` // function, method, class, struct…
	Line int    `json:"line"` // 1-based
	// Text is the definition as a map shows it: its line with the
	// headers of the scopes around it, each after "│", and "⋮" for
	// hidden runs, without the path line.
	Text string `json:"text"`
}

// Reference is one file that refers to a name, found by Map.References.
type Reference struct {
	Name  string  `json:"-"` // the name referred to
	Path  string  `json:"path"`
	Rank  float64 `json:"rank"`  // the file's PageRank in the whole tree
	Lines []int   `json:"lines"` // 1-based lines of its references to the name
}

// Definitions returns every definition of the names, by path and line.
// Of a tree whose tags the disk cache holds, it reads and decodes the
// tags of the files that define one of the names alone.
func (m *Map) Definitions(ctx context.Context, names ...string) ([]Definition, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	see := definers(want)
	m.idx.StartPreload(ctx, index.ReadStamps, see)
	files, skipped, err := m.idx.Walk(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := m.idx.Update(ctx, files, skipped)
	if err != nil {
		return nil, err
	}
	// The files whose entries the disk cache held, and that define none of
	// the names, are not read.
	var read []int
	for i := range snap.Len() {
		if v, ok := snap.Seen(i, see.Key); !ok || v.(bool) {
			read = append(read, i)
		}
	}
	snap.Read(ctx, read)
	var out []Definition
	for _, i := range read {
		f := snap.Files[i]
		for _, d := range items.ShownDefs(snap.Tags(ctx, i)) {
			if !want[d.Name] {
				continue
			}
			def := Definition{Path: f.Path, Name: d.Name, Kind: d.Kind, Line: d.Line + 1}
			if src := snap.Source(ctx, f.Path); src != nil {
				var b strings.Builder
				render.Block(&b, f.Path, &render.Source{Lines: src.Lines, Outline: src.Outline, Style: renderStyle(m.opts.Style)}, []int{d.Line})
				_, def.Text, _ = strings.Cut(b.String(), "\n")
			}
			out = append(out, def)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repomap: %w", err)
	}
	return out, nil
}

// definers returns what marks the entries of the disk cache that define
// one of the names of want, as the index reads them: true or false.
func definers(want map[string]bool) *index.Seer {
	key := "defines\x00" + strings.Join(slices.Sorted(maps.Keys(want)), "\x00")
	return &index.Seer{Key: key, See: func(e cache.Entry) any {
		if n, _ := e.Encoded.Len(); n == 0 {
			return slices.ContainsFunc(e.Tags.Tags, func(t tags.Packed) bool {
				return t.Kind == tags.Definition && want[e.Tags.Str(t.Name)]
			})
		}
		found := false
		e.Encoded.Names(nil, func(s []byte, defs, _ int) {
			found = found || defs > 0 && want[string(s)]
		})
		return found
	}}
}

// References returns the files that refer to each of the names: for
// each name in turn, its files best ranked first, each with the lines of
// its references. Where the ranking resolves references (the default),
// a use of a name the tree defines counts only when it can mean one of
// those definitions: refs of a Go function F leave out q.F of a package
// outside the tree and F of another package.
func (m *Map) References(ctx context.Context, names ...string) ([]Reference, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	snap, err := m.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	var out []Reference
	var ranks map[string]float64 // of the whole tree, once some file refers to a name
	rk := *m.opts.Policy
	var res *link.Resolver
	var defined, definedNames map[string]bool // the keys and names of the tree's definitions
	if rk.Link.Resolve {
		files, err := link.Files(ctx, snap)
		if err != nil {
			return nil, err
		}
		res, defined, definedNames = link.NewResolver(files, rk.Link), make(map[string]bool), make(map[string]bool)
		for i := range snap.Files {
			set := snap.Tags(ctx, i)
			for j, t := range set.Tags {
				if t.Kind == tags.Definition {
					defined[res.DefKey(i, j).Key()] = true
					for _, k := range res.MoreDefKeys(nil, i, j) {
						defined[k] = true
					}
					definedNames[set.Str(t.Name)] = true
				}
			}
		}
	}
	var keys []link.Ref
	for _, name := range names {
		start := len(out)
		// With resolution, a use counts when it resolves to a definition
		// of the tree, or falls back to the name; a name the tree does not
		// define keeps all its uses.
		resolved := definedNames[name]
		for i, f := range snap.Files {
			set := snap.Tags(ctx, i)
			var lines []int
			for j, t := range set.Tags {
				if t.Kind != tags.Reference || set.Str(t.Name) != name || !rk.Link.Links(set.Sub(j)) {
					continue
				}
				if resolved && res.Resolves(i) {
					keys = res.RefKeys(keys[:0], i, j)
					if !slices.ContainsFunc(keys, func(k link.Ref) bool { return k.Fallback || defined[k.Key()] }) {
						continue
					}
				}
				lines = append(lines, int(t.Line)+1)
			}
			if len(lines) > 0 {
				out = append(out, Reference{Name: name, Path: f.Path, Lines: slices.Compact(lines)})
			}
		}
		if len(out) == start {
			continue
		}
		if ranks == nil {
			l, err := m.linked(ctx, snap)
			if err != nil {
				return nil, err
			}
			all, err := rankSnapshot(ctx, snap, l, m.links, rk, policy.Query{})
			if err != nil {
				return nil, err
			}
			ranks = all.ranks
		}
		refs := out[start:]
		for i := range refs {
			refs[i].Rank = ranks[refs[i].Path]
		}
		slices.SortStableFunc(refs, func(a, b Reference) int { return cmp.Compare(b.Rank, a.Rank) })
	}
	return out, nil
}

// Related returns a map of the files most related to the file at p, in
// both directions: the files defining what it uses, with those
// definitions, and the files that use what it defines, with the lines
// that use it in the context of their scopes. Files are ranked by the
// weight of the links, as the ranking weighs references: the names that
// req mentions (Mentions, and the names Text writes as code) weigh ten
// times more. The map fits req.MaxTokens tokens (0 means the Map's
// budget); req.Focus is not used.
func (m *Map) Related(ctx context.Context, p string, req Request) (*Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	snap, err := m.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	p = cleanPaths([]string{p})[0]
	if !snap.Has(p) {
		return nil, fmt.Errorf("repomap: %s: %w", p, ErrNotInMap)
	}
	mentioned := make(map[string]bool)
	for _, w := range slices.Concat(req.Mentions, policy.CodeWords(req.Text)) {
		mentioned[w] = true
	}
	files, err := link.Files(ctx, snap)
	if err != nil {
		return nil, err
	}
	var rs *link.Resolver
	rk := *m.opts.Policy
	if rk.Link.Resolve {
		rs = link.NewResolver(files, rk.Link)
	}
	related, ranks := relatedItems(files, p, mentioned, rs, rk)
	budget := req.MaxTokens
	if budget <= 0 {
		budget = Budget(m.opts.MaxTokens, m.opts.ContextWindow, true)
	}
	if _, err := encoding(m.opts.Encoding); err != nil {
		return nil, err
	}
	bs := m.blocksOf(snap)
	r := &ranked{list: items.Fixed(related), ranks: ranks}
	text, tokens, shown, err := bs.Fit(ctx, r.list.Len(), r.prefix, budget)
	if err != nil {
		return nil, err
	}
	res := &result{text: text, tokens: tokens, budget: budget, ranked: r, shown: shown}
	pub, err := publish(ctx, bs, snap, res, m.opts.Encoding)
	if err != nil {
		return nil, err
	}
	return pub, nil
}

// Mentions are the paths and identifiers found in free text. All
// returns the files and identifiers together, as Request.Mentions takes
// them.
type Mentions = policy.Mentions

// FindMentions returns what text mentions among the files of the map: a
// word that is a path of the map (after trimming quotes, backticks and
// trailing punctuation); a word that is the base name of exactly one
// file and has a dot, slash, underscore or hyphen in it; every identifier
// word; and the files whose stem (base name without extension) is an
// identifier of five characters or more, case aside.
func (m *Map) FindMentions(ctx context.Context, text string) (Mentions, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Mentions{}, ErrClosed
	}
	files, _, err := m.idx.Walk(ctx)
	if err != nil {
		return Mentions{}, err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	return policy.FindMentions(text, paths), nil
}
