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
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
// the share of the true edges among tagged names that the edges find,
// and the names with the most weight on false edges.
//
//	REPOMAP_ORACLE=$(go env GOROOT)/src/net/http go test ./repomap -run TestOracleGo -v
func TestOracleGo(t *testing.T) {
	spec := os.Getenv("REPOMAP_ORACLE")
	if spec == "" {
		t.Skip("REPOMAP_ORACLE names no Go tree to check")
	}
	for _, dir := range filepath.SplitList(spec) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			truth, loaded := cachedEdges(t, dir)
			m, err := New(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			s, err := m.snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tagged := taggedTruth(s, truth)
			t.Logf("%s: %d Go files type-checked, %d true cross-file edges, %d among tagged names",
				dir, len(loaded), len(truth), len(tagged))
			for _, name := range []string{RankingAider, RankingDefault} {
				rk, err := parseRanking(name)
				if err != nil {
					t.Fatal(err)
				}
				sc := scoreEdges(s, rk, truth, tagged, loaded)
				t.Logf("%-8s edges %7d  precision %.3f  weighted %.3f  recall %.3f (tagged) %.3f (all)",
					name, sc.edges, sc.precision, sc.weighted, sc.recall, sc.recallAll)
				t.Logf("%-8s worst false names (share of false weight): %s", name, sc.worst)
				if sc.detail != "" && name == RankingDefault {
					t.Logf("%s", sc.detail)
				}
			}
		})
	}
}

// oracleEdge is one edge of a file graph.
type oracleEdge struct{ from, to, name string }

// cachedEdges returns typeCheckedEdges(t, dir), from a file in the
// directory REPOMAP_ORACLE_CACHE names when it holds them for dir, else
// storing them there: the type checker takes minutes on a large tree.
func cachedEdges(t *testing.T, dir string) (map[oracleEdge]bool, map[string]bool) {
	t.Helper()
	cache := os.Getenv("REPOMAP_ORACLE_CACHE")
	if cache == "" {
		return typeCheckedEdges(t, dir)
	}
	file := filepath.Join(cache, strings.NewReplacer("/", "_", `\`, "_", ":", "_").Replace(dir)+".json")
	type stored struct {
		Dir    string
		Edges  [][3]string
		Loaded []string
	}
	var st stored
	if data, err := os.ReadFile(file); err == nil && json.Unmarshal(data, &st) == nil && st.Dir == dir {
		truth := make(map[oracleEdge]bool, len(st.Edges))
		for _, e := range st.Edges {
			truth[oracleEdge{e[0], e[1], e[2]}] = true
		}
		loaded := make(map[string]bool, len(st.Loaded))
		for _, f := range st.Loaded {
			loaded[f] = true
		}
		return truth, loaded
	}
	truth, loaded := typeCheckedEdges(t, dir)
	st = stored{Dir: dir}
	for e := range truth {
		st.Edges = append(st.Edges, [3]string{e.from, e.to, e.name})
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
func typeCheckedEdges(t *testing.T, dir string) (map[oracleEdge]bool, map[string]bool) {
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
	truth := make(map[oracleEdge]bool)
	toPackage := func(from string, pkg *types.Package) {
		for _, to := range files[pkg] {
			if to != from {
				truth[oracleEdge{from, to, pkg.Name()}] = true
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
				if pn, ok := info.PkgNameOf(spec), true; ok && pn != nil {
					toPackage(from, pn.Imported())
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
					toPackage(from, pn.Imported())
					return true
				}
				if to := rel(p.Fset.Position(obj.Pos()).Filename); to != "" && to != from && loaded[to] {
					truth[oracleEdge{from, to, id.Name}] = true
				}
				return true
			})
		}
	}
	return truth, loaded
}

// taggedTruth returns the true edges whose name the referencing file tags
// as a reference and the defining file as a definition.
func taggedTruth(s *snapshot, truth map[oracleEdge]bool) map[oracleEdge]bool {
	names := func(i int, kind tags.Kind) map[string]bool {
		set := s.entries[i].tags
		out := make(map[string]bool)
		for _, tg := range set.Tags {
			if tg.Kind == kind {
				out[set.Strings[tg.Name]] = true
			}
		}
		return out
	}
	refs := make(map[string]map[string]bool)
	defs := make(map[string]map[string]bool)
	for i, f := range s.files {
		refs[f.path], defs[f.path] = names(i, tags.Reference), names(i, tags.Definition)
	}
	out := make(map[oracleEdge]bool)
	for e := range truth {
		if refs[e.from][e.name] && defs[e.to][e.name] {
			out[e] = true
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

// scoreEdges scores the cross-file edges between type-checked Go files
// that link makes with rk: a reference key links to each file defining
// the key, with the weight rank gives it.
func scoreEdges(s *snapshot, rk ranking, truth, tagged map[oracleEdge]bool, loaded map[string]bool) oracleScore {
	l := link(s, rk)
	definers := make(map[string][]string)
	for _, f := range l.files {
		for _, d := range f.Defs {
			if loaded[f.Path] && !slices.Contains(definers[d], f.Path) {
				definers[d] = append(definers[d], f.Path)
			}
		}
	}
	// The number of files defining each key, all files counted.
	nDef := make(map[string]int)
	for _, f := range l.files {
		seen := make(map[string]bool)
		for _, d := range f.Defs {
			if !seen[d] {
				seen[d] = true
				nDef[d]++
			}
		}
	}
	weight := make(map[oracleEdge]float64)
	for _, f := range l.files {
		if !loaded[f.Path] {
			continue
		}
		for k, r := range f.Refs {
			ident := rank.Ident(r)
			w := rank.Weight(ident, nDef[r], false) * math.Sqrt(float64(f.RefCounts[k]))
			if strings.HasSuffix(r, "\x00"+rank.FallbackScope) && rk.fallback > 0 {
				w *= rk.fallback
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
		if truth[e] {
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
			if !truth[e] {
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
