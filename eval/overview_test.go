package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

// The tree of the overview test, before its commit.
var overviewTree = map[string]string{
	"api/api.go": `package api

// Client talks to the server.
type Client struct{ addr string }

// New returns a Client.
func New() *Client { return &Client{} }

// Get fetches a key.
func (c *Client) Get(key string) string { return c.addr + key }
`,
	"p1/parse.go": "package p1\n\nfunc Parse() {}\n",
	"p2/parse.go": "package p2\n\nfunc Parse() {}\n",
	"app/main.go": `package main

func local() {}

func main() {
	Other()
}
`,
	"app/other.go": "package main\n\nfunc Other() {}\n",
	"README.md":    "# x\n\n## Setup\n\nUse New.\n",
	// Close is defined in four files: a common name.
	"util/a.go": "package util\n\nfunc Close() {}\n",
	"util/b.go": "package util\n\nfunc Close() {}\n",
	"util/c.go": "package util\n\nfunc Close() {}\n",
	"util/d.go": "package util\n\nfunc Close() {}\n",
}

// overviewHistory commits overviewTree, then a commit whose added lines
// use, from other files: New and Get (api/api.go, one definer each),
// Parse (two definers: both wanted), Close (four definers: common), local
// (app/main.go's own), string (defined nowhere), Setup (a heading of
// README.md, which no reference wants); and, in a new file,
// Client. The line that calls Other is not added. api/api.go's added
// line refers to Client, its own.
func overviewHistory(t *testing.T) (*testRepo, string) {
	r := newTestRepo(t)
	r.commit("Start", overviewTree)
	hash := r.commit("app: use the client", map[string]string{
		"app/main.go": `package main

func local() {}

func main() {
	Other()
	c := New()
	c.Get("x")
	Close()
	Parse()
	Setup()
	local()
	var s string
	_ = s
}
`,
		"app/extra.go": "package main\n\nvar client *Client\n",
		"api/api.go": strings.Replace(overviewTree["api/api.go"], "func New() *Client { return &Client{} }",
			"func New() *Client { return &Client{addr: \"localhost\"} }", 1),
	})
	return r, hash
}

// TestOverview checks the overview question's wanted definitions and
// its figures at budgets that show nothing and everything.
func TestOverview(t *testing.T) {
	r, hash := overviewHistory(t)
	rep, err := Run(context.Background(), Config{Dir: r.dir, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Commits) != 1 || rep.Commits[0].Hash != hash {
		t.Fatalf("commits %+v, want the one of %s", rep.Commits, hash)
	}
	c := rep.Commits[0]
	want := OverviewWanted{
		// app/main.go: New, Get, Close, Parse, Setup, string and local
		// (its own); app/extra.go: Client; api/api.go: Client (its own).
		Names: OverviewNames{Referred: 9, Local: 2, Undefined: 2, Common: 1, Resolved: 4},
		Defs: []WantedDef{
			{"api/api.go", 4, "Client"},
			{"api/api.go", 7, "New"},
			{"api/api.go", 10, "Get"},
			{"p1/parse.go", 3, "Parse"},
			{"p2/parse.go", 3, "Parse"},
		},
	}
	if diff := cmp.Diff(want, c.Overview); diff != "" {
		t.Errorf("Overview (-want +got):\n%s", diff)
	}

	// At 1 token nothing is shown; at 100,000 every file of the parent
	// tree, with every definition, and the random baseline every source
	// file: all of them.
	var tree []string
	for p := range overviewTree {
		tree = append(tree, p)
	}
	slices.Sort(tree)
	o := c.Results[0].Overview
	wantOut := OverviewOutcomes{
		Map: OverviewOutcome{First: o.Map.First, Found: []int{0, 5}, InFiles: []int{0, 5}, Files: []int{0, len(tree)}},
		Random: OverviewOutcome{First: firstHolding(randomOrder(0, hash, tree), want.Defs),
			Found: []int{0, 0}, InFiles: []int{0, 5}, Files: []int{0, len(tree)}, Defs: []int{0, 0}, Tokens: []int{0, 0}},
	}
	if diff := cmp.Diff(wantOut, o, cmpopts.IgnoreFields(OverviewOutcome{}, "Defs", "Tokens")); diff != "" {
		t.Errorf("overview outcomes (-want +got):\n%s", diff)
	}
	if o.Map.First < 1 || o.Map.Defs[0] != 0 || o.Map.Defs[1] < 5 || o.Map.Tokens[0] != 0 || o.Map.Tokens[1] <= 0 || o.Random.Tokens[1] != 0 {
		t.Errorf("map: first %d, defs %v, tokens %v", o.Map.First, o.Map.Defs, o.Map.Tokens)
	}

	rows := rep.Variants[0].Overview
	if rep.Overview != (OverviewSummary{Commits: 1, Defs: 5, Names: want.Names}) || len(rows) != 2 {
		t.Fatalf("summary %+v, rows %+v", rep.Overview, rows)
	}
	if r := rows[1]; r.Map.Recall != 1 || r.Map.FileRecall != 1 || r.Random.Recall != 0 || r.Random.FileRecall != 1 ||
		r.Map.MRR != 1/float64(o.Map.First) || r.Random.MRR != 1/float64(o.Random.First) {
		t.Errorf("row at 100000: %+v", r)
	}
	if r := rows[0]; r.Map.Recall != 0 || r.Map.FileRecall != 0 || r.Map.Files != 0 {
		t.Errorf("row at 1: %+v", r)
	}

	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"\noverview: no focus, no request; wanted: the definitions in other files that the added lines use (1 commits)\n",
		"  budget  recall  in files    MRR  tokens  files  defs    in files    MRR  files\n",
		"\n  100000   1.000     1.000  ",
		"\noverview: 5 definitions wanted by 1 of 1 commits; of 9 names referred to on added lines, 4 resolved (defined in 1 to 3 other files), 1 common (more), 2 undefined elsewhere, 2 defined by the referring file\n",
	} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("WriteText: no %q in\n%s", w, text.String())
		}
	}
}

// TestOverviewShownLines checks that a definition counts as shown when
// its line is, not its file alone.
func TestOverviewShownLines(t *testing.T) {
	res := &repomap.Result{Tokens: 10, Files: []repomap.FileResult{
		{Path: "a.go", Defs: []repomap.Def{{Name: "A", Line: 3}}},
		{Path: "b.go"}, // by name alone
	}}
	wanted := []WantedDef{{"a.go", 3, "A"}, {"a.go", 5, "B"}, {"a.go", 4, "A"}, {"b.go", 1, "C"}, {"c.go", 1, "D"}}
	o := newOverviewOutcome(1)
	o.record(0, res, wanted)
	if want := (OverviewOutcome{Found: []int{1}, InFiles: []int{4}, Files: []int{2}, Defs: []int{1}, Tokens: []int{10}}); !cmp.Equal(o, want) {
		t.Errorf("record = %+v, want %+v", o, want)
	}
	if got := firstHolding([]string{"x.go", "b.go", "a.go"}, wanted); got != 2 {
		t.Errorf("firstHolding = %d, want 2", got)
	}
}

// TestOverviewNoWanted checks that a commit whose added lines use nothing
// from other files is left out of the overview's means.
func TestOverviewNoWanted(t *testing.T) {
	h := scriptedHistory(t)
	rep, err := Run(context.Background(), Config{Dir: h.repo.dir, Budgets: extremes})
	if err != nil {
		t.Fatal(err)
	}
	// c5 changes comments only; c3 and c1 add calls of store.Open.
	for _, c := range rep.Commits {
		wantDefs := []WantedDef{{"store/store.go", 9, "Open"}}
		if c.Hash == h.c[5] {
			wantDefs = nil
		}
		if !slices.Equal(c.Overview.Defs, wantDefs) {
			t.Errorf("%s: wanted %v, want %v", c.Subject, c.Overview.Defs, wantDefs)
		}
	}
	if rep.Overview.Commits != 2 {
		t.Errorf("overview commits = %d, want 2", rep.Overview.Commits)
	}
	// Both maps at 100000 show store.go's Open.
	if r := rep.Variants[0].Overview[1]; r.Map.Recall != 1 {
		t.Errorf("overview at 100000: %+v", r)
	}
}

func TestParseHunks(t *testing.T) {
	diff := "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n" +
		"@@ -1,2 +1,3 @@ func f() {\n-a\n-b\n+a\n+b\n+c\n" +
		"@@ -5 +6 @@\n-x\n+y\n" +
		"@@ -9,2 +9,0 @@\n-p\n-q\n" +
		"@@ -20,0 +21,2 @@\n+@@ -1 +1 @@\n+z\n"
	got, err := parseHunks([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 5, 20, 21}; !slices.Equal(got, want) {
		t.Errorf("parseHunks = %v, want %v", got, want)
	}
	for _, bad := range []string{"@@ -1 +x @@\n", "@@ -1 +1,y @@\n", "@@ -1 +1\n"} {
		if _, err := parseHunks([]byte(bad)); err == nil {
			t.Errorf("parseHunks(%q): no error", bad)
		}
	}
}

// TestRunRoles checks Config.Roles, with roles found from paths, from a
// file's head and from the tree's RolesFile, and Config.SourceOnly.
func TestRunRoles(t *testing.T) {
	r := newTestRepo(t)
	gen := "// Code generated by stringer. DO NOT EDIT.\n\npackage gen\n\nconst G = %d\n"
	r.commit("Start", map[string]string{
		"a.go":              "package a\n\nconst A = 0\n",
		"b.go":              "package a\n\nconst B = 0\n",
		"gen/g.go":          fmt.Sprintf(gen, 0),
		"README.md":         "# a\n",
		repomap.RolesFile:   "fixture b.go\n",
		"assets/logo.png":   logo,
		"docs/notes.txt":    "Notes.\n",
		".github/ci.yml":    "on: push\n",
		"vendor/v/v.go":     "package v\n",
		"internal/x/doc.go": "package x\n",
	})
	hash := r.commit("Change them all", map[string]string{
		"a.go":      "package a\n\nconst A = 1\n",
		"b.go":      "package a\n\nconst B = 1\n",
		"gen/g.go":  fmt.Sprintf(gen, 1),
		"README.md": "# a!\n",
	})
	for _, tc := range []struct {
		roles  []repomap.Role
		only   bool
		wanted []string // nil: the commit is skipped
		files  int      // of the tree mapped
	}{
		{nil, false, []string{"README.md", "a.go", "b.go", "gen/g.go"}, 10},
		{[]repomap.Role{repomap.RoleSource}, false, nil, 0},
		{[]repomap.Role{repomap.RoleSource, repomap.RoleFixture}, false, []string{"a.go", "b.go"}, 10},
		{[]repomap.Role{repomap.RoleSource, repomap.RoleFixture}, true, []string{"a.go", "b.go"}, 4}, // and .repomaproles
		{[]repomap.Role{repomap.RoleGenerated, repomap.RoleDocs}, true, []string{"README.md", "gen/g.go"}, 3},
		// Parsed files: not the logo, nor docs/notes.txt.
		{nil, true, []string{"README.md", "a.go", "b.go", "gen/g.go"}, 8},
	} {
		name := fmt.Sprintf("roles %v, source only %v", tc.roles, tc.only)
		rep, err := Run(context.Background(), Config{Dir: r.dir, Budgets: extremes, Roles: tc.roles, SourceOnly: tc.only})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tc.wanted == nil {
			if len(rep.Commits) != 0 || rep.Skipped[SkipFew] != 1 {
				t.Errorf("%s: commits %d, skipped %v; want the commit skipped", name, len(rep.Commits), rep.Skipped)
			}
			continue
		}
		if len(rep.Commits) != 1 || rep.Commits[0].Hash != hash {
			t.Errorf("%s: %d commits, want 1", name, len(rep.Commits))
			continue
		}
		if got := rep.Commits[0].Wanted; !slices.Equal(got, tc.wanted) {
			t.Errorf("%s: wanted %v, want %v", name, got, tc.wanted)
		}
		if got := rep.Variants[0].Files; got != tc.files {
			t.Errorf("%s: %d files mapped, want %d", name, got, tc.files)
		}
	}
}

// TestDeclaredUse checks that the overview's wanted names of a Python
// line are the names it uses: not the parameters a test takes, the
// types of annotations, or the variables and attributes a line binds.
func TestDeclaredUse(t *testing.T) {
	src := "def test_send(client: Client):\n    response = make(client)\n    self.seen = Seen()\n    self.cache = {}\n    parts = [p for p in client]\n    response.close()\n"
	p := tags.NewParser(nil)
	defer p.Close()
	ts, err := p.Parse(context.Background(), "test_a.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, tg := range ts {
		if tg.Kind == tags.Reference && !declaredUse(tg.Sub) {
			uses = append(uses, tg.Name)
		}
	}
	slices.Sort(uses)
	if want := []string{"Seen", "close", "make"}; !slices.Equal(uses, want) {
		t.Errorf("uses %q, want %q (of the tags %v)", uses, want, ts)
	}
}
