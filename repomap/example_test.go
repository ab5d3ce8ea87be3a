package repomap_test

import (
	"context"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/repomap-dev/repomap/repomap"
)

func ExampleMap_Render() {
	tree := fstest.MapFS{
		"shapes/shapes.go": {Data: []byte(`package shapes

// Area returns the area of a rectangle.
func Area(w, h float64) float64 {
	return w * h
}

func unused() {}
`)},
		"main.go": {Data: []byte(`package main

import "example.com/shapes"

func main() {
	println(shapes.Area(2, 3))
}
`)},
	}
	m, err := repomap.NewFS(tree, &repomap.Options{MaxTokens: 100})
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	text, err := m.Render(context.Background(), repomap.Request{Focus: []string{"main.go"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(text)
	// Output:
	// shapes/shapes.go:
	// ⋮
	// │func Area(w, h float64) float64 {
	// ⋮
	// │func unused() {}
}

// shapesTree is a small tree for the examples: a package that defines
// shapes, and a program that uses them.
var shapesTree = fstest.MapFS{
	"shapes/shapes.go": {Data: []byte(`package shapes

// Rect is a rectangle.
type Rect struct {
	W, H float64
}

// Area returns the area of r.
func (r Rect) Area() float64 {
	return r.W * r.H
}

// Square returns a square of side s.
func Square(s float64) Rect {
	return Rect{s, s}
}
`)},
	"main.go": {Data: []byte(`package main

import "example.com/shapes"

func main() {
	r := shapes.Square(2)
	println(r.Area())
}

func area(w, h float64) float64 { return shapes.Rect{w, h}.Area() }
`)},
}

func ExampleMap_Definitions() {
	m, err := repomap.NewFS(shapesTree, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	defs, err := m.Definitions(context.Background(), "Area", "Square")
	if err != nil {
		log.Fatal(err)
	}
	// Each has its path, line, kind and name, and its text as a map shows
	// it.
	for _, d := range defs {
		fmt.Printf("%s:%d: %s %s\n%s", d.Path, d.Line, d.Kind, d.Name, d.Text)
	}
	// Output:
	// shapes/shapes.go:9: method Area
	// ⋮
	// │func (r Rect) Area() float64 {
	// ⋮
	// shapes/shapes.go:14: function Square
	// ⋮
	// │func Square(s float64) Rect {
	// ⋮
}

func ExampleMap_References() {
	m, err := repomap.NewFS(shapesTree, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	refs, err := m.References(context.Background(), "Rect")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range refs {
		fmt.Println(r.Path, r.Lines)
	}
	// Output:
	// shapes/shapes.go [9 14 15]
	// main.go [10]
}

func ExampleMap_Related() {
	m, err := repomap.NewFS(shapesTree, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	res, err := m.Related(context.Background(), "shapes/shapes.go", repomap.Request{MaxTokens: 200})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Text)
	// Output:
	// main.go:
	// ⋮
	// │import "example.com/shapes"
	// │
	// │func main() {
	// │	r := shapes.Square(2)
	// │	println(r.Area())
	// ⋮
	// │func area(w, h float64) float64 { return shapes.Rect{w, h}.Area() }
}

func ExampleMap_FindMentions() {
	m, err := repomap.NewFS(shapesTree, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	ms, err := m.FindMentions(context.Background(), "Make Square in shapes.go return a *Rect.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("files:", ms.Files)
	fmt.Println("identifiers:", ms.Idents)
	// Output:
	// files: [shapes/shapes.go]
	// identifiers: [Make Square in shapes go return a Rect]
}

func ExampleDirRoots() {
	roots, err := repomap.DirRoots("/src/web/api", "/src/mobile/api", "/src/shared")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range roots {
		fmt.Println(r.Name)
	}
	// Output:
	// web-api
	// mobile-api
	// shared
}

func ExampleMap_Graph() {
	m, err := repomap.NewFS(shapesTree, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	g, err := m.Graph(context.Background(), repomap.Request{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range g.Files {
		fmt.Printf("%s %.3f %s\n", f.Path, f.Rank, f.Role)
	}
	// The uses from main.go to shapes/shapes.go (the package name too),
	// and the edges back at half their weight; the self-edges are left
	// out here. r.Area() is Rect's method, as r holds what Square gives;
	// the Area of a literal, any type's: two keys, one use each.
	for e := range g.Edges() {
		if e.From != e.To {
			fmt.Printf("%s → %s %s %.3g (back %.3g)\n", e.From, e.To, e.Name, e.Weight, e.Back)
		}
	}
	// Output:
	// shapes/shapes.go 0.645 source
	// main.go 0.355 source
	// main.go → shapes/shapes.go Area 2 (back 0)
	// main.go → shapes/shapes.go Rect 1 (back 0)
	// main.go → shapes/shapes.go Square 1 (back 0)
	// main.go → shapes/shapes.go shapes 1.41 (back 0)
	// shapes/shapes.go → main.go Area 1 (back 1)
	// shapes/shapes.go → main.go Rect 0.5 (back 0.5)
	// shapes/shapes.go → main.go Square 0.5 (back 0.5)
	// shapes/shapes.go → main.go shapes 0.707 (back 0.707)
}
