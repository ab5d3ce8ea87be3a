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
