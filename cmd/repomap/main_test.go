package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/cachetest"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
	"github.com/repomap-dev/repomap/tags"
)

var update = flag.Bool("update", false, "rewrite doc.go and the generated parts of README.md")

// TestMain runs the command itself when the test binary is started as
// the repomap binary (see exe), so that the end-to-end tests need no
// separate build.
func TestMain(m *testing.M) {
	if os.Getenv("REPOMAP_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(cachetest.Main(m))
}

// writeTree writes files (slash-separated path → text) under a new
// temporary directory, and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	return indextest.Tree(t, files)
}

// shopTree is a small tree: a package and a program that uses it.
var shopTree = map[string]string{
	"cart/cart.go": `package cart

// Cart holds items.
type Cart struct {
	Items []string
}

// Add adds an item.
func (c *Cart) Add(item string) {
	c.Items = append(c.Items, item)
}

// Total counts the items.
func Total(c *Cart) int { return len(c.Items) }
`,
	"main.go": `package main

import "example.com/shop/cart"

func main() {
	c := &cart.Cart{}
	c.Add("apple")
	println(cart.Total(c))
}
`,
	"gen/big.pb.go": `package gen

func Generated() {}
`,
	"tools/report.py": `def report(cart):
    return len(cart.items)
`,
}

// runCmd runs the command with args and returns its exit status, output
// and diagnostics. Every run gets its own tag cache.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestMapFormats(t *testing.T) {
	dir := writeTree(t, shopTree)
	cache := t.TempDir()

	code, text, errs := runCmd(t, "--cache-dir", cache, "--tokens", "200", dir)
	if code != 0 {
		t.Fatalf("repomap: exit %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(text, "cart/cart.go:\n") || !strings.Contains(text, "│type Cart struct {") {
		t.Errorf("repomap: the map lacks cart.go's Cart:\n%s", text)
	}

	code, md, errs := runCmd(t, "--cache-dir", cache, "--tokens", "200", "--format", "markdown", dir)
	if code != 0 {
		t.Fatalf("repomap --format markdown: exit %d, stderr:\n%s", code, errs)
	}
	wantHead := "# Repo map of " + filepath.Base(dir) + "\n\n"
	if !strings.HasPrefix(md, wantHead) {
		t.Errorf("repomap --format markdown starts\n%q\nwant %q", md[:min(len(md), 80)], wantHead)
	}
	// The budget caps the whole document, the map in its code block.
	if !strings.Contains(md, "```text\ncart/cart.go:\n") || !strings.HasSuffix(md, "\n```\n") {
		t.Errorf("repomap --format markdown does not end with the map in a code block:\n%s", md)
	}
	if !strings.Contains(md, " in a budget of 200 ") {
		t.Errorf("repomap --format markdown does not give the budget:\n%s", md)
	}
	count, err := tokenCounter(repomap.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(md); n > 200 {
		t.Errorf("repomap --tokens 200 --format markdown has %d tokens:\n%s", n, md)
	}

	code, js, errs := runCmd(t, "--cache-dir", cache, "--tokens", "200", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("repomap --format json: exit %d, stderr:\n%s", code, errs)
	}
	var doc output.MapDoc
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("repomap --format json: %v\n%s", err, js)
	}
	if doc.Schema != output.SchemaVersion || doc.Budget != 200 || doc.Text != text || len(doc.Roots) != 1 || doc.Roots[0].Dir != filepath.ToSlash(dir) {
		t.Errorf("repomap --format json: schema %d, budget %d, roots %+v, text\n%s\nwant schema %d, budget 200, the root, the text map",
			doc.Schema, doc.Budget, doc.Roots, doc.Text, output.SchemaVersion)
	}
	if !slices.ContainsFunc(doc.Files, func(f repomap.FileResult) bool {
		return f.Path == "cart/cart.go" && slices.Contains(f.Defs, repomap.Def{Name: "Cart", Kind: "struct", Line: 4})
	}) {
		t.Errorf("repomap --format json: no cart/cart.go with Cart at line 4: %+v", doc.Files)
	}
	if strings.Contains(js, `\u003c`) {
		t.Errorf("repomap --format json escapes HTML")
	}
	// The ranked files and definitions are the library's, in its order.
	m, err := repomap.New(dir, &repomap.Options{MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(context.Background(), repomap.Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := output.NewMapDoc(m.Roots(), res)
	if len(doc.RankedDefs) == 0 || !slices.Equal(doc.RankedFiles, want.RankedFiles) || !slices.Equal(doc.RankedDefs, want.RankedDefs) {
		t.Errorf("repomap --format json ranks files %+v and definitions %+v\nwant %+v and %+v", doc.RankedFiles, doc.RankedDefs, want.RankedFiles, want.RankedDefs)
	}
}

func TestMarkdownFence(t *testing.T) {
	r := &repomap.Result{Text: "README.md:\n````\n│```go\n", Tokens: 9, Budget: 10, Encoding: "o200k_base"}
	got := markdownMap("Repo map of x", r, 10)
	if !strings.Contains(got, "\n`````text\nREADME.md:\n````\n│```go\n`````\n") {
		t.Errorf("markdownMap with backquotes in the map:\n%s", got)
	}
}

func TestSeveralRoots(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"a/app", "b/app", "lib"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(base, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/app/main.go", "package main\n\nfunc main() { Helper() }\n")
	write("b/app/other.go", "package main\n\nfunc Other() { Helper() }\n")
	write("lib/lib.go", "package lib\n\nfunc Helper() {}\n")
	code, out, errs := runCmd(t, "--no-cache", "--format", "json", filepath.Join(base, "a/app"), filepath.Join(base, "b/app"), filepath.Join(base, "lib"))
	if code != 0 {
		t.Fatalf("repomap with three roots: exit %d:\n%s", code, errs)
	}
	var doc output.MapDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range doc.Roots {
		names = append(names, r.Name)
	}
	if want := []string{"a-app", "b-app", "lib"}; !slices.Equal(names, want) {
		t.Errorf("root names %q, want %q", names, want)
	}
	if !strings.Contains(doc.Text, "lib/lib.go:\n") || !strings.Contains(doc.Text, "│func Helper() {}") {
		t.Errorf("the map of three roots lacks lib/lib.go's Helper:\n%s", doc.Text)
	}

	// A focus file on disk is found in its root.
	code, out, errs = runCmd(t, "--no-cache", "--focus", filepath.Join(base, "lib/lib.go"), filepath.Join(base, "a/app"), filepath.Join(base, "lib"))
	if code != 0 || strings.Contains(out, "lib/lib.go") || !strings.Contains(out, "a-app/main.go") && !strings.Contains(out, "app/main.go") {
		t.Errorf("repomap --focus lib/lib.go: exit %d, map:\n%s\nstderr:\n%s", code, out, errs)
	}

	// The same directory twice cannot be named.
	if code, _, errs := runCmd(t, "--no-cache", base, base); code != 1 || !strings.Contains(errs, "same directory") {
		t.Errorf("repomap DIR DIR: exit %d, stderr %q; want 1 and an error", code, errs)
	}
}

func TestSelectFiles(t *testing.T) {
	dir := writeTree(t, shopTree)
	list := func(args ...string) []string {
		t.Helper()
		code, out, errs := runCmd(t, append([]string{"--no-cache", "--tokens", "100000", "--format", "json"}, append(args, dir)...)...)
		if code != 0 {
			t.Fatalf("repomap %q: exit %d:\n%s", args, code, errs)
		}
		var doc output.MapDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, f := range doc.Files {
			ps = append(ps, f.Path)
		}
		return ps
	}
	all := []string{"cart/cart.go", "gen/big.pb.go", "main.go", "tools/report.py"}
	if got := list(); !slices.Equal(got, all) {
		t.Fatalf("repomap: files %q, want %q", got, all)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--exclude", "**/*.pb.go"}, []string{"cart/cart.go", "main.go", "tools/report.py"}},
		{[]string{"--exclude", "gen", "--exclude", "tools"}, []string{"cart/cart.go", "main.go"}},
		{[]string{"--include", "cart", "--include", "/*.go"}, []string{"cart/cart.go", "main.go"}},
		{[]string{"--include", "**/*.go", "--exclude", "gen/**"}, []string{"cart/cart.go", "main.go"}},
	} {
		if got := list(tc.args...); !slices.Equal(got, tc.want) {
			t.Errorf("repomap %q: files %q, want %q", tc.args, got, tc.want)
		}
	}
	// .repomapignore at the root.
	if err := os.WriteFile(filepath.Join(dir, ".repomapignore"), []byte("tools/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := list("--include", "**/*.{go,py}"), []string{"cart/cart.go", "gen/big.pb.go", "main.go"}; !slices.Equal(got, want) {
		t.Errorf("repomap with .repomapignore: files %q, want %q", got, want)
	}
}

// TestRoleFlag checks that --role gives files a role, after the roles
// file's rules, and that --stats counts the files of each role.
func TestRoleFlag(t *testing.T) {
	dir := writeTree(t, shopTree)
	roles := func(args ...string) string {
		t.Helper()
		code, _, errs := runCmd(t, append([]string{"--no-cache", "--stats"}, append(args, dir)...)...)
		if code != 0 {
			t.Fatalf("repomap %q: exit %d:\n%s", args, code, errs)
		}
		for line := range strings.Lines(errs) {
			if r, ok := strings.CutPrefix(line, "roles"); ok {
				return strings.TrimSpace(r)
			}
		}
		t.Fatalf("repomap %q --stats: no roles line in\n%s", args, errs)
		return ""
	}
	if got, want := roles(), "3 source, 1 generated"; got != want {
		t.Errorf("roles %q, want %q", got, want)
	}
	if got, want := roles("--role", "docs tools/**"), "2 source, 1 generated, 1 docs"; got != want {
		t.Errorf("--role \"docs tools/**\": roles %q, want %q", got, want)
	}
	// The flag's rules come after the roles file's, and the last wins.
	if err := os.WriteFile(filepath.Join(dir, ".repomaproles"), []byte("fixture tools/**\nfixture cart/**\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := roles("--role", "source cart/**"), "2 source, 1 fixture, 1 generated, 1 community"; got != want {
		t.Errorf("roles file and --role: roles %q, want %q", got, want)
	}
}

func TestMentionsFrom(t *testing.T) {
	dir := writeTree(t, shopTree)
	request := filepath.Join(t.TempDir(), "request.txt")
	if err := os.WriteFile(request, []byte("Why is Generated in big.pb.go so slow?"), 0o644); err != nil {
		t.Fatal(err)
	}
	// With a budget for one file, the mentioned one wins.
	code, out, errs := runCmd(t, "--no-cache", "--tokens", "20", "--mentions-from", request, dir)
	if code != 0 {
		t.Fatalf("repomap --mentions-from: exit %d:\n%s", code, errs)
	}
	if !strings.Contains(out, "gen/big.pb.go:") {
		t.Errorf("repomap --mentions-from (big.pb.go mentioned): map\n%s", out)
	}
	code, out, _ = runCmd(t, "--no-cache", "--tokens", "20", dir)
	if code != 0 || strings.Contains(out, "gen/big.pb.go:") {
		t.Errorf("repomap without mentions: exit %d, map\n%s\nwant no big.pb.go: the case shows nothing", code, out)
	}
	if code, _, errs := runCmd(t, "--no-cache", "--mentions-from", filepath.Join(dir, "nope"), dir); code != 1 {
		t.Errorf("repomap --mentions-from a missing file: exit %d, stderr %q; want 1", code, errs)
	}
}

func TestLookupCommands(t *testing.T) {
	dir := writeTree(t, shopTree)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"defs", "--style", "aider", "Add", "Total"}, "cart/cart.go:9: method Add\n⋮\n│func (c *Cart) Add(item string) {\n│\tc.Items = append(c.Items, item)\n⋮\ncart/cart.go:14: function Total\n⋮\n│func Total(c *Cart) int { return len(c.Items) }\n"},
		// The compact style, the default, shows a signature alone.
		{[]string{"defs", "Add", "Total"}, "cart/cart.go:9: method Add\n⋮\n│func (c *Cart) Add(item string) {\n⋮\ncart/cart.go:14: function Total\n⋮\n│func Total(c *Cart) int { return len(c.Items) }\n"},
		{[]string{"refs", "Total"}, "main.go: 8\n"},
		{[]string{"refs", "Cart", "Add"}, "Cart:\ncart/cart.go: 9 14\nmain.go: 6\nAdd:\nmain.go: 7\n"},
		{[]string{"related", "--style", "aider", "--tokens", "200", "main.go"}, "cart/cart.go:\n⋮\n│type Cart struct {\n│\tItems []string\n⋮\n│func (c *Cart) Add(item string) {\n│\tc.Items = append(c.Items, item)\n⋮\n│func Total(c *Cart) int { return len(c.Items) }\n"},
		{[]string{"related", "--tokens", "200", "main.go"}, "cart/cart.go:\n⋮\n│type Cart struct {\n⋮\n│func (c *Cart) Add(item string) {\n⋮\n│func Total(c *Cart) int { return len(c.Items) }\n"},
		// Flags may follow the arguments.
		{[]string{"refs", "Total", "--no-cache"}, "main.go: 8\n"},
	} {
		args := append([]string{tc.args[0], "--no-cache", "--root", dir}, tc.args[1:]...)
		code, out, errs := runCmd(t, args...)
		if code != 0 || out != tc.want {
			t.Errorf("repomap %q: exit %d, output\n%s\nwant\n%s\nstderr:\n%s", tc.args, code, out, tc.want, errs)
		}
	}

	// JSON.
	code, out, errs := runCmd(t, "defs", "--no-cache", "--root", dir, "--format", "json", "Cart")
	var defs output.DefinitionsDoc
	if err := json.Unmarshal([]byte(out), &defs); code != 0 || err != nil {
		t.Fatalf("repomap defs --format json: exit %d, %v, stderr:\n%s", code, err, errs)
	}
	if len(defs.Definitions) != 1 || defs.Definitions[0].Path != "cart/cart.go" || defs.Definitions[0].Line != 4 || defs.Schema != output.SchemaVersion {
		t.Errorf("repomap defs --format json Cart = %+v", defs)
	}
	code, out, errs = runCmd(t, "refs", "--no-cache", "--root", dir, "--format", "json", "Cart", "Nothing")
	var refs output.ReferencesDoc
	if err := json.Unmarshal([]byte(out), &refs); code != 0 || err != nil {
		t.Fatalf("repomap refs --format json: exit %d, %v, stderr:\n%s", code, err, errs)
	}
	if len(refs.References) != 2 || refs.References[0].Name != "Cart" || !slices.Equal(refs.References[1].Lines, []int{6}) {
		t.Errorf("repomap refs --format json Cart Nothing = %+v", refs)
	}
	code, out, errs = runCmd(t, "related", "--no-cache", "--root", dir, "--format", "json", filepath.Join(dir, "main.go"))
	var rel output.MapDoc
	if err := json.Unmarshal([]byte(out), &rel); code != 0 || err != nil {
		t.Fatalf("repomap related --format json: exit %d, %v, stderr:\n%s", code, err, errs)
	}
	if len(rel.Files) != 1 || rel.Files[0].Path != "cart/cart.go" {
		t.Errorf("repomap related --format json main.go = %+v", rel)
	}
	code, out, _ = runCmd(t, "related", "--no-cache", "--root", dir, "--format", "markdown", "main.go")
	if code != 0 || !strings.HasPrefix(out, "# Files related to main.go in "+filepath.Base(dir)+"\n") {
		t.Errorf("repomap related --format markdown: exit %d:\n%s", code, out)
	}
	if code, _, errs := runCmd(t, "related", "--no-cache", "--root", dir, "nope.go"); code != 1 || !strings.Contains(errs, "no file nope.go") {
		t.Errorf("repomap related nope.go: exit %d, stderr %q; want 1", code, errs)
	}
}

func TestLanguages(t *testing.T) {
	code, out, errs := runCmd(t, "languages")
	if code != 0 {
		t.Fatalf("repomap languages: exit %d:\n%s", code, errs)
	}
	langs := tags.Languages()
	table, _, _ := strings.Cut(out, "\n\n") // the notes follow
	lines := strings.Split(table, "\n")
	if len(lines) != len(langs)+1 || !strings.HasPrefix(lines[0], "LANGUAGE") {
		t.Fatalf("repomap languages: %d lines, want a header and %d languages:\n%s", len(lines), len(langs), out)
	}
	for i, l := range langs {
		if f := strings.Fields(lines[i+1]); f[0] != l.Name {
			t.Errorf("repomap languages: line %d is %q, want %s", i+2, lines[i+1], l.Name)
		}
	}
	if !strings.Contains(out, "\ngo ") || !strings.Contains(out, ".go") {
		t.Errorf("repomap languages lacks Go:\n%s", out)
	}
}

func TestVersion(t *testing.T) {
	tail := " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}, {"-V"}} {
		code, out, _ := runCmd(t, args...)
		if code != 0 || !strings.HasPrefix(out, "repomap "+version()) || !strings.HasSuffix(out, tail) || version() == "" {
			t.Errorf("repomap %q: exit %d, %q, want \"repomap %s…%s\"", args, code, out, version(), tail)
		}
	}
}

func TestStamp(t *testing.T) {
	const (
		hash   = "4f1c2e9a7b3d5e6f708192a3b4c5d6e7f8091a2b"
		when   = "2026-07-01T12:00:00Z"
		pseudo = "v0.0.0-20260701120000-4f1c2e9a7b3d"
	)
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: hash}, {Key: "vcs.time", Value: when}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name    string
		bi      *debug.BuildInfo
		stamped [3]string // buildVersion, buildCommit, buildTime
		want    string
	}{
		{name: "no build info", want: "repomap (devel) go1.26.8 darwin/arm64\n"},
		{name: "go build -buildvcs=false", bi: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, want: "repomap (devel) go1.26.8 darwin/arm64\n"},
		{name: "go install @v0.3.0", bi: &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, want: "repomap v0.3.0 go1.26.8 darwin/arm64\n"},
		{name: "go install @commit", bi: &debug.BuildInfo{Main: debug.Module{Version: pseudo}}, want: "repomap " + pseudo + " (commit 4f1c2e9a7b3d) go1.26.8 darwin/arm64\n"},
		{name: "go install @prerelease commit", bi: &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20260701120000-4f1c2e9a7b3d"}}, want: "repomap v0.3.1-0.20260701120000-4f1c2e9a7b3d (commit 4f1c2e9a7b3d) go1.26.8 darwin/arm64\n"},
		{name: "clone", bi: &debug.BuildInfo{Main: debug.Module{Version: pseudo}, Settings: vcs("false")}, want: "repomap " + pseudo + " (commit 4f1c2e9a7b3d, " + when + ") go1.26.8 darwin/arm64\n"},
		{name: "dirty clone", bi: &debug.BuildInfo{Main: debug.Module{Version: pseudo + "+dirty"}, Settings: vcs("true")}, want: "repomap " + pseudo + "+dirty (commit 4f1c2e9a7b3d+dirty, " + when + ") go1.26.8 darwin/arm64\n"},
		{name: "release", bi: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, stamped: [3]string{"v0.3.0", hash, when}, want: "repomap v0.3.0 (commit 4f1c2e9a7b3d, " + when + ") go1.26.8 darwin/arm64\n"},
		{name: "release over vcs", bi: &debug.BuildInfo{Main: debug.Module{Version: pseudo + "+dirty"}, Settings: vcs("true")}, stamped: [3]string{"v0.3.0", "0123456789ab", ""}, want: "repomap v0.3.0 (commit 0123456789ab, " + when + ") go1.26.8 darwin/arm64\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := [3]string{buildVersion, buildCommit, buildTime}
			t.Cleanup(func() { buildVersion, buildCommit, buildTime = saved[0], saved[1], saved[2] })
			buildVersion, buildCommit, buildTime = tc.stamped[0], tc.stamped[1], tc.stamped[2]
			if got := stamp(tc.bi).line("go1.26.8", "darwin", "arm64"); got != tc.want {
				t.Errorf("stamp(%+v).line() = %q, want %q", tc.bi, got, tc.want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	dir := writeTree(t, shopTree)
	for _, tc := range []struct {
		args     []string
		code     int
		stdout   string // a part of it
		stderr   string // a part of it
		noStdout bool
	}{
		{args: []string{"-h"}, stdout: "Usage:\n\n\trepomap [flags] [ROOT...]\n"},
		{args: []string{"--help"}, stdout: "Exit status:"},
		{args: []string{"help"}, stdout: "Commands:\n"},
		{args: []string{"help", "defs"}, stdout: "repomap defs [flags] NAME..."},
		{args: []string{"defs", "-h"}, stdout: "Defs prints every definition"},
		{args: []string{"mcp", "--help"}, stdout: `"mcpServers"`},
		{args: []string{"help", "eval"}, stdout: "  --commits number\n"},
		{args: []string{"eval", "-h"}, stdout: "Usage:\n\n\trepomap eval [flags] [REPO]\n"},
		{args: []string{"help", "bench"}, stdout: "  --runs number\n"},
		{args: []string{"help", "nope"}, code: 2, stderr: "unknown command \"nope\"\nusage: repomap help [COMMAND]\nRun 'repomap help' for the list of commands.\n", noStdout: true},
		{args: []string{"help", "def"}, code: 2, stderr: `unknown command "def" (did you mean repomap defs?)`, noStdout: true},
		{args: []string{"--xyzzy"}, code: 2, stderr: "unknown flag --xyzzy\n", noStdout: true},
		{args: []string{"-x"}, code: 2, stderr: "unknown flag -x\n", noStdout: true},
		{args: []string{"--tokenz", "5", dir}, code: 2, stderr: "unknown flag --tokenz (did you mean --tokens?)", noStdout: true},
		{args: []string{"defs", "--rot", dir, "X"}, code: 2, stderr: "(did you mean --root?)", noStdout: true},
		{args: []string{"--tokens", "-5", dir}, code: 2, stderr: "repomap: --tokens must not be negative\n", noStdout: true},
		{args: []string{"--context-window", "-5", dir}, code: 2, stderr: "repomap: --context-window must not be negative\n", noStdout: true},
		{args: []string{"--tokens", "0", dir}, code: 2, stderr: "repomap: --tokens 0 leaves no room for a map", noStdout: true},
		{args: []string{"mcp", "--tokens", "0", dir}, code: 2, stderr: "repomap: --tokens 0 leaves no room for a map", noStdout: true},
		{args: []string{"--tokens", "abc", dir}, code: 2, stderr: "repomap: --tokens takes a whole number, not \"abc\"\n", noStdout: true},
		{args: []string{"--tokens", "1e99", dir}, code: 2, stderr: "repomap: --tokens takes a whole number, not \"1e99\"\n", noStdout: true},
		{args: []string{"--tokens", "99999999999999999999", dir}, code: 2, stderr: "not \"99999999999999999999\" (out of range)\n", noStdout: true},
		{args: []string{dir, "--tokens"}, code: 2, stderr: "repomap: --tokens needs a value: --tokens tokens\n", noStdout: true},
		{args: []string{dir, "-o"}, code: 2, stderr: "repomap: -o needs a value: -o file\n", noStdout: true},
		{args: []string{"--stats=maybe", dir}, code: 2, stderr: "repomap: --stats takes true or false, not \"maybe\"\n", noStdout: true},
		{args: []string{"eval", "--commits", "x"}, code: 2, stderr: "repomap: --commits takes a whole number, not \"x\"\n", noStdout: true},
		{args: []string{"defs", "--root", dir, "X", dir}, code: 2, stderr: "repomap: " + dir + " is a directory, not a NAME: to look in it, use --root " + dir + "\n", noStdout: true},
		{args: []string{"refs", ".", "X"}, code: 2, stderr: "repomap: . is a directory, not a NAME: to look in it, use --root .\n", noStdout: true},
		{args: []string{"related", "--tokens", "-1", "x.go"}, code: 2, stderr: "must not be negative", noStdout: true},
		{args: []string{"--ranking", "bogus", dir}, code: 2, stderr: "bogus", noStdout: true},
		{args: []string{"mcp", "--ranking", "bogus", dir}, code: 2, stderr: "bogus", noStdout: true},
		{args: []string{"mcp", "--refresh", "never", dir}, code: 2, stderr: "unknown refresh mode", noStdout: true},
		{args: []string{"mcp", "--tokens", "100", "--max-tokens", "50", dir}, code: 2, stderr: "--max-tokens", noStdout: true},
		{args: []string{"mcp", "--answer-within", "-1s", dir}, code: 2, stderr: "--answer-within takes a duration", noStdout: true},
		{args: []string{"bench", "--runs", "0"}, code: 2, stderr: "--runs takes a positive number", noStdout: true},
		{args: []string{"--format", "yaml", dir}, code: 2, stderr: `unknown format "yaml"`, noStdout: true},
		{args: []string{"--exclude", "a[", dir}, code: 2, stderr: `malformed glob "a["`, noStdout: true},
		{args: []string{"--role", "fixtur cart/**", dir}, code: 2, stderr: `unknown role "fixtur"`, noStdout: true},
		{args: []string{"--role", "fixture", dir}, code: 2, stderr: "want a role and a glob", noStdout: true},
		{args: []string{"--role", "fixture a[", dir}, code: 2, stderr: `bad glob "a["`, noStdout: true},
		{args: []string{"--encoding", "gpt2", dir}, code: 2, stderr: "unknown encoding", noStdout: true},
		{args: []string{"--refresh", "never", dir}, code: 2, stderr: "unknown refresh mode", noStdout: true},
		{args: []string{"--no-cache", "defs"}, code: 2, stderr: "defs is a command: write it first", noStdout: true},
		{args: []string{"nope"}, code: 2, stderr: "no command or directory nope", noStdout: true},
		{args: []string{"relatd"}, code: 2, stderr: "no command or directory relatd (did you mean repomap related?)", noStdout: true},
		{args: []string{"defs"}, code: 2, stderr: "no NAME", noStdout: true},
		{args: []string{"related", "a.go", "b.go"}, code: 2, stderr: "want one FILE, got 2", noStdout: true},
		{args: []string{"defs", "--format", "markdown", "X"}, code: 2, stderr: "unknown format", noStdout: true},
		{args: []string{"version", "x"}, code: 2, stderr: "no arguments wanted", noStdout: true},
		{args: []string{"--no-cache", filepath.Join(dir, "missing/")}, code: 1, stderr: "no such file", noStdout: true},
		{args: []string{"--no-cache", "--focus", "/elsewhere/x.go", dir}, code: 1, stderr: "outside the roots", noStdout: true},
		{args: []string{"--no-cache", "--focus", "nope.go", dir}, code: 1, stderr: "repomap: --focus: no file nope.go in the tree\n", noStdout: true},
		{args: []string{"--no-cache", "--focus", "cart", dir}, code: 1, stderr: "no file cart in the tree", noStdout: true},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) || tc.noStdout && out != "" {
			t.Errorf("repomap %q: exit %d, stdout\n%s\nstderr\n%s\nwant exit %d, stdout with %q, stderr with %q", tc.args, code, out, errs, tc.code, tc.stdout, tc.stderr)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  []string
		v    bool
	}{
		{[]string{"a", "-v", "b"}, []string{"a", "b"}, true},
		{[]string{"-v", "a"}, []string{"a"}, true},
		{[]string{"a", "--", "-v", "b"}, []string{"a", "-v", "b"}, false},
		{[]string{"--", "-v"}, []string{"-v"}, false},
		{nil, nil, false},
	} {
		fl := flag.NewFlagSet("x", flag.ContinueOnError)
		v := fl.Bool("v", false, "")
		pos, err := parse(fl, tc.args)
		if err != nil || !slices.Equal(pos, tc.pos) || *v != tc.v {
			t.Errorf("parse(%q) = %q, -v %v, %v; want %q, -v %v", tc.args, pos, *v, err, tc.pos, tc.v)
		}
	}
}

// TestLookupNotFound checks that defs and refs say on standard error
// which names they found nothing for, and exit 1 when they found nothing
// at all, as grep does.
func TestLookupNotFound(t *testing.T) {
	dir := writeTree(t, shopTree)
	t.Chdir(dir) // "cart" names a directory here
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string // a part of it
		stderr string // all of it
	}{
		{[]string{"defs", "Nothing"}, 1, "", "repomap: no definition of Nothing\n"},
		{[]string{"defs", "--format", "json", "Nothing"}, 1, `"definitions": []`, "repomap: no definition of Nothing\n"},
		{[]string{"defs", "Nothing", "Total"}, 0, "cart/cart.go:14: function Total", "repomap: no definition of Nothing\n"},
		{[]string{"defs", "Total"}, 0, "cart/cart.go:14: function Total", ""},
		{[]string{"defs", "cart"}, 1, "", "repomap: no definition of cart (cart is a directory: to look in it, use --root cart)\n"},
		{[]string{"refs", "Nothing"}, 1, "", "repomap: no file refers to Nothing\n"},
		{[]string{"refs", "Nothing", "Total"}, 0, "main.go: 8", "repomap: no file refers to Nothing\n"},
		{[]string{"refs", "Total"}, 0, "main.go: 8", ""},
	} {
		args := append([]string{tc.args[0], "--no-cache"}, tc.args[1:]...)
		code, out, errs := runCmd(t, args...)
		if code != tc.code || !strings.Contains(out, tc.stdout) || errs != tc.stderr {
			t.Errorf("repomap %q: exit %d, stdout\n%s\nstderr %q\nwant exit %d, stdout with %q, stderr %q", tc.args, code, out, errs, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestMarkdownBudget checks that a markdown map stays within its budget
// or fails: a budget too small for the heading and the fence is an
// error, not a document over the cap. "md" names the format too.
func TestMarkdownBudget(t *testing.T) {
	dir := writeTree(t, shopTree)
	count, err := tokenCounter(repomap.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, tokens := range []string{"1", "30"} {
		code, out, errs := runCmd(t, "--no-cache", "--format", "markdown", "--tokens", tokens, dir)
		if code != exitFailure || out != "" || !strings.Contains(errs, "is too small for a markdown map: its heading and fence alone take") {
			t.Errorf("repomap --format markdown --tokens %s: exit %d, stdout %q, stderr %q; want exit 1 and why", tokens, code, out, errs)
		}
	}
	for _, format := range []string{"markdown", "md"} {
		code, out, errs := runCmd(t, "--no-cache", "--format", format, "--tokens", "150", dir)
		if code != exitOK || !strings.HasPrefix(out, "# Repo map of ") || count(out) > 150 {
			t.Errorf("repomap --format %s --tokens 150: exit %d, %d tokens, stderr %q:\n%s", format, code, count(out), errs, out)
		}
	}
	code, out, errs := runCmd(t, "related", "--no-cache", "--root", dir, "--format", "md", "--tokens", "150", "main.go")
	if code != exitOK || !strings.HasPrefix(out, "# Files related to main.go") {
		t.Errorf("repomap related --format md: exit %d, stderr %q:\n%s", code, errs, out)
	}
	if code, out, errs := runCmd(t, "defs", "--no-cache", "--root", dir, "--format", "md", "Total"); code != exitUsage || out != "" || !strings.Contains(errs, `unknown format "md"`) {
		t.Errorf("repomap defs --format md: exit %d, stdout %q, stderr %q; want a usage error", code, out, errs)
	}
}

// TestHelpLayout checks the shape of the manual: the commands before the
// flags, one-letter flags with one dash and with their other names, no
// developer flags but in bench's help, and every command's flags.
func TestHelpLayout(t *testing.T) {
	_, help, _ := runCmd(t, "-h")
	commandsAt, flagsAt := strings.Index(help, "\nCommands:\n"), strings.Index(help, "\nFlags (")
	if commandsAt < 0 || flagsAt < 0 || commandsAt > flagsAt {
		t.Errorf("repomap -h: the commands at %d, the flags at %d; want both, the commands first", commandsAt, flagsAt)
	}
	for _, want := range []string{"\n  -o file\n", "\n  -v\n", "\n  -V, --version\n", "\n  --tokens tokens\n", "\tcompletion "} {
		if !strings.Contains(help, want) {
			t.Errorf("repomap -h lacks %q", want)
		}
	}
	for _, dev := range []string{"--stats-json", "--cpuprofile", "--o ", "--v\n", "\n  --V"} {
		if strings.Contains(help, dev) {
			t.Errorf("repomap -h has %q", dev)
		}
	}
	_, bench, _ := runCmd(t, "help", "bench")
	for _, want := range []string{"\n  --stats-json\n", "\n  --cpuprofile file\n", "\n  --floor-run\n", "\n  --runs number\n"} {
		if !strings.Contains(bench, want) {
			t.Errorf("repomap help bench lacks %q", want)
		}
	}
	for _, c := range commands() {
		_, help, _ := runCmd(t, "help", c.name)
		fl := commandFlags(c)
		fl.VisitAll(func(f *flag.Flag) {
			if !isDevFlag(c, f.Name) && !strings.Contains(help, dashed(f.Name)) {
				t.Errorf("repomap help %s lacks its flag %s", c.name, dashed(f.Name))
			}
		})
	}
	// The developer flags still work.
	dir := writeTree(t, shopTree)
	if code, out, errs := runCmd(t, "--no-cache", "--stats-json", dir); code != exitOK || !strings.Contains(out, `"files"`) {
		t.Errorf("repomap --stats-json: exit %d, stderr %q:\n%s", code, errs, out)
	}
}

// TestVersionFlags checks the other names of --version.
func TestVersionFlags(t *testing.T) {
	for _, args := range [][]string{{"-V"}, {"--V"}, {"--version"}} {
		if code, out, _ := runCmd(t, args...); code != exitOK || out != versionLine() {
			t.Errorf("repomap %q: exit %d, %q; want %q", args, code, out, versionLine())
		}
	}
}

// TestSharedExts checks the notes of "repomap languages" against
// tags.Detect: each language an extension may be is one some head gives,
// and the extension is no single language's.
func TestSharedExts(t *testing.T) {
	heads := map[string]string{
		"c":          "#include <stdio.h>\nint add(int a, int b);\n",
		"cpp":        "namespace geo {\nstruct Point { int x; };\n}\n",
		"objectivec": "#import <Foundation/Foundation.h>\n@interface Greeter : NSObject\n@end\n",
		"matlab":     "function y = square(x)\n  y = x .^ 2;\nend\n",
	}
	langs := tags.Languages()
	for _, s := range sharedExts {
		for _, l := range langs {
			if slices.Contains(l.Extensions, s.ext) && !slices.Contains(s.langs, l.Name) {
				t.Errorf("%s is shared by %q, yet %s lists it", s.ext, s.langs, l.Name)
			}
		}
		var got []string
		for _, head := range heads {
			if lang := tags.Detect("x"+s.ext, []byte(head)); !slices.Contains(got, lang) {
				got = append(got, lang)
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(s.langs))
		if !slices.Equal(got, want) {
			t.Errorf("Detect(x%s, heads) gives %q, want the languages the notes name, %q", s.ext, got, want)
		}
	}
	_, out, _ := runCmd(t, "languages")
	for _, want := range []string{" .c .h* ", " .mm .h* .m* ", " .m* ", "\n  .h: Objective-C when", "\n  .m: Objective-C"} {
		if !strings.Contains(out, want) {
			t.Errorf("repomap languages lacks %q:\n%s", want, out)
		}
	}
}

// TestParseTimeout checks that --parse-timeout reaches the parser: with
// a nanosecond, every file takes too long and is listed by name only.
func TestParseTimeout(t *testing.T) {
	dir := writeTree(t, shopTree)
	code, full, _ := runCmd(t, "--no-cache", "--tokens", "200", dir)
	if code != 0 || !strings.Contains(full, "│type Cart struct {") {
		t.Fatalf("repomap: exit %d, map\n%s\nwant Cart's definition", code, full)
	}
	code, names, errs := runCmd(t, "--no-cache", "--tokens", "200", "--parse-timeout", "1ns", "-v", dir)
	if code != 0 || strings.Contains(names, "│") || !strings.Contains(names, "cart/cart.go") || !strings.Contains(errs, "parse took longer than 1ns") {
		t.Errorf("repomap --parse-timeout 1ns: exit %d, map\n%s\nstderr\n%s\nwant the files by name only, each skipped", code, names, errs)
	}
}

// TestTuneGC: the command collects the heap less often than Go does, up
// to a soft limit, unless the environment sets either.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		env            map[string]string
		percent, limit int64 // the runtime's settings, as the environment made them
		wantPercent    int64
		wantLimit      int64
	}{
		{map[string]string{}, 100, math.MaxInt64, 400, softLimit},
		{map[string]string{"GOGC": "50"}, 50, math.MaxInt64, 50, softLimit},
		{map[string]string{"GOMEMLIMIT": "4GiB"}, 100, 4 << 30, 400, 4 << 30},
	} {
		debug.SetGCPercent(int(c.percent))
		debug.SetMemoryLimit(c.limit)
		tuneGC(func(k string) string { return c.env[k] })
		if got := int64(debug.SetGCPercent(100)); got != c.wantPercent {
			t.Errorf("with %v: GOGC %d, want %d", c.env, got, c.wantPercent)
		}
		if got := debug.SetMemoryLimit(-1); got != c.wantLimit {
			t.Errorf("with %v: memory limit %d, want %d", c.env, got, c.wantLimit)
		}
	}
}
