package repomap

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/repomap-dev/repomap/internal/policy"
)

// lookupTree has a name defined in two files and two languages, a
// function used from files of different rank, and a chain of uses for
// Related: cmd/main.go → server/server.go → store/store.go.
var lookupTree = fstest.MapFS{
	"store/store.go": {Data: []byte(`package store

// Store keeps values.
type Store struct {
	m map[string]string
}

// Get returns the value of k.
func (s *Store) Get(k string) string {
	return s.m[k]
}
`)},
	"server/server.go": {Data: []byte(`package server

import "example.com/app/store"

import "example.com/store"

type Server struct {
	st *store.Store
}

func (s *Server) Handle(k string) string {
	v := s.st.Get(k)
	return v + s.st.Get(k+"2")
}

func Start() *Server { return &Server{} }
`)},
	"cmd/main.go": {Data: []byte(`package main

import "example.com/app/server"

import "example.com/server"

func main() {
	s := server.Start()
	s.Handle("a")
}
`)},
	"cmd/tool.go": {Data: []byte(`package main

import "example.com/app/server"

func tool() { server.Start() }
`)},
	"py/handler.py": {Data: []byte(`import os

class Handler:
    """Handles requests."""

    def Handle(self, req):
        return req
`)},
}

func openLookup(t *testing.T) *Map {
	t.Helper()
	return openLookupStyle(t, "")
}

// openLookupStyle is openLookup with the style given.
func openLookupStyle(t *testing.T, style string) *Map {
	t.Helper()
	m, err := NewFS(lookupTree, &Options{Style: style})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestDefinitions(t *testing.T) {
	// The Aider style.
	got, err := openLookupStyle(t, StyleAider).Definitions(context.Background(), "Handle", "Store", "nothing")
	if err != nil {
		t.Fatal(err)
	}
	want := []Definition{
		{Path: "py/handler.py", Name: "Handle", Kind: "method", Line: 6,
			Text: "⋮\n│class Handler:\n│    \"\"\"Handles requests.\"\"\"\n│\n│    def Handle(self, req):\n⋮\n"},
		{Path: "server/server.go", Name: "Handle", Kind: "method", Line: 11,
			Text: "⋮\n│func (s *Server) Handle(k string) string {\n│\tv := s.st.Get(k)\n│\treturn v + s.st.Get(k+\"2\")\n⋮\n"},
		{Path: "store/store.go", Name: "Store", Kind: "struct", Line: 4,
			Text: "⋮\n│type Store struct {\n│\tm map[string]string\n⋮\n"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Definitions(Handle, Store, nothing), aider, mismatch (-want +got):\n%s", diff)
	}
	// The compact style, the default: signatures under their class, a
	// struct as its header.
	m := openLookup(t)
	got, err = m.Definitions(context.Background(), "Handle", "Store", "nothing")
	if err != nil {
		t.Fatal(err)
	}
	want[0].Text = "⋮\n│class Handler:\n⋮\n│    def Handle(self, req):\n⋮\n"
	want[1].Text = "⋮\n│func (s *Server) Handle(k string) string {\n⋮\n"
	want[2].Text = "⋮\n│type Store struct {\n⋮\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Definitions(Handle, Store, nothing), compact, mismatch (-want +got):\n%s", diff)
	}
	// Every definition's text shows its own line.
	for _, d := range got {
		if !strings.Contains(d.Text, "│") {
			t.Errorf("Definitions: %s:%d has no shown line: %q", d.Path, d.Line, d.Text)
		}
	}
	none, err := m.Definitions(context.Background(), "nothing")
	if err != nil || len(none) != 0 {
		t.Errorf("Definitions(nothing) = %v, %v; want none", none, err)
	}
}

func TestReferences(t *testing.T) {
	m := openLookup(t)
	got, err := m.References(context.Background(), "Start")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range got {
		paths = append(paths, fmt.Sprintf("%s%v", r.Path, r.Lines))
	}
	// Both files of package main refer to Start; they are ranked by
	// their PageRank, best first, ties by path.
	if want := []string{"cmd/main.go[8]", "cmd/tool.go[5]"}; !slices.Equal(paths, want) {
		t.Errorf("References(Start) = %v, want %v", paths, want)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Rank > got[i-1].Rank {
			t.Errorf("References(Start): %s (rank %g) after %s (rank %g)", got[i].Path, got[i].Rank, got[i-1].Path, got[i-1].Rank)
		}
	}

	// Lines are 1-based, in order, once each.
	get, err := m.References(context.Background(), "Get")
	if err != nil {
		t.Fatal(err)
	}
	if len(get) != 1 || get[0].Path != "server/server.go" || !slices.Equal(get[0].Lines, []int{12, 13}) {
		t.Errorf("References(Get) = %+v, want server/server.go lines [12 13]", get)
	}

	// The ranking follows the graph: a file that more of the tree
	// depends on ranks above one that nothing uses.
	st, err := m.References(context.Background(), "store")
	if err != nil {
		t.Fatal(err)
	}
	if len(st) == 0 || st[0].Path != "server/server.go" {
		t.Errorf("References(store) = %+v, want server/server.go first", st)
	}

	none, err := m.References(context.Background(), "nothing")
	if err != nil || len(none) != 0 {
		t.Errorf("References(nothing) = %v, %v; want none", none, err)
	}
}

func TestRelated(t *testing.T) {
	m := openLookup(t)
	ctx := context.Background()
	res, err := m.Related(ctx, "server/server.go", Request{MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	byPath := make(map[string]FileResult)
	for _, f := range res.Files {
		byPath[f.Path] = f
	}
	// What server.go uses: store.go's definitions.
	store, ok := byPath["store/store.go"]
	if !ok {
		t.Fatalf("Related(server/server.go) has no store/store.go:\n%s", res.Text)
	}
	// (Related's FileResult.Defs have no Name yet: its items are whole
	// files, so publish has no name to give.)
	if !slices.ContainsFunc(store.Defs, func(d Def) bool { return d.Kind == "method" && d.Line == 9 }) {
		t.Errorf("Related(server/server.go): store/store.go shows %+v, want the method Get at line 9", store.Defs)
	}
	// What uses server.go: cmd/main.go, with the lines that use it.
	main, ok := byPath["cmd/main.go"]
	if !ok {
		t.Fatalf("Related(server/server.go) has no cmd/main.go:\n%s", res.Text)
	}
	var uses []int
	for _, d := range main.Defs {
		if d.Kind == "use" {
			uses = append(uses, d.Line)
		}
	}
	if !slices.Contains(uses, 8) || !slices.Contains(uses, 9) {
		t.Errorf("Related(server/server.go): cmd/main.go shows uses on lines %v, want 8 and 9", uses)
	}
	if !strings.Contains(main.Text, "│\ts.Handle(\"a\")") {
		t.Errorf("Related(server/server.go): cmd/main.go's text lacks the use of Handle:\n%s", main.Text)
	}
	// The file itself is not in its related map; unrelated files neither.
	for _, p := range []string{"server/server.go", "py/handler.py"} {
		if _, ok := byPath[p]; ok {
			t.Errorf("Related(server/server.go) shows %s", p)
		}
	}
	// The budget holds.
	small, err := m.Related(ctx, "server/server.go", Request{MaxTokens: 20})
	if err != nil {
		t.Fatal(err)
	}
	if small.Tokens > 20 || small.Budget != 20 {
		t.Errorf("Related(server/server.go, 20) has %d tokens of %d", small.Tokens, small.Budget)
	}
	// A path not in the map is an error.
	if _, err := m.Related(ctx, "nope.go", Request{MaxTokens: 0}); err == nil {
		t.Errorf("Related(nope.go) succeeded")
	}
}

func TestFindMentions(t *testing.T) {
	paths := []string{
		"pkg/server.go",
		"pkg/util.go",
		"lib/util.go",
		"parse/parser.go",
		"py/parser.py",
		"tools/gen",
		"Makefile",
		"web/app-shell.ts",
	}
	for _, tc := range []struct {
		text  string
		files []string
	}{
		// An exact path, with quotes, backticks or punctuation around it.
		{"look at pkg/server.go", []string{"pkg/server.go"}},
		{"in `pkg/util.go`, and ./lib/util.go.", []string{"lib/util.go", "pkg/util.go"}},
		{`see "tools/gen"!`, []string{"tools/gen"}},
		// A base name with punctuation names the one file that has it.
		{"server.go panics", []string{"pkg/server.go"}},
		{"app-shell.ts is slow", []string{"web/app-shell.ts"}},
		// …but not when two files share it.
		{"util.go is a mess", nil},
		// A base name without punctuation is only a word: "gen" is too
		// short to be a stem.
		{"gen is broken", nil},
		// A stem of five characters or more names every file that has
		// it, case aside.
		{"the Parser is slow", []string{"parse/parser.go", "py/parser.py"}},
		{"SERVER down", []string{"pkg/server.go"}},
		{"makefile targets", []string{"Makefile"}},
		// Shorter stems do not.
		{"Util helpers", nil},
		{"", nil},
	} {
		got := policy.FindMentions(tc.text, paths)
		if !slices.Equal(got.Files, tc.files) {
			t.Errorf("policy.FindMentions(%q).Files = %v, want %v", tc.text, got.Files, tc.files)
		}
	}

	// Every identifier word is an identifier mention, once, in order.
	got := policy.FindMentions("Fix parseArgs in cmd/main.go: parseArgs drops -v, café_2 too", paths)
	want := []string{"Fix", "parseArgs", "in", "cmd", "main", "go", "drops", "v", "café_2", "too"}
	if !slices.Equal(got.Idents, want) {
		t.Errorf("policy.FindMentions(…).Idents = %q, want %q", got.Idents, want)
	}
	if all := (Mentions{Files: []string{"a.go"}, Idents: []string{"A"}}).All(); !slices.Equal(all, []string{"a.go", "A"}) {
		t.Errorf("Mentions.All() = %v, want [a.go A]", all)
	}
}

func TestFindMentionsMap(t *testing.T) {
	m := openLookup(t)
	ms, err := m.FindMentions(context.Background(), "Why does server.go call Get twice? See the Handler class.")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"py/handler.py", "server/server.go"}; !slices.Equal(ms.Files, want) {
		t.Errorf("FindMentions(…).Files = %v, want %v", ms.Files, want)
	}
	if !slices.Contains(ms.Idents, "Get") || !slices.Contains(ms.Idents, "Handler") {
		t.Errorf("FindMentions(…).Idents = %v, want Get and Handler among them", ms.Idents)
	}
	m.Close()
	if _, err := m.FindMentions(context.Background(), "x"); err != ErrClosed {
		t.Errorf("FindMentions on a closed Map: %v, want ErrClosed", err)
	}
}

// TestRequestText: the user's words as Request.Text give, with a ranking
// without relevance, the map that their mentions, found by FindMentions,
// give as Request.Mentions; with the default ranking, a file they name
// ranks higher than with no words.
func TestRequestText(t *testing.T) {
	text := "Why does server.go call Get twice? See the Handler class."
	m, err := NewFS(lookupTree, &Options{Policy: experimentPolicy(t, "aider+reverse=0.5+roles")})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ms, err := m.FindMentions(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	byText, err := m.Build(context.Background(), Request{Text: text, MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	byMentions, err := m.Build(context.Background(), Request{Mentions: ms.All(), MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	if byText.Text != byMentions.Text || !slices.Equal(byText.Ranked, byMentions.Ranked) {
		t.Errorf("Request.Text gave\n%s\nwant the map of its mentions:\n%s", byText.Text, byMentions.Text)
	}

	d := openLookup(t)
	plain, err := d.build(context.Background(), Request{MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	worded, err := d.build(context.Background(), Request{Text: text, MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	// The words name server.go: it gains on store.go, which they do not
	// name. (Its rank alone can fall, as the Handler the words name draws
	// rank to handler.py.)
	share := func(r *result) float64 { return r.ranked.ranks["server/server.go"] / r.ranked.ranks["store/store.go"] }
	if share(worded) <= share(plain) {
		t.Errorf("rank of server.go over store.go's with the words %q: %g, not above %g without", text, share(worded), share(plain))
	}
}

// TestErrNotInMap: a focus file or a file for Related that the map does
// not have is an error that names it, and Close is safe on nil and zero
// Maps.
func TestErrNotInMap(t *testing.T) {
	m := openLookup(t)
	_, err := m.Build(context.Background(), Request{Focus: []string{"nope.go"}})
	if !errors.Is(err, ErrNotInMap) || !strings.Contains(err.Error(), "nope.go") {
		t.Errorf("Build(focus nope.go) error = %v, want ErrNotInMap naming nope.go", err)
	}
	if _, err := m.Related(context.Background(), "nope.go", Request{MaxTokens: 0}); !errors.Is(err, ErrNotInMap) {
		t.Errorf("Related(nope.go) error = %v, want ErrNotInMap", err)
	}
	if err := (*Map)(nil).Close(); err != nil {
		t.Errorf("nil Map: Close() = %v", err)
	}
	if err := new(Map).Close(); err != nil {
		t.Errorf("zero Map: Close() = %v", err)
	}
}

// TestRelatedTakesTurns: a file with hundreds of links to the file does
// not hold the whole of a small map: the files take turns, and the map
// fills its budget.
func TestRelatedTakesTurns(t *testing.T) {
	var big strings.Builder
	big.WriteString("package p\n\n")
	for i := range 300 {
		fmt.Fprintf(&big, "func use%d() { Target() }\n\n", i)
	}
	tree := fstest.MapFS{
		"target.go": {Data: []byte("package p\n\nfunc Target() {}\n")},
		"big.go":    {Data: []byte(big.String())},
		"small.go":  {Data: []byte("package p\n\nfunc once() { Target() }\n")},
	}
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.Related(context.Background(), "target.go", Request{MaxTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range r.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"big.go", "small.go"}) || r.Tokens < 250 {
		t.Errorf("Related(target.go, 300 tokens) shows %v in %d tokens, want big.go and small.go, the budget nearly full:\n%s", paths, r.Tokens, r.Text)
	}
}

// TestRelatedMentions: a name the request mentions weighs more in the
// links of Related, as in the ranking.
func TestRelatedMentions(t *testing.T) {
	tree := fstest.MapFS{
		"main.go": {Data: []byte("package p\n\nfunc main() { alpha(); alpha(); beta() }\n")},
		"a.go":    {Data: []byte("package p\n\nfunc alpha() {}\n")},
		"b.go":    {Data: []byte("package p\n\nfunc beta() {}\n")},
	}
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	first := func(req Request) string {
		r, err := m.Related(context.Background(), "main.go", req)
		if err != nil {
			t.Fatal(err)
		}
		top, best := "", -1.0
		for _, f := range r.Files {
			if f.Rank > best {
				top, best = f.Path, f.Rank
			}
		}
		return top
	}
	if got := first(Request{}); got != "a.go" {
		t.Fatalf("Related(main.go) ranks %s first, want a.go, used twice: the case shows nothing", got)
	}
	if got := first(Request{Mentions: []string{"beta"}}); got != "b.go" {
		t.Errorf("Related(main.go) with beta mentioned ranks %s first, want b.go", got)
	}
	if got := first(Request{Text: "why is `beta` slow?"}); got != "b.go" {
		t.Errorf("Related(main.go) with beta in the words ranks %s first, want b.go", got)
	}
}

// TestDefinitionsReadsDefiners checks that Definitions on a tree the disk
// cache holds reads the tags of the files that define the names alone,
// and finds what a Map without the cache finds.
func TestDefinitionsReadsDefiners(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	buildUnkept(t, root, Options{CacheDir: dir})
	ctx := context.Background()
	fresh, err := New(root, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	want, err := fresh.Definitions(ctx, "Beta", "gamma")
	if err != nil || len(want) != 2 {
		t.Fatalf("Definitions without the cache = %v, %v; want Beta's and gamma's", want, err)
	}
	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, err := m.Definitions(ctx, "Beta", "gamma")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Definitions from the cache = %v, %v; want %v", got, err, want)
	}
	files, skipped, err := m.idx.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := m.idx.Update(ctx, files, skipped)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range snap.Files {
		if read, definer := snap.State(i).Read, f.Path == "b.go" || f.Path == "c/c.py"; read != definer {
			t.Errorf("%s: read %t, want %t", f.Path, read, definer)
		}
	}
}
