package golang

import (
	"context"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/tags"
)

// varsTree is a package whose files use the members of variables, one
// of them bound at the package's level in another file.
var varsTree = []struct{ path, src string }{
	{"p/t.go", "package p\n\ntype T struct{ N int }\n\nfunc (t *T) Close() error { return nil }\n\nvar Shared = &T{}\n"},
	{"p/a.go", "package p\n\nfunc A() {\n\tt := &T{}\n\tt.Close()\n\tShared.Close()\n}\n"},
	{"p/b.go", "package p\n\nfunc B(t *T) int {\n\tt.Close()\n\treturn t.N\n}\n"},
	{"p/c.go", "package p\n\nfunc C() {\n\tvar t T\n\tt.Close()\n\tShared.Close()\n}\n"},
}

// TestVarsKeptForOneFile: the variables of the files read to resolve one
// file's uses are dropped when the uses of the next are asked for, so
// the rules hold them for a few files, not for the tree; and the keys the
// uses resolve to are those of rules that keep them all.
func TestVarsKeptForOneFile(t *testing.T) {
	p := tags.NewParser(nil)
	defer p.Close()
	var files []link.File
	var mine []int
	for _, f := range varsTree {
		set, err := p.ParseSet(context.Background(), f.path, []byte(f.src))
		if err != nil {
			t.Fatal(err)
		}
		mine = append(mine, len(files))
		files = append(files, link.File{Path: f.path, Rel: f.path, Lang: "go", Tags: set})
	}
	g := newResolver(files, mine)
	keepAll := newResolver(files, mine) // its vars are never cleared: no UseContext
	members := 0
	for _, i := range mine {
		set := files[i].Tags
		for j, tg := range set.Tags {
			if tg.Kind != tags.Reference {
				continue
			}
			g.UseContext(i, j)
			switch set.Sub(j) {
			case "member", "resultmember", "varcall", "varfield":
				members++
				for k := range g.vars {
					if k != i && g.bound.file == i && !readFor(g, k) {
						t.Errorf("resolving %s, the rules keep the variables of %s", files[i].Path, files[k].Path)
					}
				}
			}
			got, want := g.RefKeys(nil, i, j), keepAll.RefKeys(nil, i, j)
			if len(got) != len(want) {
				t.Fatalf("RefKeys(%s, %d) = %v, want %v", files[i].Path, j, got, want)
			}
			for k := range got {
				if got[k] != want[k] {
					t.Errorf("RefKeys(%s, %d) = %v, want %v", files[i].Path, j, got, want)
				}
			}
		}
	}
	if members == 0 {
		t.Fatal("the tree has no uses of a variable's member")
	}
	if len(keepAll.vars) <= len(g.vars) {
		t.Errorf("the rules keep the variables of %d files, as many as the rules that keep all (%d)", len(g.vars), len(keepAll.vars))
	}
}

// readFor reports whether the variables of file k may be read to resolve
// the current file's uses: those of a file binding a package-level
// variable of its package.
func readFor(g *resolver, k int) bool {
	for _, b := range g.pkgVars {
		if b.i == k {
			return true
		}
	}
	return false
}
