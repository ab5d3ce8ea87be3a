package policy

import (
	"context"
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/tags"
)

func TestTraceNames(t *testing.T) {
	text := `Traceback (most recent call last):
  File "/app/manage.py", line 22, in <module>
  File "/app/django/db/models/query.py", line 830, in update
    rows = query.get_compiler(self.db).execute_sql(CURSOR)
  File "/app/django/db/models/sql/compiler.py", line 1, in execute_sql
goroutine 1 [running]:
net/http.(*conn).serve(0xc000100000, {0x7a1b20, 0xc0000a2000})
	/usr/local/go/src/net/http/server.go:2039 +0x1d8
main.handleRequest(...)
	/home/me/app/main.go:12 +0x2f
TypeError: x is not a function
    at Router.dispatchRoute (/app/src/router.js:10:5)
    at new Server (/app/src/server.js:3:1)
/site-packages/django/core/cache/backends/db.py:277→ _cull
The update() call is in the text, not a trace.`
	want := []string{"update", "execute_sql", "serve", "handleRequest", "dispatchRoute", "Server", "_cull"}
	if got := traceNames(text); !slices.Equal(got, want) {
		t.Errorf("traceNames = %q, want %q", got, want)
	}
}

func TestCodeWords(t *testing.T) {
	got := CodeWords("The hooks argument of parse_args breaks QuerySet, see `update` and utf8 in the docs.")
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
	snap := indextest.Snapshot(t, tree)
	rel := relevance(context.Background(), snap, "QuerySet.update() ignores the common kwargs", Default().Rel.Text)
	if top := topRelevant(rel, 1); len(top) != 1 || top[0] != "db/query.py" {
		t.Errorf("most relevant = %v, want db/query.py (rel %v)", top, rel)
	}
	common := relevance(context.Background(), snap, "common", Default().Rel.Text)
	rare := relevance(context.Background(), snap, "render", Default().Rel.Text)
	if common["web/views.py"] >= rare["web/views.py"] {
		t.Errorf("a word of four files scores %g in views.py, not below a word of one file, %g", common["web/views.py"], rare["web/views.py"])
	}
	if rel := relevance(context.Background(), snap, "the and of it", Default().Rel.Text); len(rel) != 0 {
		t.Errorf("stop words alone score files: %v", rel)
	}
}

// TestRelevanceText: the words of a file's text count, not only its
// names: an error message quoted in a request finds the file that raises
// it, and a comment's words find the file they describe.
func TestRelevanceText(t *testing.T) {
	tree := fstest.MapFS{
		"hooks.py": {Data: []byte("def register(fn):\n    # Callbacks run in the order they were added.\n    if not callable(fn):\n        raise TypeError(\"hook must be callable, got an integer\")\n")},
		"other.py": {Data: []byte("def register_type(fn):\n    return fn\n")},
		"third.py": {Data: []byte("def unrelated():\n    return register(1)\n")},
	}
	snap := indextest.Snapshot(t, tree)
	for _, q := range []string{"TypeError: hook must be callable, got an integer", "callbacks run in the wrong order"} {
		rel := relevance(context.Background(), snap, q, Default().Rel.Text)
		if top := topRelevant(rel, 1); len(top) != 1 || top[0] != "hooks.py" {
			t.Errorf("%q: most relevant = %v, want hooks.py (rel %v)", q, top, rel)
		}
		if rel := relevance(context.Background(), snap, q, 0); rel["hooks.py"] > 0 {
			t.Errorf("%q with the text's words weighed 0: hooks.py scores %g, want 0", q, rel["hooks.py"])
		}
	}
}

// TestRelevanceEncoded checks that the relevance of files read from the
// disk cache, whose tags it reads in place, is that of the same files
// with their tags decoded, to the bit: with the words of the files'
// text, and without (where the names they refer to count too).
func TestRelevanceEncoded(t *testing.T) {
	tree := map[string]string{
		"db/query.py":  "class QuerySet:\n    def update(self, **kwargs):\n        return self.common()\n\n    def update_or_create(self):\n        return update(self)\n",
		"db/fields.py": "class Field:\n    def common(self):\n        pass\n",
		"web/views.go": "package web\n\n// Render writes the query set.\nfunc Render(q QuerySet) { q.Update(); common(q) }\n",
		"web/urls.js":  "function route(path) { return common(path, QuerySet.update); }\n",
		"README.md":    "# Query sets\n\nUpdate them with `update`.\n",
	}
	snap := indextest.Cached(t, indextest.Tree(t, tree), index.ReadEntries, nil)
	text := "QuerySet.update() ignores the common kwargs when the route renders"
	encoded := 0
	for i := range snap.Len() {
		if !snap.State(i).Decoded {
			encoded++
		}
	}
	if encoded < 4 {
		t.Fatalf("%d files with their tags as the cache holds them, want 4 at least", encoded)
	}
	if rel := relevance(context.Background(), snap, text, Default().Rel.Text); len(rel) < 3 {
		t.Fatalf("relevance = %v, want 3 files at least", rel)
	}
	for i := range snap.Len() {
		if !snap.State(i).Decoded {
			encoded--
		}
	}
	if encoded != 0 {
		t.Fatalf("the relevance decoded the tags of %d files", encoded)
	}
	for i := range snap.Len() {
		if snap.State(i).Decoded {
			continue
		}
		// The names read in place count as the decoded names do, with
		// the words of the text and without.
		bag, enc, _ := snap.Words(i)
		set := enc.Decode()
		q := newWordsQuery(text, Default().Rel.Text)
		for _, b := range [][]byte{bag, nil} {
			inPlace, decoded := make([]float32, len(q.hashes)), make([]float32, len(q.hashes))
			sc := &scorer{q: q}
			n1 := sc.score(inPlace, 0, b, enc, &tags.Set{})
			n2 := sc.score(decoded, 0, b, cache.Encoded{}, &set)
			if n1 != n2 || !slices.Equal(inPlace, decoded) {
				t.Errorf("%s, words of the text %t: scored in place %v (length %v), decoded %v (length %v)", snap.Files[i].Path, b != nil, inPlace, n1, decoded, n2)
			}
		}
	}
}

// TestRelevanceScoredAsRead checks that the relevance of files whose
// entries were scored for the words as the disk cache was read, and not
// read otherwise, is that of the same files read and decoded, to the
// bit; and that a score for other words is not taken.
func TestRelevanceScoredAsRead(t *testing.T) {
	tree := map[string]string{
		"db/query.py":  "class QuerySet:\n    def update(self, **kwargs):\n        return self.common()\n",
		"db/fields.py": "class Field:\n    def common(self):\n        pass\n",
		"web/views.go": "package web\n\n// Render writes the query set.\nfunc Render(q QuerySet) { q.Update(); common(q) }\n",
		"web/urls.js":  "function route(path) { return common(path, QuerySet.update); }\n",
	}
	root := indextest.Tree(t, tree)
	for _, tc := range []struct{ scored, asked string }{
		{"QuerySet.update() ignores the common kwargs", "QuerySet.update() ignores the common kwargs"},
		{"the route renders", "QuerySet.update() ignores the common kwargs"},
	} {
		snap := indextest.Cached(t, root, index.ReadStamps, newWordsQuery(tc.scored, Default().Rel.Text).seer())
		for i := range snap.Len() {
			if !snap.State(i).Seen {
				t.Fatalf("%s: not scored as read", snap.Files[i].Path)
			}
		}
		got := relevance(context.Background(), snap, tc.asked, Default().Rel.Text)
		same := tc.scored == tc.asked
		for i := range snap.Len() {
			if read := snap.State(i).Read; read == same {
				t.Errorf("scored for %q, asked %q: %s read %t, want %t", tc.scored, tc.asked, snap.Files[i].Path, read, !same)
			}
		}
		if err := snap.DecodeAll(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := relevance(context.Background(), snap, tc.asked, Default().Rel.Text)
		if len(want) < 3 || !maps.Equal(got, want) {
			t.Errorf("scored for %q, asked %q: relevance = %v, want %v", tc.scored, tc.asked, got, want)
		}
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
		{"/usr/lib/python3.7/site-packages/django/db/models/query.py:104→ set", []string{"django/db/models/query.py"}},
		{"see https://github.com/o/r/blob/main/django/utils/text.py#L270.", []string{"django/utils/text.py"}},
		{"at handler (/home/me/app/src/index.ts:10:5)", []string{"src/index.ts"}},
		{"README.md says so; util.py is ambiguous", []string{"README.md"}},
		{"nothing named here. Really.", []string{}},
	} {
		if got := namedFiles(tc.text, paths); !slices.Equal(got, tc.want) {
			t.Errorf("namedFiles(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
