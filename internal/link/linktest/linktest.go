// Package linktest makes the files of small trees for the tests of the
// link stage and of its languages' rules, without a Map: each file is
// parsed by package tags, as the index does.
package linktest

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// Files returns the files of fsys as the link stage takes them, in the
// order fs.WalkDir visits them: each with its path (also its Rel), its
// language as tags.Detect names it from the path, and its tags. A file
// of a language tags does not parse has none.
func Files(t testing.TB, fsys fs.FS) []link.File {
	t.Helper()
	p := tags.NewParser(nil)
	defer p.Close()
	var out []link.File
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		set, err := p.ParseSet(context.Background(), name, src)
		if err != nil && !errors.Is(err, tags.ErrUnsupportedLanguage) {
			return err
		}
		out = append(out, link.File{Path: name, Rel: name, Lang: tags.Detect(name, nil), Tags: set, Version: uint64(len(out))})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Edges returns the file graph link makes of fsys with the settings c,
// as "from -> to ident" lines, sorted, each once: one for each key a
// file's references link to and each other file that publishes it.
func Edges(t testing.TB, fsys fs.FS, c link.Config) []string {
	t.Helper()
	return EdgesOf(link.Link(Files(t, fsys), c))
}

// EdgesOf returns the file graph of l, as Edges does.
func EdgesOf(l link.Linked) []string {
	definers := make(map[string][]string)
	for _, f := range l.Files {
		for _, d := range f.Defs {
			if !slices.Contains(definers[d], f.Path) {
				definers[d] = append(definers[d], f.Path)
			}
		}
	}
	var out []string
	for _, f := range l.Files {
		for _, r := range f.Refs {
			for _, to := range definers[r] {
				if to != f.Path {
					out = append(out, f.Path+" -> "+to+" "+rank.Ident(r))
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Refs returns the keys the references of the file at p link to, with
// the settings c.
func Refs(t testing.TB, fsys fs.FS, c link.Config, p string) []string {
	t.Helper()
	for _, f := range link.Link(Files(t, fsys), c).Files {
		if f.Path == p {
			return f.Refs
		}
	}
	t.Fatalf("no file %s", p)
	return nil
}

// AboveNames fails unless the edges the rules make on a tree are more
// precise than those of name matching, and find no fewer of the true
// edges want.
func AboveNames(t testing.TB, tree string, rules, names, want []string) {
	t.Helper()
	p, r := precisionRecall(rules, want)
	np, nr := precisionRecall(names, want)
	t.Logf("cross-file edges of %s: rules precision %.2f recall %.2f; names precision %.2f recall %.2f", tree, p, r, np, nr)
	if np >= p || nr > r {
		t.Errorf("%s: names precision %.2f recall %.2f, not below the rules' %.2f %.2f", tree, np, nr, p, r)
	}
}

// precisionRecall returns the share of got that is in want and of want
// that is in got.
func precisionRecall(got, want []string) (float64, float64) {
	n := 0
	for _, g := range got {
		if slices.Contains(want, g) {
			n++
		}
	}
	if len(got) == 0 || len(want) == 0 {
		return 0, 0
	}
	return float64(n) / float64(len(got)), float64(n) / float64(len(want))
}

// Same fails unless the edges got are want, and shows both.
func Same(t testing.TB, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
