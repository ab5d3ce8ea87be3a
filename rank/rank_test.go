package rank

import (
	"cmp"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// identEdge is one (edge, ident) pair of the file graph, for tests.
type identEdge struct {
	From, To, Ident string
	Weight          float64
}

// identEdges returns every (edge, ident) pair Rank builds for in, sorted by
// From, To and Ident.
func identEdges(in Input) []identEdge {
	s := prepare(in)
	var out []identEdge
	var buf []contrib
	for f := range int32(len(s.paths)) {
		buf = s.edgesFrom(f, buf)
		for _, c := range buf {
			out = append(out, identEdge{
				From:   s.paths[f],
				To:     s.paths[s.defFile[c.slot]],
				Ident:  s.names[s.slotIdent[c.slot]],
				Weight: c.w,
			})
		}
	}
	slices.SortFunc(out, func(a, b identEdge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Ident, b.Ident))
	})
	return out
}

var approx = cmpopts.EquateApprox(0, 1e-12)

func TestEdgeWeights(t *testing.T) {
	// refs builds a Refs list with ident repeated n times.
	refs := func(ident string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = ident
		}
		return out
	}
	// definers returns n files d0..d{n-1} all defining ident.
	definers := func(ident string, n int) []File {
		var out []File
		for i := range n {
			out = append(out, File{Path: "d" + string(rune('0'+i)), Defs: []string{ident}})
		}
		return out
	}
	one := func(ident string, n int) Input {
		return Input{Files: []File{
			{Path: "a", Refs: refs(ident, n)},
			{Path: "b", Defs: []string{ident}},
		}}
	}
	tests := []struct {
		name string
		in   Input
		want []identEdge
	}{
		{"plain short ident", one("foo", 1), []identEdge{{"a", "b", "foo", 1}}},
		{"sqrt of occurrences", one("foo", 9), []identEdge{{"a", "b", "foo", 3}}},
		{"mentioned ident ×10", func() Input {
			in := one("foo", 1)
			in.MentionedIdents = []string{"foo"}
			return in
		}(), []identEdge{{"a", "b", "foo", 10}}},
		{"long snake_case ×10", one("get_value", 1), []identEdge{{"a", "b", "get_value", 10}}},
		{"long kebab-case ×10", one("get-value", 1), []identEdge{{"a", "b", "get-value", 10}}},
		{"long camelCase ×10", one("getValue", 1), []identEdge{{"a", "b", "getValue", 10}}},
		{"long PascalCase ×10", one("NewServer", 1), []identEdge{{"a", "b", "NewServer", 10}}},
		{"short camelCase not", one("getVal", 1), []identEdge{{"a", "b", "getVal", 1}}},
		{"short snake_case not", one("short_x", 1), []identEdge{{"a", "b", "short_x", 1}}},
		{"all caps not", one("HTTP", 1), []identEdge{{"a", "b", "HTTP", 1}}},
		{"long all caps not", one("HTTPSERVER", 1), []identEdge{{"a", "b", "HTTPSERVER", 1}}},
		{"long lower case not", one("readsomething", 1), []identEdge{{"a", "b", "readsomething", 1}}},
		{"long underscores without letter not", one("__123456__", 1), []identEdge{{"a", "b", "__123456__", 0.1}}},
		{"length counts characters", one("ñ_éàüöîç", 1), []identEdge{{"a", "b", "ñ_éàüöîç", 10}}},
		{"leading underscore ×0.1", one("_x", 1), []identEdge{{"a", "b", "_x", 0.1}}},
		{"long private snake", one("_private", 1), []identEdge{{"a", "b", "_private", 1}}},
		{"focus referencer ×50", func() Input {
			in := one("foo", 4)
			in.Focus = []string{"a"}
			return in
		}(), []identEdge{{"a", "b", "foo", 100}}},
		{"focus definer has no effect", func() Input {
			in := one("foo", 1)
			in.Focus = []string{"b"}
			return in
		}(), []identEdge{{"a", "b", "foo", 1}}},
		{"defined in 5 files", Input{Files: append(definers("foo", 5), File{Path: "a", Refs: []string{"foo"}})}, []identEdge{
			{"a", "d0", "foo", 1}, {"a", "d1", "foo", 1}, {"a", "d2", "foo", 1}, {"a", "d3", "foo", 1}, {"a", "d4", "foo", 1},
		}},
		{"defined in 6 files ×0.1", Input{Files: append(definers("foo", 6), File{Path: "a", Refs: []string{"foo"}})}, []identEdge{
			{"a", "d0", "foo", 0.1}, {"a", "d1", "foo", 0.1}, {"a", "d2", "foo", 0.1},
			{"a", "d3", "foo", 0.1}, {"a", "d4", "foo", 0.1}, {"a", "d5", "foo", 0.1},
		}},
		{"sqrt applied once for 3 definers", Input{Files: append(definers("foo", 3), File{Path: "a", Refs: refs("foo", 4)})}, []identEdge{
			{"a", "d0", "foo", 2}, {"a", "d1", "foo", 2}, {"a", "d2", "foo", 2},
		}},
		{"sqrt applied once with mul", Input{
			Files:           append(definers("foo", 3), File{Path: "a", Refs: refs("foo", 4)}),
			MentionedIdents: []string{"foo"},
		}, []identEdge{
			{"a", "d0", "foo", 20}, {"a", "d1", "foo", 20}, {"a", "d2", "foo", 20},
		}},
		{"all factors", Input{
			Files:           append(definers("_long_name", 6), File{Path: "a", Refs: refs("_long_name", 16)}),
			Focus:           []string{"a"},
			MentionedIdents: []string{"_long_name"},
		}, func() []identEdge {
			// 10 (mentioned) · 10 (long) · 0.1 (underscore) · 0.1 (6 definers) · 50 (focus) · √16
			var out []identEdge
			for i := range 6 {
				out = append(out, identEdge{"a", "d" + string(rune('0'+i)), "_long_name", 200})
			}
			return out
		}()},
		{"self reference kept", Input{Files: []File{{Path: "a", Defs: []string{"foo"}, Refs: []string{"foo", "bar"}}, {Path: "b", Refs: []string{"x"}}}},
			[]identEdge{{"a", "a", "foo", 1}}},
		{"unreferenced definition self-edge 0.1", Input{
			Files: []File{
				{Path: "a", Defs: []string{"unusedLongName", "foo"}, Refs: []string{"bar"}},
				{Path: "b", Defs: []string{"bar"}, Refs: []string{"foo"}},
			},
			Focus:           []string{"a"},
			MentionedIdents: []string{"unusedLongName"},
		}, []identEdge{
			{"a", "a", "unusedLongName", 0.1}, // no multiplier despite focus, mention and length
			{"a", "b", "bar", 50},
			{"b", "a", "foo", 1},
		}},
		{"mentioned unreferenced definition with MentionedUnused", Input{
			Files: []File{
				{Path: "a", Defs: []string{"unusedLongName", "quiet"}, Refs: []string{"bar"}},
				{Path: "b", Defs: []string{"bar"}},
			},
			MentionedIdents: []string{"unusedLongName"},
			Weights:         Weights{MentionedUnused: 10},
		}, []identEdge{
			{"a", "a", "quiet", 0.1},
			{"a", "a", "unusedLongName", 1}, // 0.1 · 10, and nothing for its length
			{"a", "b", "bar", 1},
		}},
		{"duplicate definitions count once", Input{Files: []File{
			{Path: "a", Refs: []string{"foo"}},
			{Path: "b", Defs: []string{"foo", "foo", "foo"}},
		}}, []identEdge{{"a", "b", "foo", 1}}},
		{"reference to undefined ident ignored", Input{Files: []File{
			{Path: "a", Refs: []string{"nowhere", "foo"}},
			{Path: "b", Defs: []string{"foo"}},
		}}, []identEdge{{"a", "b", "foo", 1}}},
		{"only undefined references: no fallback", Input{Files: []File{
			{Path: "a", Defs: []string{"foo"}, Refs: []string{"nowhere"}},
			{Path: "b", Defs: []string{"foo", "bar"}},
		}}, []identEdge{{"a", "a", "foo", 0.1}, {"b", "b", "bar", 0.1}, {"b", "b", "foo", 0.1}}},
		{"no references at all", Input{
			Files: []File{
				{Path: "a", Defs: []string{"foo", "getValue"}},
				{Path: "b", Defs: []string{"foo", "bar", "bar"}},
				{Path: "c", Defs: []string{""}, Refs: []string{""}},
			},
			Focus: []string{"b"},
		}, []identEdge{
			{"a", "a", "foo", 1},
			{"a", "a", "getValue", 10},
			{"a", "b", "foo", 1},
			{"b", "a", "foo", 50},
			{"b", "b", "bar", 50},
			{"b", "b", "foo", 50},
		}},
		{"empty names ignored", Input{Files: []File{{Path: "a", Defs: []string{""}, Refs: []string{"", ""}}}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := identEdges(tc.in)
			if diff := gocmp.Diff(tc.want, got, approx); diff != "" {
				t.Errorf("identEdges(%v) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestIsLongStyled(t *testing.T) {
	for _, tc := range []struct {
		ident string
		want  bool
	}{
		{"getValue", true},
		{"GetValue", true},
		{"get_value", true},
		{"get-value", true},
		{"GET_VALUE", true}, // snake with letters, upper case only
		{"getVal", false},
		{"short_x", false},
		{"HTTP", false},
		{"HTTPSERVER", false},
		{"httpserver", false},
		{"12345678", false},
		{"1234_678", false},
		{"", false},
	} {
		if got := isLongStyled(tc.ident); got != tc.want {
			t.Errorf("isLongStyled(%q) = %v, want %v", tc.ident, got, tc.want)
		}
	}
}

func TestPersonalization(t *testing.T) {
	files := []File{
		{Path: "pkg/server/http.go"},
		{Path: "pkg/db/store.go"},
		{Path: "README"},
		{Path: ".bashrc"},
		{Path: "archive.tar.gz"},
	}
	tests := []struct {
		name string
		in   Input
		want []float64 // by sorted path: .bashrc, README, archive.tar.gz, pkg/db/store.go, pkg/server/http.go
	}{
		{"none", Input{}, []float64{0, 0, 0, 0, 0}},
		{"focus", Input{Focus: []string{"pkg/db/store.go"}}, []float64{0, 0, 0, 1, 0}},
		{"mentioned file", Input{MentionedFiles: []string{"README"}}, []float64{0, 1, 0, 0, 0}},
		{"focus and mentioned is max", Input{Focus: []string{"README"}, MentionedFiles: []string{"README"}}, []float64{0, 1, 0, 0, 0}},
		{"path element", Input{MentionedIdents: []string{"server"}}, []float64{0, 0, 0, 0, 1}},
		{"directory prefix", Input{MentionedIdents: []string{"pkg"}}, []float64{0, 0, 0, 1, 1}},
		{"basename", Input{MentionedIdents: []string{"store.go"}}, []float64{0, 0, 0, 1, 0}},
		{"basename without extension", Input{MentionedIdents: []string{"http", "archive.tar"}}, []float64{0, 0, 1, 0, 1}},
		{"leading dot is no extension", Input{MentionedIdents: []string{"", ".bashrc"}}, []float64{1, 0, 0, 0, 0}},
		{"idents add once", Input{MentionedIdents: []string{"pkg", "db", "store"}}, []float64{0, 0, 0, 1, 1}},
		{"all", Input{
			Focus:           []string{"pkg/db/store.go"},
			MentionedFiles:  []string{"pkg/db/store.go", "README"},
			MentionedIdents: []string{"db", "README"},
		}, []float64{0, 2, 0, 2, 0}},
		{"unknown paths ignored", Input{Focus: []string{"nope"}, MentionedFiles: []string{"nope"}, MentionedIdents: []string{"nope"}}, []float64{0, 0, 0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Files = files
			s := prepare(tc.in)
			var got []float64
			for f := range int32(len(s.paths)) {
				got = append(got, s.personalization(f))
			}
			if diff := gocmp.Diff(tc.want, got); diff != "" {
				t.Errorf("personalization(%v) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// TestRankScores checks Rank end to end against a file graph and PageRank
// computed independently from the documented rules.
func TestRankScores(t *testing.T) {
	in := Input{Files: []File{
		{Path: "main.go", Defs: []string{"main"}, Refs: []string{"NewServer", "NewServer", "Config"}},
		{Path: "server.go", Defs: []string{"NewServer", "Server"}, Refs: []string{"Config"}},
		{Path: "config.go", Defs: []string{"Config"}},
		{Path: "empty.go"},
	}}
	// Nodes: 0 config.go, 1 main.go, 2 server.go.
	wNew := 10 * math.Sqrt2
	g := NewGraph(3, []Edge{
		{From: 1, To: 1, Weight: 0.1},  // main, unreferenced
		{From: 1, To: 2, Weight: wNew}, // NewServer
		{From: 1, To: 0, Weight: 1},    // Config
		{From: 2, To: 0, Weight: 1},    // Config
		{From: 2, To: 2, Weight: 0.1},  // Server, unreferenced
	})
	pr := PageRank(g, nil, nil)
	tMain, tServer := 0.1+wNew+1, 1.1
	want := &Result{
		Entries: []Entry{
			{Path: "config.go", Name: "Config", Score: pr[1]*1/tMain + pr[2]*1/tServer},
			{Path: "server.go", Name: "NewServer", Score: pr[1] * wNew / tMain},
			{Path: "server.go", Name: "Server", Score: pr[2] * 0.1 / tServer},
			{Path: "main.go", Name: "main", Score: pr[1] * 0.1 / tMain},
			{Path: "empty.go"},
		},
		Files: map[string]float64{"config.go": pr[0], "main.go": pr[1], "server.go": pr[2]},
		Links: 5,
	}
	got := Rank(in)
	if diff := gocmp.Diff(want, got, approx, ignoreIterations); diff != "" {
		t.Errorf("Rank(%v) mismatch (-want +got):\n%s", in, diff)
	}
}

// ignoreIterations leaves Result.Iterations out of a comparison with a
// result written by hand.
var ignoreIterations = cmpopts.IgnoreFields(Result{}, "Iterations")

// fixture is a small repository:
//
//	cmd/app/main.go → server, config
//	server/server.go → config, log
//	config/config.go → log, itself
//	log/logger.go: no out-edges (dangling)
//	db/store.go → log, config
//	util/strings.go → log, itself (Reverse is never referenced)
//	README.md: no tags
func fixture() Input {
	return Input{Files: []File{
		{Path: "cmd/app/main.go", Defs: []string{"main"}, Refs: []string{"NewServer", "Run", "LoadConfig"}},
		{Path: "server/server.go", Defs: []string{"NewServer", "Server", "Run"}, Refs: []string{"LoadConfig", "Logger", "Logger", "Server"}},
		{Path: "config/config.go", Defs: []string{"LoadConfig", "Config"}, Refs: []string{"Logger", "Config"}},
		{Path: "log/logger.go", Defs: []string{"Logger"}, Refs: []string{"fmt"}},
		{Path: "db/store.go", Defs: []string{"OpenStore", "Store"}, Refs: []string{"Logger", "Config", "Config", "Store"}},
		{Path: "util/strings.go", Defs: []string{"Reverse"}, Refs: []string{"strings", "Logger"}},
		{Path: "README.md"},
	}}
}

// position returns the index of the entry (path, name) in r.Entries, or -1.
func position(r *Result, path, name string) int {
	return slices.IndexFunc(r.Entries, func(e Entry) bool { return e.Path == path && e.Name == name })
}

// scoreOf returns the score of the entry (path, name) in r.Entries.
func scoreOf(t *testing.T, r *Result, path, name string) float64 {
	t.Helper()
	i := position(r, path, name)
	if i < 0 {
		t.Fatalf("Rank(...).Entries lacks (%q, %q)", path, name)
	}
	return r.Entries[i].Score
}

// checkCoverage checks that focus files never appear in r.Entries, that
// every other file of in appears, that file-only entries appear at most
// once, that definition entries come first and are sorted.
func checkCoverage(t *testing.T, in Input, r *Result) {
	t.Helper()
	focus := map[string]bool{}
	for _, p := range in.Focus {
		focus[p] = true
	}
	seen := map[string]int{} // file-only entries per path
	present := map[string]bool{}
	fileOnly := false
	for i, e := range r.Entries {
		if focus[e.Path] {
			t.Errorf("Rank(%v).Entries[%d] = %v, want no focus file", in, i, e)
		}
		present[e.Path] = true
		if e.Name == "" {
			fileOnly = true
			seen[e.Path]++
			if seen[e.Path] > 1 {
				t.Errorf("Rank(%v): file-only entry %q listed twice", in, e.Path)
			}
			continue
		}
		if fileOnly {
			t.Errorf("Rank(%v).Entries[%d] = %v, want definitions before file-only entries", in, i, e)
		}
		if i > 0 && r.Entries[i-1].Score < e.Score {
			t.Errorf("Rank(%v).Entries[%d:%d] = %v, want descending scores", in, i-1, i+1, r.Entries[i-1:i+1])
		}
	}
	for _, f := range in.Files {
		if !present[f.Path] && !focus[f.Path] {
			t.Errorf("Rank(%v): file %q missing from Entries", in, f.Path)
		}
	}
}

func TestRankFixture(t *testing.T) {
	base := fixture()
	r0 := Rank(base)
	checkCoverage(t, base, r0)

	// Without focus: Logger is referenced by three files and ranks first.
	if got := r0.Entries[0]; got.Path != "log/logger.go" || got.Name != "Logger" {
		t.Errorf("Rank(%v).Entries[0] = %v, want log/logger.go Logger", base, got)
	}
	// Every file but the README is a node; README is last, with score 0.
	if diff := gocmp.Diff(Entry{Path: "README.md"}, r0.Entries[len(r0.Entries)-1]); diff != "" {
		t.Errorf("Rank(%v) last entry mismatch (-want +got):\n%s", base, diff)
	}
	if len(r0.Files) != 6 {
		t.Errorf("Rank(%v).Files = %v, want 6 nodes", base, r0.Files)
	}
	var sum float64
	for _, v := range r0.Files {
		sum += v
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Errorf("Rank(%v).Files sums to %v, want 1", base, sum)
	}

	t.Run("focus", func(t *testing.T) {
		in := fixture()
		in.Focus = []string{"cmd/app/main.go"}
		r := Rank(in)
		checkCoverage(t, in, r)
		// main.go references NewServer, Run and LoadConfig: they move up.
		for _, d := range [][2]string{{"server/server.go", "NewServer"}, {"server/server.go", "Run"}, {"config/config.go", "LoadConfig"}} {
			before, after := scoreOf(t, r0, d[0], d[1]), scoreOf(t, r, d[0], d[1])
			if after <= 2*before {
				t.Errorf("Rank(%v): %v scores %v, want well above %v without focus", in, d, after, before)
			}
		}
		// LoadConfig, referenced by main.go, overtakes Logger and Config.
		if before, after := position(r0, "config/config.go", "LoadConfig"), position(r, "config/config.go", "LoadConfig"); after >= before {
			t.Errorf("Rank(%v): LoadConfig at %d, want above %d", in, after, before)
		}
		// db/store.go and util/strings.go are unreachable from main.go.
		for _, d := range [][2]string{{"db/store.go", "Store"}, {"util/strings.go", "Reverse"}} {
			if got := scoreOf(t, r, d[0], d[1]); got > 1e-9 {
				t.Errorf("Rank(%v): %v scores %v, want ~0", in, d, got)
			}
		}
		if got := r.Entries[0]; got.Name != "NewServer" && got.Name != "Run" && got.Name != "LoadConfig" {
			t.Errorf("Rank(%v).Entries[0] = %v, want a definition main.go references", in, got)
		}
		if position(r, "cmd/app/main.go", "main") != -1 || position(r, "cmd/app/main.go", "") != -1 {
			t.Errorf("Rank(%v) lists the focus file", in)
		}
		if _, ok := r.Files["cmd/app/main.go"]; !ok {
			t.Errorf("Rank(%v).Files lacks the focus file, want it as a node", in)
		}
	})

	t.Run("focus not a node", func(t *testing.T) {
		in := fixture()
		in.Focus = []string{"README.md"}
		r := Rank(in)
		checkCoverage(t, in, r)
		// README.md has no edges: personalization sums to 0, so uniform.
		if diff := gocmp.Diff(r0.Files, r.Files); diff != "" {
			t.Errorf("Rank(%v).Files mismatch (-want +got):\n%s", in, diff)
		}
	})

	t.Run("mentioned ident", func(t *testing.T) {
		in := fixture()
		in.MentionedIdents = []string{"OpenStore"}
		r := Rank(in)
		checkCoverage(t, in, r)
		// OpenStore is unreferenced: its self-edge is not multiplied, so
		// mentioning it changes nothing.
		if diff := gocmp.Diff(r0, r); diff != "" {
			t.Errorf("Rank(%v) mismatch (-want +got):\n%s", in, diff)
		}
		in.MentionedIdents = []string{"Config"}
		r = Rank(in)
		checkCoverage(t, in, r)
		before, after := position(r0, "config/config.go", "Config"), position(r, "config/config.go", "Config")
		if after >= before {
			t.Errorf("Rank(%v): Config at %d, want above %d", in, after, before)
		}
		if r.Entries[0].Name != "Config" {
			t.Errorf("Rank(%v).Entries[0] = %v, want Config", in, r.Entries[0])
		}
	})

	t.Run("mentioned file", func(t *testing.T) {
		in := fixture()
		in.MentionedFiles = []string{"util/strings.go"}
		r := Rank(in)
		checkCoverage(t, in, r)
		if r.Files["util/strings.go"] <= 2*r0.Files["util/strings.go"] {
			t.Errorf("Rank(%v).Files[util/strings.go] = %v, want well above %v", in, r.Files["util/strings.go"], r0.Files["util/strings.go"])
		}
		before, after := position(r0, "util/strings.go", "Reverse"), position(r, "util/strings.go", "Reverse")
		if after >= before {
			t.Errorf("Rank(%v): Reverse at %d, want above %d", in, after, before)
		}
		// A mentioned file that is not a node has no effect.
		in.MentionedFiles = []string{"README.md", "not/there.go"}
		if diff := gocmp.Diff(r0, Rank(in)); diff != "" {
			t.Errorf("Rank(%v) mismatch (-want +got):\n%s", in, diff)
		}
	})

	t.Run("path part ident", func(t *testing.T) {
		for _, ident := range []string{"db", "store", "store.go"} {
			in := fixture()
			in.MentionedIdents = []string{ident}
			r := Rank(in)
			checkCoverage(t, in, r)
			if r.Files["db/store.go"] <= 2*r0.Files["db/store.go"] {
				t.Errorf("Rank(%v).Files[db/store.go] = %v, want well above %v", in, r.Files["db/store.go"], r0.Files["db/store.go"])
			}
			before, after := position(r0, "db/store.go", "Store"), position(r, "db/store.go", "Store")
			if after >= before {
				t.Errorf("Rank(%v): Store at %d, want above %d", in, after, before)
			}
		}
	})

	t.Run("all focus", func(t *testing.T) {
		in := fixture()
		for _, f := range in.Files {
			in.Focus = append(in.Focus, f.Path)
		}
		r := Rank(in)
		if len(r.Entries) != 0 {
			t.Errorf("Rank(%v).Entries = %v, want none", in, r.Entries)
		}
		if len(r.Files) != 6 {
			t.Errorf("Rank(%v).Files = %v, want 6 nodes", in, r.Files)
		}
	})
}

func shuffled(rng *rand.Rand, in Input) Input {
	out := Input{
		Focus:           slices.Clone(in.Focus),
		MentionedFiles:  slices.Clone(in.MentionedFiles),
		MentionedIdents: slices.Clone(in.MentionedIdents),
	}
	for _, f := range in.Files {
		out.Files = append(out.Files, File{Path: f.Path, Defs: slices.Clone(f.Defs), Refs: slices.Clone(f.Refs)})
	}
	for _, s := range [][]string{out.Focus, out.MentionedFiles, out.MentionedIdents} {
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	}
	rng.Shuffle(len(out.Files), func(i, j int) { out.Files[i], out.Files[j] = out.Files[j], out.Files[i] })
	for _, f := range out.Files {
		rng.Shuffle(len(f.Defs), func(i, j int) { f.Defs[i], f.Defs[j] = f.Defs[j], f.Defs[i] })
		rng.Shuffle(len(f.Refs), func(i, j int) { f.Refs[i], f.Refs[j] = f.Refs[j], f.Refs[i] })
	}
	return out
}

func TestRankDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	inputs := []Input{fixture(), synthetic(300, 2000, 20000, 13)}
	inputs[1].Focus = []string{inputs[1].Files[5].Path, inputs[1].Files[77].Path}
	inputs[1].MentionedIdents = []string{"Ident_42", "ident17", "f12"}
	inputs[1].MentionedFiles = []string{inputs[1].Files[9].Path}
	for _, in := range inputs {
		want := Rank(in)
		if diff := gocmp.Diff(want, Rank(in)); diff != "" {
			t.Errorf("Rank(%v) differs between runs (-want +got):\n%s", in, diff)
		}
		for range 3 {
			sh := shuffled(rng, in)
			if diff := gocmp.Diff(want, Rank(sh)); diff != "" {
				t.Errorf("Rank(%v) differs with shuffled input (-want +got):\n%s", sh, diff)
			}
		}
	}
}

func TestRankEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want *Result
	}{
		{"empty", Input{}, &Result{Entries: []Entry{}, Files: map[string]float64{}}},
		{"only focus and mentions", Input{Focus: []string{"a"}, MentionedFiles: []string{"b"}, MentionedIdents: []string{"c"}},
			&Result{Entries: []Entry{}, Files: map[string]float64{}}},
		{"files without tags", Input{Files: []File{{Path: "b"}, {Path: "a"}, {Path: "c"}}, Focus: []string{"c", "zzz"}},
			&Result{Entries: []Entry{{Path: "a"}, {Path: "b"}}, Files: map[string]float64{}}},
		{"reference to undefined ident", Input{Files: []File{{Path: "a", Refs: []string{"ghost"}}, {Path: "b"}}},
			&Result{Entries: []Entry{{Path: "a"}, {Path: "b"}}, Files: map[string]float64{}}},
		{"single self-edge", Input{Files: []File{{Path: "a", Defs: []string{"x"}}}},
			&Result{Entries: []Entry{{Path: "a", Name: "x", Score: 1}}, Files: map[string]float64{"a": 1}, Links: 1}},
		{"focus not in files", Input{Files: []File{{Path: "a", Defs: []string{"x"}}}, Focus: []string{"b"}, MentionedFiles: []string{"c"}},
			&Result{Entries: []Entry{{Path: "a", Name: "x", Score: 1}}, Files: map[string]float64{"a": 1}, Links: 1}},
		{"dangling definer", Input{Files: []File{{Path: "a", Refs: []string{"x"}}, {Path: "b", Defs: []string{"x"}}}},
			// a→b only, so b is dangling and its rank is spread uniformly:
			//   x_a = 0.85·x_b/2 + 0.15/2,  x_a + x_b = 1  ⇒  x_a = 0.5/1.425.
			// (b, x) gets all of a's rank; a is listed as a file-only entry.
			&Result{
				Entries: []Entry{{Path: "b", Name: "x", Score: 0.5 / 1.425}, {Path: "a", Score: 0.5 / 1.425}},
				Files:   map[string]float64{"a": 0.5 / 1.425, "b": 1 - 0.5/1.425},
				Links:   1,
			}},
		{"duplicate paths merged", Input{Files: []File{
			{Path: "a", Refs: []string{"x"}},
			{Path: "b", Defs: []string{"x"}},
			{Path: "a", Refs: []string{"x", "x", "x"}},
		}}, &Result{
			Entries: []Entry{{Path: "b", Name: "x", Score: 0.5 / 1.425}, {Path: "a", Score: 0.5 / 1.425}},
			Files:   map[string]float64{"a": 0.5 / 1.425, "b": 1 - 0.5/1.425},
			Links:   1,
		}},
		{"odd paths", Input{Files: []File{{Path: ""}, {Path: "/"}, {Path: "a//b"}, {Path: "."}}, MentionedIdents: []string{"", "a", "b"}},
			&Result{Entries: []Entry{{Path: ""}, {Path: "."}, {Path: "/"}, {Path: "a//b"}}, Files: map[string]float64{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Rank(tc.in)
			if diff := gocmp.Diff(tc.want, got, cmpopts.EquateApprox(0, 1e-5), ignoreIterations); diff != "" {
				t.Errorf("Rank(%v) mismatch (-want +got):\n%s", tc.in, diff)
			}
			if (len(got.Files) == 0) != (got.Iterations == 0) {
				t.Errorf("Rank(%v) ran %d iterations for %d nodes", tc.in, got.Iterations, len(got.Files))
			}
		})
	}
}

func TestRankFocusEverywhere(t *testing.T) {
	// Focus files referencing each other: every file is focus, so Entries is
	// empty, and a non-focus file referenced only by focus files is listed.
	in := Input{
		Files: []File{
			{Path: "a", Defs: []string{"A"}, Refs: []string{"B", "C"}},
			{Path: "b", Defs: []string{"B"}, Refs: []string{"A"}},
			{Path: "c", Defs: []string{"C"}},
		},
		Focus: []string{"a", "b", "a"},
	}
	r := Rank(in)
	checkCoverage(t, in, r)
	if len(r.Entries) != 1 || r.Entries[0].Path != "c" || r.Entries[0].Name != "C" {
		t.Errorf("Rank(%v).Entries = %v, want only c C", in, r.Entries)
	}
}

// TestFileGraph checks that the graph Rank runs PageRank on is the sum of
// its (edge, ident) pairs over the files that have an edge, as NewGraph
// builds it.
func TestFileGraph(t *testing.T) {
	focused := fixture()
	focused.Focus = []string{"db/store.go"}
	syn := synthetic(200, 1500, 8000, 21)
	for _, in := range []Input{fixture(), focused, syn} {
		pairs := identEdges(in)
		var paths []string
		for _, e := range pairs {
			paths = append(paths, e.From, e.To)
		}
		slices.Sort(paths)
		paths = slices.Compact(paths)
		var edges []Edge
		for _, e := range pairs {
			from, _ := slices.BinarySearch(paths, e.From)
			to, _ := slices.BinarySearch(paths, e.To)
			edges = append(edges, Edge{From: from, To: to, Weight: e.Weight})
		}
		want := NewGraph(len(paths), edges)

		s := prepare(in)
		g, nodeFile := s.fileGraph()
		var gotPaths []string
		for _, f := range nodeFile {
			gotPaths = append(gotPaths, s.paths[f])
		}
		if diff := gocmp.Diff(paths, gotPaths); diff != "" {
			t.Errorf("fileGraph(%v) nodes mismatch (-want +got):\n%s", in, diff)
		}
		if diff := gocmp.Diff(want.Edges(), g.Edges(), approx); diff != "" {
			t.Errorf("fileGraph(%v) edges mismatch (-want +got):\n%s", in, diff)
		}
		for i := range g.Len() {
			if got, want := g.OutWeight(i), want.OutWeight(i); math.Abs(got-want) > 1e-9*want {
				t.Errorf("fileGraph(%v).OutWeight(%d) = %v, want %v", in, i, got, want)
			}
		}
	}
}

// explicitRank ranks in the plain way: build the file graph with every
// (edge, identifier) pair summed, run PageRank on it, and spread each
// node's rank over its pairs. Rank must agree with it.
func explicitRank(in Input) (map[string]float64, map[[2]string]float64) {
	s := prepare(in)
	g, nodeFile := s.fileGraph()
	pers := make([]float64, len(nodeFile))
	for i, f := range nodeFile {
		pers[i] = s.personalization(f)
	}
	pr := PageRank(g, pers, nil)
	files := make(map[string]float64)
	defs := make(map[[2]string]float64)
	var buf []contrib
	for i, f := range nodeFile {
		files[s.paths[f]] = pr[i]
		t := g.OutWeight(i)
		if t == 0 {
			continue
		}
		buf = s.edgesFrom(f, buf)
		for _, c := range buf {
			defs[[2]string{s.paths[s.defFile[c.slot]], s.names[s.slotIdent[c.slot]]}] += pr[i] * c.w / t
		}
	}
	return files, defs
}

func TestRankMatchesExplicitGraph(t *testing.T) {
	for seed := range uint64(6) {
		in := synthetic(120, 300, 4000, seed)
		in.Focus = []string{in.Files[int(seed)%len(in.Files)].Path}
		if seed%2 == 0 {
			in.MentionedIdents = []string{in.Files[3].Defs[0]}
		}
		wantFiles, wantDefs := explicitRank(in)
		got := Rank(in)
		if diff := gocmp.Diff(wantFiles, got.Files, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
			t.Errorf("seed %d: file ranks differ from the explicit graph (-want +got):\n%s", seed, diff)
		}
		gotDefs := make(map[[2]string]float64)
		for _, e := range got.Entries {
			if e.Name != "" {
				gotDefs[[2]string{e.Path, e.Name}] = e.Score
			}
		}
		for k := range wantDefs {
			if slices.Contains(in.Focus, k[0]) {
				delete(wantDefs, k)
			}
		}
		if diff := gocmp.Diff(wantDefs, gotDefs, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
			t.Errorf("seed %d: definition scores differ from the explicit graph (-want +got):\n%s", seed, diff)
		}
	}
}

func TestRefCounts(t *testing.T) {
	in := synthetic(80, 200, 3000, 7)
	counted := in
	counted.Files = nil
	for _, f := range in.Files {
		cf := File{Path: f.Path, Defs: f.Defs}
		index := map[string]int{}
		for _, r := range f.Refs {
			if i, ok := index[r]; ok {
				cf.RefCounts[i]++
				continue
			}
			index[r] = len(cf.Refs)
			cf.Refs = append(cf.Refs, r)
			cf.RefCounts = append(cf.RefCounts, 1)
		}
		counted.Files = append(counted.Files, cf)
	}
	if diff := gocmp.Diff(Rank(in), Rank(counted)); diff != "" {
		t.Errorf("Rank with RefCounts differs from Rank with repeated Refs (-want +got):\n%.2000s", diff)
	}
}

// TestReverseMatchesExplicitGraph builds the graph with reverse edges
// explicitly, ranks it with PageRank and credits each reverse edge's flow
// to the referencing file's definitions; Rank with Reverse must agree.
func TestReverseMatchesExplicitGraph(t *testing.T) {
	const beta = 0.3
	for seed := range uint64(4) {
		in := synthetic(60, 150, 1500, seed+10)
		in.Focus = []string{in.Files[int(seed)].Path}
		in.Reverse = beta
		s := prepare(in)
		// Explicit edges over all files, then drop files without edges.
		type flow struct {
			from, to int32
			w        float64
			slot     int32 // forward: the definition; reverse: -1 (the file's definitions)
		}
		var flows []flow
		for f := range int32(len(s.paths)) {
			for _, c := range s.edgesFrom(f, nil) {
				d := s.defFile[c.slot]
				flows = append(flows, flow{f, d, c.w, c.slot})
				if s.referenced[s.slotIdent[c.slot]] {
					flows = append(flows, flow{d, f, beta * c.w, -1})
				}
			}
		}
		isNode := make([]bool, len(s.paths))
		for _, fl := range flows {
			isNode[fl.from], isNode[fl.to] = true, true
		}
		nodeOf := make([]int, len(s.paths))
		var nodeFile []int32
		for f, ok := range isNode {
			nodeOf[f] = -1
			if ok {
				nodeOf[f] = len(nodeFile)
				nodeFile = append(nodeFile, int32(f))
			}
		}
		var edges []Edge
		for _, fl := range flows {
			edges = append(edges, Edge{From: nodeOf[fl.from], To: nodeOf[fl.to], Weight: fl.w})
		}
		g := NewGraph(len(nodeFile), edges)
		pers := make([]float64, len(nodeFile))
		for i, f := range nodeFile {
			pers[i] = s.personalization(f)
		}
		pr := PageRank(g, pers, nil)
		want := map[[2]string]float64{}
		for _, fl := range flows {
			i := nodeOf[fl.from]
			v := pr[i] * fl.w / g.OutWeight(i)
			if fl.slot >= 0 {
				want[[2]string{s.paths[fl.to], s.names[s.slotIdent[fl.slot]]}] += v
				continue
			}
			slots := s.fileDefSlot[s.fileDefStart[fl.to]:s.fileDefStart[fl.to+1]]
			for _, slot := range slots {
				want[[2]string{s.paths[fl.to], s.names[s.slotIdent[slot]]}] += v / float64(len(slots))
			}
		}
		for k := range want {
			if slices.Contains(in.Focus, k[0]) {
				delete(want, k)
			}
		}
		got := map[[2]string]float64{}
		for _, e := range Rank(in).Entries {
			if e.Name != "" {
				got[[2]string{e.Path, e.Name}] = e.Score
			}
		}
		if diff := gocmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
			t.Errorf("seed %d: scores with reverse edges differ from the explicit graph (-want +got):\n%.3000s", seed, diff)
		}
	}
}

// TestWeights: Input.Weights replaces Aider's multipliers, and zero
// fields keep them.
func TestWeights(t *testing.T) {
	in := Input{Files: []File{
		{Path: "a.go", Defs: []string{"Run"}},
		{Path: "b.go", Defs: []string{"parseFlags"}},
		{Path: "c.go", Refs: []string{"Run", "Run", "parseFlags"}},
	}}
	order := func(in Input) []string {
		var out []string
		for _, e := range Rank(in).Entries {
			if e.Name != "" {
				out = append(out, e.Name)
			}
		}
		return out
	}
	// Aider's ×10 for a long camelCase name puts parseFlags first, though
	// Run is used twice.
	if got := order(in); !slices.Equal(got, []string{"parseFlags", "Run"}) {
		t.Fatalf("Aider's weights rank %v, want [parseFlags Run]", got)
	}
	same := in
	same.Weights = Weights{CommonIdent: commonIdentMul}
	if got := order(same); !slices.Equal(got, []string{"parseFlags", "Run"}) {
		t.Errorf("zero fields of Weights changed the ranking: %v", got)
	}
	in.Weights = Weights{LongIdent: 1}
	if got := order(in); !slices.Equal(got, []string{"Run", "parseFlags"}) {
		t.Errorf("with LongIdent 1, ranked %v, want [Run parseFlags]", got)
	}
}

// TestKeysOfOneIdent: a file that defines an identifier under two keys
// has one entry for it, named by the identifier, with the score of both;
// the edges weigh by the identifier, and by KeyWeight.
func TestKeysOfOneIdent(t *testing.T) {
	in := Input{Files: []File{
		{Path: "def.go", Defs: []string{Key("Open", "pkg"), Key("Open", "any"), "other"}},
		{Path: "a.go", Refs: []string{Key("Open", "pkg")}},
		{Path: "b.go", Refs: []string{Key("Open", "any")}},
		{Path: "c.go", Refs: []string{"other"}},
	}}
	res := Rank(in)
	var names []string
	score := 0.0
	for _, e := range res.Entries {
		if e.Path == "def.go" {
			names = append(names, e.Name)
			if e.Name == "Open" {
				score = e.Score
			}
		}
	}
	if !slices.Equal(names, []string{"Open", "other"}) && !slices.Equal(names, []string{"other", "Open"}) {
		t.Fatalf("entries of def.go: %q, want Open and other once each", names)
	}
	// Each referencing file gives all its rank to def.go through its one
	// reference; Open's score is what a.go and b.go send, other's what c.go
	// sends: twice as much.
	var other float64
	for _, e := range res.Entries {
		if e.Path == "def.go" && e.Name == "other" {
			other = e.Score
		}
	}
	if math.Abs(score-2*other) > 1e-9 {
		t.Errorf("score of Open %g, want the sum of its two keys, twice other's %g", score, other)
	}
	if Ident(Key("Open", "pkg")) != "Open" || Key("Open", "") != "Open" {
		t.Errorf("Key/Ident do not round-trip")
	}
	// KeyWeight scales the edges of a key: a file with two references
	// sends less along the lighter one.
	mixed := Input{Files: []File{
		{Path: "x.go", Defs: []string{Key("F", "p")}},
		{Path: "y.go", Defs: []string{Key("F", "any")}},
		{Path: "u.go", Refs: []string{Key("F", "p"), Key("F", "any")}},
	}}
	if r := Rank(mixed); r.Files["x.go"] != r.Files["y.go"] {
		t.Errorf("without KeyWeight, x.go %g and y.go %g differ", r.Files["x.go"], r.Files["y.go"])
	}
	mixed.KeyWeight = func(k string) float64 {
		if strings.HasSuffix(k, "any") {
			return 0.25
		}
		return 1
	}
	if r := Rank(mixed); !(r.Files["x.go"] > r.Files["y.go"]) {
		t.Errorf("with the any keys at 0.25, x.go %g, want above y.go %g", r.Files["x.go"], r.Files["y.go"])
	}
}

// TestSelfEdgeOncePerIdent: a definition published under several keys
// has a self-edge only when none of them is referenced, and one then.
func TestSelfEdgeOncePerIdent(t *testing.T) {
	in := Input{Files: []File{
		{Path: "def.go", Defs: []string{Key("Used", "a"), Key("Used", "b"), Key("Idle", "a"), Key("Idle", "b")}},
		{Path: "use.go", Refs: []string{Key("Used", "a")}},
	}}
	// Pairs: use.go → def.go for Used, and one self-edge for Idle.
	if got := Rank(in).Links; got != 2 {
		t.Errorf("Links = %d, want 2: one use, one self-edge for Idle's two keys", got)
	}
	var unused int
	for l := range NewFileGraph(in).Links() {
		if l.Kind == LinkUnused {
			unused++
			if Ident(l.Ident) != "Idle" {
				t.Errorf("self-edge for %q, want Idle's only", l.Ident)
			}
		}
	}
	if unused != 1 {
		t.Errorf("%d self-edges, want 1", unused)
	}
}

// TestScale: Input.Scale multiplies the scores of a file's definitions
// and reorders the list by them, and leaves the files' ranks alone.
func TestScale(t *testing.T) {
	files := []File{
		{Path: "a.go", Defs: []string{"A"}, Refs: []string{"B"}},
		{Path: "b.go", Defs: []string{"B"}, Refs: []string{"A", "C"}},
		{Path: "c.go", Defs: []string{"C"}},
	}
	plain := Rank(Input{Files: files})
	scaled := Rank(Input{Files: files, Scale: map[string]float64{"c.go": 100, "a.go": math.NaN(), "b.go": -1}})
	if plain.Entries[0].Path == "c.go" {
		t.Fatalf("c.go is first without a scale; the test needs it lower: %+v", plain.Entries)
	}
	if scaled.Entries[0].Path != "c.go" {
		t.Errorf("scaled by 100, c.go is not first: %+v", scaled.Entries)
	}
	checkScaled(t, "a scale (bad factors ignored)", plain, scaled, "c.go", 100)
}

// checkScaled checks that scaled has the scores of plain, those of the
// file at p times f, and the same ranks of files.
func checkScaled(t *testing.T, what string, plain, scaled *Result, p string, f float64) {
	t.Helper()
	for _, e := range scaled.Entries {
		if e.Name == "" {
			continue
		}
		want := plainScore(plain, e.Path, e.Name)
		if e.Path == p {
			want *= f
		}
		if math.Abs(e.Score-want) > 1e-12 {
			t.Errorf("with %s, %s %s scores %g, want %g", what, e.Path, e.Name, e.Score, want)
		}
	}
	for q, r := range plain.Files {
		if scaled.Files[q] != r {
			t.Errorf("rank of %s = %g with %s, %g without", q, scaled.Files[q], what, r)
		}
	}
}

func plainScore(r *Result, path, name string) float64 {
	for _, e := range r.Entries {
		if e.Path == path && e.Name == name {
			return e.Score
		}
	}
	return math.NaN()
}

// TestTier checks that tiers order the entries tier by tier, definitions
// first, each tier in the order the entries have without tiers, and
// change nothing else.
func TestTier(t *testing.T) {
	in := synthetic(60, 200, 1500, 3)
	in.Files = append(in.Files, File{Path: "zz/alone.md"}, File{Path: "aa/alone.md"})
	in.Focus = nil
	plain := Rank(in)
	tier := map[string]int{"aa/alone.md": 2, "zz/alone.md": -1, "nowhere": 1}
	for i, f := range in.Files {
		if i%3 == 0 {
			tier[f.Path] = 1 + i%2
		}
	}
	in.Tier = tier
	tiered := Rank(in)
	if !maps.Equal(tiered.Files, plain.Files) || tiered.Links != plain.Links || len(tiered.Entries) != len(plain.Entries) {
		t.Fatalf("tiers changed the ranks, the links or the number of entries")
	}
	tierOf := func(e Entry) int { return max(tier[e.Path], 0) }
	// Expected: plain's definitions, stably by tier, then its file-only
	// entries, stably by tier.
	var want []Entry
	for _, defs := range []bool{true, false} {
		for t := range 3 {
			for _, e := range plain.Entries {
				if (e.Name != "") == defs && tierOf(e) == t {
					want = append(want, e)
				}
			}
		}
	}
	if !slices.Equal(tiered.Entries, want) {
		t.Errorf("tiered entries are not plain's by tier:\n got %v\nwant %v", tiered.Entries[:10], want[:10])
	}
	if slices.Equal(tiered.Entries, plain.Entries) {
		t.Errorf("the tiers changed no order; the test needs them to")
	}
}

// TestByName: the files of Input.ByName have no definition entries and
// are among the file-only entries, in the order of the others (graph
// nodes by rank, then the rest by path, tier by tier); the ranks, the
// links and every other entry stay as they were.
func TestByName(t *testing.T) {
	in := synthetic(60, 200, 1500, 5)
	in.Files = append(in.Files, File{Path: "zz/alone.md", Defs: []string{"#Alone"}})
	plain := Rank(in)
	byName := map[string]bool{"zz/alone.md": true}
	for i, f := range in.Files {
		if i%4 == 0 {
			byName[f.Path] = true
		}
	}
	in.ByName = byName
	got := Rank(in)
	if !maps.Equal(got.Files, plain.Files) || got.Links != plain.Links {
		t.Fatalf("ByName changed the ranks or the links")
	}
	// Expected: plain's definitions but those of the files by name, then
	// the file-only entries of the nodes by rank, the others by path.
	var want, tail []Entry
	for _, e := range plain.Entries {
		switch {
		case e.Name != "" && !byName[e.Path]:
			want = append(want, e)
		case e.Name == "" && !byName[e.Path]:
			tail = append(tail, e)
		}
	}
	for p := range byName {
		if _, ok := plain.Files[p]; !ok {
			tail = append(tail, Entry{Path: p})
		} else {
			tail = append(tail, Entry{Path: p, Score: plain.Files[p]})
		}
	}
	slices.SortStableFunc(tail, func(a, b Entry) int {
		_, na := plain.Files[a.Path]
		_, nb := plain.Files[b.Path]
		switch {
		case na != nb:
			return cmpBool(!na, !nb)
		case na:
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path))
		}
		return strings.Compare(a.Path, b.Path)
	})
	want = append(want, tail...)
	if !slices.Equal(got.Entries, want) {
		t.Errorf("entries with files by name:\n got %v\nwant %v", got.Entries[len(got.Entries)-20:], want[len(want)-20:])
	}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// TestLone checks Weights.Lone: it scales the definitions of a file that
// references no definition and has none referenced (lone.go), which
// otherwise keeps its whole teleport share; a file with a self-edge that
// references others (main.go) or is referenced (b.go) keeps its scores,
// and no rank of a file changes.
func TestLone(t *testing.T) {
	files := []File{
		{Path: "main.go", Defs: []string{"main"}, Refs: []string{"B"}},
		{Path: "b.go", Defs: []string{"B", "unused"}},
		{Path: "lone.go", Defs: []string{"X", "Y"}},
	}
	plain := Rank(Input{Files: files})
	scaled := Rank(Input{Files: files, Weights: Weights{Lone: 0.1}})
	if plainScore(plain, "lone.go", "X") <= plainScore(plain, "b.go", "B") {
		t.Fatalf("lone.go's X is below B with Aider's weights; the test needs it above: %+v", plain.Entries)
	}
	checkScaled(t, "Lone 0.1", plain, scaled, "lone.go", 0.1)
}

// TestUnweighedKeys: references to keys that weigh nothing in a query
// (KeyWeight 0) rank as if they were not there, to the bit: their file
// is no node by them, and the definitions only they reference keep the
// self-edge of a definition nothing references. On a synthetic graph, a
// file of references to "doc" keys that weigh 0 gives the same result,
// and the same file graph, as the graph without it and without the doc
// keys, with a focus and without, with reverse edges and without, and
// when no other reference is left.
func TestUnweighedKeys(t *testing.T) {
	for seed := range uint64(4) {
		base := synthetic(60, 150, 1500, seed)
		with := base
		with.Files = slices.Clone(base.Files)
		doc := File{Path: "zz/README.md"}
		for i, f := range base.Files {
			if i%3 == 0 && len(f.Defs) > 0 {
				// Each definer publishes its first name under a doc key too.
				with.Files[i].Defs = append(slices.Clone(f.Defs), Key(f.Defs[0], "doc"))
				doc.Refs = append(doc.Refs, Key(f.Defs[0], "doc"))
			}
		}
		with.Files = append(with.Files, doc)
		without := base
		without.Files = append(slices.Clone(base.Files), File{Path: doc.Path})
		weigh := func(k string) float64 {
			if strings.HasSuffix(k, "\x00doc") {
				return 0
			}
			return 1
		}
		with.KeyWeight, without.KeyWeight = weigh, weigh
		if seed%2 == 1 {
			with.Focus = []string{base.Files[5].Path}
			without.Focus = with.Focus
		}
		if seed >= 2 {
			with.Reverse, without.Reverse = 0.5, 0.5
		}
		got, want := Rank(with), Rank(without)
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("seed %d: the ranking with references that weigh nothing differs from the one without them (-without +with):\n%s", seed, diff)
		}
		if g, w := slices.Collect(NewFileGraph(with).Links()), slices.Collect(NewFileGraph(without).Links()); !slices.Equal(g, w) {
			t.Errorf("seed %d: the file graph has %d links with references that weigh nothing, %d without them", seed, len(g), len(w))
		}
		if seed == 3 {
			// Without other references, the graph is one without any.
			for _, in := range []*Input{&with, &without} {
				in.Files = slices.Clone(in.Files)
				for i := range in.Files[:len(in.Files)-1] {
					in.Files[i].Refs = nil
				}
			}
			if diff := gocmp.Diff(Rank(without), Rank(with)); diff != "" {
				t.Errorf("no references but those that weigh nothing: the ranking differs from the one without them (-without +with):\n%s", diff)
			}
		}
		// With weight, the references count.
		with.KeyWeight = nil
		if diff := gocmp.Diff(want.Files, Rank(with).Files); diff == "" {
			t.Errorf("seed %d: references to doc keys change nothing even when they weigh", seed)
		}
	}
}

// The power iteration's sums are the same bits whether goroutines make
// them or not (flow).
func TestRankParallelSameBits(t *testing.T) {
	in := synthetic(2000, 20000, 200000, 7)
	in.Reverse = 0.5
	x := NewIndex(in.Files)
	if n := len(x.refIdent) + len(x.defFile); n < minParallelWork {
		t.Fatalf("the input has %d references and definitions, too few for goroutines to make its flow", n)
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	one := x.Rank(in)
	for _, procs := range []int{2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		if diff := gocmp.Diff(one, x.Rank(in)); diff != "" {
			t.Fatalf("with GOMAXPROCS %d the ranking differs from one goroutine's (-one +%d):\n%s", procs, procs, diff)
		}
	}
}

// TestLift: Input.Lift raises a definition's score by its factor times
// the best score of its file's definitions, after Scale, and changes no
// other score and no rank of a file.
func TestLift(t *testing.T) {
	files := []File{
		{Path: "a.go", Defs: []string{"A", "Quiet"}, Refs: []string{"B"}},
		{Path: "b.go", Defs: []string{"B"}, Refs: []string{"A", "A", "C"}},
		{Path: "c.go", Defs: []string{"C"}},
	}
	scale := map[string]float64{"a.go": 3}
	plain := Rank(Input{Files: files, Scale: scale})
	lifted := Rank(Input{Files: files, Scale: scale, Lift: map[string]map[string]float64{
		"a.go":    {"Quiet": 2, "A": math.NaN()},
		"b.go":    {"B": -1, "Missing": 1},
		"none.go": {"X": 1},
	}})
	best := plainScore(plain, "a.go", "A")
	if q := plainScore(plain, "a.go", "Quiet"); q >= best {
		t.Fatalf("Quiet scores %g without a lift, A %g: the test needs it lower", q, best)
	}
	for _, e := range lifted.Entries {
		if e.Name == "" {
			continue
		}
		want := plainScore(plain, e.Path, e.Name)
		if e.Path == "a.go" && e.Name == "Quiet" {
			want += 2 * best
		}
		if math.Abs(e.Score-want) > 1e-12 {
			t.Errorf("lifted, %s %s scores %g, want %g", e.Path, e.Name, e.Score, want)
		}
	}
	if lifted.Entries[0].Name != "Quiet" {
		t.Errorf("Quiet, lifted by twice its file's best, is not first: %+v", lifted.Entries)
	}
	for q, r := range plain.Files {
		if lifted.Files[q] != r {
			t.Errorf("rank of %s = %g lifted, %g without", q, lifted.Files[q], r)
		}
	}
}
