package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/index"
)

// The companions of a file are those its language's conventions pair it
// with: a file's tests (store.go and store_test.go, core.py and
// tests/test_core.py, Ky.ts and test/ky.ts, Util.java and UtilTest.java),
// and a test's subject. A change to a file often changes its tests with
// it, and a map for work on a file shows them.

// testStem returns the stem of the base name of a file, lower case,
// without the marks that make it a test by the conventions of testName
// ("test_", "_test", "_tests", "Test", "Tests", "IT", ".test", ".spec",
// "_spec"), and whether it had one.
func testStem(p string) (string, bool) {
	base := path.Base(p)
	stem, _, _ := strings.Cut(base, ".")
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stem = base[:i]
	}
	marked := false
	for _, suffix := range []string{".test", ".spec", ".e2e", "_test", "_tests", "_spec", "Tests", "Test", "IT"} {
		if s, ok := strings.CutSuffix(stem, suffix); ok && s != "" {
			stem, marked = s, true
			break
		}
	}
	if s, ok := strings.CutPrefix(stem, "test_"); ok && s != "" && !marked {
		stem, marked = s, true
	}
	return strings.ToLower(stem), marked
}

// companions returns the companions of the files focus in s, in map
// order, without the focus files: for a file that is no test, the tests
// whose stem is its stem (testStem); for a test, the files of code of its
// stem. When several files of a name qualify, those whose directories
// share the most parts with the file's, and have the fewest others, are
// taken, at most maxCompanions of them.
func companions(s *index.Snapshot, focus []string) []string {
	if len(focus) == 0 {
		return nil
	}
	type file struct {
		i     int
		stem  string
		test  bool
		parts []string
	}
	want := make(map[string][]file) // by stem: the focus files
	for _, p := range focus {
		i, ok := s.Lookup(p)
		if !ok {
			continue
		}
		stem, _ := testStem(p)
		if len(stem) < 2 {
			continue
		}
		want[stem] = append(want[stem], file{i: i, stem: stem, test: s.Roles[i] == index.RoleTest, parts: dirParts(p)})
	}
	if len(want) == 0 {
		return nil
	}
	var picked []int
	for stem, fs := range want {
		for _, f := range fs {
			var cands []int
			scores := make(map[int]int)
			top := -1
			for j, g := range s.Files {
				if j == f.i || (s.Roles[j] == index.RoleTest) == f.test || s.Roles[j] != index.RoleTest && s.Roles[j] != index.RoleSource {
					continue
				}
				if gs, _ := testStem(g.Path); gs != stem || path.Ext(g.Path) != path.Ext(s.Files[f.i].Path) {
					continue
				}
				gp := dirParts(g.Path)
				n := 2*sharedParts(f.parts, gp) - (len(gp) - sharedParts(gp, f.parts))
				scores[j] = n
				cands = append(cands, j)
				top = max(top, n)
			}
			k := 0
			for _, j := range cands {
				if scores[j] == top && k < maxCompanions {
					picked = append(picked, j)
					k++
				}
			}
		}
	}
	slices.Sort(picked)
	picked = slices.Compact(picked)
	out := make([]string, 0, len(picked))
	for _, j := range picked {
		if p := s.Files[j].Path; !slices.Contains(focus, p) {
			out = append(out, p)
		}
	}
	return out
}

// maxCompanions is the most companions of one file, of those that share
// the most of its directories.
const maxCompanions = 3

// dirParts returns the parts of the directory of p that are not the
// names of test directories.
func dirParts(p string) []string {
	var out []string
	for _, part := range strings.Split(path.Dir(p), "/") {
		switch part {
		case ".", "test", "tests", "testing", "__tests__", "spec", "src", "main", "java", "kotlin", "lib":
			continue
		}
		out = append(out, part)
	}
	return out
}

// sharedParts returns how many parts of a are in b.
func sharedParts(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}
