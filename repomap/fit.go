package repomap

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/tags"
)

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
// separator, and the last alone. fit relies on that and checks it once on
// the map it returns.

// fit returns the longest prefix of items whose map has at most budget
// tokens: its text, its token count and its length.
func (m *Map) fit(ctx context.Context, items []item, budget int, count func(string) int) (string, int, int, error) {
	lead := count("\n")
	tokens := func(k int) (int, error) {
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("repomap: %w", err)
		}
		bs := m.blocksOf(ctx, items[:k], count)
		if len(bs) == 0 {
			return 0, nil
		}
		n := lead + bs[len(bs)-1].alone
		for _, b := range bs[:len(bs)-1] {
			n += b.withSep
		}
		return n, nil
	}
	// Invariant: the prefix of length lo fits; the one of length hi does
	// not (hi = len+1 stands for "nothing longer exists"). Gallop up from
	// a first guess of 25 tokens an item, then bisect.
	lo, hi := 0, len(items)+1
	k := min(max(budget/25, 1), len(items))
	for k > lo && k < hi {
		n, err := tokens(k)
		if err != nil {
			return "", 0, 0, err
		}
		if n > budget {
			hi = k
			break
		}
		lo = k
		if k == len(items) {
			break
		}
		k = min(2*k, len(items))
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		n, err := tokens(mid)
		if err != nil {
			return "", 0, 0, err
		}
		if n <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	text := m.renderItems(ctx, items[:lo], count)
	n := count(text)
	if want, _ := tokens(lo); n != want {
		// The sum was off; never let that break the cap.
		m.opts.Logger.Debug("repomap: token sum differs from the count", "sum", want, "count", n)
		for n > budget && lo > 0 {
			lo--
			text = m.renderItems(ctx, items[:lo], count)
			n = count(text)
		}
	}
	return text, n, lo, nil
}

// blocksOf returns the blocks of the map of items, in path order.
func (m *Map) blocksOf(ctx context.Context, items []item, count func(string) int) []block {
	rows := make(map[string][]int)
	for i := range items {
		m.defsOf(&items[i])
		rows[items[i].path] = append(rows[items[i].path], items[i].rows...)
	}
	paths := make([]string, 0, len(rows))
	for p := range rows {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := make([]block, len(paths))
	for i, p := range paths {
		r := rows[p]
		slices.Sort(r)
		out[i] = m.block(ctx, p, slices.Compact(r), count)
	}
	return out
}

// renderItems returns the map of items: files in path order, each after
// a blank line, with its shown definitions or by name alone.
func (m *Map) renderItems(ctx context.Context, items []item, count func(string) int) string {
	bs := m.blocksOf(ctx, items, count)
	if len(bs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, bl := range bs {
		b.WriteByte('\n')
		b.WriteString(bl.text)
	}
	return b.String()
}

// block returns the block of the file at p showing rows (sorted, without
// duplicates; none for a file by name alone), from the Map's cache.
func (m *Map) block(ctx context.Context, p string, rows []int, count func(string) int) block {
	var key strings.Builder
	key.WriteString(p)
	for _, r := range rows {
		key.WriteByte(0)
		key.WriteString(strconv.Itoa(r))
	}
	if b, ok := m.blocks[key.String()]; ok {
		return b
	}
	var b strings.Builder
	if src := m.source(ctx, p, len(rows) > 0); src != nil {
		src.render(&b, p, rows)
	} else {
		writePath(&b, p, "")
	}
	text := b.String()
	bl := block{text: text, alone: count(text), withSep: count(text + "\n")}
	m.blocks[key.String()] = bl
	return bl
}

// dropBlocks forgets the cached blocks of the file at p.
func (m *Map) dropBlocks(p string) {
	for k := range m.blocks {
		if strings.HasPrefix(k, p) && (len(k) == len(p) || k[len(p)] == 0) {
			delete(m.blocks, k)
		}
	}
}

// source returns the file at p ready to render, or nil when it has
// nothing to show or cannot be read. Its text and outline are read once
// and kept while the file is unchanged.
func (m *Map) source(ctx context.Context, p string, want bool) *source {
	st := m.files[p]
	if !want || st == nil {
		return nil
	}
	if st.lines == nil {
		f := m.fileOf(p)
		if f == nil {
			return nil
		}
		text, reason := readSource(m.roots[f.root].FS, f.rel, m.opts.MaxFileSize)
		if reason != "" {
			m.opts.Logger.Debug("repomap: render: skipped", "path", p, "reason", reason)
			return nil
		}
		st.lines = newSource(string(text), nil).lines
		if st.outline == nil && tags.Detect(f.rel, text) != "" {
			if m.parser == nil {
				m.parser = tags.NewParser(&tags.ParserOptions{Timeout: m.opts.ParseTimeout})
			}
			o, err := m.parser.Outline(ctx, p, text)
			if err == nil {
				st.outline = o
				st.dirty = true
			} else if ctx.Err() == nil {
				m.opts.Logger.Debug("repomap: render: no outline", "path", p, "err", err)
			}
		}
	}
	return &source{lines: st.lines, outline: st.outline}
}

// fileOf returns the root and relative path of the file at p in the map.
func (m *Map) fileOf(p string) *file {
	for i, r := range m.roots {
		rel := p
		if r.Name != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(p, r.Name+"/"); !ok {
				continue
			}
		}
		return &file{path: p, root: i, rel: rel}
	}
	return nil
}
