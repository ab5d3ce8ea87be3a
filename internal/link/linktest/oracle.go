package linktest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Oracles. A language's compiler or analyser (the Go type checker, Jedi,
// the TypeScript checker) says, for each name used in a file of a tree,
// which file declares what it means; the link stage is scored against
// that, name by name: the pair of files and the name of each edge it
// makes.

// Edge is a use of a name in one file that means a definition in another.
type Edge struct{ From, To, Name string }

// Truth is what an oracle says of a tree.
type Truth struct {
	// Uses are the true edges, each with the 0-based lines of its uses.
	Uses map[Edge][]int32
	// Pairs are the pairs of files (user, definer) that are true beside
	// those of Uses: a Go import means each file of the package it
	// imports. They count in the figure by file pair alone.
	Pairs map[[2]string]bool
	// Files are the files the oracle looked at; edges between others are
	// not scored.
	Files map[string]bool
}

// Add adds the use of name on line (0-based) of from, which means a
// definition in to.
func (tr *Truth) Add(from, to, name string, line int32) {
	if tr.Uses == nil {
		tr.Uses = make(map[Edge][]int32)
	}
	e := Edge{from, to, name}
	if !slices.Contains(tr.Uses[e], line) {
		tr.Uses[e] = append(tr.Uses[e], line)
	}
}

// Cached returns the truth oracle gives for the tree at dir, of the oracle
// kind, from a file in the directory REPOMAP_ORACLE_CACHE names when it
// holds it, else storing it there: an oracle takes minutes on a large
// tree.
func Cached(t testing.TB, dir, kind string, oracle func() Truth) Truth {
	t.Helper()
	cache := os.Getenv("REPOMAP_ORACLE_CACHE")
	if cache == "" {
		return oracle()
	}
	name := strings.NewReplacer("/", "_", `\`, "_", ":", "_").Replace(dir) + "." + kind
	file := filepath.Join(cache, name+".json")
	type stored struct {
		Dir   string
		Edges [][3]string
		Lines [][]int32
		Pairs [][2]string
		Files []string
	}
	var st stored
	if data, err := os.ReadFile(file); err == nil && json.Unmarshal(data, &st) == nil && st.Dir == dir && len(st.Lines) == len(st.Edges) {
		tr := Truth{Uses: make(map[Edge][]int32, len(st.Edges)), Pairs: make(map[[2]string]bool), Files: make(map[string]bool)}
		for k, e := range st.Edges {
			tr.Uses[Edge{e[0], e[1], e[2]}] = st.Lines[k]
		}
		for _, p := range st.Pairs {
			tr.Pairs[p] = true
		}
		for _, f := range st.Files {
			tr.Files[f] = true
		}
		return tr
	}
	tr := oracle()
	st = stored{Dir: dir}
	for e, lines := range tr.Uses {
		st.Edges = append(st.Edges, [3]string{e.From, e.To, e.Name})
		st.Lines = append(st.Lines, lines)
	}
	for p := range tr.Pairs {
		st.Pairs = append(st.Pairs, p)
	}
	for f := range tr.Files {
		st.Files = append(st.Files, f)
	}
	data, err := json.Marshal(st)
	if err == nil {
		err = os.WriteFile(file, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Figures are how the edges of one kind fare against an oracle.
type Figures struct {
	Edges     int     // the edges scored
	Precision float64 // the share of them that are true
	Weighted  float64 // the share of their weight that is on true ones
}

func (f Figures) String() string {
	return fmt.Sprintf("%7d edges, precision %.3f, weighted %.3f", f.Edges, f.Precision, f.Weighted)
}

// Score is how the links of one setting fare against an oracle.
type Score struct {
	Uses  Figures // the edges from uses to definitions, name by name
	Back  Figures // the edges back from definitions to their uses, name by name
	Pairs Figures // the edges from uses, by pair of files
	// Recall is the share of the true edges that the uses' edges find,
	// of those the tags can find (the use is on a line where its file
	// tags the name as a reference, and the defining file defines it),
	// and of all.
	Recall, RecallAll float64
	// Worst lists the names with the most false weight; ByScope the
	// false weight of each kind of key (its scope up to a colon) and its
	// true weight, as shares of the uses' whole weight.
	Worst   string
	ByScope string
	// Detail, with Oracle.Detail, lists edges missed and the heaviest
	// false ones.
	Detail string
}

// Oracle scores the links of a tree against a Truth.
type Oracle struct {
	Truth Truth
	// Detail asks for the lists of Score.Detail.
	Detail bool
}

// scored reports whether an edge from a use in file from to a definition
// in file to is scored.
func (o *Oracle) scored(from, to string) bool {
	return from != to && o.Truth.Files[from] && o.Truth.Files[to]
}

// Score links files with the ranking rk and scores the edges of its file
// graph for no request, weighed as the ranking weighs them
// (policy.Edges): by the weights of names, the square root of the uses
// and the weight of each class of key.
func (o *Oracle) Score(files []link.File, rk policy.Config) Score {
	l := link.Link(files, rk.Link)
	g := rank.NewFileGraph(policy.Edges(l.Files, rk, true))
	uses := make(map[Edge]float64)
	back := make(map[Edge]float64)
	pairs := make(map[[2]string]float64)
	scope := make(map[string][2]float64) // per kind of key: its true and false weight
	for lk := range g.Links() {
		if lk.Weight <= 0 {
			continue
		}
		name := rank.Ident(lk.Ident)
		switch lk.Kind {
		case rank.LinkUse:
			if !o.scored(lk.From, lk.To) {
				continue
			}
			e := Edge{lk.From, lk.To, name}
			uses[e] += lk.Weight
			pairs[[2]string{lk.From, lk.To}] += lk.Weight
			k := keyKind(lk.Ident)
			w := scope[k]
			if _, ok := o.Truth.Uses[e]; ok {
				w[0] += lk.Weight
			} else {
				w[1] += lk.Weight
			}
			scope[k] = w
		case rank.LinkBack:
			if o.scored(lk.To, lk.From) {
				back[Edge{lk.To, lk.From, name}] += lk.Weight
			}
		}
	}
	var sc Score
	falseW := make(map[string]float64)
	sc.Uses = figures(uses, func(e Edge) bool { _, ok := o.Truth.Uses[e]; return ok }, func(e Edge, w float64) { falseW[e.Name] += w })
	sc.Back = figures(back, func(e Edge) bool { _, ok := o.Truth.Uses[e]; return ok }, nil)
	truePairs := make(map[[2]string]bool)
	for e := range o.Truth.Uses {
		truePairs[[2]string{e.From, e.To}] = true
	}
	sc.Pairs = figures(pairs, func(p [2]string) bool { return truePairs[p] || o.Truth.Pairs[p] }, nil)
	tagged := o.tagged(files)
	found, foundAll, all := 0, 0, 0
	for e := range o.Truth.Uses {
		if !o.scored(e.From, e.To) {
			continue
		}
		all++
		if _, ok := uses[e]; ok {
			foundAll++
			if tagged[e] {
				found++
			}
		}
	}
	sc.Recall = float64(found) / float64(max(len(tagged), 1))
	sc.RecallAll = float64(foundAll) / float64(max(all, 1))
	sc.Worst = heaviest(falseW, 12)
	var total float64
	for _, w := range uses {
		total += w
	}
	kinds := make([]string, 0, len(scope))
	for k := range scope {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Compare(scope[b][1], scope[a][1]) })
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "%s %.1f%% false, %.1f%% true  ", k, 100*scope[k][1]/total, 100*scope[k][0]/total)
	}
	sc.ByScope = b.String()
	if o.Detail {
		sc.Detail = o.detail(uses, tagged)
	}
	return sc
}

// keyKind returns the kind of a key: its scope up to its first colon,
// "~" for a fallback, "" for a key by name.
func keyKind(key string) string {
	_, scope, _ := strings.Cut(key, "\x00")
	if strings.HasPrefix(scope, link.FallbackScope) {
		return link.FallbackScope
	}
	kind, _, _ := strings.Cut(scope, ":")
	return kind
}

// figures returns the figures of the edges w, by weight, whose truth
// true tells; bad, if not nil, is called with each false one.
func figures[E comparable](w map[E]float64, isTrue func(E) bool, bad func(E, float64)) Figures {
	var good, all, goodW, allW float64
	for e, x := range w {
		all++
		allW += x
		if isTrue(e) {
			good++
			goodW += x
		} else if bad != nil {
			bad(e, x)
		}
	}
	return Figures{Edges: len(w), Precision: good / math.Max(all, 1), Weighted: goodW / math.Max(allW, math.SmallestNonzeroFloat64)}
}

// heaviest lists the n names of w with the most weight, with their
// shares of its whole.
func heaviest(w map[string]float64, n int) string {
	var total float64
	names := make([]string, 0, len(w))
	for k, x := range w {
		names = append(names, k)
		total += x
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(w[b], w[a]), strings.Compare(a, b)) })
	var b strings.Builder
	for _, k := range names[:min(len(names), n)] {
		fmt.Fprintf(&b, "%s %.1f%%  ", k, 100*w[k]/total)
	}
	return b.String()
}

// use is a name on a line of a file.
type use struct {
	file, name string
	line       int32
}

// tagged returns the true edges, of those scored, that the tags can
// find: a use is on a line where the referencing file tags the name as a
// reference, and the defining file tags it as a definition.
func (o *Oracle) tagged(files []link.File) map[Edge]bool {
	refs := make(map[use]bool)
	defs := make(map[use]bool) // line -1: anywhere
	for _, f := range files {
		if !o.Truth.Files[f.Path] {
			continue
		}
		set := f.Tags
		for _, tg := range set.Tags {
			if tg.Kind == tags.Reference {
				refs[use{f.Path, set.Str(tg.Name), tg.Line}] = true
			} else {
				defs[use{f.Path, set.Str(tg.Name), -1}] = true
			}
		}
	}
	out := make(map[Edge]bool)
	for e, lines := range o.Truth.Uses {
		if !o.scored(e.From, e.To) || !defs[use{e.To, e.Name, -1}] {
			continue
		}
		for _, l := range lines {
			if refs[use{e.From, e.Name, l}] {
				out[e] = true
				break
			}
		}
	}
	return out
}

// detail lists the true edges the tags can find that the links miss, and
// the heaviest false ones.
func (o *Oracle) detail(uses map[Edge]float64, tagged map[Edge]bool) string {
	var missed, wrong []string
	for e := range tagged {
		if _, ok := uses[e]; !ok {
			missed = append(missed, e.From+" -> "+e.To+" "+e.Name)
		}
	}
	for e, w := range uses {
		if _, ok := o.Truth.Uses[e]; !ok {
			wrong = append(wrong, fmt.Sprintf("%8.3f %s -> %s %s", w, e.From, e.To, e.Name))
		}
	}
	slices.Sort(missed)
	slices.Sort(wrong)
	slices.Reverse(wrong)
	return fmt.Sprintf("missed %d:\n%s\nfalse, heaviest first:\n%s", len(missed),
		strings.Join(missed[:min(len(missed), 80)], "\n"), strings.Join(wrong[:min(len(wrong), 80)], "\n"))
}

// Check scores files with name matching (policy.Aider) and with rk,
// logs both, and fails unless rk's edges are at least as precise, by
// weight, and find minRecall of the true edges the tags can find.
func (o *Oracle) Check(t *testing.T, files []link.File, rk policy.Config, minRecall float64) Score {
	t.Helper()
	t.Logf("%d files checked by the oracle, %d true cross-file uses", len(o.Truth.Files), len(o.Truth.Uses))
	names := o.Score(files, policy.Aider())
	rules := o.Score(files, rk)
	for _, s := range []struct {
		name string
		sc   Score
	}{{"names", names}, {"rules", rules}} {
		t.Logf("%-5s uses  %v, recall %.3f (tagged) %.3f (all)", s.name, s.sc.Uses, s.sc.Recall, s.sc.RecallAll)
		t.Logf("%-5s back  %v", s.name, s.sc.Back)
		t.Logf("%-5s pairs %v", s.name, s.sc.Pairs)
		t.Logf("%-5s false weight by name: %s", s.name, s.sc.Worst)
		t.Logf("%-5s weight by kind of key: %s", s.name, s.sc.ByScope)
	}
	if rules.Detail != "" {
		t.Logf("%s", rules.Detail)
	}
	if rules.Uses.Weighted < names.Uses.Weighted || rules.Recall < minRecall {
		t.Errorf("weighted precision %.3f (name matching: %.3f), recall %.3f: want no less precise, recall at least %.2f",
			rules.Uses.Weighted, names.Uses.Weighted, rules.Recall, minRecall)
	}
	return rules
}
