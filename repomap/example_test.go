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
	// │	return w * h
	// ⋮
	// │func unused() {}
}
