package redact

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/corpus"
)

// httpLines returns the lines of the Go files of the standard library's
// net/http, or skips b.
func httpLines(b *testing.B) [][]string {
	files, _ := filepath.Glob(filepath.Join(corpus.GoSrc(b, "net/http"), "*.go"))
	if len(files) == 0 {
		b.Skip("no net/http sources")
	}
	var out [][]string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, strings.Split(string(data), "\n"))
	}
	return out
}

func BenchmarkLines(b *testing.B) {
	files := httpLines(b)
	n := 0
	for _, f := range files {
		n += len(f)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			Lines(f)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
}

// BenchmarkHoldsSecret asks HoldsSecret of each name of net/http, as the
// parser asks it of each name of a file.
func BenchmarkHoldsSecret(b *testing.B) {
	var names []string
	for _, f := range httpLines(b) {
		src := []byte(strings.Join(f, "\n"))
		var s scanner.Scanner
		s.Init(token.NewFileSet().AddFile("", -1, len(src)), src, nil, 0)
		for _, tok, lit := s.Scan(); tok != token.EOF; _, tok, lit = s.Scan() {
			if tok == token.IDENT {
				names = append(names, lit)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			HoldsSecret(n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(names)), "ns/name")
}
