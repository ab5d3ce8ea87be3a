package main

import (
	"flag"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/eval"
	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/mcpserver"
	"github.com/repomap-dev/repomap/repomap"
)

// The README and the pages of docs/ make claims that the code can check:
// the commands and flags they show, the links between them, defaults and
// limits. The tests here check them, so that a page goes stale loudly.

// docPages returns the README and the pages of docs/, relative to the
// repository's root, with their text.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	names, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(names, "../../README.md") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		pages[strings.TrimPrefix(filepath.ToSlash(name), "../../")] = string(data)
	}
	if len(pages) < 2 {
		t.Fatalf("no pages in docs/: %v", names)
	}
	return pages
}

// TestDocsFirstCommands checks that the README opens with the two
// commands a newcomer needs, and that CI runs its test command.
func TestDocsFirstCommands(t *testing.T) {
	readme := docPages(t)["README.md"]
	_, block, _ := strings.Cut(readme, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	if block != "go run ./cmd/repomap .\ngo test ./...\n" {
		t.Errorf("README.md's first commands are\n%s\nwant the map of the repository, then its tests", block)
	}
	if at := strings.Index(readme, "```sh\n"); strings.Count(readme[:at], "\n") > 5 {
		t.Errorf("README.md's first commands start at line %d, want them in its first lines", strings.Count(readme[:at], "\n")+1)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "\ngo test ./...\n") {
		t.Errorf(".ci/run does not run the README's test command, go test ./...")
	}
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} +(.+)$`)
	codeSpan  = regexp.MustCompile("`([^`\n]+)`")
	fence     = regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
)

// slug returns the anchor GitHub gives a heading.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinks checks that every link between the pages, and to the
// repository's files, leads somewhere: the file exists, and a page's
// anchor is one of its headings.
func TestDocsLinks(t *testing.T) {
	pages := docPages(t)
	anchors := map[string][]string{}
	for name, text := range pages {
		for _, m := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
			anchors[name] = append(anchors[name], slug(m[1]))
		}
	}
	for name, text := range pages {
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			if file == "" {
				file = name
			} else {
				file = path.Join(path.Dir(name), file)
				if _, err := os.Stat(filepath.Join("../..", filepath.FromSlash(file))); err != nil {
					t.Errorf("%s links to %s, which does not exist", name, target)
					continue
				}
			}
			if anchor != "" && !slices.Contains(anchors[file], anchor) {
				t.Errorf("%s links to %s: %s has no heading #%s", name, target, file, anchor)
			}
		}
	}
}

// codeOf returns the code of a page: its code spans and the lines of its
// fenced blocks.
func codeOf(text string) []string {
	var code []string
	for _, m := range fence.FindAllStringSubmatch(text, -1) {
		code = append(code, strings.Split(m[1], "\n")...)
	}
	for _, m := range codeSpan.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		code = append(code, m[1])
	}
	return code
}

// TestDocsFlags checks the flags the pages show: in a command line, a
// flag of its command; alone, a flag of some command; and the values
// given to --format, --style and --ranking, and every ranking spelled
// with its changes (for repomap eval), are values repomap takes.
func TestDocsFlags(t *testing.T) {
	anyFlag := func(name string) bool {
		for _, c := range commands() {
			if commandFlags(c).Lookup(name) != nil {
				return true
			}
		}
		return false
	}
	ranking := regexp.MustCompile(`^(aider|default)\+[a-z0-9_.=+]+$`) // not a placeholder such as aider+CHANGE
	for name, text := range docPages(t) {
		for _, code := range codeOf(text) {
			words := strings.Fields(code)
			for _, w := range words {
				if r := ranking.FindString(strings.Trim(w, "`'\",;:()")); r != "" {
					if _, err := experiment.Parse(r); err != nil {
						t.Errorf("%s: ranking %q: %v", name, r, err)
					}
				}
			}
			if len(words) > 0 && strings.HasPrefix(words[0], "--") {
				flagName, _, _ := strings.Cut(strings.TrimLeft(words[0], "-"), "=")
				if !anyFlag(flagName) {
					t.Errorf("%s: %q: no command has the flag --%s", name, code, flagName)
				}
			}
			for i, w := range words {
				if w != "repomap" {
					continue
				}
				cmd, rest := lookupCommand(""), words[i+1:]
				if j := slices.Index(rest, "--"); j >= 0 {
					rest = rest[:j] // another program's command line follows
				}
				if len(rest) > 0 {
					if c := lookupCommand(rest[0]); c != nil {
						cmd, rest = c, rest[1:]
					}
				}
				checkCommandLine(t, name, code, cmd, rest)
			}
		}
	}
}

// checkCommandLine checks the flags of one command line of page name,
// the words args of command cmd, up to a pipe or the end of a command.
func checkCommandLine(t *testing.T, name, code string, cmd *command, args []string) {
	t.Helper()
	fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
	c := &config{}
	cmd.flags(fl, c)
	for i, w := range args {
		if w == "|" || w == ";" || w == "&&" || w == ">" || strings.HasPrefix(w, "#") {
			return
		}
		if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
			continue
		}
		flagName, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if flagName == "h" || flagName == "help" {
			continue
		}
		f := fl.Lookup(flagName)
		if f == nil {
			t.Errorf("%s: %q: %s has no flag %s", name, code, cmdName(cmd), w)
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		value = strings.Trim(value, `'",.`)
		switch flagName {
		case "format":
			placeholder := value == strings.ToUpper(value)
			if f, ok := formatAliases[value]; ok {
				value = f
			}
			if !placeholder && !slices.Contains(c.formats, value) {
				t.Errorf("%s: %q: %s takes no format %q (%q)", name, code, cmdName(cmd), value, c.formats)
			}
		case "ranking":
			for _, r := range strings.Split(value, ",") {
				check := repomap.CheckRanking // a map's --ranking
				if cmd.name == "eval" {
					check = func(r string) error { _, err := experiment.Parse(r); return err }
				}
				if err := check(r); err != nil && r != strings.ToUpper(r) {
					t.Errorf("%s: %q: %v", name, code, err)
				}
			}
		case "style":
			for _, s := range strings.Split(value, ",") {
				if err := repomap.CheckStyle(s); err != nil {
					t.Errorf("%s: %q: %v", name, code, err)
				}
			}
		}
	}
}

// TestDocsClaims checks the defaults and limits the pages state against
// the code's.
func TestDocsClaims(t *testing.T) {
	pages := docPages(t)
	for _, tc := range []struct {
		page, text string
		holds      bool
	}{
		{"README.md", "without either, 1,024", repomap.DefaultTokens == 1024},
		{"docs/cache.md", "Databases not used for 90 days go", cache.DefaultMaxAge == 90*24*time.Hour},
		{"docs/cache.md", "together are above 1 GiB", cache.DefaultMaxSize == 1<<30},
		{"docs/cache.md", "(`Options.ParseTimeout`, 5 s by default)", repomap.DefaultParseTimeout == 5*time.Second},
		{"docs/cache.md", "`Options.MaxFileSize` (1 MiB by default)", repomap.DefaultMaxFileSize == 1<<20},
		{"docs/mcp.md", "| `--max-tokens` | 32768 |", mcpserver.DefaultMaxTokens == 32768},
		{"docs/mcp.md", "| `--answer-within` | 50s |", mcpserver.DefaultAnswerWithin == 50*time.Second},
		{"docs/mcp.md", "a line longer than 16 MiB", mcpserver.MaxLineLength == 16<<20},
		{"docs/ranking.md", "touches 2 to 20 source files", eval.MinFiles == 2 && eval.MaxFiles == 20},
		{"docs/ranking.md", "one to three other files define it (`eval.MaxDefiners`)", eval.MaxDefiners == 3},
	} {
		text := strings.Join(strings.Fields(pages[tc.page]), " ")
		switch {
		case !strings.Contains(text, tc.text):
			t.Errorf("%s does not say %q", tc.page, tc.text)
		case !tc.holds:
			t.Errorf("%s says %q, which the code no longer does", tc.page, tc.text)
		}
	}
}
