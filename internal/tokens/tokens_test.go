package tokens

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/repomap-dev/repomap/internal/corpus"
)

// samples returns texts to count: edge cases, and the Go files of
// net/http whole, and one in eight cut in lines, as maps show them.
func samples(t *testing.T) []string {
	out := []string{
		"", " ", "\n", "\n\n\n", "a", "hello world", "  leading and trailing  ", "tabs\tand\r\nCRLF\r\n",
		"I'm sure they'll've done it", "HTTPServer.ServeHTTP(w, r)", "x := 12345678901234",
		"naïve café, Ελληνικά, русский, 中文字符, 日本語のテキスト, 한국어", "emoji 🙂👍🏽 and ZWJ 👩‍👩‍👧",
		"invalid \xff\xfe bytes \xc3", "repomap/map.go:\n⋮\n│func (m *Map) Render(ctx context.Context, req Request) (string, error) {\n⋮\n",
		strings.Repeat("a", 5000), strings.Repeat("ab1 ", 300), strings.Repeat("🙂", 100),
	}
	dir := corpus.GoSrc(t, "net/http")
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, string(data))
		if n++; n%8 == 1 {
			out = append(out, strings.SplitAfter(string(data), "\n")...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCountAsTiktoken checks that Count counts as tiktoken-go's
// EncodeOrdinary does, in both encodings.
func TestCountAsTiktoken(t *testing.T) {
	texts := samples(t)
	if testing.Short() {
		texts = texts[:200]
	}
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	for _, name := range []string{O200kBase, Cl100kBase} {
		want, err := tiktoken.GetEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() != name {
			t.Errorf("Get(%q).Name() = %q", name, e.Name())
		}
		bad := 0
		for _, s := range texts {
			if got, want := e.Count(s), len(want.EncodeOrdinary(s)); got != want {
				if bad++; bad <= 5 {
					t.Errorf("%s: Count(%.60q) = %d, want %d", name, s, got, want)
				}
			}
		}
	}
}

// TestParseRank checks the ranks a line of an encoding's table may end
// with, and those it may not.
func TestParseRank(t *testing.T) {
	for in, want := range map[string]int32{"0": 0, "7": 7, "199997": 199997, "000012": 12, "999999999": 999999999} {
		if got, ok := parseRank([]byte(in)); !ok || got != want {
			t.Errorf("parseRank(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "-1", "+1", "1 ", "1e3", "0x10", "1000000000", "12a"} {
		if got, ok := parseRank([]byte(in)); ok {
			t.Errorf("parseRank(%q) = %d, want no rank", in, got)
		}
	}
}

func TestGetUnknown(t *testing.T) {
	if _, err := Get("p50k_base"); err == nil || !strings.Contains(err.Error(), "unknown encoding") {
		t.Errorf("Get(p50k_base) error = %v, want an unknown encoding", err)
	}
}

func TestGetOnce(t *testing.T) {
	a, err := Get(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Get(O200kBase)
	if a != b {
		t.Errorf("Get loaded the encoding twice")
	}
}

// BenchmarkLoad measures the load of an encoding, which every process
// that counts a map pays once.
func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{O200kBase, Cl100kBase} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := load(name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadTiktoken measures tiktoken-go's load of the same table,
// for comparison.
func BenchmarkLoadTiktoken(b *testing.B) {
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tiktoken.GetEncoding(O200kBase); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCount measures counting the Go files of net/http.
func BenchmarkCount(b *testing.B) {
	dir := corpus.GoSrc(b, "net/http")
	data, err := os.ReadFile(filepath.Join(dir, "server.go"))
	if err != nil {
		b.Fatal(err)
	}
	e, err := Get(O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	t, err := tiktoken.GetEncoding(O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("tokens", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			e.Count(string(data))
		}
	})
	b.Run("tiktoken", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			t.EncodeOrdinary(string(data))
		}
	})
}
