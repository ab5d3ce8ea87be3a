package repomap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/memo"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/internal/render"

	"github.com/repomap-dev/repomap/internal/corpus"
	"github.com/repomap-dev/repomap/internal/fit"
)

func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		tokens, window int
		focus          bool
		want           int
	}{
		{0, 0, true, 1024},
		{0, 0, false, 1024},
		{500, 200000, false, 500},
		{0, 4096, true, 1024},
		{0, 16384, true, 2048},
		{0, 32768, true, 4096},
		{0, 200000, true, 4096},
		{0, 200000, false, 8192},
		{0, 16384, false, 4096},
		// 1024 doubled is 2048, but only 6000-4096 = 1904 are free.
		{0, 6000, false, 1904},
		// Only 5000-4096 = 904 are free: the budget stays at 1024.
		{0, 5000, false, 1024},
	} {
		if got := Budget(tc.tokens, tc.window, tc.focus); got != tc.want {
			t.Errorf("Budget(%d, %d, %v) = %d, want %d", tc.tokens, tc.window, tc.focus, got, tc.want)
		}
	}
}

// synthTree returns a tree of n Go files in a few packages that call each
// other, with a README that has no tags.
func synthTree(n int) fstest.MapFS {
	tree := fstest.MapFS{"README.md": {Data: []byte("# synth\n")}}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg%d\n\n", i%4)
		fmt.Fprintf(&b, "// Widget%d is a widget.\ntype Widget%d struct {\n\tName string\n\tSize int\n}\n\n", i, i)
		fmt.Fprintf(&b, "func NewWidget%d(name string) *Widget%d {\n\treturn &Widget%d{Name: name}\n}\n\n", i, i, i)
		fmt.Fprintf(&b, "func (w *Widget%d) Render() string {\n\treturn Helper%d(w.Name)\n}\n\n", i, (i*7+3)%n)
		fmt.Fprintf(&b, "func Helper%d(s string) string {\n\treturn NewWidget%d(s).Name\n}\n", i, (i*3+1)%n)
		tree[fmt.Sprintf("pkg%d/file%03d.go", i%4, i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	return tree
}

// textsOf returns the text of each file of tree, by path, as writeTree
// takes them.
func textsOf(tree fstest.MapFS) map[string]string {
	out := make(map[string]string, len(tree))
	for p, f := range tree {
		out[p] = string(f.Data)
	}
	return out
}

func build(t *testing.T, fsys fs.FS, opts *Options, req Request) *result {
	t.Helper()
	m, err := NewFS(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.build(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFitBudget(t *testing.T) {
	tree := synthTree(60)
	enc, err := encoding(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	prevShown, prevDefs := -1, -1
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, budget := range []int{1, 10, 50, 100, 200, 400, 800, 1600, 3200, 6400, 100000} {
		r, err := m.build(context.Background(), Request{MaxTokens: budget})
		if err != nil {
			t.Fatal(err)
		}
		if got := countTokens(enc, r.text); got > budget || got != r.tokens {
			t.Errorf("budget %d: map has %d tokens (reported %d)", budget, got, r.tokens)
		}
		defs := strings.Count(r.text, "│")
		if r.shown < prevShown || defs < prevDefs {
			t.Errorf("budget %d shows %d items and %d lines, fewer than a smaller budget (%d, %d)", budget, r.shown, defs, prevShown, prevDefs)
		}
		prevShown, prevDefs = r.shown, defs
		// The prefix is the longest that fits: one more item does not.
		if r.shown < r.ranked.list.Len() {
			more := render.Text(r.blocks.OfItems(context.Background(), prefixOf(t, r.ranked, r.shown+1)))
			if n := countTokens(enc, more); n <= budget {
				t.Errorf("budget %d: %d items fit, but %d items have only %d tokens", budget, r.shown, r.shown+1, n)
			}
		}
	}
	// With a budget larger than the whole map, every item is shown.
	r := build(t, tree, &Options{MaxTokens: 1 << 30}, Request{})
	if r.shown != r.ranked.list.Len() {
		t.Errorf("unlimited budget shows %d of %d items", r.shown, r.ranked.list.Len())
	}
}

func TestDeterministic(t *testing.T) {
	tree := synthTree(40)
	var first string
	for i, par := range []int{1, 8, 1, 3} {
		r := build(t, tree, &Options{MaxTokens: 1500, Parallelism: par}, Request{Mentions: []string{"Render"}})
		if i == 0 {
			first = r.text
			continue
		}
		if r.text != first {
			t.Fatalf("Parallelism %d gave a different map:\n%s\nwant:\n%s", par, r.text, first)
		}
	}
}

func TestFocusAndMentions(t *testing.T) {
	tree := fstest.MapFS{
		"a/alpha.go": {Data: []byte("package a\n\nfunc Alpha() int { return Omega() }\n")},
		"o/omega.go": {Data: []byte("package o\n\nfunc Omega() int { return 0 }\n")},
		"b/beta.go":  {Data: []byte("package b\n\nfunc Beta() int { return 2 }\n")},
		"c/gamma.go": {Data: []byte("package c\n\nfunc Gamma() int { return Alpha() + Beta() + Beta() }\n")},
		"d/delta.go": {Data: []byte("package d\n\nfunc Delta() int { return Epsilon() }\n")},
		"e/eps.go":   {Data: []byte("package e\n\nfunc Epsilon() int { return 5 }\n")},
	}
	index := func(r *result, name string) int {
		return slices.IndexFunc(r.ranked.list.All(), func(it fit.Item) bool { return it.Name == name })
	}
	score := func(r *result, name string) float64 { return r.ranked.list.All()[index(r, name)].Score }
	// Aider's ranking: no reverse edges, so the sums below are plain.
	aider := &Options{Ranking: RankingAider}
	base := build(t, tree, aider, Request{})
	if index(base, "Beta") > index(base, "Alpha") {
		t.Fatalf("unmentioned, Alpha (%d) ranks above Beta (%d): the case shows nothing", index(base, "Alpha"), index(base, "Beta"))
	}

	// A focus file is left out, and what it uses comes first.
	focus := build(t, tree, aider, Request{Focus: []string{"d/delta.go"}})
	if it := focus.ranked.list.All()[0]; it.Path != "e/eps.go" || it.Name != "Epsilon" {
		t.Errorf("with focus d/delta.go the first item is %s:%s, want e/eps.go:Epsilon", it.Path, it.Name)
	}
	if slices.ContainsFunc(focus.ranked.list.All(), func(it fit.Item) bool { return it.Path == "d/delta.go" }) || strings.Contains(focus.text, "delta.go") {
		t.Errorf("the focus file is in the ranked list or the map:\n%s", focus.text)
	}

	// A mentioned identifier weighs more where it is referenced.
	mention := build(t, tree, aider, Request{Mentions: []string{"Alpha"}})
	if index(mention, "Alpha") > index(mention, "Beta") {
		t.Errorf("mentioning Alpha leaves it at %d, below Beta at %d", index(mention, "Alpha"), index(mention, "Beta"))
	}

	// A mentioned directory lifts its files, and so what they use.
	before := score(base, "Omega") / score(base, "Epsilon")
	dir := build(t, tree, aider, Request{Mentions: []string{"a"}})
	if after := score(dir, "Omega") / score(dir, "Epsilon"); after <= before {
		t.Errorf("mentioning directory a: Omega/Epsilon score ratio %g, want more than %g", after, before)
	}
	// So does a mentioned path.
	file := build(t, tree, aider, Request{Mentions: []string{"a/alpha.go"}})
	if got := score(file, "Omega") / score(file, "Epsilon"); got <= before {
		t.Errorf("mentioning a/alpha.go: Omega/Epsilon score ratio %g, want more than %g", got, before)
	}
}

func TestBadFiles(t *testing.T) {
	tree := fstest.MapFS{
		"bin.go":     {Data: []byte("package x\x00\x01\x02func Hidden() {}\n")},
		"latin1.py":  {Data: []byte("# caf\xe9\ndef caf\xe9_ok():\n    pass\n\ndef Fine():\n    return 'd\xe9j\xe0'\n")},
		"crlf.go":    {Data: []byte("package x\r\n\r\nfunc CRLF() {}\r\n")},
		"cr.py":      {Data: []byte("x = 1\r\rdef LoneCR():\r    pass\r")},
		"bom.py":     {Data: []byte("\xef\xbb\xbfdef Bom():\n    pass\n")},
		"broken.py":  {Data: []byte("def Good():\n    pass\n\ndef bad(:\n")},
		"big.go":     {Data: []byte("package x\n\nfunc Big() {}\n" + strings.Repeat("// filler\n", 200))},
		"use.go":     {Data: []byte("package x\n\nfunc use() { Big(); CRLF(); Hidden() }\n")},
		"use_all.py": {Data: []byte("Fine(); LoneCR(); Bom(); Good()\n")},
	}
	r := build(t, tree, &Options{MaxTokens: 4000, MaxFileSize: 1000}, Request{})
	for _, want := range []string{
		"\nbig.go\n", "\nbin.go\n", // listed by name only
		"│func CRLF() {}", "│def LoneCR():", "│def Bom():", "│def Good():",
		"│def caf\uFFFD_ok():", // invalid UTF-8 made valid
	} {
		if !strings.Contains("\n"+r.text, want) {
			t.Errorf("map lacks %q:\n%s", want, r.text)
		}
	}
	if strings.Contains(r.text, "func Hidden") || strings.Contains(r.text, "\r") {
		t.Errorf("map shows a binary file's text or a carriage return:\n%s", r.text)
	}
	// Line numbers stay right with lone CRs: LoneCR is on the third line.
	m, _ := NewFS(tree, nil)
	defer m.Close()
	if _, err := m.Render(context.Background(), Request{}); err != nil {
		t.Fatal(err)
	}
	snap, err := m.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if src := snap.Source(context.Background(), "cr.py"); src == nil || src.Lines[2] != "def LoneCR():" {
		t.Errorf("cr.py source = %v, want line 3 to be the def", src)
	}
	reasons := map[string]index.Skip{}
	for _, s := range r.skipped {
		reasons[s.Path] = s.Skip
	}
	if reasons["bin.go"].Kind != index.SkipBinary || reasons["big.go"].Kind != index.SkipLarge || reasons["big.go"].String() != "larger than 1000 bytes" {
		t.Errorf("skipped = %v, want bin.go binary and big.go too large", reasons)
	}
}

func TestCancelled(t *testing.T) {
	m, err := NewFS(synthTree(20), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Render(ctx, Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Render(cancelled) error = %v, want context.Canceled", err)
	}
	if _, err := m.Render(context.Background(), Request{}); err != nil {
		t.Errorf("Render after a cancelled render: %v", err)
	}
}

func TestClosed(t *testing.T) {
	m, err := NewFS(synthTree(2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
	if _, err := m.Render(context.Background(), Request{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Render on a closed Map: %v, want ErrClosed", err)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{{MaxTokens: -1}, {Encoding: "gpt2"}, {Parallelism: -2}, {MaxFileSize: -1}} {
		if _, err := NewFS(fstest.MapFS{}, &o); err == nil {
			t.Errorf("NewFS(%+v) succeeded, want an error", o)
		}
	}
	if _, err := New(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Error("New(missing dir) succeeded")
	}
}

// TestNetHTTP maps a real package of the Go distribution.
func TestNetHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: maps net/http")
	}
	root := corpus.GoSrc(t, "net/http")
	enc, err := encoding(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	prev := 0
	for _, budget := range []int{1024, 4096, 8192} {
		r, err := m.build(context.Background(), Request{MaxTokens: budget})
		if err != nil {
			t.Fatal(err)
		}
		if n := countTokens(enc, r.text); n > budget {
			t.Errorf("net/http at %d tokens: map has %d", budget, n)
		} else if n < budget*8/10 {
			t.Errorf("net/http at %d tokens: map has only %d", budget, n)
		}
		if r.shown < prev {
			t.Errorf("net/http at %d tokens shows %d items, fewer than %d", budget, r.shown, prev)
		}
		prev = r.shown
	}
}

func TestRankedListsEveryFile(t *testing.T) {
	tree := fstest.MapFS{
		"doc.go":      {Data: []byte("// Package p does things.\npackage p\n")},
		"p.go":        {Data: []byte("package p\n\nfunc P() {}\n")},
		"use/main.go": {Data: []byte("package main\n\nimport \"p\"\n\nfunc main() { p.P() }\n")},
		"notes.txt":   {Data: []byte("notes\n")},
	}
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.Build(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(slices.Values(r.Ranked))
	if want := []string{"doc.go", "notes.txt", "p.go", "use/main.go"}; !slices.Equal(got, want) {
		t.Errorf("Ranked = %v, want every file: %v", r.Ranked, want)
	}
}

// TestHeadingsDoNotCaptureCode: a heading named as a package does not
// draw the package's users to the document, and the document, which the
// request does not point at, is listed by name alone.
func TestHeadingsDoNotCaptureCode(t *testing.T) {
	tree := fstest.MapFS{
		"README.md":        {Data: []byte("# shapes\n\nA library.\n")},
		"shapes/shapes.go": {Data: []byte("package shapes\n\nfunc Area() int { return 1 }\n")},
		"main.go":          {Data: []byte("package main\n\nimport \"shapes\"\n\nfunc main() { shapes.Area(); shapes.Area() }\n")},
	}
	m, err := NewFS(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.build(context.Background(), Request{Focus: []string{"main.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if it := r.ranked.list.All()[0]; it.Path != "shapes/shapes.go" {
		t.Errorf("first item %s:%s, want shapes/shapes.go (a heading named shapes must not draw the package's users)", it.Path, it.Name)
	}
	if !strings.Contains("\n"+r.text, "\nREADME.md\n") || strings.Contains(r.text, "│# shapes") {
		t.Errorf("the document is not in the map by name alone:\n%s", r.text)
	}
}

// TestDemoteDocs checks that docs=F scales the definitions of documents
// and data files by F in the ranked list: a config key that ranks above
// the code without it goes below the code's definitions, as far down as
// its score scaled puts it.
func TestDemoteDocs(t *testing.T) {
	tree := fstest.MapFS{
		"config.yaml": {Data: []byte("server:\n  port: 1\nhelper: 2\n")},
		"main.go":     {Data: []byte("package main\n\nfunc Serve() { helper(); server() }\n\nfunc main() { Serve() }\n")},
		"util.go":     {Data: []byte("package main\n\nfunc helper() {}\n\nfunc server() {}\n")},
	}
	order := func(ranking string) []string {
		t.Helper()
		m, err := NewFS(tree, &Options{Policy: experimentPolicy(t, ranking)})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		r, err := m.build(context.Background(), Request{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range r.ranked.list.All() {
			if it.Name != "" {
				got = append(got, it.Path+":"+it.Name)
			}
		}
		return got
	}
	plain, demoted := order("aider"), order("aider+docs=0.01")
	first := func(got []string, prefix string) int {
		return slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, prefix) })
	}
	if first(plain, "config.yaml") > first(plain, "main.go") {
		t.Fatalf("without docs=, config.yaml ranks below main.go: %v; the test needs it above", plain)
	}
	if first(demoted, "config.yaml") < first(demoted, "util.go") || first(demoted, "config.yaml") < first(demoted, "main.go") {
		t.Errorf("with docs=0.01, config.yaml ranks above code: %v", demoted)
	}
	if len(plain) != len(demoted) {
		t.Errorf("docs= changed what is ranked: %v, %v", plain, demoted)
	}
	for _, good := range []string{"aider+reverse=0.5+docs=0.2", "default+noscala", "default+norust+noscala", "default+nokotlin", "aider+resolve+nokotlin"} {
		if err := checkExperiment(good); err != nil {
			t.Error(err)
		}
	}
	for _, bad := range []string{"aider+docs=0", "aider+docs=2", "aider+nope", "best", "default+docs=0.2"} {
		if checkExperiment(bad) == nil {
			t.Errorf("CheckRanking(%q) = nil, want an error", bad)
		}
	}
}

// polyglotTree is a small tree in Scala, C++ and Go, the first two of
// which have tags queries that take seconds to compile.
func polyglotTree() fstest.MapFS {
	return fstest.MapFS{
		"a.scala": {Data: []byte("object A { def run(x: Int): Int = B.helper(x) }\n")},
		"b.scala": {Data: []byte("object B { def helper(x: Int): Int = x }\n")},
		"c.cpp":   {Data: []byte("int helper(int x) { return x; }\nint run() { return helper(1); }\n")},
		"d.hpp":   {Data: []byte("namespace d { int helper(int x); }\n")},
		"e.go":    {Data: []byte("package e\n\nfunc Run() int { return helper() }\n")},
	}
}

// TestQueriesCompiledOncePerMap: a Map compiles each language's tags query
// once for its whole life, however many files of it its parsers meet and
// however often they change.
func TestQueriesCompiledOncePerMap(t *testing.T) {
	tree := polyglotTree()
	m, err := NewFS(tree, &Options{Parallelism: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range 3 {
		if i > 0 {
			f := tree["b.scala"]
			f.Data = fmt.Appendf(nil, "object B { def helper(x: Int): Int = x + %d }\n", i)
			f.ModTime = f.ModTime.Add(time.Second)
		}
		r, err := m.Build(context.Background(), Request{})
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{5, 1, 1}[i]; r.Stats.Parsed != want {
			t.Fatalf("build %d parsed %d files, want %d", i, r.Stats.Parsed, want)
		}
	}
	if n := m.idx.Compiles(); n != 3 {
		t.Errorf("the Map compiled %d tags queries for Scala, C++ and Go over three builds, want 3", n)
	}
}

// TestCodeTop checks ranking change codetop: a document most relevant to
// a request's words keeps its tier, below the code, unless the request
// names it or is about documents; without the change it is lifted.
func TestCodeTop(t *testing.T) {
	tree := fstest.MapFS{
		"docs/proxies.md": {Data: []byte("# Proxies\n\nProxies route requests. Set proxies on the client for every request.\n")},
		"client.py":       {Data: []byte("class Client:\n    def send(self, request):\n        return transport(request)\n")},
		"transport.py":    {Data: []byte("def transport(request):\n    return request\n")},
	}
	const rk = "aider+reverse+roles+rel+resolve"
	order := func(ranking, text string) []string {
		t.Helper()
		m, err := NewFS(tree, &Options{Policy: experimentPolicy(t, ranking)})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		r, err := m.build(context.Background(), Request{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range r.ranked.list.All() {
			if !slices.Contains(got, it.Path) {
				got = append(got, it.Path)
			}
		}
		return got
	}
	const words = "Requests through proxies fail"
	if got := order(rk, words); got[0] != "docs/proxies.md" {
		t.Fatalf("without codetop, %v; the test needs the page first", got)
	}
	if got := order(rk+"+codetop", words); slices.Index(got, "docs/proxies.md") < slices.Index(got, "transport.py") {
		t.Errorf("with codetop, the page ranks above the code: %v", got)
	}
	for _, text := range []string{words + " (see docs/proxies.md)", "The docs on proxies are wrong"} {
		if got := order(rk+"+codetop", text); got[0] != "docs/proxies.md" {
			t.Errorf("with codetop and %q, %v; want the page first", text, got)
		}
	}
}

// TestFrontTeleport checks ranking change front=F: in a map for no
// request, a package's front door hands its share of the teleport on to
// what it re-exports, so that the exported class rises against a helper
// the package's own modules use more; a map for a request does not
// change.
func TestFrontTeleport(t *testing.T) {
	tree := fstest.MapFS{
		"pkg/__init__.py": {Data: []byte("from pkg.core import Client\n\n__all__ = [\"Client\"]\n")},
		"pkg/core.py":     {Data: []byte("class Client:\n    def send(self):\n        pass\n")},
		"pkg/util.py":     {Data: []byte("def helper():\n    pass\n")},
	}
	for _, f := range []string{"a", "b", "c", "d"} {
		tree["pkg/"+f+".py"] = &fstest.MapFile{Data: []byte("from pkg.util import helper\n\n\ndef " + f + "():\n    helper()\n")}
	}
	const rk = "aider+reverse+roles+resolve+exports"
	scores := func(ranking string, req Request) map[string]float64 {
		t.Helper()
		out := make(map[string]float64)
		for _, it := range build(t, tree, &Options{Policy: experimentPolicy(t, ranking)}, req).ranked.list.Made() {
			if it.Name != "" {
				out[it.Name] = it.Score
			}
		}
		return out
	}
	before, after := scores(rk, Request{}), scores(rk+"+front=0.5", Request{})
	if before["Client"] == 0 || before["helper"] == 0 {
		t.Fatalf("scores %v: the test needs Client and helper ranked", before)
	}
	if b, a := before["Client"]/before["helper"], after["Client"]/after["helper"]; !(a > 1.5*b) {
		t.Errorf("Client/helper score ratio %.3f without front, %.3f with: want it to grow", b, a)
	}
	focus := Request{Focus: []string{"pkg/a.py"}}
	if b, a := scores(rk, focus), scores(rk+"+front=0.5", focus); !maps.Equal(b, a) {
		t.Errorf("with a focus, front changed the scores: %v, then %v", b, a)
	}
}

// TestReadmeCode checks ranking change readme=F: in a map for no request,
// the names the code of the root's README uses (a Python block, and
// inline code) rise, in a Python tree, in every family of code (a Go
// file's name too) but not in a YAML file's keys; a README below the top,
// and the names of the README's prose, do nothing; maps with a request
// are the same with and without the change, and so are maps of the
// Aider ranking, whose README links nothing.
func TestReadmeCode(t *testing.T) {
	tree := fstest.MapFS{
		"README.md":        {Data: []byte("# Tool\n\nStart with `Client.fetch()`:\n\n```python\nfrom tool.core import Client\nc = Client()\nc.send()\n```\n\nSettings are in ready words.\n")},
		"docs/README.md":   {Data: []byte("```python\nhelper()\n```\n")},
		"tool/__init__.py": {Data: []byte("")},
		"tool/core.py":     {Data: []byte("class Client:\n    def send(self):\n        pass\n\n    def fetch(self):\n        pass\n\n    def ready(self):\n        pass\n")},
		"tool/util.py":     {Data: []byte("def helper():\n    pass\n")},
		"cmd/send.go":      {Data: []byte("package cmd\n\nfunc send() {}\n")},
		"conf.yaml":        {Data: []byte("send: 1\n")},
	}
	for _, f := range []string{"a", "b", "c", "d"} {
		tree["tool/"+f+".py"] = &fstest.MapFile{Data: []byte("from tool.util import helper\n\n\ndef " + f + "():\n    helper()\n")}
	}
	const rk = "aider+reverse+roles+resolve+family"
	scores := func(ranking string, req Request) map[string]float64 {
		t.Helper()
		out := make(map[string]float64)
		for _, it := range build(t, tree, &Options{Policy: experimentPolicy(t, ranking)}, req).ranked.list.Made() {
			if it.Name != "" {
				out[it.Path+" "+it.Name] = it.Score
			}
		}
		return out
	}
	before, after := scores(rk, Request{}), scores(rk+"+readme=0.3", Request{})
	ratio := func(s map[string]float64, name string) float64 { return s[name] / s["tool/util.py helper"] }
	for _, name := range []string{"tool/core.py Client", "tool/core.py send", "tool/core.py fetch", "cmd/send.go send"} {
		if b, a := ratio(before, name), ratio(after, name); !(a > 1.2*b) {
			t.Errorf("%s/helper score ratio %.3f without readme, %.3f with: want it to grow", name, b, a)
		}
	}
	for _, name := range []string{"tool/core.py ready", "conf.yaml send"} {
		if b, a := ratio(before, name), ratio(after, name); a > 1.01*b {
			t.Errorf("%s/helper score ratio %.3f without readme, %.3f with: want it not to grow", name, b, a)
		}
	}
	for _, req := range []Request{{Focus: []string{"tool/a.py"}}, {Text: "send a request with the client"}} {
		if b, a := scores(rk, req), scores(rk+"+readme=0.3", req); !maps.Equal(b, a) {
			t.Errorf("request %+v: readme changed the scores: %v, then %v", req, b, a)
		}
	}
	if b, a := scores("aider", Request{}), scores("aider+readme=0.3", Request{}); maps.Equal(b, a) {
		t.Errorf("aider+readme=0.3 ranks as aider does")
	}
	if b, a := scores("aider", Request{}), scores("aider+doccode", Request{Focus: []string{"tool/a.py"}}); maps.Equal(b, a) {
		t.Errorf("the code of documents changes nothing with doccode")
	}
}

// TestByNameRoles checks ranking change byname: the documents,
// configuration and CI files show by name alone, in a map for no request
// and with a focus, and the code keeps its definitions; a focus on a
// configuration file brings the configuration files' definitions back,
// and a request's words bring back those of the page they are about.
func TestByNameRoles(t *testing.T) {
	tree := fstest.MapFS{
		"app/server.go":            {Data: []byte("package app\n\nfunc Serve() { Listen() }\n\nfunc Listen() {}\n")},
		"app/client.go":            {Data: []byte("package app\n\nfunc Dial() { Serve() }\n")},
		"docs/guide.md":            {Data: []byte("# Guide\n\n## Serving\n\nCall Serve to serve.\n\n## Dialing\n")},
		"config/app.yaml":          {Data: []byte("port: 80\nhost: x\n")},
		"config/db.yaml":           {Data: []byte("url: y\n")},
		".github/workflows/ci.yml": {Data: []byte("on: push\njobs: {}\n")},
	}
	const rk = "aider+reverse+roles+resolve+family+rel+docitems=1"
	shown := func(ranking string, req Request) map[string][]string {
		t.Helper()
		out := make(map[string][]string)
		for _, it := range build(t, tree, &Options{Policy: experimentPolicy(t, ranking), MaxTokens: 4096}, req).ranked.list.All() {
			out[it.Path] = append(out[it.Path], it.Name)
		}
		return out
	}
	named := func(items []string) bool { return slices.ContainsFunc(items, func(n string) bool { return n != "" }) }
	for _, req := range []Request{{}, {Focus: []string{"app/client.go"}}} {
		before, after := shown(rk, req), shown(rk+"+byname", req)
		for _, p := range []string{"docs/guide.md", "config/app.yaml", ".github/workflows/ci.yml"} {
			if !named(before[p]) {
				t.Fatalf("request %+v: without byname %s shows no definition; the test needs it to", req, p)
			}
			if items, ok := after[p]; !ok || named(items) {
				t.Errorf("request %+v: with byname %s has items %q, want the file by name alone", req, p, items)
			}
		}
		if !named(after["app/server.go"]) {
			t.Errorf("request %+v: with byname the code shows no definition", req)
		}
	}
	conf := shown(rk+"+byname", Request{Focus: []string{"config/app.yaml"}})
	if !named(conf["config/db.yaml"]) || named(conf["docs/guide.md"]) {
		t.Errorf("focus on a configuration file: db.yaml %q, guide.md %q; want db.yaml's keys and guide.md by name", conf["config/db.yaml"], conf["docs/guide.md"])
	}
	words := shown(rk+"+byname", Request{Text: "the serving guide"})
	if !named(words["docs/guide.md"]) || named(words["config/app.yaml"]) {
		t.Errorf("words about the guide: guide.md %q, app.yaml %q; want the guide's headings and app.yaml by name", words["docs/guide.md"], words["config/app.yaml"])
	}
}

// checkExperiment returns the error of the ranking experiment s names.
func checkExperiment(s string) error {
	_, err := experiment.Parse(s)
	return err
}

// experimentPolicy returns the ranking the experiment s names.
func experimentPolicy(t testing.TB, s string) *policy.Config {
	t.Helper()
	p, err := experiment.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return &p
}

// linkedOf returns the link stage's result for s with rk, made anew.
func linkedOf(t testing.TB, s *index.Snapshot, rk policy.Config) memo.Linked {
	t.Helper()
	l, err := linkSnapshot(context.Background(), s, rk)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// rankedOf returns the ranking of s for q with rk.
func rankedOf(t testing.TB, s *index.Snapshot, rk policy.Config, q policy.Query) ranked {
	t.Helper()
	var ls *memo.LinkStage // none: the links made anew, with their rank index
	l, err := ls.Linked(context.Background(), s, rk)
	if err != nil {
		t.Fatal(err)
	}
	r, err := rankSnapshot(context.Background(), s, l, nil, rk, q)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// prefixOf returns the first k items of r, with their rows.
func prefixOf(t testing.TB, r *ranked, k int) []fit.Item {
	t.Helper()
	items, err := r.prefix(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// TestMentionShowsUnused checks that a name the request mentions is shown
// though nothing uses it, where a map for no request gives its line to
// the users of its file's other name.
func TestMentionShowsUnused(t *testing.T) {
	tree := fstest.MapFS{
		"a/a.go":  {Data: []byte("package a\n\nfunc Used() {}\n\nfunc Lonely() {}\n")},
		"main.go": {Data: []byte("package main\n\nimport \"x/a\"\n\nfunc main() { a.Used() }\n")},
	}
	for i := range 30 {
		tree[fmt.Sprintf("a/f%02d.go", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "package a\n\nfunc F%d() { Used() }\n", i)}
	}
	const lonely = "│func Lonely() {}"
	if r := build(t, tree, &Options{MaxTokens: 200}, Request{}); strings.Contains(r.text, lonely) {
		t.Fatalf("the map for no request shows Lonely at 200 tokens; the test needs a smaller budget:\n%s", r.text)
	}
	if r := build(t, tree, &Options{MaxTokens: 200}, Request{Mentions: []string{"Lonely"}}); !strings.Contains(r.text, lonely) {
		t.Errorf("the map mentioning Lonely does not show it:\n%s", r.text)
	}
}

// TestAbsoluteFocus checks that a focus file given by its absolute path
// gives the map its path in the map gives, and that an absolute path
// under no root, or of no file, is refused with ErrNotInMap.
func TestAbsoluteFocus(t *testing.T) {
	root := writeTree(t, smallTree)
	m, err := New(root, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	rel, err := m.Build(ctx, Request{Focus: []string{"a.go"}})
	if err != nil {
		t.Fatal(err)
	}
	abs, err := m.Build(ctx, Request{Focus: []string{filepath.Join(root, "a.go")}})
	if err != nil {
		t.Fatal(err)
	}
	if abs.Text != rel.Text || slices.Contains(abs.Ranked, "a.go") {
		t.Errorf("the map with an absolute focus:\n%s\nwant the map with a.go:\n%s", abs.Text, rel.Text)
	}
	for _, p := range []string{filepath.Join(t.TempDir(), "a.go"), filepath.Join(root, "nope.go")} {
		if _, err := m.Build(ctx, Request{Focus: []string{p}}); !errors.Is(err, ErrNotInMap) {
			t.Errorf("focus %s: error %v, want ErrNotInMap", p, err)
		}
	}
}
