package render

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/corpus"
	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/internal/items"
	"github.com/repomap-dev/repomap/internal/tokens"
)

// TestBlockCounts checks that the counts of a block followed by its
// separator, found from its last line, are those of the whole text, on
// the blocks of the files of a real tree.
func TestBlockCounts(t *testing.T) {
	ctx := context.Background()
	s := indextest.Snapshot(t, os.DirFS(corpus.GoSrc(t, "net/http")))
	enc, err := tokens.Get(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	bs := NewBlocks(s, Compact, enc.Count, Memo{}, nil, slog.New(slog.DiscardHandler))
	var shown []fit.Item
	for i, f := range s.Files[:min(40, s.Len())] {
		rows := items.ShownDefs(s.Tags(ctx, i))
		shown = append(shown, fit.Item{Path: f.Path, Name: "x", Rows: rows[:min(5, len(rows))]})
	}
	texts := []string{"a.go\n", "a.go\n│func A()\n", "a.go\n⋮\n", "a.go\n│x\n│  \n"}
	for _, b := range bs.OfItems(ctx, shown) {
		texts = append(texts, b.Text, strings.TrimSuffix(b.Text, "\n"))
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
	if len(texts) < 40 {
		t.Errorf("only %d blocks", len(texts))
	}
}
