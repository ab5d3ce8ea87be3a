package repomap

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/index"
)

func TestGlobOptions(t *testing.T) {
	for _, o := range []Options{
		{Exclude: []string{"a/[b"}},
		{Include: []string{"{a,b"}},
		{Exclude: []string{"!keep.go"}},
		{Include: []string{""}},
	} {
		g := append(o.Exclude, o.Include...)[0]
		if _, err := NewFS(globsTree, &o); err == nil || !strings.Contains(err.Error(), strconv.Quote(g)) {
			t.Errorf("NewFS(Exclude %q, Include %q) error %v, want one naming %q", o.Exclude, o.Include, err, g)
		}
	}
	// The Map keeps its own copy of the globs.
	ex := []string{"vendor"}
	m, err := NewFS(globsTree, &Options{Exclude: ex})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ex[0] = "services"
	files, _, err := m.idx.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(files, func(f index.File) bool { return strings.HasPrefix(f.Path, "services/") }) ||
		slices.ContainsFunc(files, func(f index.File) bool { return strings.HasPrefix(f.Path, "vendor/") }) {
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
		{dirs: []string{"/src", "/src/app"}, wantErr: "nest: " + abs("/src/app") + " lies in " + abs("/src")},
		{dirs: []string{"/src/app/lib", "/y", "/src/app"}, wantErr: "nest: " + abs("/src/app/lib") + " lies in " + abs("/src/app")},
		{dirs: []string{"/src/app", "/src/application"}, want: []string{"app", "application"}},
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
	app, lib := filepath.Join(base, "app"), filepath.Join(base, "lib")
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
		{filepath.Join(lib, "lib.go"), "lib/lib.go", true},
		{filepath.Join(base, "other.go"), "", false},
	} {
		got, ok := m.MapPath(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("MapPath(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	// Nested roots would map the same files twice.
	if _, err := NewRoots([]Root{{Name: "app", Dir: app}, {Name: "lib", Dir: filepath.Join(app, "vendor", "lib")}}, &Options{NoCache: true}); err == nil || !strings.Contains(err.Error(), "nest") {
		t.Errorf("NewRoots of nested roots: error %v, want one saying they nest", err)
	}
	if got := m.Roots(); len(got) != 2 || got[0].Name != "app" || got[1].Name != "lib" || got[0].FS == nil {
		t.Errorf("Roots() = %+v, want app and lib with their FS", got)
	}
}

// globsTree is a small monorepo for the globs of Options.
var globsTree = fstest.MapFS{
	"main.go":             {Data: []byte("package main\n")},
	"vendor/dep/dep.go":   {Data: []byte("package dep\n")},
	"services/api/api.go": {Data: []byte("package api\n")},
	"services/web/web.go": {Data: []byte("package web\n")},
}
