package repomap

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/render"
)

// The fit stage finds the longest prefix of the ranked items whose map
// fits the budget, and the render stage writes it. A map is the blocks of
// the files its items show, in path order, each after a blank line.

// block is one file's part of a map, without the blank line before it,
// with its token counts: alone, and followed by the "\n" that separates
// it from the next block.
type block struct {
	text           string
	alone, withSep int
}

// The tokenizers' pre-tokenizers split text into pieces that never cross
// the start of a line that begins with a non-space character, which is
// where every block of a map starts. So the tokens of a map add up from
// its blocks: one for the leading "\n", each block but the last with its
// separator, and the last alone. fitItems relies on that and checks it
// once on the map it returns.

// blocks makes the blocks of a snapshot's files, and remembers them.
type blocks struct {
	snap     *index.Snapshot
	logger   *slog.Logger
	count    func(string) int
	memo     blockMemo
	style    render.Style
	rendered int // blocks made, not found in memo

	// The token counts of the texts of the blocks of the map before,
	// and of this one's: a file that changed outside the rows a map
	// shows of it has blocks of the same text, counted already.
	counted, counting map[string][2]int
}

// blockMemo holds the blocks made of the files of a snapshot, by the
// version of each file (Snapshot.Version), then by path and rows; a
// file's blocks go when its file changes.
type blockMemo map[uint64]map[string]block

// keep drops the blocks of files not in s, or of other versions.
func (bm blockMemo) keep(s *index.Snapshot) {
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
func (bs *blocks) of(ctx context.Context, p string, rows []int) block {
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
			bs.counting[b.text] = [2]int{b.alone, b.withSep}
		}
		return b
	}
	var src *render.Source
	if len(rows) > 0 {
		if src = bs.snap.Source(ctx, p); src != nil {
			src.Style = bs.style
		}
	}
	var b strings.Builder
	render.Block(&b, p, src, rows)
	bs.rendered++
	text := b.String()
	bl := block{text: text}
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
			memo[v] = make(map[string]block)
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
func (bs *blocks) counts(text string) (alone, withSep int) {
	alone = bs.count(text)
	last := strings.LastIndexByte(strings.TrimSuffix(text, "\n"), '\n') + 1
	if line := text[last:]; last > 0 && (strings.HasPrefix(line, "│") || strings.HasPrefix(line, "⋮")) {
		return alone, alone - bs.count(line) + bs.count(line+"\n")
	}
	return alone, bs.count(text + "\n")
}

// ofItems returns the blocks of the map of items, in path order.
func (bs *blocks) ofItems(ctx context.Context, items []fit.Item) []block {
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
	out := make([]block, len(paths))
	for i, p := range paths {
		r := rows[p]
		slices.Sort(r)
		out[i] = bs.of(ctx, p, slices.Compact(r))
	}
	return out
}

// tokens returns the tokens of the map of the blocks.
func (bs *blocks) tokens(blocks []block) int {
	if len(blocks) == 0 {
		return 0
	}
	n := bs.count("\n") + blocks[len(blocks)-1].alone
	for _, b := range blocks[:len(blocks)-1] {
		n += b.withSep
	}
	return n
}

// text returns the map of the blocks.
func text(blocks []block) string {
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteByte('\n')
		b.WriteString(bl.text)
	}
	return b.String()
}

// fit returns the map of the longest prefix of r's items that has at most
// budget tokens: its text, its token count and the prefix's length.
func (bs *blocks) fit(ctx context.Context, r *ranked, budget int) (string, int, int, error) {
	cost := func(k int) (int, error) {
		items, err := r.prefix(ctx, k)
		if err != nil {
			return 0, err
		}
		return bs.tokens(bs.ofItems(ctx, items)), nil
	}
	// A first guess of 25 tokens an item.
	k, err := fit.Prefix(ctx, r.list.Len(), budget, budget/25, cost)
	if err != nil {
		return "", 0, 0, fmt.Errorf("repomap: %w", err)
	}
	mapOf := func(k int) (string, error) {
		items, err := r.prefix(ctx, k)
		if err != nil {
			return "", err
		}
		return text(bs.ofItems(ctx, items)), nil
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
