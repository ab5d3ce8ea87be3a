package golang_test

import (
	"context"
	"go/ast"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
)

// TestOracle scores the cross-file edges of Go's rules against the Go
// type checker on the trees REPOMAP_ORACLE names (a list of directories,
// as in PATH), name by name: an edge is true when the type checker says
// that the name, used in one file, is declared in the other. It logs,
// for name matching and for the default ranking (or another), the share of
// the edges that are true, plain and weighted as the ranking weighs
// them, that of the edges back from definitions to their uses apart,
// and that of the file pairs (where an import also makes every file of
// the package it names a true destination); the share of the true edges
// they find; and the names and kinds of keys with the most false weight.
// It fails when the rules' edges are less precise, weighted, than name
// matching, or find less than 95 % of the true edges the tags can find.
// REPOMAP_ORACLE_CACHE (a directory) keeps the type checker's edges;
// REPOMAP_ORACLE_DETAIL=1 lists missed and the heaviest false edges;
// REPOMAP_ORACLE_RANKING names a ranking other than the default to
// score (as repomap eval names them: "default+goreach").
//
//	REPOMAP_ORACLE=$(go env GOROOT)/src/net/http go test ./internal/link/golang -run TestOracle -v
func TestOracle(t *testing.T) {
	spec := os.Getenv("REPOMAP_ORACLE")
	if spec == "" {
		t.Skip("REPOMAP_ORACLE names no Go tree to check")
	}
	rk, err := experiment.Parse(os.Getenv("REPOMAP_ORACLE_RANKING"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range filepath.SplitList(spec) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			o := linktest.Oracle{
				Truth:  linktest.Cached(t, dir, "go", func() linktest.Truth { return typeChecked(t, dir) }),
				Detail: os.Getenv("REPOMAP_ORACLE_DETAIL") != "",
			}
			if len(o.Truth.Files) == 0 {
				t.Skipf("%s has no Go packages (the Python and JavaScript oracles take the same variable)", dir)
			}
			files, err := link.Files(context.Background(), indextest.Snapshot(t, os.DirFS(dir)))
			if err != nil {
				t.Fatal(err)
			}
			o.Check(t, files, rk, 0.95)
		})
	}
}

// typeChecked type-checks the packages of the Go tree at dir, tests too,
// and returns its true cross-file uses and the files it checked, by
// slash path under dir; an import makes the pairs of the importer and
// each file of the package (not its tests, which a test build of the
// tree compiles into the package its other packages import).
func typeChecked(t *testing.T, dir string) linktest.Truth {
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
	tr := linktest.Truth{Pairs: make(map[[2]string]bool), Files: make(map[string]bool)}
	files := make(map[*types.Package][]string) // of each package of the tree, as its importers see it
	var inTree []*packages.Package
	broken := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil || p.TypesInfo == nil {
			return
		}
		for _, f := range p.Syntax {
			if r := rel(p.Fset.Position(f.Package).Filename); r != "" && strings.HasSuffix(r, ".go") {
				files[p.Types] = append(files[p.Types], r)
				tr.Files[r] = true
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
	toPackage := func(from string, pkg *types.Package) {
		for _, to := range files[pkg] {
			if to != from && (!strings.HasSuffix(to, "_test.go") || path.Dir(to) == path.Dir(from)) {
				tr.Pairs[[2]string{from, to}] = true
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
				if to := rel(p.Fset.Position(obj.Pos()).Filename); to != "" && to != from && tr.Files[to] {
					tr.Add(from, to, id.Name, int32(p.Fset.Position(id.Pos()).Line-1))
				}
				return true
			})
		}
	}
	return tr
}
