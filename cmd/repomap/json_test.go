package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
)

// The JSON documents are pinned two ways: golden documents for a small
// tree (testdata/json/*.json, rewritten by -update), and the schema's
// shape (testdata/json/schema.txt), which must not change unless
// output.SchemaVersion does.

var jsonTree = fstest.MapFS{
	"geo/geo.go": {Data: []byte(`package geo

// Point is a point of the plane.
type Point struct {
	X, Y float64
}

// Dist returns the distance from p to q.
func (p Point) Dist(q Point) float64 {
	return hypot(q.X-p.X, q.Y-p.Y)
}

func hypot(a, b float64) float64 { return a*a + b*b }
`)},
	"main.go": {Data: []byte(`package main

import "example.com/geo"

func main() {
	p := geo.Point{1, 2}
	println(p.Dist(geo.Point{}))
}
`)},
	"tool.py": {Data: []byte(`import sys

def dist(a, b):
    """Uses the <fast> & simple way."""
    return abs(a - b)
`)},
}

func TestJSONGolden(t *testing.T) {
	// The documents of the aider style are the ones made before the
	// compact style was; the map and the definitions, which show source
	// lines, have a compact twin each.
	for _, style := range []string{repomap.StyleAider, repomap.StyleCompact} {
		t.Run(style, func(t *testing.T) { testJSONGolden(t, style) })
	}
}

func testJSONGolden(t *testing.T, style string) {
	ctx := context.Background()
	m, err := repomap.NewFS(jsonTree, &repomap.Options{MaxTokens: 120, Style: style})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(ctx, repomap.Request{Focus: []string{"main.go"}})
	if err != nil {
		t.Fatal(err)
	}
	defs, err := m.Definitions(ctx, "Dist", "dist", "Point")
	if err != nil {
		t.Fatal(err)
	}
	refs := output.NewReferencesDoc(m.Roots())
	for _, name := range []string{"Point", "hypot"} {
		rs, err := m.References(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		refs.Add(name, rs)
	}
	g, err := m.Graph(ctx, repomap.Request{Focus: []string{"main.go"}})
	if err != nil {
		t.Fatal(err)
	}
	graph := output.NewGraphDoc(m.Roots(), g.Files)
	for e := range g.Edges() {
		graph.Edges = append(graph.Edges, output.NewGraphEdgeDoc(e))
	}
	docs := []struct {
		file string
		doc  any
	}{
		{"map.json", output.NewMapDoc(m.Roots(), res)},
		{"graph.json", graph},
		{"definitions.json", output.NewDefinitionsDoc(m.Roots(), defs)},
		{"references.json", refs},
		{"empty.json", output.NewDefinitionsDoc(nil, nil)},
	}
	if style == repomap.StyleCompact {
		// The map and the definitions: the documents that show lines.
		docs[0].file, docs[2].file = "compact-map.json", "compact-definitions.json"
		docs = append(docs[:1], docs[2])
	}
	for _, tc := range docs {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := encodeJSON(&b, tc.doc); err != nil {
				t.Fatal(err)
			}
			file := "../../testdata/json/" + tc.file
			if *update {
				if err := os.MkdirAll("../../testdata/json", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", tc.file, diff)
			}
			// Arrays are never null.
			if strings.Contains(b.String(), "null") {
				t.Errorf("%s has a null:\n%s", tc.file, b.String())
			}
		})
	}
}

// TestJSONMapText checks that the document's parts agree with the map.
func TestJSONMapText(t *testing.T) {
	m, err := repomap.NewFS(jsonTree, &repomap.Options{MaxTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(context.Background(), repomap.Request{})
	if err != nil {
		t.Fatal(err)
	}
	doc := output.NewMapDoc(m.Roots(), res)
	var joined strings.Builder
	for i, f := range doc.Files {
		if i > 0 {
			joined.WriteString("\n")
		}
		joined.WriteString(f.Text)
	}
	if joined.String() != doc.Text {
		t.Errorf("the files' texts, separated by blank lines, are\n%q\nwant the map\n%q", joined.String(), doc.Text)
	}
	if doc.Tokens > doc.Budget || doc.Schema != output.SchemaVersion {
		t.Errorf("document has %d tokens of %d, schema %d", doc.Tokens, doc.Budget, doc.Schema)
	}
}

// TestJSONSchemaPinned fails when a field of a JSON document is added,
// removed, renamed or retyped and output.SchemaVersion stays the same. After
// bumping output.SchemaVersion (and documenting the change in its comment), run
// the test with -update to record the new shape.
func TestJSONSchemaPinned(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d\n", output.SchemaVersion)
	for _, doc := range []struct {
		name string
		v    any
	}{{"map", output.MapDoc{}}, {"definitions", output.DefinitionsDoc{}}, {"references", output.ReferencesDoc{}}, {"graph", output.GraphDoc{}}} {
		schemaShape(&b, reflect.TypeOf(doc.v), doc.name)
	}
	got := b.String()
	const file = "../../testdata/json/schema.txt"
	data, err := os.ReadFile(file)
	if err != nil && !*update {
		t.Fatal(err)
	}
	want := string(data)
	recorded, _, _ := strings.Cut(strings.TrimPrefix(want, "version "), "\n")
	if got == want {
		return
	}
	if recorded == strconv.Itoa(output.SchemaVersion) {
		t.Fatalf("the JSON schema changed but output.SchemaVersion is still %d: bump it, document the change, and run with -update\n(-recorded +now):\n%s",
			output.SchemaVersion, cmp.Diff(want, got))
	}
	if !*update {
		t.Fatalf("output.SchemaVersion is %d, %s records version %s: run with -update", output.SchemaVersion, file, recorded)
	}
	if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
}

// schemaShape writes one line per JSON field of the documents of type t,
// in the order they are encoded: its path of JSON names from prefix and
// its Go kind. Fields of embedded structs are the document's own, as
// encoding/json has them; fields named "-" are not encoded.
func schemaShape(b *strings.Builder, t reflect.Type, prefix string) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			schemaShape(b, ft, prefix)
			continue
		}
		if name == "" {
			name = f.Name
		}
		kind := ft.Kind().String()
		if ft.Kind() == reflect.Slice {
			kind = "[]" + ft.Elem().Kind().String()
			ft = ft.Elem()
		}
		fmt.Fprintf(b, "%s.%s %s\n", prefix, name, kind)
		if ft.Kind() == reflect.Struct {
			schemaShape(b, ft, prefix+"."+name)
		}
	}
}
