package tags

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the .tags files of testdata/lang")

// TestLanguageFixtures parses every fixture under testdata/lang/<language>/
// and compares its tags with the fixture's .tags file, one tag a line as
// "row kind sub name" (rows 0-based). It also checks that the fixtures of
// a language, together, exercise every capture of its query, so that each
// definition and reference kind is asserted somewhere.
func TestLanguageFixtures(t *testing.T) {
	dirs, err := os.ReadDir("testdata/lang")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		name := d.Name()
		t.Run(name, func(t *testing.T) {
			l := lookup(name)
			if l == nil {
				t.Fatalf("testdata/lang/%s names no language", name)
			}
			files, err := os.ReadDir(filepath.Join("testdata/lang", name))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{} // "def function", "ref call"…
			n := 0
			for _, f := range files {
				if f.IsDir() || strings.HasSuffix(f.Name(), ".tags") {
					continue
				}
				n++
				file := filepath.Join("testdata/lang", name, f.Name())
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if got := Detect(f.Name(), src); got != name {
					t.Errorf("Detect(%s) = %q, want %q", f.Name(), got, name)
				}
				p := NewParser(nil)
				tags, err := p.Parse(context.Background(), f.Name(), src)
				p.Close()
				if err != nil {
					t.Fatalf("Parse(%s): %v", file, err)
				}
				got := strings.Join(short(tags), "\n") + "\n"
				for _, s := range short(tags) {
					fields := strings.Fields(s)
					seen[fields[1]+" "+fields[2]] = true
				}
				want, err := os.ReadFile(file + ".tags")
				if *update {
					if err := os.WriteFile(file+".tags", []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%v (run with -update to write it, then review it)", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("Parse(%s) mismatch (-want +got):\n%s", file, diff)
				}
			}
			if n == 0 {
				t.Fatalf("no fixture in testdata/lang/%s", name)
			}
			if l.grammar == nil {
				return
			}
			p := NewParser(nil)
			defer p.Close()
			c, err := p.compile(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, cp := range c.captures {
				if cp.kind == 0 {
					continue
				}
				if k := cp.kind.String() + " " + cp.sub; !seen[k] {
					t.Errorf("no fixture of %s has a tag %q that its query captures", name, k)
				}
			}
		})
	}
}

// TestEveryLanguageHasFixture checks that each language has fixtures.
func TestEveryLanguageHasFixture(t *testing.T) {
	dirs, _ := os.ReadDir("testdata/lang")
	var have []string
	for _, d := range dirs {
		have = append(have, d.Name())
	}
	for _, l := range languages {
		if !slices.Contains(have, l.name) {
			t.Errorf("language %s has no fixture under testdata/lang/%s", l.name, l.name)
		}
	}
}
