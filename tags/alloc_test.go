package tags

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// TestAllocatorSameTags parses every fixture with go-tree-sitter's own
// allocator (Go callbacks around malloc) and with the C library's, which
// NewParser switches to, and checks that the tags are the same.
func TestAllocatorSameTags(t *testing.T) {
	files, err := filepath.Glob("testdata/lang/*/*")
	if err != nil {
		t.Fatal(err)
	}
	parseAll := func() map[string][]Tag {
		p := NewParser(nil)
		defer p.Close()
		out := map[string][]Tag{}
		for _, f := range files {
			if filepath.Ext(f) == ".tags" {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if Detect(f, src) == "" {
				continue
			}
			tags, err := p.Parse(context.Background(), f, src)
			if err != nil {
				t.Fatalf("Parse(%s): %v", f, err)
			}
			out[f] = tags
		}
		return out
	}
	useLibcAllocator()                  // whatever ran before, NewParser won't switch again
	ts.SetAllocator(nil, nil, nil, nil) // go-tree-sitter's Go callbacks
	goAlloc := parseAll()
	libcAllocator()
	libc := parseAll()
	if len(goAlloc) < 30 {
		t.Fatalf("only %d fixtures parsed", len(goAlloc))
	}
	for f, want := range goAlloc {
		if !slices.Equal(want, libc[f]) {
			t.Errorf("%s: tags differ between allocators", f)
		}
	}
}
