package tags

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// HeaderMax is the most rows a scope's header shows.
const HeaderMax = 10

// Outline is the shape of a file's syntax tree that matters for showing a
// definition in context: for each row where nodes spanning several rows
// start, how far they reach and where the header of that row ends.
//
// Context's rules, the Aider style, follow the repo map of Aider. Each
// row where a multi-row syntax node starts is a scope. The header of a
// scope row is, when two or more multi-row nodes start on it, the
// smallest of them without its last row, cut to HeaderMax rows;
// otherwise the row alone. A row of interest is shown with the headers
// of every scope that covers it, except scopes that start on the first
// row of the file.
//
// Compact, the compact style, has rules of its own, on the declarations
// of the file (see decl). A tier-2 file's outline has declarations only.
type Outline struct {
	rows  []int32 // scope rows, ascending
	reach []int32 // for rows[i]: the last row that a node starting there covers
	head  []int32 // for rows[i]: the header is rows[i] up to head[i], exclusive

	decls []decl // the declarations, in the order of a preorder walk: by start
}

// ErrNoOutline is returned by Parser.Outline for a language without a
// grammar whose tokens tell no declarations (Markdown, properties): its
// definitions are shown without scope headers.
var ErrNoOutline = errors.New("tags: no outline without a grammar")

// Outline parses src as the language of path (see Detect) and returns its
// Outline.
func (p *Parser) Outline(ctx context.Context, path string, src []byte) (*Outline, error) {
	name := Detect(path, src)
	if name == "" {
		return nil, fmt.Errorf("%w: %s", ErrUnsupportedLanguage, path)
	}
	l := lookup(name)
	if l.grammar == nil {
		return p.lexOutline(ctx, l, path, src)
	}
	lang, err := grammar(name)
	if err != nil {
		return nil, err
	}
	tree, b, err := p.parseTimed(ctx, lang, l.source(src), nil)
	if err != nil {
		return nil, fmt.Errorf("tags: outline %s: %w", path, err)
	}
	defer tree.Close()
	b.release()
	return outlineOf(tree, name), nil
}

// outlineOf returns the Outline of tree, of the language name.
func outlineOf(tree *ts.Tree, name string) *Outline {
	dw := newDeclWalk(tree, name)
	defer dw.close()

	type scope struct {
		count   int
		minSize int32
		reach   int32
	}
	scopes := make(map[int32]*scope)
	cur := tree.Walk()
	defer cur.Close()
	// An iterative walk: deep trees cannot overflow a stack. Only nodes
	// spanning several rows matter, and a node on one row has no
	// descendant spanning several, so the walk skips below them.
	depth := 0 // of the cursor's node: TreeCursor.Depth takes time in the depth
	for {
		n := cur.Node()
		sp, ep := n.StartPosition(), n.EndPosition()
		s, e := int32(sp.Row), int32(ep.Row)
		dw.visit(n, depth, sp, ep)
		descend := false
		if e > s {
			sc := scopes[s]
			if sc == nil {
				sc = &scope{minSize: e - s, reach: e}
				scopes[s] = sc
			}
			sc.count++
			sc.minSize = min(sc.minSize, e-s)
			sc.reach = max(sc.reach, e)
			descend = true
		}
		if descend && cur.GotoFirstChild() {
			depth++
			continue
		}
		for !cur.GotoNextSibling() {
			if !cur.GotoParent() {
				goto done
			}
			depth--
		}
	}
done:
	o := &Outline{decls: dw.decls}
	for s := range scopes {
		o.rows = append(o.rows, s)
	}
	slices.Sort(o.rows)
	o.reach = make([]int32, len(o.rows))
	o.head = make([]int32, len(o.rows))
	for i, s := range o.rows {
		sc := scopes[s]
		o.reach[i] = sc.reach
		o.head[i] = s + 1
		if sc.count > 1 {
			o.head[i] = s + min(sc.minSize, HeaderMax)
		}
	}
	return o
}

// Context returns the rows to show for the given rows of interest: the
// rows themselves and the headers of the scopes around them, sorted and
// without duplicates.
func (o *Outline) Context(lois []int) []int {
	show := make(map[int]bool, len(lois)*4)
	for _, i := range lois {
		if i < 0 {
			continue
		}
		show[i] = true
		// Scopes start at or before row i; those that reach row i cover it.
		end, _ := slices.BinarySearch(o.rows, int32(i)+1)
		for k := range end {
			s := int(o.rows[k])
			if s == 0 || int(o.reach[k]) < i {
				continue
			}
			for r := s; r < int(o.head[k]); r++ {
				show[r] = true
			}
		}
	}
	out := make([]int, 0, len(show))
	for r := range show {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// AppendBinary appends the outline's binary form to b: the number of
// scope rows, then for each its row, reach and header end, as unsigned
// varints, the rows delta-coded; then the declarations (see
// appendDecls).
func (o *Outline) AppendBinary(b []byte) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(o.rows)))
	prev := int32(0)
	for i, r := range o.rows {
		b = binary.AppendUvarint(b, uint64(r-prev))
		b = binary.AppendUvarint(b, uint64(o.reach[i]-r))
		b = binary.AppendUvarint(b, uint64(o.head[i]-r))
		prev = r
	}
	return appendDecls(b, o.decls), nil
}

// UnmarshalBinary sets o from the form AppendBinary writes; malformed
// input is an error.
func (o *Outline) UnmarshalBinary(b []byte) error {
	errBad := errors.New("tags: malformed outline")
	next := func() (int32, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > math.MaxInt32 {
			return 0, false
		}
		b = b[n:]
		return int32(v), true
	}
	count, ok := next()
	if !ok || int(count) > len(b) { // each scope takes 3 bytes at least
		return errBad
	}
	rows := make([]int32, count)
	reach := make([]int32, count)
	head := make([]int32, count)
	prev := int64(0)
	for i := range rows {
		d, ok1 := next()
		r, ok2 := next()
		h, ok3 := next()
		row := prev + int64(d)
		if !ok1 || !ok2 || !ok3 || row > math.MaxInt32-int64(max(r, h)) || (i > 0 && d == 0) {
			return errBad
		}
		rows[i], reach[i], head[i] = int32(row), int32(row)+r, int32(row)+h
		prev = row
	}
	decls, b, ok := readDecls(b)
	if !ok || len(b) != 0 {
		return errBad
	}
	o.rows, o.reach, o.head, o.decls = rows, reach, head, decls
	return nil
}
