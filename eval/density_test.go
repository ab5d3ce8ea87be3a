package eval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/repomap"
)

func TestDeclarations(t *testing.T) {
	res := &repomap.Result{Tokens: 500, Files: []repomap.FileResult{
		{Path: "a.go", Defs: []repomap.Def{{Name: "A", Line: 3}, {Name: "B", Line: 7}}},
		// Two definitions on one line are one declaration line.
		{Path: "b.go", Defs: []repomap.Def{{Name: "x", Line: 1}, {Name: "y", Line: 1}}},
		{Path: "c.txt"},
	}}
	if n := Declarations(res); n != 3 {
		t.Errorf("Declarations = %d, want 3", n)
	}
	if d := Density(res); d != 6 {
		t.Errorf("Density = %v, want 6", d)
	}
	if d := Density(&repomap.Result{}); d != 0 {
		t.Errorf("Density(empty) = %v, want 0", d)
	}
}

// TestDensityTargets measures the declarations per 1,000 tokens of an
// unfocused map at 4,096 tokens, in both styles, of net/http (Go's
// standard library) and of Python's http package (the standard library
// of the python3 on the PATH), and holds the compact style to its
// targets: 35 and 60. A tree that is absent is skipped; so is the test
// under -short.
func TestDensityTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var trees []struct {
		name, dir string
		target    float64
	}
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		trees = append(trees, struct {
			name, dir string
			target    float64
		}{"net/http", filepath.Join(strings.TrimSpace(string(out)), "src", "net", "http"), 35})
	}
	if out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output(); err == nil {
		trees = append(trees, struct {
			name, dir string
			target    float64
		}{"python http", filepath.Join(strings.TrimSpace(string(out)), "http"), 60})
	}
	for _, tr := range trees {
		if _, err := os.Stat(tr.dir); err != nil {
			t.Logf("%s: %v: skipped", tr.name, err)
			continue
		}
		for _, style := range []string{repomap.StyleAider, repomap.StyleCompact} {
			// An fs.FS, not the directory: no tag cache, and no ignore
			// file above the tree (a Python installation's) applies.
			m, err := repomap.NewFS(os.DirFS(tr.dir), &repomap.Options{Style: style, Exclude: []string{"__pycache__/"}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Build(context.Background(), repomap.Request{MaxTokens: 4096})
			m.Close()
			if err != nil {
				t.Fatal(err)
			}
			d := Density(res)
			t.Logf("%s, %s: %d declarations in %d tokens, %d shown lines: %.1f per 1,000 tokens",
				tr.name, style, Declarations(res), res.Tokens, strings.Count(res.Text, "\n│"), d)
			if style == repomap.StyleCompact && d < tr.target {
				t.Errorf("%s: compact map has %.1f declarations per 1,000 tokens, want %v at least", tr.name, d, tr.target)
			}
		}
	}
}
