package repomap

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/render"
)

// Result is a map with what went into it. Its JSON form (the json tags
// of it and of the types it holds) is the map's part of the document
// "repomap --format json" prints.
type Result struct {
	Budget   int    `json:"budget"`   // the most tokens the map could have
	Tokens   int    `json:"tokens"`   // the map's length in tokens of Encoding
	Encoding string `json:"encoding"` // the tokenizer that counted
	Text     string `json:"text"`     // the map

	// Files are the files the map shows, in map order (by path).
	Files []FileResult `json:"files"`
	// Ranked lists every file but the focus files, best ranked first: by
	// the rank of its best definition, then files without definitions by
	// their own rank, then the rest by path.
	Ranked []string `json:"-"`

	Skipped []Skipped `json:"-"` // files left out of parsing, with why
	Stats   Stats     `json:"-"`
}

// FileResult is one file of a map.
type FileResult struct {
	Path string  `json:"path"` // slash-separated, as in the map
	Rank float64 `json:"rank"` // the file's PageRank; 0 when it is not in the graph
	Defs []Def   `json:"defs"` // the definitions it shows, by line; none for a file by name
	Text string  `json:"text"` // its part of the map, from its path line on
}

// Def is one definition shown in a map.
type Def struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // function, method, class, struct…
	Line int    `json:"line"` // 1-based
}

// Skipped is a file left out of parsing.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Build returns the map for req with what went into it; Render returns
// its Text.
func (m *Map) Build(ctx context.Context, req Request) (*Result, error) {
	r, err := m.build(ctx, req)
	if err != nil {
		return nil, err
	}
	return r.public, nil
}

// publish returns the Result of r, whose blocks bs makes.
func publish(ctx context.Context, bs *render.Blocks, snap *index.Snapshot, r *result, encName string) (*Result, error) {
	pub := &Result{Text: r.text, Tokens: r.tokens, Budget: r.budget, Encoding: encName, Stats: r.stats}
	pub.Ranked = r.ranked.files()
	shown, err := r.ranked.prefix(ctx, r.shown)
	if err != nil {
		return nil, err
	}
	defs := make(map[string][]Def)
	for _, it := range shown {
		ds := defs[it.Path]
		for _, row := range it.Rows {
			ds = append(ds, Def{Name: row.Name, Kind: row.Kind, Line: row.Line + 1})
		}
		defs[it.Path] = ds
	}
	paths := slices.Sorted(maps.Keys(defs))
	for i, b := range bs.OfItems(ctx, shown) {
		p := paths[i]
		fr := FileResult{Path: p, Rank: r.ranked.ranks[p], Text: b.Text, Defs: defs[p]}
		if i, ok := snap.Lookup(p); ok && len(fr.Defs) > 0 {
			pub.Stats.Redacted += snap.Redacted(i)
		}
		slices.SortFunc(fr.Defs, func(a, b Def) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
		})
		pub.Files = append(pub.Files, fr)
	}
	for _, s := range r.skipped {
		pub.Skipped = append(pub.Skipped, Skipped{Path: s.Path, Reason: s.Reason})
	}
	return pub, nil
}
