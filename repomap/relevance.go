package repomap

import (
	"cmp"
	"math"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/tags"
)

// Relevance: how well each file matches the user's words, by BM25 over
// the words of its names and its path. Names are split into words
// (camelCase, snake_case, dotted), so "QuerySet.update" in a request finds
// the file defining QuerySet and calling update, and a word that many
// files have weighs little: a word is not a mention of every file whose
// path holds it.

// BM25's parameters, the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// How much each place a word appears in counts in a file's bag of words.
const (
	defWordWeight  = 2 // a word of a name the file defines
	refWordWeight  = 1 // a word of a name it refers to
	pathWordWeight = 3 // a word of its path
)

// bag is a file's words, sorted, with their weights.
type bag struct {
	words   []string
	weights []float32
	length  float32 // the sum of the weights
}

// weight returns the weight of w in b, 0 when it has none.
func (b *bag) weight(w string) float32 {
	if i, ok := slices.BinarySearch(b.words, w); ok {
		return b.weights[i]
	}
	return 0
}

// bagOf returns the bag of words of the file at p with entry e.
func bagOf(p string, e *entry) *bag {
	ws := make(map[string]float32)
	add := func(name string, weight float32) {
		for _, w := range splitWords(name) {
			ws[w] += weight
		}
	}
	set := e.tags
	// Each string of the file's Set is split once, weighed by its uses.
	defs := make([]float32, len(set.Strings))
	refs := make([]float32, len(set.Strings))
	for _, t := range set.Tags {
		if t.Kind == tags.Definition {
			defs[t.Name]++
		} else {
			refs[t.Name]++
		}
	}
	for i, s := range set.Strings {
		if w := defs[i]*defWordWeight + refs[i]*refWordWeight; w > 0 {
			add(s, w)
		}
	}
	add(strings.TrimSuffix(p, path.Ext(p)), pathWordWeight)
	b := &bag{words: make([]string, 0, len(ws))}
	for w := range ws {
		b.words = append(b.words, w)
	}
	slices.Sort(b.words)
	b.weights = make([]float32, len(b.words))
	for i, w := range b.words {
		b.weights[i] = ws[w]
		b.length += ws[w]
	}
	return b
}

// splitWords returns the words of s, lower case: its runs of letters and
// digits, split again where camelCase changes case ("HTTPServer" gives
// "http" and "server"), and, for a name made of several words, the whole
// name too ("QuerySet" gives "queryset", "query" and "set"). Words of one
// letter are left out.
func splitWords(s string) []string {
	var out []string
	for _, run := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		parts := camelParts(run)
		if len(parts) > 1 {
			out = append(out, strings.ToLower(run))
		}
		for _, p := range parts {
			out = append(out, strings.ToLower(p))
		}
	}
	return slices.DeleteFunc(out, func(w string) bool { return utf8.RuneCountInString(w) < 2 })
}

// camelParts splits a run of letters and digits where its case changes:
// "parseHTTPRequest2" gives "parse", "HTTP", "Request2".
func camelParts(run string) []string {
	rs := []rune(run)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		lowerToUpper := unicode.IsLower(prev) && unicode.IsUpper(cur)
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next)
		if lowerToUpper || acronymEnd {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// stopWords are words of requests that say nothing about code.
var stopWords = set(`a an and are as at be been but by can could did do does doing done for from had has have having he her
	him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our out
	over own same she should so some such than that the their them then there these they this those through to too
	under until up very was we were what when where which while who whom why will with would you your yours also
	any all both each few here let may might must shall get gets got use used using like want wants need needs make
	makes made see seems seem way ways work works working thing things something way example e g eg ie etc
	expected actual behavior behaviour bug issue error errors problem fix fixed please thanks hi hello following
	would able instead however because since still even already one two new old`)

// queryWords returns the words of a request's text, without stop words,
// with how often each appears.
func queryWords(text string) map[string]int {
	out := make(map[string]int)
	for _, w := range splitWords(text) {
		if !stopWords[w] {
			out[w]++
		}
	}
	return out
}

// relevance returns the BM25 score of each file of s for the words of
// text, by path; files that match no word are left out.
func relevance(s *snapshot, text string) map[string]float64 {
	q := queryWords(text)
	if len(q) == 0 {
		return nil
	}
	bags := make([]*bag, len(s.files))
	var total float64
	for i, f := range s.files {
		e := s.entries[i]
		if e.bag == nil {
			e.bag = bagOf(f.path, e)
		}
		bags[i] = e.bag
		total += float64(e.bag.length)
	}
	n := float64(len(bags))
	avg := total / max(n, 1)
	words := make([]string, 0, len(q))
	for w := range q {
		words = append(words, w)
	}
	slices.Sort(words)
	idf := make([]float64, len(words))
	for k, w := range words {
		df := 0.0
		for _, b := range bags {
			if b.weight(w) > 0 {
				df++
			}
		}
		idf[k] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	out := make(map[string]float64)
	for i, b := range bags {
		var score float64
		norm := bm25K1 * (1 - bm25B + bm25B*float64(b.length)/max(avg, 1))
		for k, w := range words {
			tf := float64(b.weight(w))
			if tf == 0 {
				continue
			}
			score += idf[k] * tf * (bm25K1 + 1) / (tf + norm)
		}
		if score > 0 {
			out[s.files[i].path] = score
		}
	}
	return out
}

// topRelevant returns the k files of rel with the highest scores, best
// first, ties by path.
func topRelevant(rel map[string]float64, k int) []string {
	paths := make([]string, 0, len(rel))
	for p := range rel {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int { return cmp.Or(cmp.Compare(rel[b], rel[a]), strings.Compare(a, b)) })
	return paths[:min(k, len(paths))]
}

// codeWords returns the words of text that look like code rather than
// prose: names with an underscore or a change of case inside
// (parse_args, QuerySet), names with digits after letters (utf8), and
// every word between backticks.
func codeWords(text string) []string {
	var out []string
	seen := make(map[string]bool)
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for i, part := range strings.Split(text, "`") {
		for _, w := range wordRE.FindAllString(part, -1) {
			if i%2 == 1 && utf8.RuneCountInString(w) > 1 || codeLike(w) {
				add(w)
			}
		}
	}
	return out
}

// codeLike reports whether w is written as a name in code is.
func codeLike(w string) bool {
	if strings.Trim(w, "_") != w || strings.Contains(strings.Trim(w, "_"), "_") {
		return utf8.RuneCountInString(strings.Trim(w, "_")) > 1
	}
	rs := []rune(w)
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			return true
		}
		if unicode.IsDigit(rs[i]) && unicode.IsLetter(rs[0]) {
			return true
		}
	}
	return false
}

// namedFiles returns the files of paths that text names: by their path,
// by a path that ends with theirs (a traceback's
// "/usr/lib/python3/site-packages/pkg/mod.py", "src/pkg/file.go:12"), by
// their base name when one file has it and it has a dot, slash,
// underscore or hyphen, or by a dotted module path
// ("django.db.models.query.QuerySet" names django/db/models/query.py, or
// its package's __init__.py). Paths come out sorted.
func namedFiles(text string, paths []string) []string {
	isPath := make(map[string]bool, len(paths))
	byBase := make(map[string][]string)
	byStem := make(map[string][]string) // path without extension → paths
	for _, p := range paths {
		isPath[p] = true
		base := path.Base(p)
		byBase[base] = append(byBase[base], p)
		stem := strings.TrimSuffix(p, path.Ext(p))
		byStem[stem] = append(byStem[stem], p)
		if d, f := path.Split(stem); f == "__init__" || f == "index" || f == "mod" {
			byStem[strings.TrimSuffix(d, "/")] = append(byStem[strings.TrimSuffix(d, "/")], p)
		}
	}
	files := make(map[string]bool)
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`()[]{}<>,;", r)
	}) {
		w = strings.ReplaceAll(w, "\\", "/")
		// A position after the path: file.go:12, file.js:1:2.
		for {
			i := strings.LastIndexByte(w, ':')
			if i < 0 || strings.Trim(w[i+1:], "0123456789") != "" {
				break
			}
			w = w[:i]
		}
		w = strings.TrimRight(w, ".!?:")
		w = strings.TrimPrefix(strings.Trim(w, "*_"), "./")
		switch {
		case w == "":
		case isPath[w]:
			files[w] = true
		case strings.Contains(w, "/"):
			for rest := w; ; {
				_, after, ok := strings.Cut(rest, "/")
				if !ok {
					break
				}
				if isPath[after] {
					files[after] = true
					break
				}
				rest = after
			}
		case strings.ContainsAny(w, "._-") && len(byBase[w]) == 1:
			files[byBase[w][0]] = true
		}
		// A dotted module path, longest prefix first.
		if strings.Count(w, ".") >= 1 && !strings.Contains(w, "/") {
			parts := strings.Split(strings.TrimSuffix(w, "()"), ".")
			for n := len(parts); n >= 2; n-- {
				if ps := byStem[strings.Join(parts[:n], "/")]; len(ps) > 0 {
					for _, p := range ps {
						files[p] = true
					}
					break
				}
			}
		}
	}
	out := make([]string, 0, len(files))
	for p := range files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
