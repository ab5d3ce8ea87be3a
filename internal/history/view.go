package history

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/words"
)

// Part is the history of one root of a map, for NewView.
type Part struct {
	History *History
	// Prefix is the root's path from the top of its repository,
	// slash-separated; "" for the top. Files outside it are left out.
	Prefix string
	// Name prefixes the paths in the view, as "Name/path", as a map of
	// several roots names its files; "" for none.
	Name string
}

// View is the history of a map's files, by their paths in the map: which
// files changed together, and when each last changed. It is read-only
// and safe for concurrent use.
type View struct {
	paths   []string
	ids     map[string]int32
	commits []viewCommit // each part's, newest first
	byFile  [][]int32    // by file: the commits that changed it, newest first
	last    []int64      // by file: the age of its last change
}

// viewCommit is a commit of a view.
type viewCommit struct {
	age   int64   // seconds before its history's head
	size  int     // the files it changed in its whole repository
	files []int32 // the files of the view it changed, in path order
	msg   string  // the start of its message
}

// NewView returns the view of the histories of parts.
func NewView(parts ...Part) *View {
	v := &View{ids: make(map[string]int32)}
	for _, pt := range parts {
		h := pt.History
		if h == nil {
			continue
		}
		// The ids in the view of h's paths, -1 for those outside the root.
		ids := make([]int32, len(h.Paths))
		for i, p := range h.Paths {
			ids[i] = -1
			rel, ok := p, pt.Prefix == ""
			if !ok {
				rel, ok = strings.CutPrefix(p, pt.Prefix+"/")
			}
			if !ok {
				continue
			}
			if pt.Name != "" {
				rel = pt.Name + "/" + rel
			}
			id, seen := v.ids[rel]
			if !seen {
				id = int32(len(v.paths))
				v.ids[rel] = id
				v.paths = append(v.paths, rel)
				v.last = append(v.last, math.MaxInt64)
				v.byFile = append(v.byFile, nil)
			}
			ids[i] = id
		}
		for _, c := range h.Commits {
			vc := viewCommit{age: max(h.Time-c.Time, 0), size: len(c.Files), msg: c.Message}
			for _, f := range c.Files {
				if id := ids[f]; id >= 0 {
					vc.files = append(vc.files, id)
				}
			}
			if len(vc.files) == 0 {
				continue
			}
			ci := int32(len(v.commits))
			v.commits = append(v.commits, vc)
			for _, id := range vc.files {
				v.byFile[id] = append(v.byFile[id], ci)
				v.last[id] = min(v.last[id], vc.age)
			}
		}
	}
	return v
}

// Files returns how many files the view knows.
func (v *View) Files() int { return len(v.paths) }

// Commits returns how many commits of the view changed a file of it.
func (v *View) Commits() int { return len(v.commits) }

// decay returns the weight of a change age seconds old, with a half-life
// of halfLife days; 1 when halfLife is not positive.
func decay(age int64, halfLife float64) float64 {
	if halfLife <= 0 {
		return 1
	}
	return math.Exp2(-float64(age) / (halfLife * 86400))
}

// CoChanged returns, for each file that changed with one of the files of
// from, by path, how much: the sum over the commits that changed both of
// the file of from's weight in from, times the commit's weight by its
// age (halving every halfLife days; 0 for no decay), divided by the
// number of other files the commit changed. The files of from get
// nothing; a file of from the view does not know gives nothing. The
// result is the same for the same arguments, to the bit.
func (v *View) CoChanged(from map[string]float64, halfLife float64) map[string]float64 {
	out := make(map[string]float64)
	sources := make(map[int32]bool, len(from))
	for p := range from {
		if id, ok := v.ids[p]; ok {
			sources[id] = true
		}
	}
	// In a fixed order, so that the sums are the same to the bit.
	for _, p := range slices.Sorted(maps.Keys(from)) {
		id, ok := v.ids[p]
		if !ok || from[p] <= 0 {
			continue
		}
		for _, ci := range v.byFile[id] {
			c := &v.commits[ci]
			if c.size < 2 {
				continue
			}
			w := from[p] * decay(c.age, halfLife) / float64(c.size-1)
			for _, g := range c.files {
				if !sources[g] {
					out[v.paths[g]] += w
				}
			}
		}
	}
	return out
}

// Messages returns, for each file that one of the k commits of the view
// whose messages best match the words whose hashes (words.Hash) are
// query changed, how well: the sum over those of its commits of the BM25
// score of the commit's message for the words (each commit's message a
// document), divided by the square root of the number of files the
// commit changed. Commits that score the same as the k-th count too;
// with k of 0, every commit that matches. A file no matching commit
// changed gets nothing. The result is the same for the same arguments,
// to the bit.
func (v *View) Messages(query []uint32, k int) map[string]float64 {
	out := make(map[string]float64)
	if len(query) == 0 || len(v.commits) == 0 {
		return out
	}
	want := make(map[uint32]int, len(query)) // a word's index in query
	for i, h := range query {
		want[h] = i
	}
	// Each commit's count of each word of query, and its length.
	counts := make([][]int32, len(v.commits))
	lengths := make([]int, len(v.commits))
	df := make([]int, len(query))
	total := 0
	var buf []uint32
	for ci := range v.commits {
		buf = words.AppendHashes(buf[:0], v.commits[ci].msg)
		lengths[ci] = len(buf)
		total += len(buf)
		for _, h := range buf {
			i, ok := want[h]
			if !ok {
				continue
			}
			if counts[ci] == nil {
				counts[ci] = make([]int32, len(query))
			}
			if counts[ci][i] == 0 {
				df[i]++
			}
			counts[ci][i]++
		}
	}
	n := float64(len(v.commits))
	avg := float64(total) / n
	scores := make([]float64, len(v.commits))
	for ci, row := range counts {
		if row == nil {
			continue
		}
		for i, tf := range row {
			if tf == 0 {
				continue
			}
			scores[ci] += words.BM25(words.IDF(n, float64(df[i])), float64(tf), float64(lengths[ci]), avg)
		}
	}
	least := 0.0 // the least score that counts
	if k > 0 && k < len(scores) {
		sorted := slices.Clone(scores)
		slices.Sort(sorted)
		least = sorted[len(sorted)-k]
	}
	for ci, score := range scores {
		if score == 0 || score < least {
			continue
		}
		c := &v.commits[ci]
		score /= math.Sqrt(float64(max(c.size, 1)))
		for _, g := range c.files {
			out[v.paths[g]] += score
		}
	}
	return out
}

// Recency returns how recently the file at p changed: 1/2 to the power
// of the age of its last change in half-lives of halfLife days (1 for
// no decay); 0 when no commit of the view changed it.
func (v *View) Recency(p string, halfLife float64) float64 {
	id, ok := v.ids[p]
	if !ok || v.last[id] == math.MaxInt64 {
		return 0
	}
	return decay(v.last[id], halfLife)
}

// Top returns the k paths of w with the highest weights, best first,
// ties by path; all of them when k is not positive.
func Top(w map[string]float64, k int) []string {
	ps := slices.Collect(maps.Keys(w))
	slices.SortFunc(ps, func(a, b string) int { return cmp.Or(cmp.Compare(w[b], w[a]), strings.Compare(a, b)) })
	if k > 0 && len(ps) > k {
		ps = ps[:k]
	}
	return ps
}
