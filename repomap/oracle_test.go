package repomap

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/types"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/policy"

	"golang.org/x/tools/go/packages"

	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// TestOracleGo scores the cross-file edges of the link stage against the
// Go type checker on the trees REPOMAP_ORACLE names (a list of
// directories, as in PATH). A use whose object is declared in another
// file of the tree is a true edge (referencing file, defining file,
// name); so is an import, or a package name qualifying a use, to each
// file of the package it names. It logs, per tree and ranking, the share
// of the edges that are true, plain and weighted as rank weighs them,
// the share of the true edges that they find (of those whose use lies on
// a line where the referencing file tags the name, and of all), and the
// names with the most weight on false edges. It fails when the default
// ranking's edges are less precise, weighted, than name matching, or
// find less than 95 % of the true edges the tags can find.
//
//	REPOMAP_ORACLE=$(go env GOROOT)/src/net/http go test ./repomap -run TestOracleGo -v
func TestOracleGo(t *testing.T) {
	spec := os.Getenv("REPOMAP_ORACLE")
	if spec == "" {
		t.Skip("REPOMAP_ORACLE names no Go tree to check")
	}
	for _, dir := range filepath.SplitList(spec) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			checkOracle(t, dir, "", 0.95, nil, func(*Snapshot) (oracleTruth, map[string]bool) {
				return typeCheckedEdges(t, dir)
			})
		})
	}
}

// checkOracle scores the cross-file edges that link makes on the tree at
// dir, with name matching and with the default ranking, against the
// true edges and the files that oracle returns for its snapshot, kept
// in REPOMAP_ORACLE_CACHE under the name kind; asked, when not nil, says
// which referencing files the oracle was asked about. It fails when the
// default ranking's edges are less precise, weighted, than name
// matching's, or find less than minRecall of the true edges the tags can
// find.
func checkOracle(t *testing.T, dir, kind string, minRecall float64, asked func(string) bool, oracle func(*Snapshot) (oracleTruth, map[string]bool)) {
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

// typeCheckedEdges type-checks the packages of the Go tree at dir, tests
// too, and returns its true cross-file edges and the files it checked,
// by slash path under dir.
func typeCheckedEdges(t *testing.T, dir string) (oracleTruth, map[string]bool) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps,
		Dir:   abs,
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	rel := func(file string) string {
		r, err := filepath.Rel(abs, file)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return ""
		}
		return filepath.ToSlash(r)
	}
	// The files of each package of the tree, as its importers see it.
	files := make(map[*types.Package][]string)
	loaded := make(map[string]bool)
	var inTree []*packages.Package
	broken := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil || p.TypesInfo == nil {
			return
		}
		for _, f := range p.Syntax {
			if r := rel(p.Fset.Position(f.Package).Filename); r != "" && strings.HasSuffix(r, ".go") {
				files[p.Types] = append(files[p.Types], r)
				loaded[r] = true
			}
		}
		if len(files[p.Types]) > 0 {
			inTree = append(inTree, p)
			if len(p.Errors) > 0 {
				broken++
			}
		}
	})
	if broken > 0 {
		t.Logf("%d packages of the tree have errors; their uses count as far as they were checked", broken)
	}
	truth := make(oracleTruth)
	add := func(e oracleEdge, line int) {
		if l := int32(line - 1); !slices.Contains(truth[e], l) {
			truth[e] = append(truth[e], l)
		}
	}
	// An import means the files of the package, not its tests, which a
	// test build of the tree compiles into the package its other
	// packages import.
	toPackage := func(from string, pkg *types.Package, line int) {
		for _, to := range files[pkg] {
			if to != from && (!strings.HasSuffix(to, "_test.go") || path.Dir(to) == path.Dir(from)) {
				add(oracleEdge{from, to, pkg.Name()}, line)
			}
		}
	}
	for _, p := range inTree {
		info := p.TypesInfo
		for _, f := range p.Syntax {
			from := rel(p.Fset.Position(f.Package).Filename)
			if from == "" {
				continue
			}
			for _, spec := range f.Imports {
				if pn := info.PkgNameOf(spec); pn != nil {
					toPackage(from, pn.Imported(), p.Fset.Position(spec.Path.Pos()).Line)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				obj := info.Uses[id]
				if obj == nil || obj.Pkg() == nil {
					return true
				}
				if pn, ok := obj.(*types.PkgName); ok {
					toPackage(from, pn.Imported(), p.Fset.Position(id.Pos()).Line)
					return true
				}
				if to := rel(p.Fset.Position(obj.Pos()).Filename); to != "" && to != from && loaded[to] {
					add(oracleEdge{from, to, id.Name}, p.Fset.Position(id.Pos()).Line)
				}
				return true
			})
		}
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
func taggedTruth(s *Snapshot, truth oracleTruth) map[oracleEdge]bool {
	refs := make(map[oracleUse]bool)
	defs := make(map[oracleUse]bool) // line -1: anywhere
	for i, f := range s.Files {
		set := s.entries[i].tags
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
func scoreEdges(t testing.TB, s *Snapshot, rk policy.Config, truth oracleTruth, tagged map[oracleEdge]bool, loaded map[string]bool, asked func(string) bool) oracleScore {
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
