// Package corpus finds the real code that tests and benchmarks read: the
// sources of the Go distribution, which every machine that builds
// repomap has.
package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// goroot is the Go distribution's root, as the go command reports it.
var goroot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// GoSrc returns the directory rel of the Go distribution's sources
// ("net/http"; "" for all of them), or skips tb when there is none.
func GoSrc(tb testing.TB, rel string) string {
	tb.Helper()
	root := goroot()
	if root == "" {
		tb.Skip("no go command to find the Go sources")
	}
	dir := filepath.Join(root, "src", filepath.FromSlash(rel))
	if _, err := os.Stat(dir); err != nil {
		tb.Skip("no Go sources:", err)
	}
	return dir
}
