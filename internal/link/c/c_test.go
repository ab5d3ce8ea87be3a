package c_test

import (
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
)

// TestResolveInclude: an #include in quotes links to the header it names
// (next to the includer first, then the shortest path of the tree that
// ends in it, the first of those as short) and to the sources of the
// header's stem; other names link by name.
func TestResolveInclude(t *testing.T) {
	tree := fstest.MapFS{
		"src/store.h":       {Data: []byte("int store_get(int k);\n")},
		"src/store.c":       {Data: []byte("#include \"store.h\"\n\nint store_get(int k) { return k; }\n")},
		"src/main.c":        {Data: []byte("#include <stdio.h>\n#include \"store.h\"\n\nint main(void) { return store_get(1); }\n")},
		"lib/other/store.h": {Data: []byte("int other_get(int k);\n")},
		// Paths with the same end, as short but later, and longer.
		"zzz/other/store.h":     {Data: []byte("int z_get(int k);\n")},
		"deep/er/other/store.h": {Data: []byte("int d_get(int k);\n")},
		"app/use.cpp":           {Data: []byte("#include \"other/store.h\"\n\nint use() { return 0; }\n")},
	}
	got := linktest.Edges(t, tree, policy.Default().Link)
	want := []string{
		"app/use.cpp -> lib/other/store.h store", // the end of a path in the tree
		"src/main.c -> src/store.c store",        // the header's source
		"src/main.c -> src/store.c store_get",    // by name
		"src/main.c -> src/store.h store",        // the header next to it
		"src/main.c -> src/store.h store_get",    // by name: the prototype
		"src/store.c -> src/store.h store",
	}
	linktest.Same(t, got, want)
}
