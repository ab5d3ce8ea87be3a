package tags

import (
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Trees keeps the syntax trees of the files parsed last, a few of them,
// so that parsing one of them again after an edit reuses what the edit
// did not touch (tree-sitter's incremental parsing): a file edited again
// and again is parsed in a small part of the time. Parsers share one
// through ParserOptions.Trees; it is safe for concurrent use.
//
// A tree is kept only when it has no syntax errors, and the parse that
// reuses it stands only when the new tree has none either: without
// errors the tree of an incremental parse is the one a parse from
// scratch makes, so the tags are the same (the tests check it on random
// edits); with errors tree-sitter's recovery may differ, and the file is
// parsed from scratch.
type Trees struct {
	mu     sync.Mutex
	max    int
	kept   []keptTree // the last parsed last
	reused int        // parses that reused a tree
}

// keptTree is the tree of a file, with what it was parsed from.
type keptTree struct {
	path, lang string
	src        []byte // what the grammar parsed
	tree       *ts.Tree
}

// NewTrees returns a Trees that keeps the trees of at most max files.
// Close it once the parsers that use it are closed.
func NewTrees(max int) *Trees { return &Trees{max: max} }

// take removes the tree of the file at path in the language lang from t
// and returns it, or nil.
func (t *Trees) take(path, lang string) *keptTree {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, k := range t.kept {
		if k.path == path {
			t.kept = append(t.kept[:i], t.kept[i+1:]...)
			if k.lang != lang {
				k.tree.Close()
				return nil
			}
			return &k
		}
	}
	return nil
}

// put keeps k, dropping the tree kept longest when t is full. A closed
// Trees keeps nothing.
func (t *Trees) put(k keptTree) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.max <= 0 {
		k.tree.Close()
		return
	}
	if len(t.kept) == t.max {
		t.kept[0].tree.Close()
		t.kept = t.kept[1:]
	}
	t.kept = append(t.kept, k)
}

// Close releases the trees kept. It is safe to call more than once.
func (t *Trees) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range t.kept {
		k.tree.Close()
	}
	t.kept, t.max = nil, 0
	return nil
}

// edit returns the edit that makes old into new: the bytes both start
// and end with stay, what lies between them is replaced.
func edit(old, new []byte) ts.InputEdit {
	start := 0
	for start < len(old) && start < len(new) && old[start] == new[start] {
		start++
	}
	end := 0 // bytes both end with, after start
	for end < len(old)-start && end < len(new)-start && old[len(old)-1-end] == new[len(new)-1-end] {
		end++
	}
	return ts.InputEdit{
		StartByte:      uint(start),
		OldEndByte:     uint(len(old) - end),
		NewEndByte:     uint(len(new) - end),
		StartPosition:  pointAt(old, start),
		OldEndPosition: pointAt(old, len(old)-end),
		NewEndPosition: pointAt(new, len(new)-end),
	}
}

// pointAt returns the row and column (in bytes) of offset i of src.
func pointAt(src []byte, i int) ts.Point {
	var p ts.Point
	lineStart := 0
	for j, c := range src[:i] {
		if c == '\n' {
			p.Row++
			lineStart = j + 1
		}
	}
	p.Column = uint(i - lineStart)
	return p
}
