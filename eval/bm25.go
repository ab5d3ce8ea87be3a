package eval

import (
	"cmp"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// The BM25 baseline of the task evaluation ranks files by Okapi BM25: the
// document of a file is its path, a newline and its contents; the query is
// the task's statement. Both are cut into terms by words:
//
//   - a word is a maximal run of letters and digits: any other character
//     (space, punctuation, "_", ".", "/") separates words, so snake_case
//     and dotted.paths fall apart into their words;
//   - a word is cut again at each case change into an upper-case letter
//     ("parseHTTPRequest" → parse, HTTP, Request): after a lower-case
//     letter or a digit, and before the last of a run of upper-case
//     letters that a lower-case letter follows;
//   - terms are lower-cased; none is dropped (no stop words, no
//     stemming).
//
// A document d scores, over the distinct terms t of the query,
//
//	sum  idf(t) · tf(t,d) · (k1 + 1) / (tf(t,d) + k1 · (1 − b + b · |d| / avgdl))
//	idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
//
// with tf(t,d) the occurrences of t in d, |d| the terms of d, avgdl their
// mean over the N documents ranked, n(t) the documents that hold t,
// k1 = 1.2 and b = 0.75. Files are ranked by score, best first, ties (the
// files with no query term among them) by path.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// termCounts are the terms of one document.
type termCounts struct {
	tf  map[string]int // occurrences by term
	len int            // all the terms, repeats included
}

// countTerms returns the terms of text.
func countTerms(text string) termCounts {
	tc := termCounts{tf: make(map[string]int)}
	eachTerm(text, func(t string) {
		tc.tf[t]++
		tc.len++
	})
	return tc
}

// eachTerm calls f with each term of text, in order.
func eachTerm(text string, f func(string)) {
	start := -1 // start of the word being read, or -1
	for i := 0; i <= len(text); {
		r, size := utf8.RuneError, 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if i < len(text) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			splitCase(text[start:i], f)
			start = -1
		}
		i += size
	}
}

// splitCase calls f with the lower-cased parts of the word w (letters and
// digits only), cut at its case changes.
func splitCase(w string, f func(string)) {
	rs := []rune(w)
	from := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		if !unicode.IsUpper(cur) {
			continue
		}
		// "aB", "1B": a new word at B. "ABc": a new word at B, which
		// starts "Bc"; "AB" alone is one word.
		if unicode.IsLower(prev) || unicode.IsDigit(prev) ||
			(unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			f(lower(rs[from:i]))
			from = i
		}
	}
	f(lower(rs[from:]))
}

func lower(rs []rune) string {
	out := make([]rune, len(rs))
	for i, r := range rs {
		out[i] = unicode.ToLower(r)
	}
	return string(out)
}

// bm25Scores returns the BM25 score of each of docs against query.
func bm25Scores(query string, docs []termCounts) []float64 {
	n := len(docs)
	scores := make([]float64, n)
	if n == 0 {
		return scores
	}
	total := 0
	for _, d := range docs {
		total += d.len
	}
	avg := float64(total) / float64(n)
	for t := range countTerms(query).tf {
		df := 0
		for _, d := range docs {
			if d.tf[t] > 0 {
				df++
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5))
		for i, d := range docs {
			tf := float64(d.tf[t])
			if tf == 0 {
				continue
			}
			norm := 1 - bm25B
			if avg > 0 {
				norm += bm25B * float64(d.len) / avg
			}
			scores[i] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*norm)
		}
	}
	return scores
}

// rankBM25 returns names, the names of docs, ranked by the BM25 score of
// their document against query: best first, ties by name.
func rankBM25(query string, names []string, docs []termCounts) []string {
	scores := bm25Scores(query, docs)
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(names[a], names[b])
	})
	ranked := make([]string, len(order))
	for i, j := range order {
		ranked[i] = names[j]
	}
	return ranked
}
