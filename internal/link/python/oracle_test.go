package python_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
)

// TestOracle scores the cross-file edges of Python's rules against Jedi
// on the trees REPOMAP_ORACLE names (a list of directories, as in PATH),
// name by name, as the Go oracle scores Go's (linktest.Oracle): for each
// use that a reference tag marks in a Python file, Jedi's goto, following
// imports, says which file of the tree defines what the name means there
// (testdata/jedi_oracle.py, one python3 process answering on stdin and
// stdout). It needs python3 with the jedi module (Debian's python3-jedi)
// and skips without it, or when a tree has no Python files.
// REPOMAP_ORACLE_CACHE keeps Jedi's edges, REPOMAP_ORACLE_DETAIL=1 lists
// missed and the heaviest false edges, REPOMAP_ORACLE_RANKING names a
// ranking other than the default to score.
//
//	REPOMAP_ORACLE=/path/to/httpx go test ./internal/link/python -run TestOracle -v -timeout 0
func TestOracle(t *testing.T) {
	spec := os.Getenv("REPOMAP_ORACLE")
	if spec == "" {
		t.Skip("REPOMAP_ORACLE names no Python tree to check")
	}
	python, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command(python, "-c", "import jedi").Run()
	}
	if err != nil {
		t.Skipf("python3 with the jedi module is needed (Debian: apt-get install python3-jedi): %v", err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "jedi_oracle.py"))
	if err != nil {
		t.Fatal(err)
	}
	isPython := func(f link.File) bool { return f.Lang == "python" }
	linktest.CheckTrees(t, spec, "jedi", "Python", isPython, func(ctx context.Context, dir string) *exec.Cmd {
		return exec.CommandContext(ctx, python, script, dir)
	})
}
