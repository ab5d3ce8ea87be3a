package repomap

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"
)

// Result is a map with what went into it.
type Result struct {
	Text     string // the map
	Tokens   int    // its length in tokens of Encoding
	Budget   int    // the most tokens it could have
	Encoding string // the tokenizer that counted

	// Files are the files the map shows, in map order (by path).
	Files []FileResult
	// Ranked lists every file but the focus files, best ranked first: by
	// the rank of its best definition, then files without definitions by
	// their own rank, then the rest by path.
	Ranked []string

	Skipped []Skipped // files left out of parsing, with why
	Stats   Stats
}

// FileResult is one file of a map.
type FileResult struct {
	Path string  // slash-separated, as in the map
	Rank float64 // the file's PageRank; 0 when it is not in the graph
	Defs []Def   // the definitions it shows, by line; none for a file by name
	Text string  // its part of the map, from its path line on
}

// Def is one definition shown in a map.
type Def struct {
	Name string
	Kind string // function, method, class, struct…
	Line int    // 1-based
}

// Skipped is a file left out of parsing.
type Skipped struct {
	Path   string
	Reason string
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
func publish(bs *blocks, r *result, encName string) *Result {
	pub := &Result{Text: r.text, Tokens: r.tokens, Budget: r.budget, Encoding: encName, Stats: r.stats}
	seen := make(map[string]bool)
	for _, it := range r.items {
		if !seen[it.Path] {
			seen[it.Path] = true
			pub.Ranked = append(pub.Ranked, it.Path)
		}
	}
	shown := r.items[:r.shown]
	defs := make(map[string][]Def)
	for _, it := range shown {
		ds := defs[it.Path]
		for _, row := range it.Rows {
			ds = append(ds, Def{Name: row.Name, Kind: row.Kind, Line: row.Line + 1})
		}
		defs[it.Path] = ds
	}
	paths := slices.Sorted(maps.Keys(defs))
	for i, b := range bs.ofItems(shown) {
		p := paths[i]
		fr := FileResult{Path: p, Rank: r.ranks[p], Text: b.text, Defs: defs[p]}
		slices.SortFunc(fr.Defs, func(a, b Def) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
		})
		pub.Files = append(pub.Files, fr)
	}
	for _, s := range r.skipped {
		pub.Skipped = append(pub.Skipped, Skipped{Path: s.path, Reason: s.reason})
	}
	return pub
}
