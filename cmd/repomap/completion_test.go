package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCompletionCoversCommands checks that completion knows the
// arguments of every command, and of no other.
func TestCompletionCoversCommands(t *testing.T) {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
		if _, ok := commandArgs[c.name]; !ok {
			t.Errorf("commandArgs has no entry for command %q", c.name)
		}
	}
	for name := range commandArgs {
		if !slices.Contains(names, name) {
			t.Errorf("commandArgs has an entry for %q, which is no command", name)
		}
	}
}

// TestCompletionWords checks that the words a script holds unquoted
// (names and values) are plain words, and that the developer flags are
// left out.
func TestCompletionWords(t *testing.T) {
	plain := regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
	for _, s := range completionSpecs() {
		words := strings.Fields(s.args)
		for _, f := range s.flags {
			words = append(words, f.names...)
			if f.value != argDirs && f.value != argFiles && f.value != argAny {
				words = append(words, strings.Fields(f.value)...)
			}
			if isDevFlag(lookupCommand(s.name), f.names[len(f.names)-1]) {
				t.Errorf("completion of %q offers the developer flag %v", s.name, f.names)
			}
		}
		for _, w := range words {
			if !plain.MatchString(w) {
				t.Errorf("completion of %q: %q is not a plain word", s.name, w)
			}
		}
	}
}

func TestCompletionUsage(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		if code, out, errs := runCmd(t, args...); code != exitUsage || out != "" || !strings.Contains(errs, "bash, zsh or fish") {
			t.Errorf("repomap %q: exit %d, stdout %q, stderr %q; want exit 2 naming the shells", args, code, out, errs)
		}
	}
}

// completionScript writes repomap's completion script for shell into a
// temporary file and returns its path, or skips the test when the shell
// is not installed.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	if _, err := exec.LookPath(shell); err != nil {
		t.Skipf("no %s: %v", shell, err)
	}
	code, script, errs := runCmd(t, "completion", shell)
	if code != exitOK {
		t.Fatalf("repomap completion %s: exit %d: %s", shell, code, errs)
	}
	p := filepath.Join(t.TempDir(), "repomap."+shell)
	if err := os.WriteFile(p, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// completionTree is a directory to complete paths in: a file and a
// directory.
func completionTree(t *testing.T) string {
	return writeTree(t, map[string]string{"main.go": "package main\n", "lib/lib.go": "package lib\n"})
}

// completionCases are command lines, the last word being completed, and
// the words a shell should offer, in any order, in completionTree.
var completionCases = []struct {
	line []string
	want []string
}{
	{[]string{"repomap", "de"}, []string{"defs"}},
	{[]string{"repomap", "l"}, []string{"languages", "lib/"}},
	{[]string{"repomap", "--form"}, []string{"--format"}},
	{[]string{"repomap", "--format", ""}, []string{"text", "markdown", "json"}},
	{[]string{"repomap", "--style", ""}, []string{"compact", "aider"}},
	{[]string{"repomap", "--vers"}, []string{"--version"}},
	{[]string{"repomap", "defs", "--fo"}, []string{"--format"}},
	{[]string{"repomap", "defs", "--format", ""}, []string{"text", "json"}},
	{[]string{"repomap", "defs", "--root", "l"}, []string{"lib/"}},
	{[]string{"repomap", "graph", "--format", ""}, []string{"tsv", "json", "dot"}},
	{[]string{"repomap", "eval", "--com"}, []string{"--commits"}},
	{[]string{"repomap", "related", "ma"}, []string{"main.go"}},
	{[]string{"repomap", "cache", ""}, []string{"path", "list", "prune", "clean"}},
	{[]string{"repomap", "help", "ev"}, []string{"eval"}},
	{[]string{"repomap", "completion", ""}, []string{"bash", "zsh", "fish"}},
}

// checkCompletions runs complete(line) for each case in
// completionTree and compares the words offered with the case's.
func checkCompletions(t *testing.T, shell string, complete func(dir string, line []string) []string) {
	dir := completionTree(t)
	for _, tc := range completionCases {
		got := complete(dir, tc.line)
		for i, w := range got {
			got[i] = strings.TrimSuffix(w, "/")
		}
		want := slices.Clone(tc.want)
		for i, w := range want {
			want[i] = strings.TrimSuffix(w, "/")
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(slices.Compact(got), want) {
			t.Errorf("%s completion of %q = %q, want %q", shell, strings.Join(tc.line, " "), got, want)
		}
	}
}

// TestCompletionBash loads the bash script, checks that bash's complete
// registers it for repomap, and runs it on each case as bash does:
// COMP_WORDS and COMP_CWORD set, the function called, COMPREPLY read.
func TestCompletionBash(t *testing.T) {
	script := completionScript(t, "bash")
	out, err := exec.Command("bash", "-c", `source "$1" && complete -p repomap`, "bash", script).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "-F _repomap") || !strings.HasSuffix(strings.TrimSpace(string(out)), " repomap") {
		t.Fatalf("bash: complete -p repomap after loading the script: %v\n%s", err, out)
	}
	checkCompletions(t, "bash", func(dir string, line []string) []string {
		cmd := exec.Command("bash", "-c", `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($#-1)); _repomap; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script)
		cmd.Args = append(cmd.Args, line...)
		return strings.Fields(shellOutput(t, cmd, dir))
	})
}

// TestCompletionZsh runs the zsh script's function on each case with
// zsh's completion builtins replaced by functions that print what they
// are given: compadd's words, and the files _files would offer.
func TestCompletionZsh(t *testing.T) {
	script := completionScript(t, "zsh")
	checkCompletions(t, "zsh", func(dir string, line []string) []string {
		const driver = `
compadd() { [[ $1 == -- ]] && shift; print -rl -- ${(M)@:#${cur}*} }
_files() { if [[ $1 == -/ ]]; then print -rl -- ${cur}*(N/); else print -rl -- ${cur}*(N); fi }
compdef() { : }
source "$1"; shift
words=("$@"); CURRENT=$#
cur=${words[CURRENT]}
_repomap`
		cmd := exec.Command("zsh", "-f", "-c", driver, "zsh", script)
		cmd.Args = append(cmd.Args, line...)
		return strings.Fields(shellOutput(t, cmd, dir))
	})
}

// TestCompletionFish loads the fish script and asks fish what it
// completes each case's line with (complete --do-complete).
func TestCompletionFish(t *testing.T) {
	script := completionScript(t, "fish")
	checkCompletions(t, "fish", func(dir string, line []string) []string {
		cmd := exec.Command("fish", "--no-config", "-c", `source $argv[1]; complete --do-complete $argv[2]`, script, strings.Join(line, " "))
		var words []string
		for l := range strings.Lines(shellOutput(t, cmd, dir)) {
			w, _, _ := strings.Cut(strings.TrimRight(l, "\n"), "\t")
			words = append(words, w)
		}
		return words
	})
}

// shellOutput runs cmd, a shell completing a line, in dir and returns
// what it printed.
func shellOutput(t *testing.T, cmd *exec.Cmd, dir string) string {
	t.Helper()
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return string(out)
}
