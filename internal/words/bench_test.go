package words

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/repomap-dev/repomap/internal/corpus"
)

// BenchmarkCount counts the words of net/http's Go files, as the index
// does for each file it parses; its MB/s against the parse's says what
// the counts add to a cold map.
func BenchmarkCount(b *testing.B) {
	paths, err := filepath.Glob(filepath.Join(corpus.GoSrc(b, "net/http"), "*.go"))
	if err != nil || len(paths) == 0 {
		b.Fatal("no Go files in net/http", err)
	}
	var srcs [][]byte
	size := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, src := range srcs {
			AppendCount(nil, src)
		}
	}
}
