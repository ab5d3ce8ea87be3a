package policy

import (
	"context"
	"os"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/internal/link"
)

// TestTopByTier checks that the most relevant files are the k most
// relevant files of code and, among them in relevance order, at most m
// of documents, configuration and the like.
func TestTopByTier(t *testing.T) {
	root := indextest.Tree(t, map[string]string{
		"a.py":            "def a(): pass\n",
		"b.py":            "def b(): pass\n",
		"c.py":            "def c(): pass\n",
		"tests/test_d.py": "def test_d(): pass\n",
		"docs/x.md":       "# X\n",
		"docs/y.md":       "# Y\n",
		"setup.cfg":       "[x]\n",
	})
	s := indextest.Snapshot(t, os.DirFS(root))
	rel := map[string]float64{"docs/x.md": 9, "a.py": 8, "setup.cfg": 7, "docs/y.md": 6, "tests/test_d.py": 5, "b.py": 4, "c.py": 3}
	for _, tc := range []struct {
		k, m int
		want []string
	}{
		{3, 1, []string{"docs/x.md", "a.py", "tests/test_d.py", "b.py"}},
		{2, 0, []string{"a.py", "tests/test_d.py"}},
		{2, 3, []string{"docs/x.md", "a.py", "setup.cfg", "docs/y.md", "tests/test_d.py"}},
		{9, 9, []string{"docs/x.md", "a.py", "setup.cfg", "docs/y.md", "tests/test_d.py", "b.py", "c.py"}},
	} {
		if got := topByTier(s, rel, tc.k, tc.m); !slices.Equal(got, tc.want) {
			t.Errorf("topByTier(%d, %d) = %q, want %q", tc.k, tc.m, got, tc.want)
		}
	}
}

// TestCodeFiles checks what ranking change mixcode lets take turns at the
// head of the list: code, tests included, and what the words name, but
// no other document or configuration file.
func TestCodeFiles(t *testing.T) {
	s := indextest.Snapshot(t, fstest.MapFS{
		"app.py":         {Data: []byte("def run():\n    pass\n")},
		"test_app.py":    {Data: []byte("from app import run\n\nrun()\n")},
		"docs/guide.md":  {Data: []byte("# Guide\n")},
		"docs/api.md":    {Data: []byte("# API\n")},
		".github/ci.yml": {Data: []byte("on: push\n")},
		"setup.cfg":      {Data: []byte("[metadata]\nname = app\n")},
	})
	top := []string{"docs/guide.md", "app.py", ".github/ci.yml", "docs/api.md", "test_app.py", "setup.cfg"}
	got := codeFiles(s, top, []string{"docs/api.md"})
	if want := []string{"app.py", "docs/api.md", "test_app.py"}; !slices.Equal(got, want) {
		t.Errorf("codeFiles = %v, want %v", got, want)
	}
}

// TestLoneOverviewOnly checks ranking change lone=F: it reaches the
// ranking of a map for no request only, since a request's teleport goes
// to the files it points at.
func TestLoneOverviewOnly(t *testing.T) {
	s := indextest.Snapshot(t, fstest.MapFS{
		"a.py": {Data: []byte("def run():\n    pass\n")},
		"b.py": {Data: []byte("from a import run\n\nrun()\n")},
	})
	rk := Aider()
	rk.Weights.Lone = 0.1
	files, err := link.Files(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	l := link.Link(files, rk.Link)
	for _, tc := range []struct {
		q    Query
		want float64
	}{
		{Query{}, 0.1},
		{Query{Focus: []string{"b.py"}}, 0},
		{Query{Text: "run it"}, 0},
	} {
		if in, _ := Input(context.Background(), s, l, rk, tc.q); in.Weights.Lone != tc.want {
			t.Errorf("Input(%+v).Weights.Lone = %g, want %g", tc.q, in.Weights.Lone, tc.want)
		}
	}
}

// TestFrontDoor checks which files are the front doors of their
// packages.
func TestFrontDoor(t *testing.T) {
	for p, want := range map[string]bool{
		"httpx/__init__.py":                true,
		"src/pytest/__init__.py":           true,
		"lib/pkg/__init__.py":              true,
		"src/_pytest/__init__.py":          false, // a private package
		"httpx/_transports/__init__.py":    false, // a subpackage
		"tests/unit/__init__.py":           false,
		"src/lib.rs":                       true,
		"serde_json/src/lib.rs":            true,
		"src/de.rs":                        false,
		"src/bin/lib.rs":                   false,
		"index.js":                         true,
		"source/index.ts":                  true,
		"packages/babel-core/src/index.ts": true,
		"lib/index.mjs":                    true,
		"lib/helpers/index.js":             false,
		"index.d.ts":                       false,
		"index.html":                       false,
		"src/main.go":                      false,
	} {
		if got := frontDoor(p); got != want {
			t.Errorf("frontDoor(%q) = %t, want %t", p, got, want)
		}
	}
}

// TestAboutDocs checks which requests are about documents rather than
// code.
func TestAboutDocs(t *testing.T) {
	if !aboutDocs("Fix the README's example") || aboutDocs("Client.send drops the proxy") {
		t.Errorf("aboutDocs is wrong on a README fix or a code bug")
	}
}

// TestWithoutListings: a run of five lines or more that list installed
// versions leaves the words; a shorter one, and prose with colons and
// numbers, stay.
func TestWithoutListings(t *testing.T) {
	text := "Merging loses attrs.\n\nINSTALLED VERSIONS\n" +
		"python: 3.8.13 | packaged by conda-forge\nnumpy: 1.22.1\npandas: 1.4.0\nscipy: None\ndask: 2022.01.1\n\n" +
		"pytest==7.1.2\nattrs==21.4.0\n\nNote: 3 of them fail.\nSee: https://example.com\n"
	want := "Merging loses attrs.\n\nINSTALLED VERSIONS\n\npytest==7.1.2\nattrs==21.4.0\n\nNote: 3 of them fail.\nSee: https://example.com\n"
	if got := withoutListings(text); got != want {
		t.Errorf("withoutListings:\n%q\nwant\n%q", got, want)
	}
	if s := "a: 1\nb: 2\nc: 3\nd: 4\n"; withoutListings(s) != s {
		t.Errorf("withoutListings(%q) = %q, want it whole (4 lines)", s, withoutListings(s))
	}
}

// TestTemplates: with Rel.NoTemplates (the default's), an issue
// template whose words are the request's (the form it was written in)
// is not among the most relevant files, unless the words speak of
// templates; without it, it leads.
func TestTemplates(t *testing.T) {
	s := indextest.Snapshot(t, fstest.MapFS{
		".github/ISSUE_TEMPLATE/bug.yml": {Data: []byte("name: Bug report\nbody:\n  - label: What happened\n  - label: Minimal complete verifiable example\n")},
		"merge.py":                       {Data: []byte("def merge_attrs(attrs):\n    \"\"\"Merge the attrs of the objects.\"\"\"\n    return attrs\n")},
	})
	files, err := link.Files(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	rk := Default()
	rk.Rel.NoTemplates = false
	l := link.Link(files, rk.Link)
	text := "### What happened\n\nmerge loses the attrs.\n\n### Minimal complete verifiable example\n\nmerge(a, b)\n"
	top := func(rk Config, text string) []string {
		_, top, _, _, _ := input(context.Background(), s, l, rk, Query{Text: text})
		return top
	}
	if got := top(rk, text); !slices.Contains(got, ".github/ISSUE_TEMPLATE/bug.yml") {
		t.Fatalf("without NoTemplates, the most relevant files %q lack the template", got)
	}
	rk.Rel.NoTemplates = true
	if got := top(rk, text); slices.Contains(got, ".github/ISSUE_TEMPLATE/bug.yml") || !slices.Contains(got, "merge.py") {
		t.Errorf("with NoTemplates, the most relevant files are %q, want merge.py and not the template", got)
	}
	if got := top(rk, text+"\nIt is what the bug report asks for in its template.\n"); !slices.Contains(got, ".github/ISSUE_TEMPLATE/bug.yml") {
		t.Errorf("words about templates: the most relevant files %q lack the template", got)
	}
	if got := top(rk, text+"\nTry it in [Binder](https://mybinder.org/v2/gh/o/r/main?urlpath=lab/tree/doc/blank_template.ipynb) or blank_template.ipynb.\n"); slices.Contains(got, ".github/ISSUE_TEMPLATE/bug.yml") {
		t.Errorf("a link and a file name with template in them: the most relevant files %q have the template", got)
	}
	for p, want := range map[string]bool{
		".github/ISSUE_TEMPLATE/bug.yml": true, ".github/PULL_REQUEST_TEMPLATE.md": true, ".gitlab/issue_templates/Bug.md": true,
		".github/workflows/ci.yml": false, "templates/issue.html": false,
	} {
		if isTemplate(p) != want {
			t.Errorf("isTemplate(%q) = %v, want %v", p, !want, want)
		}
	}
}
