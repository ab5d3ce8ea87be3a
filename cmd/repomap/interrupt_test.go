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
	"time"
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

// TestSecondSignal checks that a second signal ends the process at once,
// with the first one's status and "interrupted", while the command is
// still running: the first only asks it to keep what it finished and end.
func TestSecondSignal(t *testing.T) {
	var stderr syncBuffer
	codes := make(chan int, 1)
	ctx, stop := interruptible(context.Background(), &stderr, func(code int) { codes <- code })
	defer stop()
	self, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := self.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first signal did not end the context")
	}
	select {
	case code := <-codes:
		t.Fatalf("the first signal ended the process (%d)", code)
	case <-time.After(100 * time.Millisecond):
	}
	if err := self.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-codes:
		if code != 130 {
			t.Errorf("the second signal ended the process with %d, want 130", code)
		}
		if got := stderr.String(); got != "repomap: interrupted\n" {
			t.Errorf("stderr %q, want \"repomap: interrupted\\n\"", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second signal did not end the process")
	}
}
