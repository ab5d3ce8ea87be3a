package render

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index"
)

// A map is the blocks of the files its items show, in path order,
// separated by blank lines. Blocks finds the longest prefix of a ranked list
// whose map fits a budget, and writes it.

// FileBlock is one file's part of a map, without the blank line that
// separates it from the next, with its token counts: alone, and followed
// by that blank line's "\n".
type FileBlock struct {
	Text           string
	alone, withSep int
}

// The tokenizers' pre-tokenizers split text into pieces that never cross
// the start of a line that begins with a non-space character, which is
// where every block of a map starts. So the tokens of a map add up from
// its blocks: each block but the last with its separator, and the last
// alone. fitItems relies on that and checks it
// once on the map it returns.

// Blocks makes the blocks of the files of a snapshot for one map, in a
// style, and remembers them in a Memo for the maps after it.
type Blocks struct {
	snap     *index.Snapshot
	logger   *slog.Logger
	count    func(string) int
	memo     Memo
	style    Style
	rendered int // blocks made, not found in memo

	// The token counts of the texts of the blocks of the map before,
	// and of this one's: a file that changed outside the rows a map
	// shows of it has blocks of the same text, counted already.
	counted, counting map[string][2]int
}

// NewBlocks returns the maker of the blocks of snap's files in style,
// whose tokens count counts, with the blocks of memo, and the token
// counts of the last map's blocks (Blocks.Counts; nil for none).
func NewBlocks(snap *index.Snapshot, style Style, count func(string) int, memo Memo, counted map[string][2]int, logger *slog.Logger) *Blocks {
	return &Blocks{snap: snap, logger: logger, count: count, memo: memo, style: style, counted: counted, counting: make(map[string][2]int)}
}

// Rendered returns how many blocks bs made, not found in its memo.
func (bs *Blocks) Rendered() int { return bs.rendered }

// Counts returns the token counts of the texts of the blocks of bs's
// map, for the next map's NewBlocks.
func (bs *Blocks) Counts() map[string][2]int { return bs.counting }

// Memo holds the blocks made of the files of a snapshot, by the version
// of each file (index.Snapshot.Version), then by path and rows; a file's
// blocks go when its file changes.
type Memo map[uint64]map[string]FileBlock

// Keep drops the blocks of files not in s, or of other versions.
func (bm Memo) Keep(s *index.Snapshot) {
	live := make(map[uint64]bool, s.Len())
	for i := range s.Len() {
		live[s.Version(i)] = true
	}
	for v := range bm {
		if !live[v] {
			delete(bm, v)
		}
	}
}

// of returns the block of the file at p showing rows (sorted, without
// duplicates; none for a file by name alone).
func (bs *Blocks) of(ctx context.Context, p string, rows []int) FileBlock {
	var key strings.Builder
	key.WriteString(p)
	for _, r := range rows {
		key.WriteByte(0)
		key.WriteString(strconv.Itoa(r))
	}
	i, inSnap := bs.snap.Lookup(p)
	var v uint64
	if inSnap {
		v = bs.snap.Version(i)
	}
	memo := bs.memo
	if b, ok := memo[v][key.String()]; ok && inSnap {
		if bs.counting != nil {
			bs.counting[b.Text] = [2]int{b.alone, b.withSep}
		}
		return b
	}
	var src *Source
	if len(rows) > 0 {
		if t := bs.snap.Source(ctx, p); t != nil {
			src = &Source{Lines: t.Lines, Outline: t.Outline, Style: bs.style}
		}
	}
	var b strings.Builder
	Block(&b, p, src, rows)
	bs.rendered++
	text := b.String()
	bl := FileBlock{Text: text}
	if n, ok := bs.counted[text]; ok {
		bl.alone, bl.withSep = n[0], n[1]
	} else {
		bl.alone, bl.withSep = bs.counts(text)
	}
	if bs.counting != nil {
		bs.counting[text] = [2]int{bl.alone, bl.withSep}
	}
	if inSnap && ctx.Err() == nil { // else its lines may not have been read
		if memo[v] == nil {
			memo[v] = make(map[string]FileBlock)
		}
		memo[v][key.String()] = bl
	}
	return bl
}

// counts returns the tokens of the block text alone and followed by
// "\n". As the pre-tokenizers' pieces never cross the start of a line
// that begins with a non-space character, the "\n" changes the count of
// the block's last line alone, when it begins with a row's mark: that
// line is counted again, not the whole block.
func (bs *Blocks) counts(text string) (alone, withSep int) {
	alone = bs.count(text)
	last := strings.LastIndexByte(strings.TrimSuffix(text, "\n"), '\n') + 1
	if line := text[last:]; last > 0 && (strings.HasPrefix(line, "│") || strings.HasPrefix(line, "⋮")) {
		return alone, alone - bs.count(line) + bs.count(line+"\n")
	}
	return alone, bs.count(text + "\n")
}

// OfItems returns the blocks of the map of items, in path order.
func (bs *Blocks) OfItems(ctx context.Context, items []fit.Item) []FileBlock {
	rows := make(map[string][]int)
	for _, it := range items {
		rs := rows[it.Path]
		for _, r := range it.Rows {
			rs = append(rs, r.Line)
		}
		rows[it.Path] = rs
	}
	paths := make([]string, 0, len(rows))
	for p := range rows {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	bs.snap.Prepare(ctx, slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return len(rows[p]) == 0 }))
	out := make([]FileBlock, len(paths))
	for i, p := range paths {
		r := rows[p]
		slices.Sort(r)
		out[i] = bs.of(ctx, p, slices.Compact(r))
	}
	return out
}

// tokens returns the tokens of the map of the blocks.
func (bs *Blocks) tokens(blocks []FileBlock) int {
	if len(blocks) == 0 {
		return 0
	}
	n := blocks[len(blocks)-1].alone
	for _, b := range blocks[:len(blocks)-1] {
		n += b.withSep
	}
	return n
}

// Text returns the map of the blocks.
func Text(blocks []FileBlock) string {
	var b strings.Builder
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl.Text)
	}
	return b.String()
}

// Fit returns the map of the longest prefix of a list of total items,
// whose first k prefix returns, that has at most budget tokens: its
// text, its token count and the prefix's length.
func (bs *Blocks) Fit(ctx context.Context, total int, prefix func(ctx context.Context, k int) ([]fit.Item, error), budget int) (string, int, int, error) {
	cost := func(k int) (int, error) {
		items, err := prefix(ctx, k)
		if err != nil {
			return 0, err
		}
		return bs.tokens(bs.OfItems(ctx, items)), nil
	}
	// A first guess of 25 tokens an item.
	k, err := fit.Prefix(ctx, total, budget, budget/25, cost)
	if err != nil {
		return "", 0, 0, fmt.Errorf("repomap: %w", err)
	}
	mapOf := func(k int) (string, error) {
		items, err := prefix(ctx, k)
		if err != nil {
			return "", err
		}
		return Text(bs.OfItems(ctx, items)), nil
	}
	want, _ := cost(k)
	out, err := mapOf(k)
	if err != nil {
		return "", 0, 0, err
	}
	n := bs.count(out)
	if n != want {
		// The sum was off; never let that break the cap.
		bs.logger.Debug("repomap: token sum differs from the count", "sum", want, "count", n)
		for n > budget && k > 0 {
			k--
			if out, err = mapOf(k); err != nil {
				return "", 0, 0, err
			}
			n = bs.count(out)
		}
	}
	return out, n, k, nil
}
