package repomap

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/rank"
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
	Path  string  `json:"path"`
	Rank  float64 `json:"rank"`  // the file's PageRank in the whole tree
	Lines []int   `json:"lines"` // 1-based lines of its references to the name
}

// current brings the Map's view of the tree up to date and returns the
// files. The caller holds m.mu.
func (m *Map) current(ctx context.Context) ([]file, error) {
	if m.closed {
		return nil, ErrClosed
	}
	files, _, err := m.walk(ctx)
	if err != nil {
		return nil, err
	}
	if _, _, err := m.refreshTags(ctx, files); err != nil {
		return nil, err
	}
	m.storeCaches(ctx, files)
	return files, nil
}

// Definitions returns every definition of the names, by path and line.
func (m *Map) Definitions(ctx context.Context, names ...string) ([]Definition, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	files, err := m.current(ctx)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var out []Definition
	for _, f := range files {
		set := m.files[f.path].tags
		for j, t := range set.Tags {
			if t.Kind != tags.Definition || !want[set.Strings[t.Name]] || graphOnly(set.Sub(j)) {
				continue
			}
			d := Definition{Path: f.path, Name: set.Strings[t.Name], Kind: set.Sub(j), Line: int(t.Line) + 1}
			if src := m.source(ctx, f.path, true); src != nil {
				var b strings.Builder
				src.render(&b, f.path, []int{int(t.Line)})
				_, d.Text, _ = strings.Cut(b.String(), "\n")
			}
			out = append(out, d)
		}
	}
	m.storeCaches(ctx, files) // outlines made on the way
	return out, nil
}

// References returns the files that refer to name, best ranked first,
// each with the lines of its references.
func (m *Map) References(ctx context.Context, name string) ([]Reference, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	files, err := m.current(ctx)
	if err != nil {
		return nil, err
	}
	var out []Reference
	for _, f := range files {
		set := m.files[f.path].tags
		var lines []int
		for _, t := range set.Tags {
			if t.Kind == tags.Reference && set.Strings[t.Name] == name {
				lines = append(lines, int(t.Line)+1)
			}
		}
		if len(lines) > 0 {
			out = append(out, Reference{Path: f.path, Lines: slices.Compact(lines)})
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	_, ranks, _ := m.rankItems(files, nil, nil)
	for i := range out {
		out[i].Rank = ranks[out[i].Path]
	}
	slices.SortStableFunc(out, func(a, b Reference) int { return cmp.Compare(b.Rank, a.Rank) })
	return out, nil
}

// Related returns a map of the files most related to the file at p, in
// both directions: the files defining what it uses, with those
// definitions, and the files that use what it defines, with the lines
// that use it in the context of their scopes. Files are ranked by the
// weight of the links, as the ranking weighs references; the map fits
// budget tokens (0 means the Map's budget).
func (m *Map) Related(ctx context.Context, p string, budget int) (*Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	files, err := m.current(ctx)
	if err != nil {
		return nil, err
	}
	p = cleanPaths([]string{p})[0]
	self := m.files[p]
	if self == nil {
		return nil, fmt.Errorf("repomap: %s is not a file of the map", p)
	}
	// What p defines and references.
	defines := make(map[string]bool)
	refCount := make(map[string]int)
	for _, t := range self.tags.Tags {
		name := self.tags.Strings[t.Name]
		if t.Kind == tags.Definition {
			defines[name] = true
		} else {
			refCount[name]++
		}
	}
	type link struct {
		weight   float64
		names    []string // what p uses that the file defines
		useRows  []int    // where the file uses what p defines
		useNames []string // what it uses there
	}
	links := make(map[string]*link)
	get := func(q string) *link {
		l := links[q]
		if l == nil {
			l = &link{}
			links[q] = l
		}
		return l
	}
	definers := make(map[string]int) // how many files define a name
	for _, f := range files {
		set := m.files[f.path].tags
		for _, t := range set.Tags {
			if t.Kind == tags.Definition {
				definers[set.Strings[t.Name]]++
			}
		}
	}
	for _, f := range files {
		if f.path == p {
			continue
		}
		set := m.files[f.path].tags
		used := make(map[string]int)
		for j, t := range set.Tags {
			name := set.Strings[t.Name]
			switch {
			case t.Kind == tags.Definition && refCount[name] > 0 && !graphOnly(set.Sub(j)):
				// f defines what p uses.
				l := get(f.path)
				if !slices.Contains(l.names, name) {
					l.names = append(l.names, name)
					l.weight += linkWeight(name, refCount[name], definers[name])
				}
			case t.Kind == tags.Reference && defines[name]:
				// f uses what p defines.
				used[name]++
				l := get(f.path)
				l.useRows = append(l.useRows, int(t.Line))
				l.useNames = append(l.useNames, name)
			}
		}
		for name, n := range used {
			links[f.path].weight += linkWeight(name, n, definers[name])
		}
	}
	paths := make([]string, 0, len(links))
	for q := range links {
		paths = append(paths, q)
	}
	slices.SortFunc(paths, func(a, b string) int {
		return cmp.Or(cmp.Compare(links[b].weight, links[a].weight), strings.Compare(a, b))
	})
	// One item per definition p uses, and one per file for where it uses
	// p, files by weight: a small budget shows the best part of each.
	var items []item
	for _, q := range paths {
		l := links[q]
		slices.Sort(l.names)
		for _, name := range l.names {
			items = append(items, item{path: q, name: name, score: l.weight})
		}
		if len(l.useRows) > 0 {
			it := item{path: q, score: l.weight, rows: l.useRows, names: l.useNames}
			for range l.useRows {
				it.kinds = append(it.kinds, "use")
			}
			items = append(items, it)
		}
	}
	if budget <= 0 {
		budget = Budget(m.opts.MaxTokens, m.opts.ContextWindow, true)
	}
	enc, err := encoding(m.opts.Encoding)
	if err != nil {
		return nil, err
	}
	count := func(s string) int { return countTokens(enc, s) }
	text, tokens, shown, err := m.fit(ctx, items, budget, count)
	if err != nil {
		return nil, err
	}
	ranks := make(map[string]float64, len(links))
	for q, l := range links {
		ranks[q] = l.weight
	}
	res := &result{text: text, tokens: tokens, budget: budget, items: items, shown: shown, ranks: ranks}
	m.publish(ctx, res, m.opts.Encoding, count)
	m.storeCaches(ctx, files)
	return res.public, nil
}

// linkWeight weighs n references to name, defined in definers files, as
// the ranking does.
func linkWeight(name string, n, definers int) float64 {
	return rank.Weight(name, definers, false) * math.Sqrt(float64(n))
}

// Mentions are the paths and identifiers found in free text.
type Mentions struct {
	Files  []string // paths of the map mentioned, or whose base name or stem was
	Idents []string // words that look like identifiers
}

// All returns the files and identifiers together, as Request.Mentions
// takes them.
func (ms Mentions) All() []string { return slices.Concat(ms.Files, ms.Idents) }

var wordRE = regexp.MustCompile(`[\pL\pN_]+`)

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
	files, _, err := m.walk(ctx)
	if err != nil {
		return Mentions{}, err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	return findMentions(text, paths), nil
}

func findMentions(text string, paths []string) Mentions {
	isPath := make(map[string]bool, len(paths))
	byBase := make(map[string][]string)
	byStem := make(map[string][]string)
	for _, p := range paths {
		isPath[p] = true
		base := path.Base(p)
		byBase[base] = append(byBase[base], p)
		stem := strings.ToLower(strings.TrimSuffix(base, path.Ext(base)))
		byStem[stem] = append(byStem[stem], p)
	}
	files := make(map[string]bool)
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(w, ",.!;:?")
		w = strings.Trim(w, "\"'`*_")
		w = strings.ReplaceAll(w, "\\", "/")
		w = strings.TrimPrefix(w, "./")
		switch {
		case isPath[w]:
			files[w] = true
		case strings.ContainsAny(w, "/\\._-") && len(byBase[w]) == 1:
			files[byBase[w][0]] = true
		}
	}
	var ms Mentions
	seen := make(map[string]bool)
	for _, w := range wordRE.FindAllString(text, -1) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ms.Idents = append(ms.Idents, w)
		if len(w) >= 5 {
			for _, p := range byStem[strings.ToLower(w)] {
				files[p] = true
			}
		}
	}
	for p := range files {
		ms.Files = append(ms.Files, p)
	}
	slices.Sort(ms.Files)
	return ms
}
