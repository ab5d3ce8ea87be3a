package repomap

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// globTree is a monorepo-like tree for the exclude and include globs.
var globTree = fstest.MapFS{
	"go.mod":                         {Data: []byte("module x\n")},
	"main.go":                        {Data: []byte("package main\n")},
	"main_test.go":                   {Data: []byte("package main\n")},
	"vendor/dep/dep.go":              {Data: []byte("package dep\n")},
	"services/api/api.go":            {Data: []byte("package api\n")},
	"services/api/api.pb.go":         {Data: []byte("package api\n")},
	"services/api/testdata/in.go":    {Data: []byte("package testdata\n")},
	"services/web/web.go":            {Data: []byte("package web\n")},
	"services/web/web_test.go":       {Data: []byte("package web\n")},
	"libs/util/util.go":              {Data: []byte("package util\n")},
	"libs/util/testdata/golden.txt":  {Data: []byte("x\n")},
	"docs/guide.md":                  {Data: []byte("# guide\n")},
	"services/api/vendor/inner.go":   {Data: []byte("package inner\n")},
	"services/api/internal/deep.go":  {Data: []byte("package internal\n")},
	"services/api/internal/deep.txt": {Data: []byte("x\n")},
}

// recordFS records the directories a walk reads.
type recordFS struct {
	fs.FS
	mu   sync.Mutex
	dirs []string
}

func (r *recordFS) ReadDir(name string) ([]fs.DirEntry, error) {
	r.mu.Lock()
	r.dirs = append(r.dirs, name)
	r.mu.Unlock()
	return fs.ReadDir(r.FS, name)
}

func TestWalkGlobs(t *testing.T) {
	all := func() []string {
		var ps []string
		for p := range globTree {
			ps = append(ps, p)
		}
		slices.Sort(ps)
		return ps
	}()
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(p string) bool {
			for _, d := range drop {
				if p == d || strings.HasPrefix(p, d+"/") {
					return true
				}
			}
			return false
		})
	}
	for _, tc := range []struct {
		name             string
		exclude, include []string
		want             []string
		notEntered       []string // directories the walk must not read
	}{
		{name: "none", want: all},
		{
			name:       "exclude a directory at the root",
			exclude:    []string{"vendor"},
			want:       without("vendor"),
			notEntered: []string{"vendor", "vendor/dep"},
		},
		{
			name:       "exclude a directory at any depth",
			exclude:    []string{"**/testdata"},
			want:       without("services/api/testdata", "libs/util/testdata"),
			notEntered: []string{"services/api/testdata", "libs/util/testdata"},
		},
		{
			name:    "exclude files anywhere",
			exclude: []string{"**/*_test.go", "**/*.pb.go"},
			want:    without("main_test.go", "services/web/web_test.go", "services/api/api.pb.go"),
		},
		{
			name:    "a glob without ** matches at its depth only",
			exclude: []string{"*_test.go"},
			want:    without("main_test.go"),
		},
		{
			name:    "a leading ./ and a trailing / are dropped",
			exclude: []string{"./vendor/", "./services/api/vendor"},
			want:    without("vendor", "services/api/vendor"),
		},
		{
			name:       "include a subtree",
			include:    []string{"services/api"},
			want:       []string{"services/api/api.go", "services/api/api.pb.go", "services/api/internal/deep.go", "services/api/internal/deep.txt", "services/api/testdata/in.go", "services/api/vendor/inner.go"},
			notEntered: []string{"vendor", "libs", "docs", "services/web"},
		},
		{
			name:       "include with wildcards",
			include:    []string{"services/*/*.go"},
			want:       []string{"services/api/api.go", "services/api/api.pb.go", "services/web/web.go", "services/web/web_test.go"},
			notEntered: []string{"vendor", "libs", "docs"},
		},
		{
			name:    "include files anywhere",
			include: []string{"**/*.md", "go.mod"},
			want:    []string{"docs/guide.md", "go.mod"},
		},
		{
			name:    "exclude wins over include",
			include: []string{"services/api"},
			exclude: []string{"**/testdata", "**/vendor", "**/*.txt"},
			want:    []string{"services/api/api.go", "services/api/api.pb.go", "services/api/internal/deep.go"},
		},
		{
			name:    "an include that matches nothing",
			include: []string{"nowhere/**"},
			want:    nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rfs := &recordFS{FS: globTree}
			files, _, err := walkGlobs(context.Background(), rfs, tc.exclude, tc.include)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("walkGlobs(exclude %q, include %q) =\n%q\nwant\n%q", tc.exclude, tc.include, got, tc.want)
			}
			for _, d := range tc.notEntered {
				if slices.Contains(rfs.dirs, d) {
					t.Errorf("walkGlobs(exclude %q, include %q) read directory %s", tc.exclude, tc.include, d)
				}
			}
		})
	}
}

func TestRepomapIgnore(t *testing.T) {
	tree := fstest.MapFS{
		".gitignore":      {Data: []byte("gen/\n*.out\n")},
		".repomapignore":  {Data: []byte("# big and dull\nfixtures/\n*.sql\n!keep.out\n")},
		"main.go":         {Data: []byte("package main\n")},
		"schema.sql":      {Data: []byte("create table t;\n")},
		"fixtures/a.json": {Data: []byte("{}\n")},
		"gen/x.go":        {Data: []byte("package gen\n")},
		"drop.out":        {Data: []byte("x\n")},
		"keep.out":        {Data: []byte("x\n")},
		"sub/fixtures.go": {Data: []byte("package sub\n")},
	}
	files, _, err := walk(context.Background(), tree)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.path)
	}
	// .repomapignore adds to .gitignore, and its "!" patterns take back
	// what the root's .gitignore leaves out.
	want := []string{".gitignore", ".repomapignore", "keep.out", "main.go", "sub/fixtures.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %q, want %q", got, want)
	}
}

func TestGlobOptions(t *testing.T) {
	for _, o := range []Options{{Exclude: []string{"a/[b"}}, {Include: []string{"{a,b"}}} {
		if _, err := NewFS(globTree, &o); err == nil {
			t.Errorf("NewFS(Exclude %q, Include %q) succeeded, want an error", o.Exclude, o.Include)
		}
	}
	// The Map keeps its own copy of the globs.
	ex := []string{"vendor"}
	m, err := NewFS(globTree, &Options{Exclude: ex})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ex[0] = "services"
	files, _, err := m.idx.walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(files, func(f file) bool { return strings.HasPrefix(f.path, "services/") }) ||
		slices.ContainsFunc(files, func(f file) bool { return strings.HasPrefix(f.path, "vendor/") }) {
		t.Errorf("changing the caller's Exclude after NewFS changed the walk")
	}
}

func TestDirRoots(t *testing.T) {
	abs := func(p string) string {
		a, err := filepath.Abs(filepath.FromSlash(p))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		dirs    []string
		want    []string // names
		wantErr string
	}{
		{dirs: []string{"/src/app"}, want: []string{""}},
		{dirs: []string{"/src/app", "/src/lib"}, want: []string{"app", "lib"}},
		{dirs: []string{"/src/api", "/lib/api"}, want: []string{"src-api", "lib-api"}},
		{dirs: []string{"/x", "/a/x"}, want: []string{"x", "a-x"}},
		{dirs: []string{"/p/a/x", "/q/a/x", "/y"}, want: []string{"p-a-x", "q-a-x", "y"}},
		{dirs: []string{"/a-x", "/b/a/x", "/c/a/x"}, want: []string{"a-x", "b-a-x", "c-a-x"}},
		{dirs: []string{"/a-x", "/a/x", "/z/x"}, wantErr: "would both be named"},
		{dirs: []string{"/a/x", "/a/x/"}, wantErr: "the same directory"},
		{dirs: []string{"/", "/a"}, wantErr: "has no name"},
		{dirs: nil, wantErr: "no root"},
	} {
		dirs := make([]string, len(tc.dirs))
		for i, d := range tc.dirs {
			dirs[i] = abs(d)
		}
		roots, err := DirRoots(dirs...)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("DirRoots(%q) error %v, want one with %q", tc.dirs, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("DirRoots(%q): %v", tc.dirs, err)
			continue
		}
		var names []string
		for i, r := range roots {
			names = append(names, r.Name)
			if r.Dir != dirs[i] {
				t.Errorf("DirRoots(%q)[%d].Dir = %q, want %q", tc.dirs, i, r.Dir, dirs[i])
			}
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("DirRoots(%q) names = %q, want %q", tc.dirs, names, tc.want)
		}
	}
}

func TestMapPath(t *testing.T) {
	base := t.TempDir()
	app, lib := filepath.Join(base, "app"), filepath.Join(base, "app", "vendor", "lib")
	for _, d := range []string{app, lib} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := DirRoots(app, lib)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewRoots(roots, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"app/main.go", "app/main.go", true},
		{"./lib/x/../y.go", "lib/y.go", true},
		{filepath.Join(app, "cmd", "main.go"), "app/cmd/main.go", true},
		// The innermost root holds a file of nested roots.
		{filepath.Join(lib, "lib.go"), "lib/lib.go", true},
		{filepath.Join(base, "other.go"), "", false},
	} {
		got, ok := m.MapPath(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("MapPath(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if got := m.Roots(); len(got) != 2 || got[0].Name != "app" || got[1].Name != "lib" || got[0].FS == nil {
		t.Errorf("Roots() = %+v, want app and lib with their FS", got)
	}
}
