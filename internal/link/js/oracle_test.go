package js_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
)

// TestOracle scores the cross-file edges of the JavaScript and
// TypeScript rules against the TypeScript checker on the trees
// REPOMAP_ORACLE names (a list of directories, as in PATH), name by
// name, as the Go oracle scores Go's (linktest.Oracle): for each use that
// a reference tag marks in a JavaScript or TypeScript file, the checker
// says which file of the tree declares the symbol the name means there
// (testdata/ts_oracle.js, one node process answering on stdin and
// stdout). It needs node and the typescript package (5.x, whose compiler
// API the script uses) in the node_modules directory that
// REPOMAP_ORACLE_TYPESCRIPT names, and skips without them, or when a tree
// has no such files. REPOMAP_ORACLE_CACHE, REPOMAP_ORACLE_DETAIL and
// REPOMAP_ORACLE_RANKING are as for the Go oracle.
//
//	npm install --prefix /tmp/ts typescript@5
//	REPOMAP_ORACLE_TYPESCRIPT=/tmp/ts/node_modules REPOMAP_ORACLE=/path/to/ky \
//	  go test ./internal/link/js -run TestOracle -v
func TestOracle(t *testing.T) {
	spec := os.Getenv("REPOMAP_ORACLE")
	if spec == "" {
		t.Skip("REPOMAP_ORACLE names no JavaScript or TypeScript tree to check")
	}
	modules := os.Getenv("REPOMAP_ORACLE_TYPESCRIPT")
	if modules == "" {
		t.Skip("REPOMAP_ORACLE_TYPESCRIPT names no node_modules directory holding typescript (npm install typescript@5)")
	}
	node, err := exec.LookPath("node")
	if err == nil {
		probe := exec.Command(node, "-e", "if (typeof require('typescript').createProgram !== 'function') process.exit(1)")
		probe.Env = append(os.Environ(), "NODE_PATH="+modules)
		err = probe.Run()
	}
	if err != nil {
		t.Skipf("node with the typescript package's compiler API (5.x) in %s is needed: %v", modules, err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "ts_oracle.js"))
	if err != nil {
		t.Fatal(err)
	}
	isJS := func(f link.File) bool { return slices.Contains([]string{"javascript", "typescript", "tsx"}, f.Lang) }
	linktest.CheckTrees(t, spec, "ts", "JavaScript or TypeScript", isJS, func(ctx context.Context, dir string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, node, script, dir)
		cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
		return cmd
	})
}
