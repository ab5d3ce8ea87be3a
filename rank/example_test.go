package rank_test

import (
	"fmt"

	"github.com/repomap-dev/repomap/rank"
)

func ExampleRank() {
	in := rank.Input{Files: []rank.File{
		{Path: "main.go", Defs: []string{"main"}, Refs: []string{"NewServer", "NewServer", "Config"}},
		{Path: "server.go", Defs: []string{"NewServer", "Server"}, Refs: []string{"Config"}},
		{Path: "config.go", Defs: []string{"Config"}},
	}}
	for _, e := range rank.Rank(in).Entries {
		fmt.Printf("%-9s %-9s %.3f\n", e.Path, e.Name, e.Score)
	}

	fmt.Println("focus on main.go:")
	in.Focus = []string{"main.go"}
	for _, e := range rank.Rank(in).Entries {
		fmt.Printf("%-9s %-9s %.3f\n", e.Path, e.Name, e.Score)
	}
	// Output:
	// config.go Config    0.333
	// server.go NewServer 0.169
	// server.go Server    0.032
	// main.go   main      0.001
	// focus on main.go:
	// server.go NewServer 0.362
	// config.go Config    0.329
	// server.go Server    0.030
}

func ExampleNewFileGraph() {
	in := rank.Input{Files: []rank.File{
		{Path: "main.go", Defs: []string{"main"}, Refs: []string{"NewServer", "NewServer", "Config"}},
		{Path: "server.go", Defs: []string{"NewServer", "Server"}, Refs: []string{"Config"}},
		{Path: "config.go", Defs: []string{"Config"}},
	}, Reverse: 0.5}
	for l := range rank.NewFileGraph(in).Links() {
		fmt.Printf("%-9s → %-9s %-9s %-6s %.3f\n", l.From, l.To, l.Ident, l.Kind, l.Weight)
	}
	// Output:
	// config.go → main.go   Config    back   0.500
	// config.go → server.go Config    back   0.500
	// main.go   → config.go Config    use    1.000
	// main.go   → main.go   main      unused 0.100
	// main.go   → server.go NewServer use    14.142
	// server.go → config.go Config    use    1.000
	// server.go → main.go   NewServer back   7.071
	// server.go → server.go Server    unused 0.100
}
