package repomap

import (
	"context"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/corpus"
)

// TestBlockCounts checks that the counts of a block followed by its
// separator, found from its last line, are those of the whole text, on
// the blocks of the map of a real tree.
func TestBlockCounts(t *testing.T) {
	m, err := New(corpus.GoSrc(t, "net/http"), &Options{NoCache: true, MaxTokens: 8000})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.Build(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := encoding(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	bs := &blocks{count: func(s string) int { return countTokens(enc, s) }}
	texts := []string{"a.go\n", "a.go\n│func A()\n", "a.go\n⋮\n", "a.go\n│x\n│  \n"}
	for _, f := range r.Files {
		texts = append(texts, f.Text, strings.TrimSuffix(f.Text, "\n"))
	}
	for _, text := range texts {
		alone, withSep := bs.counts(text)
		if want := bs.count(text); alone != want {
			t.Errorf("counts(%q) alone = %d, want %d", text, alone, want)
		}
		if want := bs.count(text + "\n"); withSep != want {
			t.Errorf("counts(%q) with the separator = %d, want %d", text, withSep, want)
		}
	}
	if len(texts) < 20 {
		t.Errorf("only %d blocks", len(texts))
	}
}
