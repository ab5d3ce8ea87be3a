package repomap

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/tags"
)

// TestOraclePython scores the cross-file edges of the link stage on the
// Python trees REPOMAP_ORACLE_PYTHON names (a list of directories, as in
// PATH) against Jedi (checkOracle): testdata/oracle/jedi_edges.py asks
// Jedi where each name that the tags mark as a reference is defined. It
// needs python3 with the jedi module (Debian's python3-jedi) and skips
// without them; REPOMAP_ORACLE_CACHE keeps Jedi's edges,
// REPOMAP_ORACLE_DETAIL=1 lists missed and the heaviest false edges.
// Jedi takes minutes on a tree of a hundred files: REPOMAP_ORACLE_SAMPLE=k asks it only about
// the uses in one file in k (a hash of the path picks them), and scores
// the edges from those files alone.
//
//	REPOMAP_ORACLE_PYTHON=/tmp/httpx go test ./repomap -run TestOraclePython -v -timeout 0
func TestOraclePython(t *testing.T) {
	py := scriptOracle{
		env: "REPOMAP_ORACLE_PYTHON", kind: "python", tool: "python3", script: "jedi_edges.py",
		probe: []string{"-c", "import jedi"}, need: "the jedi module (apt-get install python3-jedi)",
	}
	if v := os.Getenv("REPOMAP_ORACLE_SAMPLE"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			t.Fatalf("REPOMAP_ORACLE_SAMPLE=%q: want a count of files, at least 1", v)
		}
		py.kind = fmt.Sprintf("python.1in%d", k)
		py.asked = func(p string) bool { return sampled(p, k) }
	}
	py.check(t, func(t *testing.T, s *index.Snapshot, dir string) []string {
		uses := filepath.Join(t.TempDir(), "uses.tsv")
		if err := os.WriteFile(uses, referenceLines(s, ".py", py.asked), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{dir, uses}
	})
}

// sampled reports whether the file at p is one of the one in k files
// that a sample asks the oracle about: a hash of the path picks them.
func sampled(p string, k int) bool {
	h := fnv.New32a()
	h.Write([]byte(p))
	return h.Sum32()%uint32(k) == 0
}

// TestOracleTS scores the cross-file edges of the link stage on the
// TypeScript and JavaScript trees REPOMAP_ORACLE_TS names against the
// TypeScript compiler: testdata/oracle/ts_edges.js builds a program over
// the tree and asks the checker what each identifier means. It needs
// node and the typescript package (5.x) where node finds it, and skips
// without them.
//
//	NODE_PATH=/tmp/tsoracle/node_modules REPOMAP_ORACLE_TS=/tmp/ky go test ./repomap -run TestOracleTS -v
func TestOracleTS(t *testing.T) {
	ts := scriptOracle{
		env: "REPOMAP_ORACLE_TS", kind: "ts", tool: "node", script: "ts_edges.js",
		probe: []string{"-e", "if (typeof require('typescript').createProgram !== 'function') process.exit(1)"},
		need:  "the typescript package with the compiler API (npm install typescript@5, and NODE_PATH)",
	}
	ts.check(t, func(_ *testing.T, _ *index.Snapshot, dir string) []string { return []string{dir} })
}

// scriptOracle is an oracle that a script in testdata/oracle runs.
type scriptOracle struct {
	env    string            // the variable that lists the trees to check
	kind   string            // its name in the edge cache
	tool   string            // the interpreter
	script string            // the script, in testdata/oracle
	probe  []string          // arguments that make the interpreter fail without what the script needs
	need   string            // what that is
	asked  func(string) bool // the referencing files it asks about; nil: all
}

// check scores the link stage on each tree o.env lists against the
// edges the script prints when given args (checkOracle); it
// skips when o.env is unset or the interpreter or what the script needs
// is missing.
func (o scriptOracle) check(t *testing.T, args func(t *testing.T, s *index.Snapshot, dir string) []string) {
	spec := os.Getenv(o.env)
	if spec == "" {
		t.Skipf("%s names no tree to check", o.env)
	}
	tool, err := exec.LookPath(o.tool)
	if err != nil {
		t.Skipf("no %s: %v", o.tool, err)
	}
	if err := exec.Command(tool, o.probe...).Run(); err != nil {
		t.Skipf("%s lacks %s: %v", o.tool, o.need, err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "oracle", o.script))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range filepath.SplitList(spec) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			checkOracle(t, dir, o.kind, 0.95, o.asked, func(s *index.Snapshot) (oracleTruth, map[string]bool) {
				cmd := exec.CommandContext(t.Context(), tool, append([]string{script}, args(t, s, dir)...)...)
				return scriptEdges(t, cmd)
			})
		})
	}
}

// referenceLines returns the reference tags of the snapshot's files
// whose names end in ext (and that asked, when not nil, holds), one
// "file<TAB>line<TAB>name" line each, with 1-based lines.
func referenceLines(s *index.Snapshot, ext string, asked func(string) bool) []byte {
	var b bytes.Buffer
	for i, f := range s.Files {
		if path.Ext(f.Path) != ext || asked != nil && !asked(f.Path) {
			continue
		}
		set := s.Tags(context.Background(), i)
		for _, tg := range set.Tags {
			if tg.Kind == tags.Reference {
				fmt.Fprintf(&b, "%s\t%d\t%s\n", f.Path, tg.Line+1, set.Str(tg.Name))
			}
		}
	}
	return b.Bytes()
}

// scriptEdges runs an oracle script and reads what it prints, as
// parseOracleEdges does.
func scriptEdges(t *testing.T, cmd *exec.Cmd) (oracleTruth, map[string]bool) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Logf("%s: %s", filepath.Base(cmd.Args[1]), stderr.Bytes())
	}
	truth, files, err := parseOracleEdges(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(cmd.Args, " "), err)
	}
	return truth, files
}

// parseOracleEdges reads an oracle script's output: a line holding a
// slash path names a file the oracle looked at, and a line
// "file<TAB>line<TAB>name<TAB>defining file" says that the name used on
// that (1-based) line of the file is defined in the defining file.
func parseOracleEdges(r io.Reader) (oracleTruth, map[string]bool, error) {
	truth := make(oracleTruth)
	files := make(map[string]bool)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		switch len(fields) {
		case 1:
			if fields[0] != "" {
				files[fields[0]] = true
			}
			continue
		case 4:
		default:
			return nil, nil, fmt.Errorf("line %d: %d fields, want 1 or 4", n, len(fields))
		}
		line, err := strconv.Atoi(fields[1])
		if err != nil || line < 1 {
			return nil, nil, fmt.Errorf("line %d: bad line number %q", n, fields[1])
		}
		e := oracleEdge{from: fields[0], to: fields[3], name: fields[2]}
		if l := int32(line - 1); !slices.Contains(truth[e], l) {
			truth[e] = append(truth[e], l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	for e := range truth {
		if !files[e.from] || !files[e.to] {
			return nil, nil, fmt.Errorf("edge %s -> %s %s: a file the oracle did not list", e.from, e.to, e.name)
		}
	}
	return truth, files, nil
}

func TestParseOracleEdges(t *testing.T) {
	in := "a.py\nb/c.py\na.py\t3\tf\tb/c.py\na.py\t7\tf\tb/c.py\na.py\t3\tf\tb/c.py\nb/c.py\t1\tg\ta.py\n"
	truth, files, err := parseOracleEdges(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := oracleTruth{{"a.py", "b/c.py", "f"}: {2, 6}, {"b/c.py", "a.py", "g"}: {0}}
	if diff := cmp.Diff(want, truth, cmp.AllowUnexported(oracleEdge{})); diff != "" {
		t.Errorf("parseOracleEdges truth (-want +got):\n%s", diff)
	}
	if !files["a.py"] || !files["b/c.py"] || len(files) != 2 {
		t.Errorf("parseOracleEdges files = %v, want a.py and b/c.py", files)
	}
	for _, bad := range []string{"a.py\t3\tf\n", "a.py\nb.py\tx\tf\ta.py\n", "a.py\na.py\t1\tf\tb.py\n"} {
		if _, _, err := parseOracleEdges(strings.NewReader(bad)); err == nil {
			t.Errorf("parseOracleEdges(%q): no error", bad)
		}
	}
}
