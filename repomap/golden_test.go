package repomap

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of golden files")

// golden is a test case read from testdata/render/*.txtar: the archive's
// comment says what it shows, its "request" file holds the request (lines
// "tokens: N", "focus: PATH", "mention: WORD") and the style of the map
// ("style: compact" or "style: aider", which every golden gives), its
// "want" file the expected map, and every other file is the tree to map.
type golden struct {
	file    string
	archive *txtar.Archive
	tree    *txtar.Archive
	req     Request
	style   string
	want    string
}

func readGolden(t *testing.T, file string) *golden {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g := &golden{file: file, archive: a, tree: &txtar.Archive{}}
	for _, f := range a.Files {
		switch f.Name {
		case "want":
			g.want = string(f.Data)
		case "request":
			for line := range strings.Lines(string(f.Data)) {
				key, val, _ := strings.Cut(strings.TrimSpace(line), ":")
				val = strings.TrimSpace(val)
				switch key {
				case "tokens":
					n, err := strconv.Atoi(val)
					if err != nil {
						t.Fatalf("%s: request: %v", file, err)
					}
					g.req.MaxTokens = n
				case "focus":
					g.req.Focus = append(g.req.Focus, val)
				case "mention":
					g.req.Mentions = append(g.req.Mentions, val)
				case "style":
					if err := CheckStyle(val); err != nil || val == "" {
						t.Fatalf("%s: request: style %q", file, val)
					}
					g.style = val
				case "":
				default:
					t.Fatalf("%s: request: unknown key %q", file, key)
				}
			}
		default:
			g.tree.Files = append(g.tree.Files, f)
		}
	}
	if g.style == "" {
		t.Fatalf("%s: request: no style", file)
	}
	return g
}

// rewrite replaces the want section of the golden file with got.
func (g *golden) rewrite(t *testing.T, got string) {
	t.Helper()
	for i, f := range g.archive.Files {
		if f.Name == "want" {
			g.archive.Files[i].Data = []byte(got)
		}
	}
	if err := os.WriteFile(g.file, txtar.Format(g.archive), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/render/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			g := readGolden(t, file)
			fsys, err := txtar.FS(g.tree)
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewFS(fsys, &Options{Style: g.style})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			got, err := m.Render(context.Background(), g.req)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				g.rewrite(t, got)
				return
			}
			if diff := cmp.Diff(g.want, got); diff != "" {
				t.Errorf("Render(%s) mismatch (-want +got):\n%s", name, diff)
			}
			// Each golden map fits its budget.
			enc, err := encoding(O200kBase)
			if err != nil {
				t.Fatal(err)
			}
			if n := countTokens(enc, got); n > g.req.MaxTokens {
				t.Errorf("Render(%s) has %d tokens, budget %d", name, n, g.req.MaxTokens)
			}
			// The golden files are stored with "\n" line endings; a map has
			// no carriage returns.
			if bytes.ContainsRune([]byte(got), '\r') {
				t.Errorf("Render(%s) contains a carriage return", name)
			}
		})
	}
}
