package tags

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/corpus"
)

// goFiles returns the .go files of a directory of the Go distribution, or
// skips the benchmark when it is absent.
func goFiles(b *testing.B, dir string) map[string][]byte {
	b.Helper()
	root := corpus.GoSrc(b, dir)
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			files[p] = data
		}
		return err
	})
	if err != nil || len(files) == 0 {
		b.Skip("no corpus:", err)
	}
	return files
}

// BenchmarkParse measures tag extraction (parse and query) on net/http.
func BenchmarkParse(b *testing.B) {
	benchFiles(b, func(p *Parser, name string, src []byte) error {
		_, err := p.Parse(context.Background(), name, src)
		return err
	})
}

// BenchmarkOutline measures the outline walk on net/http.
func BenchmarkOutline(b *testing.B) {
	benchFiles(b, func(p *Parser, name string, src []byte) error {
		_, err := p.Outline(context.Background(), name, src)
		return err
	})
}

// BenchmarkFile measures tags and outline from one parse on net/http:
// against BenchmarkParse, the cost of an outline for every file.
func BenchmarkFile(b *testing.B) {
	benchFiles(b, func(p *Parser, name string, src []byte) error {
		_, err := p.File(context.Background(), name, src)
		return err
	})
}

// BenchmarkParseOnly measures tree-sitter parsing alone on net/http.
func BenchmarkParseOnly(b *testing.B) {
	files := goFiles(b, "net/http")
	p := NewParser(nil)
	defer p.Close()
	lang, err := grammar("go")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, src := range files {
			tree, _, err := p.parseTimed(context.Background(), lang, src, nil)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
}

// BenchmarkFloor measures parse and query alone, no tags made, on
// net/http: the floor that BenchmarkParse is measured against.
func BenchmarkFloor(b *testing.B) {
	benchFiles(b, func(p *Parser, name string, src []byte) error {
		_, err := p.Floor(context.Background(), name, src)
		return err
	})
}

// BenchmarkParseSet measures the tags a map keeps of each file (parse,
// query and the Set) on net/http.
func BenchmarkParseSet(b *testing.B) {
	benchFiles(b, func(p *Parser, name string, src []byte) error {
		_, err := p.ParseSet(context.Background(), name, src)
		return err
	})
}

// benchFiles times parse, a call of a Parser's on each .go file of
// net/http, with one parser, in bytes per second.
func benchFiles(b *testing.B, parse func(p *Parser, name string, src []byte) error) {
	files := goFiles(b, "net/http")
	var size int64
	for _, d := range files {
		size += int64(len(d))
	}
	p := NewParser(nil)
	defer p.Close()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for name, src := range files {
			if err := parse(p, name, src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
