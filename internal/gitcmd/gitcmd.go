// Package gitcmd runs read-only git commands on a repository: git from
// PATH, in an environment that cannot point it at another repository and
// that takes no lock a reader can do without.
package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Env returns the environment of the commands: the process's, without
// the variables that would point git at another repository, index or
// object store (as a caller running inside a git hook has them), with
// optional locks (GIT_OPTIONAL_LOCKS=0) and prompts off.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
}

// Command returns the command "git -C dir args...", in Env, ended with
// ctx.
func Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = Env()
	return cmd
}

// Output runs Command and returns its standard output. Its error names
// the git command and holds what git wrote to standard error; it is
// ctx's error when ctx ended first.
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := Command(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
