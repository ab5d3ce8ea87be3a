package repomap

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/fit"
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
	// RankedFiles are the files of the first items of the ranked list
	// the map is a prefix of (those it shows and the next RankedMore),
	// best first: in the order of each file's first item, with that
	// item's score.
	RankedFiles []RankedFile `json:"ranked_files"`
	// RankedDefs are the definitions of the same items, best first: each
	// item's definitions of its name in its file, by line, with the
	// item's score. A map shows those of its first items.
	RankedDefs []RankedDef `json:"ranked_defs"`
	// Ranked lists every file but the focus files, best ranked first: by
	// the rank of its best definition, then files without definitions by
	// their own rank, then the rest by path. RankedFiles is its start.
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
	// Qualifier is the qualifier its language's tags record: a Python
	// method's class, a Go method's receiver ("p Point"); for other
	// kinds whatever the tags link by (a Go function's result type). ""
	// for none.
	Qualifier string `json:"qualifier"`
	Kind      string `json:"kind"` // function, method, class, struct…
	Line      int    `json:"line"` // 1-based
}

// RankedMore is how many items of the ranked list after those a map
// shows its Result lists in RankedFiles and RankedDefs.
const RankedMore = 32

// RankedFile is a file of the ranked list, with its score.
type RankedFile struct {
	Path string `json:"path"`
	// Score is the score of the file's first item: its best definition's
	// score in the ranking, or for a file by name alone its own rank (in
	// a related map: the weight of its links). The order of the list puts
	// the files of a later tier (tests, examples…) after the others,
	// whatever their scores.
	Score float64 `json:"score"`
}

// RankedDef is a definition of the ranked list, with its score.
type RankedDef struct {
	Path      string  `json:"path"`
	Name      string  `json:"name"`
	Qualifier string  `json:"qualifier"` // as in Def
	Kind      string  `json:"kind"`
	Line      int     `json:"line"`  // 1-based
	Score     float64 `json:"score"` // its item's score, as for RankedFile
}

// Skipped is a file left out of parsing: its kind of reason, one word
// ("large", "binary", "unreadable", "symlink", "irregular" for a device
// or a pipe, "changed" during the scan, "parse" for a parser's error,
// "timeout", "clash" for a path that reads as another file's), and the
// reason in words ("larger than 1048576 bytes").
type Skipped struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
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
	its, err := r.ranked.prefix(ctx, r.shown+RankedMore)
	if err != nil {
		return nil, err
	}
	pub.RankedFiles, pub.RankedDefs = rankedLists(its)
	shown := its[:r.shown]
	defs := make(map[string][]Def)
	for _, it := range shown {
		ds := defs[it.Path]
		for _, row := range it.Rows {
			if row.Kind != fit.LineOfInterest {
				ds = append(ds, Def{Name: row.Name, Qualifier: row.Qual, Kind: row.Kind, Line: row.Line + 1})
			}
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
		pub.Skipped = append(pub.Skipped, Skipped{Path: s.Path, Kind: s.Skip.Kind.String(), Reason: s.Skip.String()})
	}
	return pub, nil
}

// rankedLists returns the files of the ranked items its, in the order of
// their first item, and their definitions, in order, each with its
// item's score. Rows that use a definition (a related map's) are not
// definitions.
func rankedLists(its []fit.Item) ([]RankedFile, []RankedDef) {
	var files []RankedFile
	var defs []RankedDef
	seen := make(map[string]bool)
	for _, it := range its {
		if !seen[it.Path] {
			seen[it.Path] = true
			files = append(files, RankedFile{Path: it.Path, Score: it.Score})
		}
		if it.Name == "" {
			continue
		}
		for _, row := range it.Rows {
			if row.Kind != useKind && row.Kind != fit.LineOfInterest {
				defs = append(defs, RankedDef{Path: it.Path, Name: row.Name, Qualifier: row.Qual, Kind: row.Kind, Line: row.Line + 1, Score: it.Score})
			}
		}
	}
	return files, defs
}
