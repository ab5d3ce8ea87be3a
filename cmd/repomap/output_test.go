package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOutputFile(t *testing.T) {
	dir := writeTree(t, shopTree)
	out := filepath.Join(t.TempDir(), "map.md")
	if err := os.WriteFile(out, []byte("old map\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runCmd(t, "--no-cache", "--tokens", "200", "--format", "markdown", "-o", out, dir)
	if code != 0 || stdout != "" {
		t.Fatalf("repomap -o %s: exit %d, stdout %q, stderr:\n%s", out, code, stdout, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# Repo map of ") || !strings.Contains(string(data), "cart/cart.go:") {
		t.Errorf("-o wrote\n%s\nwant the markdown map", data)
	}
	if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("-o over a file of mode 0640 left mode %v, %v", info.Mode(), err)
	}
	// Nothing else is left beside it.
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("-o left %d files in its directory, want 1", len(ents))
	}

	// A failed map leaves the file as it was.
	code, _, _ = runCmd(t, "--no-cache", "--focus", "nope.go", "-o", out, dir)
	if again, _ := os.ReadFile(out); code != 1 || string(again) != string(data) {
		t.Errorf("a failed map with -o: exit %d, file changed: %v", code, string(again) != string(data))
	}
	// A directory is not written over.
	if code, _, errs := runCmd(t, "--no-cache", "-o", t.TempDir(), dir); code != 1 || !strings.Contains(errs, "not a regular file") {
		t.Errorf("-o DIR: exit %d, stderr %q; want 1 and an error", code, errs)
	}
}

func TestEmptyMap(t *testing.T) {
	shop := writeTree(t, shopTree)
	unreadable := writeTree(t, map[string]string{"a.go": "package a\n"})
	if err := os.Chmod(filepath.Join(unreadable, "a.go"), 0); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{t.TempDir()}, "the map is empty: no file in "},
		{[]string{"--include", "nothing/here", shop}, "the map is empty: no file matches --include nothing/here"},
		{[]string{"--tokens", "3", shop}, "the map is empty: a budget of 3 tokens is too small for one file"},
	} {
		code, out, errs := runCmd(t, append([]string{"--no-cache"}, tc.args...)...)
		if code != 0 || out != "" || !strings.HasPrefix(errs, "repomap: "+tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("repomap %q: exit %d, stdout %q, stderr %q; want 0, nothing, one line %q", tc.args, code, out, errs, tc.want)
		}
	}
	if os.Getuid() != 0 { // root reads every file
		code, _, errs := runCmd(t, "--no-cache", unreadable)
		if code != 0 || !strings.Contains(errs, "could be read") {
			t.Errorf("repomap on an unreadable file: exit %d, stderr %q", code, errs)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("the most tokens the output may have, a hard cap (default: from --context-window, else 1024)", "    ", 30)
	want := "    the most tokens the output\n    may have, a hard cap\n    (default: from\n    --context-window, else\n    1024)\n"
	if got != want {
		t.Errorf("wrap = %q, want %q", got, want)
	}
	for _, cmd := range commands() {
		for line := range strings.Lines(flagsText(cmd)) {
			if n := len([]rune(strings.TrimRight(line, "\n"))); n > helpWidth && strings.Contains(strings.TrimSpace(line), " ") {
				t.Errorf("%s: a help line of %d columns: %q", cmdName(cmd), n, line)
			}
		}
	}
}

func TestNearest(t *testing.T) {
	words := []string{"tokens", "root", "refresh", "format", "focus", "defs", "refs", "related"}
	for _, tc := range []struct{ in, want string }{
		{"tokenz", "tokens"}, {"tokns", "tokens"}, {"rot", "root"}, {"def", "defs"},
		{"relatd", "related"}, {"frmat", "format"}, {"x", ""}, {"zzzzzz", ""}, {"ab", ""},
	} {
		if got := nearest(tc.in, words); got != tc.want {
			t.Errorf("nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
