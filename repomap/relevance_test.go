package repomap

import (
	"slices"
	"testing"
	"testing/fstest"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"QuerySet.update", []string{"queryset", "query", "set", "update"}},
		{"parse_args", []string{"parse", "args"}},
		{"HTTPServer", []string{"httpserver", "http", "server"}},
		{"parseHTTPRequest2", []string{"parsehttprequest2", "parse", "http", "request2"}},
		{"a b x", nil},
		{"django/db/models/query.py", []string{"django", "db", "models", "query", "py"}},
	} {
		if got := splitWords(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCodeWords(t *testing.T) {
	got := codeWords("The hooks argument of parse_args breaks QuerySet, see `update` and utf8 in the docs.")
	want := []string{"parse_args", "QuerySet", "update", "utf8"}
	if !slices.Equal(got, want) {
		t.Errorf("codeWords = %q, want %q", got, want)
	}
}

// TestRelevance: BM25 over the words of names and paths ranks first the
// file whose names hold the request's rare words, and a word every file
// has weighs next to nothing.
func TestRelevance(t *testing.T) {
	tree := fstest.MapFS{
		"db/query.py":   {Data: []byte("class QuerySet:\n    def update(self, **kwargs):\n        return self.common()\n")},
		"db/fields.py":  {Data: []byte("class Field:\n    def common(self):\n        pass\n")},
		"web/views.py":  {Data: []byte("def render(request):\n    return common(request)\n")},
		"web/urls.py":   {Data: []byte("def route(path):\n    return common(path)\n")},
		"docs/notes.md": {Data: []byte("# Notes\n")},
	}
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.build(t.Context(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	snap := r.blocks.snap
	rel := relevance(snap, "QuerySet.update() ignores the common kwargs")
	if top := topRelevant(rel, 1); len(top) != 1 || top[0] != "db/query.py" {
		t.Errorf("most relevant = %v, want db/query.py (rel %v)", top, rel)
	}
	common := relevance(snap, "common")
	rare := relevance(snap, "render")
	if common["web/views.py"] >= rare["web/views.py"] {
		t.Errorf("a word of four files scores %g in views.py, not below a word of one file, %g", common["web/views.py"], rare["web/views.py"])
	}
	if rel := relevance(snap, "the and of it"); len(rel) != 0 {
		t.Errorf("stop words alone score files: %v", rel)
	}
}

func TestNamedFiles(t *testing.T) {
	paths := []string{"django/db/models/query.py", "django/db/models/__init__.py", "django/utils/text.py", "pkg/server.go", "src/index.ts", "README.md", "a/util.py", "b/util.py"}
	for _, tc := range []struct {
		text string
		want []string
	}{
		{`File "/usr/lib/python3/site-packages/django/db/models/query.py", line 12, in update`, []string{"django/db/models/query.py"}},
		{"see django.db.models.query.QuerySet.update()", []string{"django/db/models/query.py"}},
		{"import django.db.models", []string{"django/db/models/__init__.py"}},
		{"panic at pkg/server.go:123 +0x1f", []string{"pkg/server.go"}},
		{"at handler (/home/me/app/src/index.ts:10:5)", []string{"src/index.ts"}},
		{"README.md says so; util.py is ambiguous", []string{"README.md"}},
		{"nothing named here. Really.", []string{}},
	} {
		if got := namedFiles(tc.text, paths); !slices.Equal(got, tc.want) {
			t.Errorf("namedFiles(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
