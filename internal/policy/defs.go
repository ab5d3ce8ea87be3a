package policy

import (
	"cmp"
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/words"
	"github.com/repomap-dev/repomap/tags"
)

// The relevance of each definition of a file to a request's words: BM25F
// over the fields of the definition as the tags of its file give them,
// the words of its name, of its qualifier (a method's receiver), and of
// the names its body refers to (the references from its line to the next
// definition's), each word weighed by its rarity among the files of the
// tree (the inverse document frequency of the files' relevance). A name
// the request writes as code, or a function of a stack trace, names a
// definition directly. Only the tags are read, which the index keeps: no
// file is read again.

// defField is one field of a definition, as its relevance weighs it.
type defField int

const (
	fieldName defField = iota
	fieldQual
	fieldBody
	fieldText
	numFields
)

// defTerms is what a definition holds of a request's words: how often
// each word (by its place in the rarity's hashes) is in each field, and
// the length of its body.
type defTerms struct {
	tf   [numFields][]float32
	body int
	text int
}

// defRelevance returns the relevance of the definitions of the files ps
// of s to the request's words (r) and to the names it writes as code
// (direct), by path then name as the ranking knows them
// (link.RankName); each between 0 and 1, the best 1. Definitions that
// match no word are left out. With c.Lines and c.Text, it returns too
// the lines of interest of each (interestLines), by path then name.
func defRelevance(ctx context.Context, s *index.Snapshot, ps []string, r rarity, direct map[string]bool, c DefRel) (rel map[string]map[string]float64, lines map[string]map[string][]int) {
	if len(r.hashes) == 0 && len(direct) == 0 || len(ps) == 0 {
		return nil, nil
	}
	var is []int
	for _, p := range ps {
		if i, ok := s.Lookup(p); ok {
			is = append(is, i)
		}
	}
	s.Read(ctx, is)
	type scored struct {
		path, name string
		terms      defTerms
		direct     bool
		qualified  bool  // the request writes its class or receiver's name and its own, dotted
		lines      []int // lines of interest
	}
	var defs []scored
	var bodies, nBodies float64
	var buf []uint32
	var texts, nTexts float64
	for _, i := range is {
		set := s.Tags(ctx, i)
		// With a weight for the text field, the words of each line of
		// the file that are words of r, by their places in r, and how
		// many words each line has.
		var lineHits [][]int32
		var lineLens []int
		var srcLines []string
		if c.Text > 0 {
			if src := s.Source(ctx, s.Files[i].Path); src != nil {
				srcLines = src.Lines
				lineHits = make([][]int32, len(src.Lines))
				lineLens = make([]int, len(src.Lines))
				for j, line := range src.Lines {
					lineHits[j], lineLens[j], buf = r.hits(line, buf)
				}
			}
		}
		// The words of r each string of the file holds, by their places
		// in r, and how many words it has.
		hits := make([][]int32, set.NumStrings())
		lens := make([]int, set.NumStrings())
		for j := range set.NumStrings() {
			hits[j], lens[j], buf = r.hits(set.Str(uint32(j)), buf)
		}
		// The lines of the definitions, ascending: a body runs to the
		// next one; and the references, by line.
		var lines []int32
		var refs []tags.Packed
		for _, t := range set.Tags {
			if t.Kind == tags.Definition {
				lines = append(lines, t.Line)
			} else {
				refs = append(refs, t)
			}
		}
		slices.Sort(lines)
		lines = slices.Compact(lines)
		slices.SortStableFunc(refs, func(a, b tags.Packed) int { return int(a.Line - b.Line) })
		for j, t := range set.Tags {
			if t.Kind != tags.Definition || link.GraphOnly(set.Sub(j)) {
				continue
			}
			name := set.Str(t.Name)
			d := scored{path: s.Files[i].Path, name: link.RankName(set.Sub(j), name), direct: direct[name]}
			if q := link.QualIdent(set.Qual(j)); q != "" {
				d.qualified = direct[q+"."+name]
			}
			for f := range numFields {
				d.terms.tf[f] = make([]float32, len(r.hashes))
			}
			for _, k := range hits[t.Name] {
				d.terms.tf[fieldName][k]++
			}
			if t.Qual > 0 {
				for _, k := range hits[t.Qual-1] {
					d.terms.tf[fieldQual][k]++
				}
			}
			// Its lines: from the comments and decorators that lead it
			// to those that lead the next definition.
			k, _ := slices.BinarySearch(lines, t.Line)
			start, end := int32(leading(srcLines, int(t.Line))), int32(1<<31-1)
			if k > 0 {
				start = max(start, lines[k-1]+1)
			}
			if k+1 < len(lines) {
				end = max(t.Line+1, int32(leading(srcLines, int(lines[k+1]))))
			}
			lo, _ := slices.BinarySearchFunc(refs, start, func(u tags.Packed, l int32) int { return int(u.Line - l) })
			for _, u := range refs[lo:] {
				if u.Line >= end {
					break
				}
				for _, k := range hits[u.Name] {
					d.terms.tf[fieldBody][k]++
				}
				d.terms.body += lens[u.Name]
			}
			for l := int(start); l < min(int(end), len(lineHits)); l++ {
				for _, k := range lineHits[l] {
					d.terms.tf[fieldText][k]++
				}
				d.terms.text += lineLens[l]
			}
			if c.Lines > 0 {
				d.lines = interestLines(lineHits, int(start), int(end), int(t.Line), r, c.Lines)
			}
			bodies += float64(d.terms.body)
			nBodies++
			texts += float64(d.terms.text)
			nTexts++
			defs = append(defs, d)
		}
	}
	avg := max(bodies/max(nBodies, 1), 1)
	avgText := max(texts/max(nTexts, 1), 1)
	weights := [numFields]float64{c.Name, c.Qual, c.Body, c.Text}
	best := 0.0
	score := make([]float64, len(defs))
	maxIDF := 0.0
	for _, v := range r.idf {
		maxIDF = max(maxIDF, v)
	}
	for n, d := range defs {
		var sc float64
		norm := 1 - words.BM25B + words.BM25B*float64(d.terms.body)/avg
		normText := 1 - words.BM25B + words.BM25B*float64(d.terms.text)/avgText
		for k, idf := range r.idf {
			var tf float64
			for f := range numFields {
				v := float64(d.terms.tf[f][k])
				switch f {
				case fieldBody:
					v /= norm
				case fieldText:
					v /= normText
				}
				tf += weights[f] * v
			}
			if tf > 0 {
				sc += idf * tf / (words.BM25K1 + tf)
			}
		}
		if d.direct {
			sc += c.Direct * maxIDF
		}
		if d.qualified {
			sc += c.Qualified * maxIDF
		}
		score[n] = sc
		best = max(best, sc)
	}
	if best == 0 {
		return nil, nil
	}
	rel = make(map[string]map[string]float64)
	for n, d := range defs {
		if score[n] == 0 {
			continue
		}
		m := rel[d.path]
		if m == nil {
			m = make(map[string]float64)
			rel[d.path] = m
		}
		if v := score[n] / best; v > m[d.name] {
			m[d.name] = v
			if len(d.lines) > 0 {
				if lines == nil {
					lines = make(map[string]map[string][]int)
				}
				if lines[d.path] == nil {
					lines[d.path] = make(map[string][]int)
				}
				lines[d.path][d.name] = d.lines
			}
		}
	}
	return rel, lines
}

// leading returns the first of the lines of src that lead the
// definition at line def (0-based): the comments, decorators, annotations
// and attributes right above it, at its indentation (a block comment's
// lines that start with "*" one column further in too), with no blank
// line between. They are the next definition's, not the body of the one
// above: a Go doc comment, a Python decorator, a Java annotation. It
// returns def when no line leads it, or src does not hold it.
func leading(src []string, def int) int {
	if def <= 0 || def >= len(src) {
		return def
	}
	indent := indentOf(src[def])
	for def > 0 {
		line := src[def-1]
		in := indentOf(line)
		rest := line[in:]
		switch {
		case in == indent && (strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "#") ||
			strings.HasPrefix(rest, "/*") || strings.HasPrefix(rest, "@") || strings.HasPrefix(rest, "--")):
		case (in == indent || in == indent+1) && strings.HasPrefix(rest, "*"):
		default:
			return def
		}
		def--
	}
	return def
}

// indentOf returns the length of the spaces and tabs line starts with.
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// hits returns the places in r of the words of text that are r's, and
// how many words text has; buf is scratch space, returned for reuse.
func (r rarity) hits(text string, buf []uint32) ([]int32, int, []uint32) {
	buf = words.AppendHashes(buf[:0], text)
	var out []int32
	for _, h := range buf {
		if k, ok := slices.BinarySearch(r.hashes, h); ok {
			out = append(out, int32(k))
		}
	}
	return out, len(buf), buf
}

// interestLines returns the lines of interest among lines [from, to) of
// a file but its definition's own line, own, whose words of r are
// lineHits: at most n of them, in order, the lines whose distinct words
// of r weigh the most, each at least half of the heaviest's weight.
func interestLines(lineHits [][]int32, from, to, own int, r rarity, n int) []int {
	type line struct {
		at     int
		weight float64
	}
	var ls []line
	for l := from; l < min(to, len(lineHits)); l++ {
		if l == own {
			continue
		}
		var w float64
		seen := make(map[int32]bool, len(lineHits[l]))
		for _, k := range lineHits[l] {
			if !seen[k] {
				seen[k] = true
				w += r.idf[k]
			}
		}
		if w > 0 {
			ls = append(ls, line{l, w})
		}
	}
	slices.SortStableFunc(ls, func(a, b line) int { return cmp.Compare(b.weight, a.weight) })
	var out []int
	for _, l := range ls[:min(n, len(ls))] {
		if l.weight >= ls[0].weight/2 {
			out = append(out, l.at)
		}
	}
	slices.Sort(out)
	return out
}

// directNames returns the names that text writes as code or that a stack
// trace in it names: its code words (CodeWords), the functions of its
// traces (traceNames), the names called in it (`name(`), and the parts of
// dotted names (`Class.method`), each alone and the last two joined by a
// dot.
func directNames(text string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range CodeWords(text) {
		out[w] = true
	}
	for _, w := range traceNames(text) {
		out[w] = true
	}
	for _, m := range callRE.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	for _, m := range dottedRE.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
		out[m[2]] = true
		out[m[1]+"."+m[2]] = true
	}
	return out
}

var (
	callRE   = regexp.MustCompile(`([\pL_][\pL\pN_]*)\(`)
	dottedRE = regexp.MustCompile(`([\pL_][\pL\pN_]*)\.([\pL_][\pL\pN_]*)`)
)

// liftDefs returns the lift of the definitions of rel (defRelevance's)
// for rank.Input.Lift: c.Lift times each one's relevance, of the c.PerFile
// most relevant of each file when PerFile is positive; nil when c.Lift
// is 0.
func liftDefs(rel map[string]map[string]float64, c DefRel) map[string]map[string]float64 {
	if c.Lift == 0 {
		return nil
	}
	out := make(map[string]map[string]float64, len(rel))
	for p, m := range rel {
		names := byRelevance(m)
		if c.PerFile > 0 {
			names = names[:min(len(names), c.PerFile)]
		}
		lift := make(map[string]float64, len(names))
		for _, name := range names {
			lift[name] = c.Lift * m[name]
		}
		out[p] = lift
	}
	return out
}

// byRelevance returns the names of m, the most relevant first, ties by
// name.
func byRelevance(m map[string]float64) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b)) })
}
