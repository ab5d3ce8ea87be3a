package tags

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the tags of the .tags files of testdata/lang, keeping their headers")

// TestLanguageFixtures parses every fixture under testdata/lang/<language>/
// and compares its tags with the fixture's .tags file, one tag a line as
// "row kind sub name" (rows 0-based), below the header that golden
// starts with (see readGolden). It also checks that the fixtures of a
// language, together, exercise every capture of its query, or for a
// lexer language every kind its spec names (see specKinds), so that each
// definition and reference kind is asserted somewhere.
//
// With -update the tags below each header are rewritten, but the
// header's want and never lines still hold, and a golden without a
// header is not written: its intent comes first, by hand.
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
				lines := short(tags)
				for _, s := range lines {
					fields := strings.Fields(s)
					seen[fields[1]+" "+fields[2]] = true
				}
				g, err := readGolden(file + ".tags")
				if err != nil {
					t.Errorf("%v (write its header by hand; -update then writes the tags below it)", err)
					continue
				}
				if l.grammar == nil && (len(g.want) == 0 || len(g.never) == 0) {
					t.Errorf("%s.tags: a lexer's fixture needs a want and a never line", file)
				}
				for _, w := range g.want {
					if !slices.ContainsFunc(tags, w.match) {
						t.Errorf("Parse(%s) has no %s, which its golden wants", file, w)
					}
				}
				for _, w := range g.never {
					if i := slices.IndexFunc(tags, w.match); i >= 0 {
						t.Errorf("Parse(%s) has %s, which its golden never allows", file, lines[i])
					}
				}
				got := strings.Join(lines, "\n") + "\n"
				if *update {
					if err := os.WriteFile(file+".tags", []byte(g.header+got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if diff := cmp.Diff(g.tags, got); diff != "" {
					t.Errorf("Parse(%s) mismatch (-want +got):\n%s", file, diff)
				}
			}
			if n == 0 {
				t.Fatalf("no fixture in testdata/lang/%s", name)
			}
			if l.grammar == nil {
				if l.byHand {
					return // read by hand, not by a lexer spec
				}
				for _, k := range specKinds(lexSpecs[name]) {
					if !seen[k] {
						t.Errorf("no fixture of %s has a tag %q that its lexer spec names", name, k)
					}
				}
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

// specKinds returns the tags, as "kind sub", that the tables of a lexer
// spec name: the kinds of its defining words, sections, token types and
// file, and "ref implementation" for its impls. "binding" stands for the
// function and variable it becomes, and "-" for no tag; the kinds a hook
// returns are the hook's to test.
func specKinds(sp *lexSpec) []string {
	var kinds []string
	var add func(k string)
	add = func(k string) {
		switch k {
		case "-", "":
		case "binding":
			if sp.assign == nil { // "let" and "define" become these
				add("function")
				add("variable")
				return
			}
			fallthrough
		default:
			if k := "def " + k; !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	for _, m := range []map[string]string{sp.defs, sp.topDefs, sp.sections} {
		for _, k := range m {
			add(k)
		}
	}
	for _, m := range []map[chroma.TokenType]string{sp.defTypes, sp.col0Types, sp.assign} {
		for _, k := range m {
			add(k)
		}
	}
	add(sp.fileKind)
	slices.Sort(kinds)
	if len(sp.impls) > 0 {
		kinds = append(kinds, "ref implementation")
	}
	return kinds
}

// golden is a .tags file of testdata/lang. It starts with a header of
// lines that a person writes:
//
//	# checks: what the fixture shows, in a sentence or two
//	# want: kind sub name
//	# never: kind sub name
//
// "checks" comes once and first. Each "want" is a tag that the fixture
// must have and each "never" one it must not have, on whatever row; a
// sub of "*" matches every sub. The tags follow, one a line.
type golden struct {
	header, tags string
	want, never  []tagPattern
}

// tagPattern is a tag without its row, as "kind sub name"; a sub of "*"
// matches any.
type tagPattern struct{ kind, sub, name string }

func (w tagPattern) String() string { return w.kind + " " + w.sub + " " + w.name }

func (w tagPattern) match(t Tag) bool {
	return t.Kind.String() == w.kind && (w.sub == "*" || t.Sub == w.sub) && t.Name == w.name
}

// readGolden reads and checks the golden at file.
func readGolden(file string) (*golden, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	g := &golden{}
	rest := string(data)
	for strings.HasPrefix(rest, "#") {
		line, after, _ := strings.Cut(rest, "\n")
		key, val, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ":")
		val = strings.TrimSpace(val)
		switch key {
		case "checks":
			if g.header != "" || val == "" {
				return nil, fmt.Errorf("%s: %q: want one non-empty checks line, first", file, line)
			}
		case "want", "never":
			f := strings.SplitN(val, " ", 3)
			if g.header == "" || len(f) != 3 || f[0] != "def" && f[0] != "ref" {
				return nil, fmt.Errorf("%s: %q: want \"# %s: def|ref sub name\" after the checks line", file, line, key)
			}
			if key == "want" {
				g.want = append(g.want, tagPattern{f[0], f[1], f[2]})
			} else {
				g.never = append(g.never, tagPattern{f[0], f[1], f[2]})
			}
		default:
			return nil, fmt.Errorf("%s: %q: the header has checks, want and never lines", file, line)
		}
		g.header += line + "\n"
		rest = after
	}
	if g.header == "" {
		return nil, fmt.Errorf("%s: no \"# checks:\" line says what the fixture shows", file)
	}
	g.tags = rest
	return g, nil
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

// TestReadGolden checks the header rules of the .tags goldens: a golden
// without its intent, or with a malformed line, is refused.
func TestReadGolden(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		ok         bool
	}{
		{"header", "# checks: a function\n# want: def function f\n# never: ref * f\n0 def function f\n", true},
		{"no header", "0 def function f\n", false},
		{"empty checks", "# checks:\n0 def function f\n", false},
		{"want first", "# want: def function f\n# checks: a function\n", false},
		{"two checks", "# checks: a\n# checks: b\n", false},
		{"bad kind", "# checks: a\n# want: definition function f\n", false},
		{"no name", "# checks: a\n# never: ref call\n", false},
		{"unknown key", "# checks: a\n# wants: def function f\n", false},
	} {
		file := filepath.Join(t.TempDir(), "a.tags")
		if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := readGolden(file)
		if (err == nil) != tc.ok {
			t.Errorf("readGolden(%s) error = %v, want ok %v", tc.name, err, tc.ok)
			continue
		}
		if tc.ok && (g.tags != "0 def function f\n" || len(g.want) != 1 || len(g.never) != 1 ||
			!g.want[0].match(Tag{Name: "f", Kind: Definition, Sub: "function"}) ||
			!g.never[0].match(Tag{Name: "f", Kind: Reference, Sub: "call"})) {
			t.Errorf("readGolden(%s) = %+v", tc.name, *g)
		}
	}
}

// TestParseSetIsPack checks that ParseSet gives the Set Pack makes of
// Parse's tags, strings in the same order (the tag cache stores the Set
// as it is), for every language's fixtures, with one parser reading them
// all in turn, as a map's workers do.
func TestParseSetIsPack(t *testing.T) {
	files, err := filepath.Glob("testdata/lang/*/*")
	if err != nil {
		t.Fatal(err)
	}
	// And files with no tags, of a grammar and of a lexer.
	inline := map[string]string{"empty.go": "package empty\n", "blank.py": "# nothing here\n", "notes.md": "plain text\n"}
	for name := range inline {
		files = append(files, name)
	}
	slices.Sort(files)
	ctx := context.Background()
	sets, tagger := NewParser(nil), NewParser(nil)
	defer sets.Close()
	defer tagger.Close()
	n := 0
	for _, file := range files {
		if strings.HasSuffix(file, ".tags") {
			continue
		}
		src := []byte(inline[file])
		if _, ok := inline[file]; !ok {
			if src, err = os.ReadFile(file); err != nil {
				t.Fatal(err)
			}
		}
		name := filepath.Base(file)
		got, err1 := sets.ParseSet(ctx, name, src)
		tags, err2 := tagger.Parse(ctx, name, src)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: ParseSet: %v; Parse: %v", file, err1, err2)
		}
		if want := Pack(tags); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ParseSet differs from Pack of Parse:\n got %+v\nwant %+v", file, got, want)
		}
		// The strings in the order the tags first give them: name, kind,
		// qualifier (when there is one).
		var order []string
		seen := map[string]bool{}
		for _, tg := range tags {
			for k, s := range []string{tg.Name, tg.Sub, tg.Qual} {
				if !seen[s] && (k < 2 || s != "") {
					seen[s] = true
					order = append(order, s)
				}
			}
		}
		if !slices.Equal(got.Strings(), order) {
			t.Errorf("%s: the Set's strings are %q, want %q", file, got.Strings(), order)
		}
		if got.Len() > 0 {
			n++
		}
	}
	if n < 40 {
		t.Errorf("only %d fixtures have tags", n)
	}
}
