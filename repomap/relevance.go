package repomap

import (
	"cmp"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/words"
	"github.com/repomap-dev/repomap/tags"
)

// Relevance: how well each file matches the user's words, by BM25 over
// the words of its text, with more weight on those of the names it
// defines and of its path. Words are split (camelCase, snake_case,
// dotted: see internal/words), so "QuerySet.update" in a request finds the
// file defining QuerySet and calling update, an error message quoted from
// a traceback finds the file that raises it, and a word that many files
// have weighs little: a word is not a mention of every file whose path
// holds it. The words of a file's text are counted when it is parsed and
// kept in the cache, so that a request reads no file again.

// BM25's parameters, the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// How much each place a word appears in counts in a file's bag of words,
// besides each time its text has it.
const (
	defWordWeight  = 2 // a word of a name the file defines
	pathWordWeight = 3 // a word of its path
)

// bag is a file's words, by their hashes (words.Hash), sorted, with their
// weights.
type bag struct {
	hashes  []uint32
	weights []float32
	length  float32 // the sum of the weights
	text    float64 // the weight of its text's words it was made with
}

// weight returns the weight of the word of hash h in b, 0 when it has
// none.
func (b *bag) weight(h uint32) float32 {
	if i, ok := slices.BinarySearch(b.hashes, h); ok {
		return b.weights[i]
	}
	return 0
}

// bagOf returns the bag of words of the file at p with entry e: each word
// of its text weighs text, each word of a name it defines
// defWordWeight more, and each word of its path pathWordWeight more. A
// file whose text has no words (none counted) has its names' words
// instead: those it defines and refers to.
func bagOf(p string, e *entry, text float64) *bag {
	var content words.Bag
	hasText := len(e.words) > 0 && content.UnmarshalBinary(e.words) == nil
	// The words of names and the path, few, are merged into those of the
	// text, many and sorted already.
	type extra struct {
		h uint32
		w float32
	}
	var extras []extra
	add := func(name string, weight float32) {
		for _, w := range words.Split(name) {
			extras = append(extras, extra{words.Hash(w), weight})
		}
	}
	set := e.tags
	// Each string of the file's Set is split once, weighed by its uses.
	uses := make([]float32, len(set.Strings))
	for _, t := range set.Tags {
		switch {
		case t.Kind == tags.Definition:
			uses[t.Name] += defWordWeight
		case !hasText:
			uses[t.Name]++
		}
	}
	for i, s := range set.Strings {
		if uses[i] > 0 {
			add(s, uses[i])
		}
	}
	add(strings.TrimSuffix(p, path.Ext(p)), pathWordWeight)
	slices.SortFunc(extras, func(a, b extra) int { return cmp.Compare(a.h, b.h) })

	if text <= 0 {
		content = words.Bag{}
	}
	b := &bag{text: text}
	n := len(content.Hashes) + len(extras)
	b.hashes, b.weights = make([]uint32, 0, n), make([]float32, 0, n)
	push := func(h uint32, w float32) {
		if k := len(b.hashes); k > 0 && b.hashes[k-1] == h {
			b.weights[k-1] += w
		} else {
			b.hashes, b.weights = append(b.hashes, h), append(b.weights, w)
		}
		b.length += w
	}
	i, j := 0, 0
	for i < len(content.Hashes) || j < len(extras) {
		if j == len(extras) || i < len(content.Hashes) && content.Hashes[i] <= extras[j].h {
			push(content.Hashes[i], float32(text)*float32(content.Counts[i]))
			i++
		} else {
			push(extras[j].h, extras[j].w)
			j++
		}
	}
	return b
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
	for _, w := range words.Split(text) {
		if !stopWords[w] {
			out[w]++
		}
	}
	return out
}

// relevance returns the BM25 score of each file of s for the words of
// text, by path; files that match no word are left out.
func relevance(s *snapshot, text string, textWeight float64) map[string]float64 {
	q := queryWords(text)
	if len(q) == 0 {
		return nil
	}
	bags := make([]*bag, len(s.files))
	var total float64
	for i, f := range s.files {
		e := s.entries[i]
		if e.bag == nil || e.bag.text != textWeight {
			e.bag = bagOf(f.path, e, textWeight)
		}
		bags[i] = e.bag
		total += float64(e.bag.length)
	}
	n := float64(len(bags))
	avg := total / max(n, 1)
	hashes := make([]uint32, 0, len(q))
	for w := range q {
		hashes = append(hashes, words.Hash(w))
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	idf := make([]float64, len(hashes))
	for k, h := range hashes {
		df := 0.0
		for _, b := range bags {
			if b.weight(h) > 0 {
				df++
			}
		}
		idf[k] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	out := make(map[string]float64)
	for i, b := range bags {
		var score float64
		norm := bm25K1 * (1 - bm25B + bm25B*float64(b.length)/max(avg, 1))
		for k, h := range hashes {
			tf := float64(b.weight(h))
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

// traceNames returns the functions that the stack traces in text name,
// in order, once each: Python's `File "x.py", line 3, in name`, Go's
// `pkg.(*T).Name(…)` and `pkg.Name(…)` above a `file.go:12` line, and
// JavaScript's `at obj.name (file.js:1:2)`, and the lines of a trace
// written `file.py:12 in name` or `file.py:12→ name`.
func traceNames(text string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, m := range traceRE.FindAllStringSubmatch(text, -1) {
		name := cmp.Or(m[1], m[2], m[3], m[4])
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if name != "" && !seen[name] && name != "<module>" {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

var traceRE = regexp.MustCompile(`(?m)` +
	`File "[^"\n]+", line \d+, in ([\pL_][\pL\pN_]*)` + // Python
	`|^\s*[\pL\pN_./-]*\.(?:\(\*?[\pL\pN_]+\)\.)?([\pL_][\pL\pN_]*)\([^\n]*\)\n\s+\S+\.go:\d+` + // Go
	`|^\s*at (?:new |async )?([\pL_$][\pL\pN_$.]*) \([^\n]*:\d+:\d+\)` + // JavaScript
	`|[\pL\pN_./-]+\.\pL+:\d+(?:→| in) *([\pL_][\pL\pN_]*)`) // file.py:12→ name, file.py:12 in name

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
	// A path is letters, digits and "/._-:\\#@+~$": anything else ends it,
	// as a space, a quote or an arrow after "file.py:12" does.
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("/._-:\\#@+~$", r)
	}) {
		w = strings.ReplaceAll(w, "\\", "/")
		// A link's fragment: blob/main/pkg/file.py#L270.
		if i := strings.IndexByte(w, '#'); i >= 0 {
			w = w[:i]
		}
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
