package main

import (
	"strings"
	"testing"
)

func TestCacheCommand(t *testing.T) {
	dir := t.TempDir()
	root := writeTree(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	other := writeTree(t, map[string]string{"lib.go": "package lib\n\nfunc F() {}\n"})
	for _, r := range []string{root, other} {
		if code, _, errs := runCmd(t, "--cache-dir", dir, r); code != exitOK {
			t.Fatalf("repomap %s: exit %d: %s", r, code, errs)
		}
	}
	check := func(wantCode int, wantOut string, args ...string) string {
		t.Helper()
		code, out, errs := runCmd(t, append([]string{"cache", "--cache-dir", dir}, args...)...)
		if code != wantCode || !strings.Contains(out, wantOut) {
			t.Errorf("repomap cache %q: exit %d, output %q, errors %q; want exit %d and an output with %q", args, code, out, errs, wantCode, wantOut)
		}
		return out
	}
	check(exitOK, dir+"\n", "path")
	out := check(exitOK, "2 databases", "list")
	for _, r := range []string{root, other} {
		if !strings.Contains(out, r) {
			t.Errorf("repomap cache list = %q, want a line with the root %s", out, r)
		}
	}
	check(exitOK, "removed the cache of "+root, "clean", root)
	check(exitFailure, "", "clean", root) // no cache of it any more
	out = check(exitOK, "1 database,", "list")
	if strings.Contains(out, root) {
		t.Errorf("after clean, repomap cache list = %q, still with %s", out, root)
	}
	check(exitOK, "removed 0 databases", "prune") // the other was used just now
	check(exitOK, "removed 1 database,", "clean", "-all")
	check(exitOK, "0 databases", "list")

	for _, args := range [][]string{{}, {"bogus"}, {"clean"}, {"clean", "-all", root}, {"list", "-all"}, {"path", "x"}} {
		check(exitUsage, "", args...)
	}
}
