package tags

import (
	"bytes"
	"context"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestReparseSameTags edits the fixtures of several languages at random,
// again and again, and parses each version with a Parser that reuses the
// tree of the version before (Trees) and with a new Parser: the tags and
// the outlines are the same. The edits insert, delete and move lines,
// and insert words into them, so some versions have syntax errors.
func TestReparseSameTags(t *testing.T) {
	var paths []string
	for _, lang := range []string{"go", "python", "typescript", "javascript", "rust", "java", "c", "cpp", "ruby"} {
		ps, _ := filepath.Glob(filepath.Join("testdata", "lang", lang, "*"))
		for _, p := range ps {
			if filepath.Ext(p) != ".tags" {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	trees := NewTrees(4)
	defer trees.Close()
	qs := NewQueries()
	defer qs.Close()
	kept := NewParser(&ParserOptions{Queries: qs, Trees: trees})
	defer kept.Close()
	fresh := NewParser(&ParserOptions{Queries: qs})
	defer fresh.Close()
	ctx := context.Background()
	steps := 30
	if testing.Short() {
		steps = 8
	}
	reused := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(p)
		// Each file's edits come from its own seed, so that a fixture
		// added changes none of the others' edits.
		rng := rand.New(rand.NewPCG(5, uint64(crc32.ChecksumIEEE([]byte(name)))))
		for step := range steps {
			if step > 0 {
				src = randomEdit(rng, src)
			}
			if _, err := kept.File(ctx, name, src); err != nil && step == 0 {
				t.Fatalf("%s: %v", name, err)
			}
			got, err1 := kept.File(ctx, name, src) // from the tree of the same bytes
			want, err2 := fresh.File(ctx, name, src)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%s step %d: errors %v and %v", name, step, err1, err2)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s step %d: the reparse differs from a parse from scratch:\n got %+v\nwant %+v", name, step, got.Set.Unpack(name), want.Set.Unpack(name))
			}
			// And from the tree of the version before.
			next := randomEdit(rng, src)
			got, err1 = kept.File(ctx, name, next)
			want, err2 = fresh.File(ctx, name, next)
			if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s step %d: after an edit, the reparse differs from a parse from scratch:\n got %+v\nwant %+v", name, step, got.Set.Unpack(name), want.Set.Unpack(name))
			}
			reused++
			src = next
		}
	}
	t.Logf("%d reparses of %d files, %d of them from a tree", reused, len(paths), trees.reused)
	if trees.reused < reused/4 {
		t.Errorf("%d of %d reparses were from a tree, want a quarter at least", trees.reused, reused)
	}
}

// randomEdit returns src with a random edit: a line inserted, deleted,
// moved or doubled, or a word put into a line.
func randomEdit(rng *rand.Rand, src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	k := rng.IntN(len(lines))
	switch rng.IntN(5) {
	case 0:
		lines = slices.Insert(lines, k, []byte("\n"))
	case 1:
		lines = slices.Delete(lines, k, k+1)
	case 2:
		l := lines[k]
		lines = slices.Delete(lines, k, k+1)
		lines = slices.Insert(lines, rng.IntN(len(lines)+1), l)
	case 3:
		lines = slices.Insert(lines, k, lines[k])
	default:
		l := lines[k]
		i := rng.IntN(len(l) + 1)
		lines[k] = slices.Concat(l[:i], []byte(" extra "), l[i:])
	}
	return bytes.Join(lines, nil)
}
