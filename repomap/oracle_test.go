package repomap

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"

	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// checkOracle scores the cross-file edges that link makes on the tree at
// dir, with name matching and with the default ranking, against the
// true edges and the files that oracle returns for its snapshot, kept
// in REPOMAP_ORACLE_CACHE under the name kind; asked, when not nil, says
// which referencing files the oracle was asked about. It fails when the
// default ranking's edges are less precise, weighted, than name
// matching's, or find less than minRecall of the true edges the tags can
// find.
func checkOracle(t *testing.T, dir, kind string, minRecall float64, asked func(string) bool, oracle func(*index.Snapshot) (oracleTruth, map[string]bool)) {
	t.Helper()
	m, err := New(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := m.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	truth, loaded := cachedEdges(t, dir, kind, func() (oracleTruth, map[string]bool) { return oracle(s) })
	tagged := taggedTruth(s, truth)
	t.Logf("%s: %d files checked by the oracle, %d true cross-file edges, %d among tagged names",
		dir, len(loaded), len(truth), len(tagged))
	var aider oracleScore
	for _, name := range []string{RankingAider, RankingDefault} {
		rk, err := experiment.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := scoreEdges(t, s, rk, truth, tagged, loaded, asked)
		t.Logf("%-8s edges %7d  precision %.3f  weighted %.3f  recall %.3f (tagged) %.3f (all)",
			name, sc.edges, sc.precision, sc.weighted, sc.recall, sc.recallAll)
		t.Logf("%-8s worst false names (share of false weight): %s", name, sc.worst)
		if name == RankingAider {
			aider = sc
			continue
		}
		if sc.detail != "" {
			t.Logf("%s", sc.detail)
		}
		if sc.weighted < aider.weighted || sc.recall < minRecall {
			t.Errorf("%s: weighted precision %.3f (name matching: %.3f), recall %.3f: want no less precise, recall at least %.2f",
				name, sc.weighted, aider.weighted, sc.recall, minRecall)
		}
	}
}

// oracleEdge is one edge of a file graph.
type oracleEdge struct{ from, to, name string }

// cachedEdges returns the true edges and files oracle gives for dir,
// from a file in the directory REPOMAP_ORACLE_CACHE names when it holds
// them for dir and the oracle's kind ("" for Go's), else storing them
// there: an oracle takes minutes on a large tree.
func cachedEdges(t *testing.T, dir, kind string, oracle func() (oracleTruth, map[string]bool)) (oracleTruth, map[string]bool) {
	t.Helper()
	cache := os.Getenv("REPOMAP_ORACLE_CACHE")
	if cache == "" {
		return oracle()
	}
	name := strings.NewReplacer("/", "_", `\`, "_", ":", "_").Replace(dir)
	if kind != "" {
		name += "." + kind
	}
	file := filepath.Join(cache, name+".json")
	type stored struct {
		Dir    string
		Edges  [][3]string
		Lines  [][]int32
		Loaded []string
	}
	var st stored
	if data, err := os.ReadFile(file); err == nil && json.Unmarshal(data, &st) == nil && st.Dir == dir && len(st.Lines) == len(st.Edges) {
		truth := make(oracleTruth, len(st.Edges))
		for k, e := range st.Edges {
			truth[oracleEdge{e[0], e[1], e[2]}] = st.Lines[k]
		}
		loaded := make(map[string]bool, len(st.Loaded))
		for _, f := range st.Loaded {
			loaded[f] = true
		}
		return truth, loaded
	}
	truth, loaded := oracle()
	st = stored{Dir: dir}
	for e, lines := range truth {
		st.Edges = append(st.Edges, [3]string{e.from, e.to, e.name})
		st.Lines = append(st.Lines, lines)
	}
	for f := range loaded {
		st.Loaded = append(st.Loaded, f)
	}
	data, err := json.Marshal(st)
	if err == nil {
		err = os.WriteFile(file, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return truth, loaded
}

// oracleTruth holds the true edges, each with the 0-based lines of its
// uses.
type oracleTruth map[oracleEdge][]int32

// oracleUse is a name on a line of a file.
type oracleUse struct {
	file, name string
	line       int32
}

// taggedTruth returns the true edges that the tags can find: a use is on
// a line where the referencing file tags the name as a reference, and the
// defining file tags it as a definition.
func taggedTruth(s *index.Snapshot, truth oracleTruth) map[oracleEdge]bool {
	refs := make(map[oracleUse]bool)
	defs := make(map[oracleUse]bool) // line -1: anywhere
	for i, f := range s.Files {
		set := s.Tags(context.Background(), i)
		for _, tg := range set.Tags {
			if tg.Kind == tags.Reference {
				refs[oracleUse{f.Path, set.Str(tg.Name), tg.Line}] = true
			} else {
				defs[oracleUse{f.Path, set.Str(tg.Name), -1}] = true
			}
		}
	}
	out := make(map[oracleEdge]bool)
	for e, lines := range truth {
		if !defs[oracleUse{e.to, e.name, -1}] {
			continue
		}
		for _, l := range lines {
			if refs[oracleUse{e.from, e.name, l}] {
				out[e] = true
				break
			}
		}
	}
	return out
}

// oracleScore is how the edges of one ranking fare against the oracle.
type oracleScore struct {
	edges               int
	precision, weighted float64
	recall, recallAll   float64
	worst               string
	detail              string // with REPOMAP_ORACLE_DETAIL: missed and false edges
}

// scoreEdges scores the cross-file edges between the files the oracle
// checked that link makes with rk, from the files it was asked about
// (all when asked is nil): a reference key links to each file defining
// the key, with the weight rank gives it.
func scoreEdges(t testing.TB, s *index.Snapshot, rk policy.Config, truth oracleTruth, tagged map[oracleEdge]bool, loaded map[string]bool, asked func(string) bool) oracleScore {
	l := linkedOf(t, s, rk)
	definers := make(map[string][]string)
	for _, f := range l.Files {
		for _, d := range f.Defs {
			if loaded[f.Path] && !slices.Contains(definers[d], f.Path) {
				definers[d] = append(definers[d], f.Path)
			}
		}
	}
	// The number of files defining each key, all files counted.
	nDef := make(map[string]int)
	for _, f := range l.Files {
		seen := make(map[string]bool)
		for _, d := range f.Defs {
			if !seen[d] {
				seen[d] = true
				nDef[d]++
			}
		}
	}
	weight := make(map[oracleEdge]float64)
	for _, f := range l.Files {
		if !loaded[f.Path] || asked != nil && !asked(f.Path) {
			continue
		}
		for k, r := range f.Refs {
			ident := rank.Ident(r)
			w := rank.Weight(ident, nDef[r], false) * math.Sqrt(float64(f.RefCounts[k]))
			if strings.HasSuffix(r, "\x00"+link.FallbackScope) && rk.Link.Fallback > 0 {
				w *= rk.Link.Fallback
			}
			for _, to := range definers[r] {
				if to != f.Path {
					weight[oracleEdge{f.Path, to, ident}] += w
				}
			}
		}
	}
	var sc oracleScore
	var good, all, goodW, allW float64
	falseW := make(map[string]float64)
	found, foundAll := 0, 0
	for e, w := range weight {
		all++
		allW += w
		if _, ok := truth[e]; ok {
			good++
			goodW += w
			foundAll++
			if tagged[e] {
				found++
			}
		} else {
			falseW[e.name] += w
		}
	}
	if os.Getenv("REPOMAP_ORACLE_DETAIL") != "" {
		var missed, wrong []string
		for e := range tagged {
			if _, ok := weight[e]; !ok {
				missed = append(missed, e.from+" -> "+e.to+" "+e.name)
			}
		}
		for e, w := range weight {
			if _, ok := truth[e]; !ok {
				wrong = append(wrong, fmt.Sprintf("%8.3f %s -> %s %s", w, e.from, e.to, e.name))
			}
		}
		slices.Sort(missed)
		slices.Sort(wrong)
		slices.Reverse(wrong)
		sc.detail = fmt.Sprintf("missed %d:\n%s\nfalse, heaviest first:\n%s", len(missed),
			strings.Join(missed[:min(len(missed), 60)], "\n"), strings.Join(wrong[:min(len(wrong), 60)], "\n"))
	}
	sc.edges = len(weight)
	sc.precision, sc.weighted = good/all, goodW/allW
	sc.recall = float64(found) / float64(len(tagged))
	sc.recallAll = float64(foundAll) / float64(len(truth))
	names := make([]string, 0, len(falseW))
	for n := range falseW {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(falseW[b], falseW[a]), strings.Compare(a, b)) })
	var b strings.Builder
	for _, n := range names[:min(len(names), 12)] {
		fmt.Fprintf(&b, "%s %.1f%%  ", n, 100*falseW[n]/(allW-goodW))
	}
	sc.worst = b.String()
	return sc
}
