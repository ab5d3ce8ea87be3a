package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
)

// The graph goldens are testdata/graph/*.txtar: the archive's comment
// says what the case checks, its "args" file holds the flags, one a line,
// its "want" file the output of "repomap graph", and its other files are
// the tree. -update rewrites the want files.
func TestGraphGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/graph/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no graph goldens: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tree := map[string]string{}
			var args []string
			for _, f := range a.Files {
				switch f.Name {
				case "args":
					args = strings.Fields(string(f.Data))
				case "want":
				default:
					tree[f.Name] = string(f.Data)
				}
			}
			dir := writeTree(t, tree)
			code, got, errs := runCmd(t, slices.Concat([]string{"graph", "--no-cache"}, args, []string{dir})...)
			if code != 0 {
				t.Fatalf("repomap graph %q: exit %d:\n%s", args, code, errs)
			}
			i := slices.IndexFunc(a.Files, func(f txtar.File) bool { return f.Name == "want" })
			if i < 0 {
				t.Fatalf("%s has no want file", file)
			}
			if *update {
				a.Files[i].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(a.Files[i].Data), got); diff != "" {
				t.Errorf("repomap graph %q (-want +got):\n%s", args, diff)
			}
		})
	}
}

// graphTree is shopTree with a test, a document, and a file whose name
// needs quoting in every format.
func graphTree() map[string]string {
	tree := map[string]string{}
	for k, v := range shopTree {
		tree[k] = v
	}
	tree["cart/cart_test.go"] = "package cart\n\nfunc TestTotal(t *testing.T) { Total(&Cart{}) }\n"
	tree["docs/guide.md"] = "# Guide\n\nCall `Total`.\n"
	tree["we\"ird\\ <&> name.go"] = "package main\n\nimport \"example.com/shop/cart\"\n\nfunc weird() { println(cart.Total(nil)) }\n"
	return tree
}

func TestGraphFormats(t *testing.T) {
	dir := writeTree(t, graphTree())
	cache := t.TempDir()
	graph := func(args ...string) string {
		t.Helper()
		code, out, errs := runCmd(t, slices.Concat([]string{"graph", "--cache-dir", cache}, args, []string{dir})...)
		if code != 0 {
			t.Fatalf("repomap graph %q: exit %d:\n%s", args, code, errs)
		}
		return out
	}

	tsv := graph()
	type line struct{ from, to, name string }
	lines := map[line]float64{}
	for l := range strings.Lines(tsv) {
		f := strings.Split(strings.TrimSuffix(l, "\n"), "\t")
		if len(f) != 4 {
			t.Fatalf("tsv line %q has %d fields, want 4", l, len(f))
		}
		w, err := strconv.ParseFloat(f[3], 64)
		if err != nil || w <= 0 {
			t.Errorf("tsv line %q: weight %v", l, err)
		}
		lines[line{f[0], f[1], f[2]}] = w
	}
	if _, ok := lines[line{`we"ird\\ <&> name.go`, "cart/cart.go", "Total"}]; !ok {
		t.Errorf("no tsv line from the weird file to cart/cart.go for Total, the backslash escaped:\n%s", tsv)
	}

	// JSON: the same edges, with roles, in the documented fields only.
	js := graph("--format", "json")
	var doc output.GraphDoc
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("repomap graph --format json: %v\n%s", err, js)
	}
	if doc.Schema != output.SchemaVersion || len(doc.Roots) != 1 {
		t.Errorf("graph document: schema %d, roots %+v", doc.Schema, doc.Roots)
	}
	if len(doc.Edges) != len(lines) {
		t.Errorf("graph document has %d edges, the tsv %d lines", len(doc.Edges), len(lines))
	}
	for _, e := range doc.Edges {
		if w, ok := lines[line{tsvField(e.From), tsvField(e.To), tsvField(e.Name)}]; !ok || w != e.Weight {
			t.Errorf("edge %+v: the tsv has weight %v (%v)", e, w, ok)
		}
	}
	roles := map[string]string{}
	for _, f := range doc.Files {
		roles[f.Path] = f.Role
	}
	if roles["cart/cart_test.go"] != "test" || roles["cart/cart.go"] != "source" || roles["docs/guide.md"] != "docs" {
		t.Errorf("graph document roles %v", roles)
	}
	if strings.Contains(js, `\u003c`) || strings.Contains(js, "null") {
		t.Errorf("graph document escapes HTML or has a null:\n%s", js)
	}

	// -top keeps the best files and the edges between them.
	doc = output.GraphDoc{}
	if err := json.Unmarshal([]byte(graph("--format", "json", "--top", "2")), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 2 {
		t.Fatalf("--top 2 kept %d files", len(doc.Files))
	}
	for _, e := range doc.Edges {
		if e.From != doc.Files[0].Path && e.From != doc.Files[1].Path || e.To != doc.Files[0].Path && e.To != doc.Files[1].Path {
			t.Errorf("--top 2 kept the edge %+v, outside %s and %s", e, doc.Files[0].Path, doc.Files[1].Path)
		}
	}

	dot := graph("--format", "dot")
	for _, want := range []string{"digraph repomap {\n", `"main.go" -> "cart/cart.go"`, `"we\"ird\\ <&> name.go" -> "cart/cart.go"`, "fillcolor=\"#a1d99b\""} {
		if !strings.Contains(dot, want) {
			t.Errorf("repomap graph --format dot lacks %q:\n%s", want, dot)
		}
	}
	checkDot(t, dot)
}

// checkDot checks that Graphviz reads src, when it is installed.
func checkDot(t *testing.T, src string) {
	t.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Log("no Graphviz dot: the dot output is not parsed")
		return
	}
	cmd := exec.Command(bin, "-Tsvg")
	cmd.Stdin = strings.NewReader(src)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil || errs.Len() > 0 || !strings.Contains(out.String(), "<svg") {
		t.Errorf("dot -Tsvg: %v\n%s\non\n%s", err, errs.String(), src)
	}
}

// TestDotArrows checks what a dot graph draws: the files given, the uses
// between them summed per pair, at most the heaviest arrows of each
// file, and neither edges back nor self-edges.
func TestDotArrows(t *testing.T) {
	files := []repomap.GraphFile{
		{Path: "a", Rank: 0.5}, {Path: "b", Rank: 0.3, Role: repomap.RoleTest}, {Path: "c", Rank: 0.1}, {Path: "d", Rank: 0.1},
	}
	edges := []repomap.GraphEdge{
		{From: "a", To: "a", Name: "x", Weight: 3},
		{From: "a", To: "b", Name: "x", Weight: 1},
		{From: "a", To: "b", Name: "y", Weight: 2},
		{From: "a", To: "c", Name: "z", Weight: 2},
		{From: "a", To: "d", Name: "z", Weight: 0.5},
		{From: "b", To: "a", Name: "x", Weight: 0.5, Back: 0.5},
		{From: "c", To: "a", Name: "w", Weight: 1.5, Back: 0.5},
	}
	var b strings.Builder
	err := writeDot(&b, "t<&>", 9, files, []string{"c"}, 2, func(yield func(repomap.GraphEdge) bool) {
		for _, e := range edges {
			if !yield(e) {
				return
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	dot := b.String()
	var arrows []string
	for l := range strings.Lines(dot) {
		if from, rest, ok := strings.Cut(strings.TrimSpace(l), " -> "); ok {
			to, _, _ := strings.Cut(rest, " ")
			arrows = append(arrows, from+">"+to)
		}
	}
	if want := []string{`"a">"b"`, `"a">"c"`, `"c">"a"`}; !slices.Equal(arrows, want) {
		t.Errorf("dot arrows %q, want %q:\n%s", arrows, want, dot)
	}
	for _, want := range []string{`tooltip="a → b: y, x"`, "penwidth=5.40", "t&lt;&amp;&gt;: the 4 best-ranked of 9 files", `"c" [fontsize=19.8, fillcolor="#9ecae1"`, ", penwidth=3]"} {
		if !strings.Contains(dot, want) {
			t.Errorf("dot lacks %q:\n%s", want, dot)
		}
	}
	checkDot(t, dot)

	for r := repomap.Role(0); !strings.HasPrefix(r.String(), "Role("); r++ {
		if roleColours[r] == "" {
			t.Errorf("role %s has no colour", r)
		}
	}

	// A graph of no file is a graph too.
	b.Reset()
	if err := writeDot(&b, "empty", 0, nil, nil, 2, func(func(repomap.GraphEdge) bool) {}); err != nil {
		t.Fatal(err)
	}
	checkDot(t, b.String())
}

// TestGraphJSONStream checks that the graph document written edge by
// edge is the document encodeJSON writes.
func TestGraphJSONStream(t *testing.T) {
	m, err := repomap.NewFS(jsonTree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	g, err := m.Graph(context.Background(), repomap.Request{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{len(g.Files), 1, 0} {
		doc := output.NewGraphDoc(m.Roots(), g.Files[:n])
		keep := map[string]bool{}
		for _, f := range g.Files[:n] {
			keep[f.Path] = true
		}
		edges := func(yield func(repomap.GraphEdge) bool) {
			for e := range g.Edges() {
				if keep[e.From] && keep[e.To] && !yield(e) {
					return
				}
			}
		}
		var stream, whole bytes.Buffer
		if err := writeGraphJSON(&stream, doc, edges); err != nil {
			t.Fatal(err)
		}
		for e := range edges {
			doc.Edges = append(doc.Edges, output.NewGraphEdgeDoc(e))
		}
		if err := encodeJSON(&whole, doc); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(whole.String(), stream.String()); diff != "" {
			t.Errorf("graph document of %d files written edge by edge (-encodeJSON +stream):\n%s", n, diff)
		}
	}
}

func TestGraphUsage(t *testing.T) {
	for _, args := range [][]string{
		{"graph", "--format", "svg"},
		{"graph", "--top", "-1"},
		{"graph", "--arrows", "-2"},
		{"graph", "--ranking", "nope"},
	} {
		if code, _, errs := runCmd(t, args...); code != exitUsage || !strings.Contains(errs, "usage: repomap graph") {
			t.Errorf("repomap %q: exit %d, stderr %q; want %d and the usage", args, code, errs, exitUsage)
		}
	}
	dir := writeTree(t, shopTree)
	if code, _, errs := runCmd(t, "graph", "--no-cache", "--focus", "nope.go", dir); code != exitFailure || !strings.Contains(errs, "nope.go") {
		t.Errorf("repomap graph --focus nope.go: exit %d, stderr %q", code, errs)
	}
	empty := t.TempDir()
	if code, out, errs := runCmd(t, "graph", "--no-cache", empty); code != exitOK || out != "" || !strings.Contains(errs, "the graph is empty") {
		t.Errorf("repomap graph of an empty tree: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestTSVField(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a/b.go", "a/b.go"},
		{"tab\there\\", `tab\there\\`},
		{"nl\ncr\r", `nl\ncr\r`},
		{"esc\x1b]0;PWNED\x07.py", `esc\x1b]0;PWNED\x07.py`},
		{"c1\u009b2J\u2028", `c1\u009b2J\u2028`},
		{"ünï\xff", "ünï\xff"},
	} {
		if got := tsvField(tc.in); got != tc.want {
			t.Errorf("tsvField(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := dotString("a\x1bb\nc"), "\"a\ufffdb\\nc\""; got != want {
		t.Errorf("dotString = %q, want %q", got, want)
	}
}
