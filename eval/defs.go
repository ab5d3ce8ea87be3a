package eval

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/items"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

// goldDef is a definition a task's fix edits: in the file at Path, named
// Name and qualified by Qual (the class of a method; "" for none).
type goldDef struct {
	Path, Qual, Name string
}

// isDefSpan reports whether span, a name of Task.GoldSpans, names a
// definition: not an import block ("imports"), a docstring
// ("docstring") or other code outside a definition ("impl:N", and any
// name with a colon).
func isDefSpan(span string) bool {
	return span != "" && span != "imports" && span != "docstring" && !strings.Contains(span, ":")
}

// goldDefs returns the definitions spans names in the files gold, by
// file (in gold's order) then name, each once. A name that is another
// name of the file's with "_N" added (N a number: "Class.prop_1" beside
// "Class.prop") is the N-th other definition of that name, as for a
// property's setter, and is the same definition here.
func goldDefs(spans map[string][]string, gold []string) []goldDef {
	var out []goldDef
	for _, p := range gold {
		var ds []goldDef
		for _, s := range spans[p] {
			if !isDefSpan(s) {
				continue
			}
			if i := strings.LastIndexByte(s, '_'); i > 0 && i < len(s)-1 && strings.Trim(s[i+1:], "0123456789") == "" && slices.Contains(spans[p], s[:i]) {
				s = s[:i]
			}
			g := goldDef{Path: p, Name: s}
			if i := strings.LastIndexByte(s, '.'); i >= 0 {
				g.Qual, g.Name = s[:i], s[i+1:]
			}
			ds = append(ds, g)
		}
		slices.SortFunc(ds, func(a, b goldDef) int {
			return cmp.Or(cmp.Compare(a.Qual, b.Qual), cmp.Compare(a.Name, b.Name))
		})
		out = append(out, slices.Compact(ds)...)
	}
	return out
}

// matches reports whether the definition named name in the file at p,
// of kind kind and with the qualifier qual its tags record, is g. A
// qualified g ("Class.method") is a definition named "method" whose
// qualifier's last identifier is the last part of g's ("Point" in
// "Point", "p Point" or "*Point"), or one named "Class.method"; a plain
// g ("function", "Class") is a definition of that name without a
// qualifier, or a class of that name.
func (g goldDef) matches(p, name, qual, kind string) bool {
	if p != g.Path {
		return false
	}
	if g.Qual == "" {
		return name == g.Name && (qual == "" || kind == "class")
	}
	if name == g.Qual+"."+g.Name {
		return true
	}
	last := g.Qual[strings.LastIndexByte(g.Qual, '.')+1:]
	return name == g.Name && link.QualIdent(qual) == last
}

// goldSites says where a task's gold functions and methods stand in their
// files at its base commit, so that a definition nested in one counts as
// it: a map that shows the definition shows, above it, the signature of
// each declaration around it (render.Compact), the gold one's too. A
// nested function is often what a traceback names (`wrapper` in a
// decorator's `__call__`), and the fix edits the function around it. A
// gold class is found only by itself, not by its methods.
type goldSites struct {
	outlines map[string]*tags.Outline // by path
	rows     map[goldDef][]int        // 0-based rows of each gold function or method
}

// findGoldSites returns the sites of gold in the files of the tree,
// parsed by p; a file it cannot read or parse has none.
func findGoldSites(ctx context.Context, p *tags.Parser, gold []goldDef, files map[string]entry, bl *blobs) (*goldSites, error) {
	s := &goldSites{outlines: make(map[string]*tags.Outline), rows: make(map[goldDef][]int)}
	for _, g := range gold {
		if _, done := s.outlines[g.Path]; done {
			continue
		}
		s.outlines[g.Path] = nil
		f, ok := files[g.Path]
		if !ok || !regular(f.mode) {
			continue
		}
		src, err := bl.read(f.oid)
		if err != nil {
			return nil, err
		}
		s.add(ctx, p, g.Path, src, gold)
	}
	return s, ctx.Err()
}

// add notes the sites of the gold definitions in the file at path, whose
// content is src.
func (s *goldSites) add(ctx context.Context, p *tags.Parser, path string, src []byte, gold []goldDef) {
	set, err := p.ParseSet(ctx, path, src)
	if err != nil {
		return
	}
	o, err := p.Outline(ctx, path, src)
	if err != nil {
		return
	}
	s.outlines[path] = o
	for _, row := range items.ShownDefs(set) {
		for _, g := range gold {
			if row.Kind != "class" && g.matches(path, row.Name, row.Qual, row.Kind) {
				s.rows[g] = append(s.rows[g], row.Line)
			}
		}
	}
}

// encloses reports whether g is a function or method around the
// definition at row (0-based) of g's file, whose signature a map that
// shows that definition shows above it.
func (s *goldSites) encloses(g goldDef, row int) bool {
	if s == nil || len(s.rows[g]) == 0 || s.outlines[g.Path] == nil {
		return false
	}
	shown := s.outlines[g.Path].Compact([]int{row})
	return slices.ContainsFunc(s.rows[g], func(r int) bool { return r < row && slices.Contains(shown, r) })
}

// finds reports whether the definition at line (1-based) of the file at
// p, named name, of kind kind and with qualifier qual, finds one of gold:
// it is one, or lies inside one (encloses).
func (s *goldSites) finds(gold []goldDef, p, name, qual, kind string, line int) bool {
	return slices.ContainsFunc(gold, func(g goldDef) bool {
		return g.matches(p, name, qual, kind) || g.Path == p && s.encloses(g, line-1)
	})
}

// DefOutcome is how a map, and BM25 over definitions, did on the
// definitions a task's fix edits.
type DefOutcome struct {
	// Gold counts the task's gold definitions.
	Gold int `json:"gold"`
	// Shown and InFile have one entry per budget: the gold definitions
	// the map shows by name (among Result.Files' Defs), and those whose
	// file it shows.
	Shown  []int `json:"shown"`
	InFile []int `json:"in_file"`
	// First is the 1-based position in Result.RankedDefs of the first
	// gold definition, in the longest of the lists the maps returned (the
	// one of the largest budget); 0 when it holds none. Listed is that
	// list's length.
	First  int `json:"first"`
	Listed int `json:"listed"`
	// BM25First is the same position in the BM25 ranking of the
	// definitions of the candidate files, and BM25Docs their number.
	BM25First int `json:"bm25_first"`
	BM25Docs  int `json:"bm25_docs"`
}

// newDefOutcome returns the outcome of a task with the gold definitions
// gold, over n budgets, with nothing found yet.
func newDefOutcome(gold []goldDef, n int) *DefOutcome {
	return &DefOutcome{Gold: len(gold), Shown: make([]int, n), InFile: make([]int, n)}
}

// record notes what the map r, made at the j-th budget, shows of gold,
// and, when its ranked definitions are the longest yet, where the first
// gold one is among them.
func (o *DefOutcome) record(j int, r *repomap.Result, gold []goldDef, sites *goldSites) {
	for _, g := range gold {
		i := slices.IndexFunc(r.Files, func(f repomap.FileResult) bool { return f.Path == g.Path })
		if i < 0 {
			continue
		}
		o.InFile[j]++
		if slices.ContainsFunc(r.Files[i].Defs, func(d repomap.Def) bool {
			return sites.finds([]goldDef{g}, g.Path, d.Name, d.Qualifier, d.Kind, d.Line)
		}) {
			o.Shown[j]++
		}
	}
	if len(r.RankedDefs) > o.Listed || j == 0 {
		o.Listed = len(r.RankedDefs)
		o.First = 1 + slices.IndexFunc(r.RankedDefs, func(d repomap.RankedDef) bool {
			return sites.finds(gold, d.Path, d.Name, d.Qualifier, d.Kind, d.Line)
		})
	}
}

// The BM25 baseline over definitions ranks every definition of the
// candidate files that a map could show (as tags give them), one
// document each: its qualifier and name, the comment lines right above
// it, and its lines: from its own down to the first non-blank line
// indented no deeper that does not start with a closing bracket (so a
// Python function's body and a class's methods are in, and the closing
// line of a multi-line signature does not end it). Terms and scores are
// those of bm25.go.

// defDoc is the BM25 document of one definition.
type defDoc struct {
	name, qual, kind string
	line             int // 0-based
	terms            termCounts
}

// bm25Defs are the documents of the definitions of the files of the last
// tree ranked, by path and blob, kept for the next tree.
type bm25Defs struct {
	parser *tags.Parser
	m      map[string][]defDoc
}

// firstGold ranks the definitions of cands by BM25 against query and
// returns the 1-based position of the first of gold (0 for none), and
// how many definitions were ranked. A file tags cannot parse has none.
func (d *bm25Defs) firstGold(ctx context.Context, query string, gold []goldDef, sites *goldSites, cands []string, files map[string]entry, bl *blobs) (first, n int, err error) {
	next := make(map[string][]defDoc, len(cands))
	type ref struct {
		path string
		doc  *defDoc
	}
	var refs []ref
	var docs []termCounts
	for _, p := range cands {
		key := p + "\x00" + files[p].oid
		ds, ok := d.m[key]
		if !ok {
			data, err := bl.read(files[p].oid)
			if err != nil {
				return 0, 0, err
			}
			if ds, err = d.docs(ctx, p, data); err != nil {
				return 0, 0, err
			}
		}
		next[key] = ds
		for i := range ds {
			refs = append(refs, ref{p, &ds[i]})
			docs = append(docs, ds[i].terms)
		}
	}
	d.m = next
	scores := bm25Scores(query, docs)
	order := make([]int, len(refs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := refs[a], refs[b]
		return cmp.Or(cmp.Compare(scores[b], scores[a]), cmp.Compare(ra.path, rb.path),
			cmp.Compare(ra.doc.line, rb.doc.line), cmp.Compare(ra.doc.name, rb.doc.name))
	})
	for k, i := range order {
		r := refs[i]
		if sites.finds(gold, r.path, r.doc.name, r.doc.qual, r.doc.kind, r.doc.line+1) {
			return k + 1, len(refs), nil
		}
	}
	return 0, len(refs), nil
}

// docs returns the documents of the definitions of the file at p with
// content src.
func (d *bm25Defs) docs(ctx context.Context, p string, src []byte) ([]defDoc, error) {
	set, err := d.parser.ParseSet(ctx, p, src)
	if err != nil {
		// A file tags cannot read (a timeout, a language without a
		// grammar) has no documents, as it has no definitions in a map.
		return nil, ctx.Err()
	}
	lines := strings.Split(string(src), "\n")
	var out []defDoc
	for _, row := range items.ShownDefs(set) {
		if row.Line >= len(lines) {
			continue
		}
		text := row.Qual + " " + row.Name + "\n" + strings.Join(defLines(lines, row.Line), "\n")
		out = append(out, defDoc{name: row.Name, qual: row.Qual, kind: row.Kind, line: row.Line, terms: countTerms(text)})
	}
	return out, nil
}

// defLines returns the lines of the definition on lines[at]: the comment
// lines right above it, its own, and those after it down to the first
// non-blank line indented no deeper that does not start with a closing
// bracket.
func defLines(lines []string, at int) []string {
	from := at
	for from > 0 {
		s := strings.TrimSpace(lines[from-1])
		if !strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "//") {
			break
		}
		from--
	}
	depth := indent(lines[at])
	to := at + 1
	for ; to < len(lines); to++ {
		s := strings.TrimSpace(lines[to])
		if s != "" && indent(lines[to]) <= depth && !strings.ContainsRune(")]}", rune(s[0])) {
			break
		}
	}
	return lines[from:to]
}

// indent returns the width of line's leading white space, a tab counting
// as one.
func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}
