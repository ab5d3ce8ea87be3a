package repomap

import (
	"context"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link/linktest"
)

// The rules of each language are tested in its package below
// internal/link; these tests check that the lookups follow them.

// TestReferencesResolved: the uses of a name the tree defines are those
// that can mean its definitions.
func TestReferencesResolved(t *testing.T) {
	m, err := NewFS(linktest.GoTree(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, err := m.References(context.Background(), "New", "Println")
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, r := range got {
		list = append(list, r.Name+" "+r.Path)
	}
	slices.Sort(list)
	// a.go's b.New() means b's New; nothing else calls a New. fmt.Println
	// is not b's Println, so Println has no use.
	if want := []string{"New a/a.go"}; !slices.Equal(list, want) {
		t.Errorf("References(New, Println) = %q, want %q", list, want)
	}
}

// TestRelatedResolved: Related follows resolved references. In
// linktest.GoTree, a.go imports b, calls b.New() and its own package's
// New and helper(): with resolution, b.go's related uses in a.go are the
// import (line 5) and b.New() (29) alone; by name (Aider's ranking),
// fmt.Println and len (15), s.String (26), New (27) and helper (30) count
// too.
func TestRelatedResolved(t *testing.T) {
	for _, tc := range []struct {
		ranking string
		want    []int
	}{
		{RankingDefault, []int{5, 29}},
		{RankingAider, []int{5, 15, 15, 26, 27, 29, 30}},
	} {
		m, err := NewFS(linktest.GoTree(), &Options{Policy: experimentPolicy(t, tc.ranking)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Related(t.Context(), "b/b.go", Request{MaxTokens: 2000})
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		var uses []int
		for _, f := range res.Files {
			for _, d := range f.Defs {
				if f.Path == "a/a.go" && d.Kind == "use" {
					uses = append(uses, d.Line)
				}
			}
		}
		slices.Sort(uses)
		if !slices.Equal(uses, tc.want) {
			t.Errorf("%s: Related(b/b.go) shows uses in a/a.go on lines %v, want %v:\n%s", tc.ranking, uses, tc.want, res.Text)
		}
	}
}

// TestIncludeKeysHidden: the keys a C file publishes for its includers
// (package c) link files and are never shown.
func TestIncludeKeysHidden(t *testing.T) {
	tree := fstest.MapFS{
		"src/store.h": {Data: []byte("int store_get(int k);\n")},
		"src/store.c": {Data: []byte("#include \"store.h\"\n\nint store_get(int k) { return k; }\n")},
		"src/main.c":  {Data: []byte("#include \"store.h\"\n\nint main(void) { return store_get(1); }\n")},
	}
	// The keys of the includes are never shown.
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(context.Background(), Request{MaxTokens: 400})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		for _, d := range f.Defs {
			if d.Name == "store" {
				t.Errorf("the map shows the include key of %s: %+v", f.Path, d)
			}
		}
	}
}
