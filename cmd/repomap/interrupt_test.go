//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInterrupt maps the Go tree's source cold and signals the process
// once it has started: it must end with one line saying so and the
// signal's exit status.
func TestInterrupt(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	if _, err := os.Stat(filepath.Join(src, "net", "http")); err != nil {
		t.Skipf("no Go source tree at %s", src)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			// With -v the first line says the map is under way.
			cmd := exe(context.Background(), t, "-v", "--no-cache", src)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stderr)
			if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, "repomap: mapping ") {
				t.Fatalf("first line %q, %v; want \"repomap: mapping …\"", line, err)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(r)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("after %v: %v, want exit status %d", tc.sig, err, tc.code)
			}
			lines := strings.Split(strings.TrimSuffix(string(bytes.TrimSpace(rest)), "\n"), "\n")
			if last := lines[len(lines)-1]; last != "repomap: interrupted" {
				t.Errorf("after %v the last line is %q, want \"repomap: interrupted\"", tc.sig, last)
			}
			if strings.Contains(string(rest), "context canceled") {
				t.Errorf("after %v stderr says context canceled:\n%s", tc.sig, rest)
			}
		})
	}
}
