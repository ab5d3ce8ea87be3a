package repomap

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// The JSON documents are pinned two ways: golden documents for a small
// tree (testdata/json/*.json, rewritten by -update), and the schema's
// shape (testdata/json/schema.txt), which must not change unless
// SchemaVersion does.

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
	ctx := context.Background()
	m, err := NewFS(jsonTree, &Options{MaxTokens: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(ctx, Request{Focus: []string{"main.go"}})
	if err != nil {
		t.Fatal(err)
	}
	defs, err := m.Definitions(ctx, "Dist", "dist", "Point")
	if err != nil {
		t.Fatal(err)
	}
	refs := NewJSONReferences(m.Roots())
	for _, name := range []string{"Point", "hypot"} {
		rs, err := m.References(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		refs.Add(name, rs)
	}
	for _, tc := range []struct {
		file string
		doc  any
	}{
		{"map.json", NewJSONMap(m.Roots(), res)},
		{"definitions.json", NewJSONDefinitions(m.Roots(), defs)},
		{"references.json", refs},
		{"empty.json", NewJSONDefinitions(nil, nil)},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(tc.doc); err != nil {
				t.Fatal(err)
			}
			file := "../testdata/json/" + tc.file
			if *update {
				if err := os.MkdirAll("../testdata/json", 0o755); err != nil {
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
	m, err := NewFS(jsonTree, &Options{MaxTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	doc := NewJSONMap(m.Roots(), res)
	var joined strings.Builder
	for _, f := range doc.Files {
		joined.WriteString("\n" + f.Text)
	}
	if joined.String() != doc.Text {
		t.Errorf("the files' texts, each after a newline, are\n%q\nwant the map\n%q", joined.String(), doc.Text)
	}
	if doc.Tokens > doc.Budget || doc.Schema != SchemaVersion {
		t.Errorf("document has %d tokens of %d, schema %d", doc.Tokens, doc.Budget, doc.Schema)
	}
}

// TestJSONSchemaPinned fails when a field of a JSON document is added,
// removed, renamed or retyped and SchemaVersion stays the same. After
// bumping SchemaVersion (and documenting the change in its comment), run
// the test with -update to record the new shape.
func TestJSONSchemaPinned(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d\n", SchemaVersion)
	for _, v := range []any{JSONMap{}, JSONDefinitions{}, JSONReferences{}} {
		schemaShape(&b, reflect.TypeOf(v), "")
	}
	got := b.String()
	const file = "../testdata/json/schema.txt"
	data, err := os.ReadFile(file)
	if err != nil && !*update {
		t.Fatal(err)
	}
	want := string(data)
	recorded, _, _ := strings.Cut(strings.TrimPrefix(want, "version "), "\n")
	if got == want {
		return
	}
	if recorded == strconv.Itoa(SchemaVersion) {
		t.Fatalf("the JSON schema changed but SchemaVersion is still %d: bump it, document the change, and run with -update\n(-recorded +now):\n%s",
			SchemaVersion, cmp.Diff(want, got))
	}
	if !*update {
		t.Fatalf("SchemaVersion is %d, %s records version %s: run with -update", SchemaVersion, file, recorded)
	}
	if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
}

// schemaShape writes one line per field reachable from t: its JSON path,
// its JSON name and options, and its Go kind.
func schemaShape(b *strings.Builder, t reflect.Type, prefix string) {
	if prefix == "" {
		prefix = t.Name()
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		kind := ft.Kind().String()
		if ft.Kind() == reflect.Slice {
			kind = "[]" + ft.Elem().Kind().String()
			ft = ft.Elem()
		}
		fmt.Fprintf(b, "%s.%s %q %s\n", prefix, f.Name, tag, kind)
		if name == "-" {
			continue
		}
		if ft.Kind() == reflect.Struct {
			schemaShape(b, ft, prefix+"."+f.Name)
		}
	}
}
