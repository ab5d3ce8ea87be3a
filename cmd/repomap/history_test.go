package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/gittest"
)

// TestHistoryVerbose checks that a map with a focus, of a tree outside
// git and of a shallow clone, is the map without history, and that -v
// says why in one line; and that --history-depth takes a count.
func TestHistoryVerbose(t *testing.T) {
	r := gittest.New(t)
	r.Commit("start", shopTree)
	r.Commit("cart and main", map[string]string{
		"cart/cart.go": shopTree["cart/cart.go"] + "\n// More.\n",
		"main.go":      shopTree["main.go"] + "\n// More.\n",
	})
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "1", "file://"+r.Dir, shallow)
	for _, tc := range []struct{ name, dir, reason string }{
		{"outside git", writeTree(t, shopTree), "not in a git repository"},
		{"shallow clone", shallow, "a shallow clone"},
	} {
		args := []string{"--no-cache", "--tokens", "300", "--focus", "cart/cart.go", tc.dir}
		code, got, errs := runCmd(t, append([]string{"-v"}, args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d, stderr:\n%s", tc.name, code, errs)
		}
		_, want, _ := runCmd(t, append([]string{"--no-history"}, args...)...)
		if got != want {
			t.Errorf("%s: map\n%s\nwant as with --no-history:\n%s", tc.name, got, want)
		}
		var lines []string
		for l := range strings.Lines(errs) {
			if strings.Contains(l, "without history") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 || !strings.Contains(lines[0], tc.reason) {
			t.Errorf("%s: -v said %q about the history, want one line saying %q", tc.name, lines, tc.reason)
		}
	}
	if code, _, errs := runCmd(t, "--no-cache", "--history-depth", "-1", r.Dir); code != 2 || !strings.Contains(errs, "--history-depth") {
		t.Errorf("--history-depth -1: exit %d, stderr %q; want 2 and the reason", code, errs)
	}
	if code, _, errs := runCmd(t, "--no-cache", "--history-depth", "1", "--focus", "main.go", r.Dir); code != 0 {
		t.Errorf("--history-depth 1: exit %d, stderr %q", code, errs)
	}
}
