package eval

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/repomap-dev/repomap/repomap"
)

// The tiny library of the canon tests: a package at the top, a second
// file that defines Get again, an example that defines Run, and a README.
var canonTree = map[string]string{
	"lib.go": `package lib

// Client talks to the server.
type Client struct{ addr string }

// New returns a Client.
func New(addr string) *Client { return &Client{addr: addr} }

// Get fetches a page.
func (c *Client) Get(p string) string { return c.addr + p }
`,
	"lib2.go": `package lib

// Get fetches a page with a new Client.
func Get(addr, p string) string { return New(addr).Get(p) }
`,
	"example/main.go": `package main

import "example.com/lib"

func Run() { lib.New("x").Get("/") }

func main() { Run() }
`,
	"README.md": "# lib\n\nUse New and Get.\n",
}

// canonRepos makes a directory of repositories holding acme/lib, with
// canonTree committed, and returns it with the commit.
func canonRepos(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	repos := t.TempDir()
	r := &testRepo{t: t, dir: filepath.Join(repos, "acme", "lib"), home: t.TempDir()}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	return repos, r.commit("lib", canonTree)
}

func canonNames(names ...string) []CanonName {
	out := make([]CanonName, len(names))
	for i, n := range names {
		out[i] = CanonName{Name: n, Source: "README"}
	}
	return out
}

func TestRunCanons(t *testing.T) {
	repos, hash := canonRepos(t)
	// "client" is not Client: names match case-sensitively. Run is
	// defined only in the example, outside Within. Get is defined in two
	// files and counts once, where the map shows it first.
	names := canonNames("Client", "New", "Get", "Run", "client", "Missing")
	within := Canon{Repo: "acme/lib", Commit: hash, Language: "Go", Within: []string{"*.go"}, Names: names}
	anywhere := within
	anywhere.Within = nil
	// At 1 token the map shows nothing; at 10,000 it shows every file,
	// whatever the ranking.
	budgets := []int{1, 10000}
	rep, err := RunCanons(context.Background(), CanonConfig{Canons: []Canon{within}, Repos: repos, Budgets: budgets})
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"README.md", "example/main.go", "lib.go", "lib2.go"}
	want := []CanonOutcome{{
		Repo: "acme/lib", Commit: hash, Language: "Go", Names: 6, Files: 4,
		Undefined: []string{"Run", "client", "Missing"},
		Maps: []CanonMap{
			{Variant: "default", Budget: 1, Missing: []string{"Client", "New", "Get", "Run", "client", "Missing"}, Where: map[string]string{}},
			{Variant: "default", Budget: 10000, Shown: []string{"Client", "New", "Get"}, Missing: []string{"Run", "client", "Missing"},
				Where: map[string]string{"Client": "lib.go", "New": "lib.go", "Get": "lib.go"}, Files: all},
		},
	}}
	// The tokens and the top-ranked files are the ranking's business.
	ignore := cmpopts.IgnoreFields(CanonMap{}, "Tokens", "Top")
	if diff := cmp.Diff(want, rep.Repos, ignore); diff != "" {
		t.Errorf("RunCanons(within *.go) repos (-want +got):\n%s", diff)
	}
	if got := rep.Repos[0].Maps[1]; got.Tokens <= 0 || len(got.Top) != 4 {
		t.Errorf("RunCanons at 10000 = %d tokens, top %q; want tokens and the 4 files", got.Tokens, got.Top)
	}

	rep, err = RunCanons(context.Background(), CanonConfig{Canons: []Canon{anywhere}, Repos: repos, Budgets: budgets[1:]})
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Repos[0].Maps[0]
	if want := []string{"Client", "New", "Get", "Run"}; !slices.Equal(got.Shown, want) || got.Where["Run"] != "example/main.go" {
		t.Errorf("RunCanons(anywhere) shows %q, Run in %q; want %q, Run in example/main.go", got.Shown, got.Where["Run"], want)
	}
	if got, want := rep.Repos[0].Undefined, []string{"client", "Missing"}; !slices.Equal(got, want) {
		t.Errorf("RunCanons(anywhere) undefined = %q, want %q", got, want)
	}
}

func TestRunCanonsText(t *testing.T) {
	repos, hash := canonRepos(t)
	cn := Canon{Repo: "acme/lib", Commit: hash, Language: "Go", Within: []string{"*.go"}, Names: canonNames("Client", "Run")}
	rep, err := RunCanons(context.Background(), CanonConfig{
		Canons:   []Canon{cn},
		Repos:    repos,
		Budgets:  []int{1, 10000},
		Variants: []Variant{{Name: "one"}, {Name: "two"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"repository  language  commit        files  defined  variant  @1   @10000\n" +
			"acme/lib    Go        " + hash[:12] + "  4      1/2      one      0/2  1/2\n" +
			"acme/lib    Go        " + hash[:12] + "  4      1/2      two      0/2  1/2\n",
		"\nacme/lib\n  defined by no file counted: Run\n  one @1 (0 tokens, 0 files): missing Client, Run\n    opens with none\n",
		"two @10000 (",
		"4 files): missing Run\n    opens with README.md, example/main.go, lib.go, lib2.go\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("WriteText() = \n%s\nwant it to hold\n%s", got, want)
		}
	}
}

func TestRunCanonsErrors(t *testing.T) {
	repos, hash := canonRepos(t)
	ok := Canon{Repo: "acme/lib", Commit: hash, Names: canonNames("New")}
	other := strings.Repeat("0", 40)
	for _, tc := range []struct {
		name string
		cfg  CanonConfig
		want string
	}{
		{"no canon", CanonConfig{Repos: repos}, "no canon"},
		{"no repos", CanonConfig{Canons: []Canon{ok}}, "no directory"},
		{"bad budget", CanonConfig{Canons: []Canon{ok}, Repos: repos, Budgets: []int{0}}, "budget 0"},
		{"no repository", CanonConfig{Canons: []Canon{{Repo: "acme/none", Commit: hash, Names: ok.Names}}, Repos: repos}, filepath.Join("acme", "none") + ": no such file"},
		{"no commit", CanonConfig{Canons: []Canon{{Repo: "acme/lib", Commit: other, Names: ok.Names}}, Repos: repos}, other},
		{"bad canon", CanonConfig{Canons: []Canon{{Repo: "acme/lib", Commit: hash}}, Repos: repos}, "no names"},
	} {
		_, err := RunCanons(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("RunCanons(%s) = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

func TestReadCanons(t *testing.T) {
	hash := strings.Repeat("ab", 20)
	good := `{"repo": "acme/lib", "commit": "` + hash + `", "language": "Go", "within": ["*.go"], "names": [{"name": "New", "source": "README"}]}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // a part of the error; "" for none
	}{
		{"good", map[string]string{"lib.json": good, "notes.txt": "not a canon"}, ""},
		{"none", map[string]string{"notes.txt": "not a canon"}, "no canon"},
		{"syntax", map[string]string{"a.json": "{"}, "a.json"},
		{"unknown field", map[string]string{"a.json": `{"repository": "acme/lib"}`}, "repository"},
		{"bad repo", map[string]string{"a.json": strings.Replace(good, "acme/lib", "acme", 1)}, "owner/name"},
		{"dot dot", map[string]string{"a.json": strings.Replace(good, "acme/lib", "acme/..", 1)}, "owner/name"},
		{"short commit", map[string]string{"a.json": strings.Replace(good, hash, hash[:12], 1)}, "40 lowercase hex"},
		{"bad glob", map[string]string{"a.json": strings.Replace(good, "*.go", "[", 1)}, "bad glob"},
		{"no names", map[string]string{"a.json": strings.Replace(good, `{"name": "New", "source": "README"}`, "", 1)}, "no names"},
		{"qualified name", map[string]string{"a.json": strings.Replace(good, `"New"`, `"Client.New"`, 1)}, "not an identifier"},
		{"twice", map[string]string{"a.json": strings.Replace(good, `"source": "README"}`, `"source": "README"}, {"name": "New"}`, 1)}, "twice"},
		{"two of a repo", map[string]string{"a.json": good, "b.json": good}, "both of acme/lib"},
	} {
		dir := t.TempDir()
		for name, content := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cs, err := ReadCanons(dir)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("ReadCanons(%s) = %v, want no error", tc.name, err)
		case tc.want == "" && (len(cs) != 1 || cs[0].Repo != "acme/lib" || len(cs[0].Names) != 1):
			t.Errorf("ReadCanons(%s) = %+v, want the canon of acme/lib", tc.name, cs)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("ReadCanons(%s) = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// TestCanonData checks the canons of testdata/canons and of
// testdata/canons-heldout: ten names each, each with the place in the
// documentation that shows it, enough repositories and languages in
// each directory (the held-out repositories are Go and Python alone),
// and no repository in both.
func TestCanonData(t *testing.T) {
	dirOf := make(map[string]string)
	for _, tc := range []struct {
		dir          string
		repos, langs int
	}{
		{"canons", 6, 4},
		{"canons-heldout", 4, 2},
	} {
		cs, err := ReadCanons(filepath.Join("testdata", tc.dir))
		if err != nil {
			t.Fatal(err)
		}
		langs := make(map[string]bool)
		for _, c := range cs {
			if len(c.Names) != 10 {
				t.Errorf("%s: canon of %s has %d names, want 10", tc.dir, c.Repo, len(c.Names))
			}
			for _, n := range c.Names {
				if n.Source == "" {
					t.Errorf("%s: canon of %s: %s has no source", tc.dir, c.Repo, n.Name)
				}
			}
			if c.Language == "" {
				t.Errorf("%s: canon of %s has no language", tc.dir, c.Repo)
			}
			langs[c.Language] = true
			if d, ok := dirOf[c.Repo]; ok {
				t.Errorf("%s is in testdata/%s and testdata/%s", c.Repo, d, tc.dir)
			}
			dirOf[c.Repo] = tc.dir
		}
		if len(cs) < tc.repos || len(langs) < tc.langs {
			t.Errorf("testdata/%s has %d canons in %d languages, want %d or more in %d or more", tc.dir, len(cs), len(langs), tc.repos, tc.langs)
		}
	}
}

// TestCanonRepos measures the canons of testdata/canons on the
// repositories under $REPOMAP_CANON_REPOS (owner/name each, holding the
// canon's commit), with both rankings (or those of $REPOMAP_CANON_RANKINGS,
// each in the styles of $REPOMAP_CANON_STYLES when it is set), and logs
// the report; with $REPOMAP_CANON_JSON set it writes the report there as
// JSON too. It is skipped without the
// variable, and under -short.
func TestCanonRepos(t *testing.T) {
	repos := os.Getenv("REPOMAP_CANON_REPOS")
	if repos == "" || testing.Short() {
		t.Skip("REPOMAP_CANON_REPOS is not set, or -short")
	}
	cs, err := ReadCanons(filepath.Join("testdata", "canons"))
	if err != nil {
		t.Fatal(err)
	}
	var variants []Variant
	rankings := []string{repomap.RankingDefault, repomap.RankingAider}
	if rs := os.Getenv("REPOMAP_CANON_RANKINGS"); rs != "" {
		rankings = strings.Split(rs, ",")
	}
	// REPOMAP_CANON_STYLES, when set, crosses the rankings with styles:
	// variants RANKING/STYLE.
	var styles []string
	if ss := os.Getenv("REPOMAP_CANON_STYLES"); ss != "" {
		styles = strings.Split(ss, ",")
	}
	for _, name := range rankings {
		if styles == nil {
			variants = append(variants, Variant{Name: name, Options: func() *repomap.Options { return &repomap.Options{Ranking: name} }})
		}
		for _, st := range styles {
			variants = append(variants, Variant{Name: name + "/" + st, Options: func() *repomap.Options {
				return &repomap.Options{Ranking: name, Style: st}
			}})
		}
	}
	rep, err := RunCanons(context.Background(), CanonConfig{Canons: cs, Repos: repos, Variants: variants})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if out := os.Getenv("REPOMAP_CANON_JSON"); out != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
