package mcpserver_test

import (
	"context"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/mcpserver"
	"github.com/repomap-dev/repomap/repomap"
)

func ExampleNew() {
	tree := fstest.MapFS{
		"shapes/shapes.go": {Data: []byte("package shapes\n\n// Area returns w×h.\nfunc Area(w, h float64) float64 { return w * h }\n")},
		"main.go":          {Data: []byte("package main\n\nimport \"example.com/shapes\"\n\nfunc main() { println(shapes.Area(2, 3)) }\n")},
	}
	m, err := repomap.NewFS(tree, &repomap.Options{MaxTokens: 500})
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	// Serve the map, and connect a client to it in memory.
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := mcpserver.New(m, nil).Connect(ctx, serverEnd, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      mcpserver.ToolReferences,
		Arguments: mcpserver.ReferencesArgs{Name: "Area"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      mcpserver.ToolMap,
		Arguments: mcpserver.MapArgs{Focus: []string{"main.go"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// main.go: 5
	// shapes/shapes.go:
	// ⋮
	// │func Area(w, h float64) float64 { return w * h }
}
