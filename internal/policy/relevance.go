package policy

import (
	"cmp"
	"context"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
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

// How much each place a word appears in counts in a file's bag of words,
// besides each time its text has it.
const (
	defWordWeight  = 2 // a word of a name the file defines
	pathWordWeight = 3 // a word of its path
)

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

// wordsQuery is a request's words, as the relevance of a file reads
// them: the hashes of its words, ascending, and the weight of a word of
// a file's text.
type wordsQuery struct {
	text   string // the request's words
	weight float64
	hashes []uint32
}

// newWordsQuery returns the query of the words of text, each word of a
// file's text weighing textWeight; nil when text has no words but stop
// words.
func newWordsQuery(text string, textWeight float64) *wordsQuery {
	q := queryWords(text)
	if len(q) == 0 {
		return nil
	}
	wq := &wordsQuery{text: text, weight: textWeight}
	for w := range q {
		wq.hashes = append(wq.hashes, words.Hash(w))
	}
	slices.Sort(wq.hashes)
	wq.hashes = slices.Compact(wq.hashes)
	return wq
}

// key returns what identifies q among queries: its words and weight.
func (q *wordsQuery) key() string {
	return q.text + "\x00" + strconv.FormatFloat(q.weight, 'g', -1, 64)
}

// seer returns the Seer that scores the entries of the disk cache for
// q's words as the index reads them (Snapshot.Seen gives the scores).
func (q *wordsQuery) seer() *index.Seer {
	scorers := sync.Pool{New: func() any { return &scorer{q: q} }}
	return &index.Seer{Key: q.key(), See: func(e cache.Entry) any {
		sc := scorers.Get().(*scorer)
		defer scorers.Put(sc)
		s := &wordsScore{row: make([]float32, len(q.hashes))}
		s.length = sc.score(s.row, 0, e.Words, e.Encoded, &e.Tags)
		return s
	}}
}

// wordsScore is what a file's words of its text and names give its
// relevance to a query: the weight of each of the query's words in the
// file (one per hash), and of every word of the file.
type wordsScore struct {
	row    []float32
	length float32
}

// scorer scores files for a query; it keeps scratch space, and is for one
// goroutine.
type scorer struct {
	q       *wordsQuery
	buf     []uint32
	scratch []int32
}

// score adds to row, one per hash of the query, the weight of each of
// its words among the words of a file: those of its text (bag, the
// binary words.Bag), each weighing the query's weight, and those of the
// names of its tags (enc as the disk cache holds them, or set decoded),
// each weighing defWordWeight per definition, and without words of the
// text 1 per reference too; it returns the length it adds to, the weight
// of all the file's words. (The names' weights are whole numbers, whose
// sum is the same in any order.)
func (sc *scorer) score(row []float32, length float32, bag []byte, enc cache.Encoded, set *tags.Set) float32 {
	hashes := sc.q.hashes
	nq := len(hashes)
	hasText := false
	if len(bag) > 0 {
		k, total := 0, uint64(0)
		tw := float32(sc.q.weight)
		err := words.Each(bag, func(h, c uint32) {
			total += uint64(c)
			for k < nq && hashes[k] < h {
				k++
			}
			if k < nq && hashes[k] == h {
				row[k] += tw * float32(c)
			}
		})
		if hasText = err == nil; hasText {
			length += tw * float32(total)
		} else {
			clear(row)
		}
	}
	uses := func(defs, refs int) float32 {
		n := defWordWeight * defs
		if !hasText {
			n += refs
		}
		return float32(n)
	}
	if n, _ := enc.Len(); n > 0 {
		// Not decoded: the names are read in place.
		sc.scratch = enc.Names(sc.scratch, func(str []byte, defs, refs int) {
			if w := uses(defs, refs); w > 0 {
				sc.buf = words.AppendBytesHashes(sc.buf[:0], str)
				length = sc.weigh(row, length, w)
			}
		})
		return length
	}
	counts := slices.Grow(sc.scratch[:0], 2*set.NumStrings())[:2*set.NumStrings()]
	clear(counts)
	for _, t := range set.Tags {
		if t.Kind == tags.Definition {
			counts[2*t.Name]++
		} else {
			counts[2*t.Name+1]++
		}
	}
	for j := range set.NumStrings() {
		if w := uses(int(counts[2*j]), int(counts[2*j+1])); w > 0 {
			sc.buf = words.AppendHashes(sc.buf[:0], set.Str(uint32(j)))
			length = sc.weigh(row, length, w)
		}
	}
	sc.scratch = counts
	return length
}

// weigh adds to row and length the words of sc.buf, weighing weight
// each, and returns the length.
func (sc *scorer) weigh(row []float32, length, weight float32) float32 {
	for _, h := range sc.buf {
		length += weight
		if k, ok := slices.BinarySearch(sc.q.hashes, h); ok {
			row[k] += weight
		}
	}
	return length
}

// relevance returns the BM25 score of each file of s for the words of
// text, by path; files that match no word are left out. A file's words
// are those of its text, each weighing textWeight, those of the names it
// defines, defWordWeight more, and those of its path, pathWordWeight more;
// a file without counted words has the words of its names instead (those
// it defines and refers to). The counts are read from the entries' binary
// bags as they stream, for the request's words alone; those of the files
// whose entries were not read are the scores made as the disk cache was
// read (entry.lazy), when they are for these words.
func relevance(ctx context.Context, s *index.Snapshot, text string, textWeight float64) map[string]float64 {
	rel, _ := relevanceIDF(ctx, s, text, textWeight)
	return rel
}

// rarity is how rare each word of a request is among the files of a
// tree: the hashes of its words, ascending, and the inverse document
// frequency of each, as BM25 weighs it.
type rarity struct {
	hashes []uint32
	idf    []float64
}

// relevanceIDF is relevance, with the rarity of the words of text among
// the files of s.
func relevanceIDF(ctx context.Context, s *index.Snapshot, text string, textWeight float64) (map[string]float64, rarity) {
	q := newWordsQuery(text, textWeight)
	if q == nil {
		return nil, rarity{}
	}
	nq := len(q.hashes)
	tf := make([]float32, len(s.Files)*nq) // by file, then word
	lengths := make([]float32, len(s.Files))
	sc := &scorer{q: q}
	var unseen []int // the files not scored as the disk cache was read
	for i := range s.Len() {
		if _, ok := s.Seen(i, q.key()); !ok {
			unseen = append(unseen, i)
		}
	}
	s.Read(ctx, unseen)
	for i, f := range s.Files {
		row := tf[i*nq : (i+1)*nq]
		var length float32
		if v, ok := s.Seen(i, q.key()); ok {
			score := v.(*wordsScore)
			copy(row, score.row)
			length = score.length
		} else {
			bag, enc, set := s.Words(i)
			length = sc.score(row, 0, bag, enc, &set)
		}
		sc.buf = words.AppendHashes(sc.buf[:0], strings.TrimSuffix(f.Path, path.Ext(f.Path)))
		lengths[i] = sc.weigh(row, length, pathWordWeight)
	}
	n := float64(len(s.Files))
	var total float64
	for _, l := range lengths {
		total += float64(l)
	}
	avg := total / max(n, 1)
	idf := make([]float64, nq)
	for k := range q.hashes {
		df := 0.0
		for i := range s.Files {
			if tf[i*nq+k] > 0 {
				df++
			}
		}
		idf[k] = words.IDF(n, df)
	}
	out := make(map[string]float64)
	for i, f := range s.Files {
		var score float64
		for k, v := range tf[i*nq : (i+1)*nq] {
			if v > 0 {
				score += words.BM25(idf[k], float64(v), float64(lengths[i]), max(avg, 1))
			}
		}
		if score > 0 {
			out[f.Path] = score
		}
	}
	return out, rarity{q.hashes, idf}
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

// CodeWords returns the words of text that look like code rather than
// prose: names with an underscore or a change of case inside
// (parse_args, QuerySet), names with digits after letters (utf8), and
// every word between backticks.
func CodeWords(text string) []string {
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
	// The words, as the paths they may be.
	var words []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		// A path is letters, digits and "/._-:\\#@+~$": anything else
		// ends it, as a space, a quote or an arrow after "file.py:12"
		// does.
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
		if w != "" {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil
	}
	// What the words ask of the paths: whether a string is one, the
	// paths with a base name, the paths with a stem (a path without its
	// extension, or a package's directory for its __init__, index or
	// mod file). One pass over the paths answers for those asked alone.
	isPath := make(map[string]bool)
	byBase := make(map[string][]string)
	byStem := make(map[string][]string)
	for _, w := range words {
		isPath[w] = false
		for rest := w; ; {
			_, after, ok := strings.Cut(rest, "/")
			if !ok {
				break
			}
			isPath[after], rest = false, after
		}
		if strings.ContainsAny(w, "._-") {
			byBase[w] = nil
		}
		for _, stem := range dottedStems(w) {
			byStem[stem] = nil
		}
	}
	for _, p := range paths {
		if _, ok := isPath[p]; ok {
			isPath[p] = true
		}
		if ps, ok := byBase[path.Base(p)]; ok {
			byBase[path.Base(p)] = append(ps, p)
		}
		stem := strings.TrimSuffix(p, path.Ext(p))
		if ps, ok := byStem[stem]; ok {
			byStem[stem] = append(ps, p)
		}
		if d, f := path.Split(stem); f == "__init__" || f == "index" || f == "mod" {
			if ps, ok := byStem[strings.TrimSuffix(d, "/")]; ok {
				byStem[strings.TrimSuffix(d, "/")] = append(ps, p)
			}
		}
	}
	files := make(map[string]bool)
	for _, w := range words {
		switch {
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
		for _, stem := range dottedStems(w) {
			if ps := byStem[stem]; len(ps) > 0 {
				for _, p := range ps {
					files[p] = true
				}
				break
			}
		}
	}
	return slices.Sorted(maps.Keys(files))
}

// dottedStems returns the stems a dotted module path w may name, longest
// first: "a/b/c" and "a/b" for "a.b.c" (and for "a.b.c()"). None for a
// word without a dot, or with a slash.
func dottedStems(w string) []string {
	if !strings.Contains(w, ".") || strings.Contains(w, "/") {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(w, "()"), ".")
	var out []string
	for n := len(parts); n >= 2; n-- {
		out = append(out, strings.Join(parts[:n], "/"))
	}
	return out
}

var wordRE = regexp.MustCompile(`[\pL\pN_]+`)

// Mentions is what free text mentions among the files of a map, by
// Aider's rules.
type Mentions struct {
	Files  []string // paths of the map mentioned, or whose base name or stem was
	Idents []string // words that look like identifiers
}

// FindMentions returns what text mentions among paths: a word that is a
// path (after trimming quotes, backticks and trailing punctuation); a
// word that is the base name of exactly one file and has a dot, slash,
// underscore or hyphen in it; every identifier word; and the files whose
// stem (base name without extension) is an identifier of five characters
// or more, case aside.
func FindMentions(text string, paths []string) Mentions {
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

// set returns the words of a string as a set.
func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// All returns the files and identifiers together, as Query.Mentions
// takes them.
func (ms Mentions) All() []string { return slices.Concat(ms.Files, ms.Idents) }

// WordsSeer returns what scores the entries of the disk cache for the
// words of text as the index reads them (index.Seer), for Input to find
// with the files; nil when c does not weigh a request's words or text
// has none but stop words.
func WordsSeer(text string, c Config) *index.Seer {
	if !c.Rel.On || text == "" {
		return nil
	}
	if q := newWordsQuery(text, c.Rel.Text); q != nil {
		return q.seer()
	}
	return nil
}
