package tags

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/google/go-cmp/cmp"
)

// lexTags returns the tags Parse gives for path, written "line kind sub
// name".
func lexTags(t *testing.T, path, src string) []string {
	t.Helper()
	return short(parse(t, path, src))
}

// TestLexerLanguages checks that each tier-2 language has a lexer that
// chroma knows and a spec.
func TestLexerLanguages(t *testing.T) {
	for _, l := range lexerLanguages {
		if l.grammar != nil {
			t.Errorf("%s: a tier-2 language has a grammar", l.name)
		}
		if l.byHand {
			continue // read by hand
		}
		if lexers.Get(l.lexer) == nil {
			t.Errorf("%s: chroma has no lexer %q", l.name, l.lexer)
		}
		spec := lexSpecs[l.name]
		if spec == nil {
			t.Errorf("%s: no lexSpec", l.name)
			continue
		}
		for ext, name := range spec.lexerFor {
			if lexers.Get(name) == nil {
				t.Errorf("%s: chroma has no lexer %q for %s", l.name, name, ext)
			}
		}
		if lookup(l.name) != l {
			t.Errorf("%s: lookup finds another language", l.name)
		}
	}
	for name := range lexSpecs {
		if l := lookup(name); l == nil || l.lexer == "" {
			t.Errorf("lexSpec %s names no language with a lexer", name)
		}
	}
}

// TestLexDefiningWords checks definitions that come from the word before
// the name, where the lexer itself sees a plain name.
func TestLexDefiningWords(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      []string
	}{
		{"a.ex", "defmodule Shop.Cart do\n  def add(cart), do: put(cart)\n  defp put(c), do: c\nend\n", []string{
			"0 def module Cart",
			"1 def function add", "1 ref name cart", "1 ref call put", "1 ref name cart",
			"2 def function put", "2 ref name c", "2 ref name c",
		}},
		{"a.rkt", "(define (area r) (* pi (sq r)))\n(define pi 3.14)\n", []string{
			"0 def function area", "0 ref name r", "0 ref call sq", "0 ref name r",
			"1 def variable pi",
		}},
		{"a.el", "(defun my-area (r)\n  (my-square r))\n(defvar my-count 0)\n", []string{
			"0 def function my-area", "0 ref name r",
			"1 ref call my-square", "1 ref name r",
			"2 def variable my-count",
		}},
		{"a.f90", "integer function area(r)\n  area = r\nend function area\n", []string{
			"0 def function area", "0 ref name r",
			"1 ref name area", "1 ref name r",
		}},
		{"a.sql", "create or replace view app.totals as select sum(n) from app.items;\ndrop table legacy;\n", []string{
			"0 ref name app", "0 def view totals", "0 ref name n", "0 ref name app", "0 ref name items",
			"1 ref name legacy",
		}},
		{"a.fs", "let rec fact n = if n = 0 then 1 else n * fact (n - 1)\nlet limit = 10\n", []string{
			"0 def function fact", "0 ref name n", "0 ref name n", "0 ref name n", "0 ref call fact", "0 ref name n",
			"1 def variable limit",
		}},
		// Locals are no definitions: "let" in a function body, "var" in an
		// indented Nim proc.
		{"a.swift", "let top = 1\nfunc f() {\n  let local = top\n}\n", []string{
			"0 def constant top",
			"1 def function f",
			"2 ref name top",
		}},
		{"a.nim", "var top = 1\nproc f() =\n  var local = top\n", []string{
			"0 def variable top",
			"1 def procedure f",
			"2 ref name local", "2 ref name top",
		}},
		// A defining word in a string or a comment defines nothing.
		{"a.ex", "# def fake\nx = \"def other\"\n", []string{"1 ref name x"}},
		// Gleam's "type" in an import is no definition.
		{"a.gleam", "import gleam/dict.{type Dict}\npub type Stock =\n  Dict(String, Int)\n", []string{
			"0 ref name gleam", "0 ref name dict", "0 ref name Dict",
			"1 def type Stock",
			"2 ref call Dict", "2 ref name String", "2 ref name Int",
		}},
		// Erlang's clauses of one function are one definition.
		{"a.erl", "f(0) -> 1;\nf(N) -> g(N).\n", []string{"0 def function f", "1 ref call g"}},
		// A var of an inner class is a variable, one in its function a local.
		{"a.gd", "class Item:\n\tvar sku\n\tfunc f():\n\t\tvar local = sku\n", []string{
			"0 def class Item",
			"1 def variable sku",
			"2 def function f",
			"3 ref name local", "3 ref name sku",
		}},
		// The cases of a match in a type's member, or a record update, are
		// no union cases.
		{"a.fs", "type T() =\n    member this.F x =\n        match x with\n        | Some y -> y\n        | None -> 0\n", []string{
			"0 def type T",
			"1 def method F", "1 ref name x",
			"2 ref name x",
			"3 ref name Some", "3 ref name y", "3 ref name y",
			"4 ref name None",
		}},
		{"a.elm", "type Msg\n    = Reset\n\nupdate model =\n    { model | count = 0 }\n", []string{
			"0 def type Msg",
			"1 def constructor Reset",
			"3 def function update", "3 ref name model",
			"4 ref name model", "4 ref name count",
		}},
	} {
		got := lexTags(t, tc.path, tc.src)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.path, tc.src, diff)
		}
	}
}

// TestLexLines checks the line numbers after multi-line strings and
// comments.
func TestLexLines(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      []string
	}{
		{"a.swift", "/* one\n two\n three */\nlet s = \"\"\"\n  text\n  \"\"\"\nfunc after() {}\n", []string{
			"3 def constant s", "6 def function after",
		}},
		{"a.ex", "@moduledoc \"\"\"\nline\nline\n\"\"\"\ndef later(x), do: x\n", []string{
			"4 def function later", "4 ref name x", "4 ref name x",
		}},
		{"a.nim", "#[ block\ncomment ]#\nproc after*() = discard\n", []string{"2 def procedure after"}},
		{"a.md", "# One\n\ntext\n\n```\n# not a heading\n```\n\n## Two ##\n", []string{
			"0 def heading One", "8 def heading Two",
		}},
		// A carriage return alone does not end a line, as for tree-sitter;
		// "\r\n" ends one.
		{"a.ex", "def a, do: 1\r\ndef b, do: 2\rdef c, do: 3\n", []string{
			"0 def function a", "1 def function b", "1 def function c",
		}},
	} {
		got := lexTags(t, tc.path, tc.src)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.path, tc.src, diff)
		}
	}
}

// TestLexSorted checks that the tags of every fixture of a tier-2
// language are sorted by line and have valid names.
func TestLexSorted(t *testing.T) {
	for _, l := range lexerLanguages {
		files, _ := filepath.Glob(filepath.Join("testdata/lang", l.name, "*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".tags") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tags := parse(t, filepath.Base(f), string(src))
			if !slices.IsSortedFunc(tags, func(a, b Tag) int { return a.Line - b.Line }) {
				t.Errorf("%s: tags not sorted by line", f)
			}
			for _, tg := range tags {
				if tg.Name == "" || tg.Name == "_" || strings.ContainsAny(tg.Name, "\n\r") || tg.Sub == "" {
					t.Errorf("%s: bad tag %+v", f, tg)
				}
			}
		}
	}
}

func TestLexCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := NewParser(nil)
	defer p.Close()
	src := bytes.Repeat([]byte("def f(x), do: g(x)\n"), 10000)
	if _, err := p.Parse(ctx, "a.ex", src); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestLexTimeout(t *testing.T) {
	p := NewParser(&ParserOptions{Timeout: time.Nanosecond})
	defer p.Close()
	src := bytes.Repeat([]byte("def f(x), do: g(x)\n"), 10000)
	if _, err := p.Parse(context.Background(), "a.ex", src); !errors.Is(err, ErrTimeout) {
		t.Errorf("Parse with a 1ns timeout = %v, want ErrTimeout", err)
	}
}

// TestLexHugeLine checks that a huge one-line input, like minified code,
// is cut short: at most maxLexTokens tokens are read.
func TestLexHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	src := bytes.Repeat([]byte("f(a);"), 1_000_000) // 5 MB, one line
	p := NewParser(nil)
	defer p.Close()
	start := time.Now()
	tags, err := p.Parse(context.Background(), "min.swift", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) == 0 || len(tags) > maxLexTokens {
		t.Errorf("got %d tags, want 1 to %d", len(tags), maxLexTokens)
	}
	for _, tg := range tags {
		if tg.Line != 0 {
			t.Fatalf("tag on line %d of a one-line file", tg.Line)
		}
	}
	t.Logf("%d tags in %v", len(tags), time.Since(start))
}

// TestLexInvalidUTF8 feeds bytes that are not UTF-8 to every tier-2
// language: no panic, and names stay valid UTF-8.
func TestLexInvalidUTF8(t *testing.T) {
	junk := []byte("def \xff\xfe(x) \x80\x81 = \"\xc3\x28 \n(defun \xe2\x82 ()\n# \xf0\x28\x8c\xbc\nfunc f\xed\xa0\x80() {}\n\x00\x01{{{[[(\n")
	for _, l := range lexerLanguages {
		p := NewParser(nil)
		tags, err := p.Parse(context.Background(), "junk"+l.exts[0], junk)
		p.Close()
		if err != nil {
			t.Errorf("%s: %v", l.name, err)
		}
		for _, tg := range tags {
			if !utf8.ValidString(tg.Name) || tg.Name == "" {
				t.Errorf("%s: bad name %q", l.name, tg.Name)
			}
		}
	}
}

// panicky is a mutator that fails, which makes chroma's lexer panic.
type panicky struct{}

func (panicky) Mutate(*chroma.LexerState) error { return errors.New("boom") }

func TestLexPanicRecovered(t *testing.T) {
	lx := chroma.MustNewLexer(&chroma.Config{Name: "repomap-test-panic"}, func() chroma.Rules {
		return chroma.Rules{"root": {{Pattern: `.`, Type: chroma.Name, Mutator: panicky{}}}}
	})
	lexers.Register(lx)
	l := &language{name: "panicky", lexer: "repomap-test-panic"}
	p := NewParser(nil)
	defer p.Close()
	_, err := p.lex(context.Background(), l, "a.x", []byte("abc"))
	if err == nil {
		t.Error("lex with a panicking lexer gave no error")
	}
	lexSpecs["panicky"] = &lexSpec{}
	defer delete(lexSpecs, "panicky")
	if _, err := p.lex(context.Background(), l, "a.x", []byte("abc")); !errors.Is(err, errLexerPanic) {
		t.Errorf("lex with a panicking lexer = %v, want errLexerPanic", err)
	}
	if _, err := p.lexRefs(context.Background(), l, "a.x", []byte("abc")); !errors.Is(err, errLexerPanic) {
		t.Errorf("lexRefs with a panicking lexer = %v, want errLexerPanic", err)
	}
}

// TestLexRefs checks the references a tier-1 language without reference
// patterns gets from its lexer.
func TestLexRefs(t *testing.T) {
	l := &language{name: "python-lexrefs", exts: []string{".py"}, lexer: "Python"}
	src := "import os\n\nclass Cart(Base):\n    def total(self):\n        return helper(self.items) # note\n"
	p := NewParser(nil)
	defer p.Close()
	tags, err := p.lexRefs(context.Background(), l, "cart.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 ref name os",
		"2 ref name Base",
		"4 ref call helper", "4 ref name items",
	}
	got := short(tags)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lexRefs (-want +got):\n%s", diff)
	}
	for _, tg := range tags {
		if tg.Kind != Reference || tg.Path != "cart.py" {
			t.Errorf("lexRefs gave %+v", tg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.lexRefs(ctx, l, "cart.py", bytes.Repeat([]byte(src), 1000)); !errors.Is(err, context.Canceled) {
		t.Errorf("lexRefs with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestDetectContent(t *testing.T) {
	for _, tc := range []struct{ path, head, want string }{
		{"a.m", "function y = f(x)\n  y = x;\nend\n", "matlab"},
		{"a.m", "", "matlab"},
		{"a.m", "% @interface in a comment\nx = 1;\n", "matlab"},
		{"a.m", "#import <Foundation/Foundation.h>\n", "objectivec"},
		{"a.m", "@implementation Cart\n@end\n", "objectivec"},
		{"a.h", "@interface Cart : NSObject\n@end\n", "objectivec"},
		{"a.h", "int add(int, int);\n", "c"},
		{"a.mm", "", "objectivec"},
		{"README.md", "", "markdown"},
		{"bin/tool", "#!/usr/bin/env elixir\n", "elixir"},
		{"bin/tool", "#!/usr/bin/perl -w\n", "perl"},
		{".emacs", "", "emacslisp"},
	} {
		if got := Detect(tc.path, []byte(tc.head)); got != tc.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tc.path, tc.head, got, tc.want)
		}
	}
}

// BenchmarkLex measures lex on about 1 MB of Elixir, which is more than
// maxLexTokens tokens (the first ~600 KB are lexed), and on 100 KB.
func BenchmarkLex(b *testing.B) {
	unit, err := os.ReadFile("testdata/lang/elixir/inventory.ex")
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 20, 100 << 10} {
		src := bytes.Repeat(unit, size/len(unit)+1)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			p := NewParser(nil)
			defer p.Close()
			b.SetBytes(int64(len(src)))
			last := 0
			for b.Loop() {
				tags, err := p.Parse(context.Background(), "big.ex", src)
				if err != nil || len(tags) == 0 {
					b.Fatal(err, len(tags))
				}
				last = tags[len(tags)-1].Line
			}
			b.ReportMetric(float64(last+1)/float64(bytes.Count(src, []byte("\n"))), "lexed-fraction")
		})
	}
}

// FuzzLex feeds any bytes to a tier-2 language: tags come sorted, with
// names, and nothing panics.
func FuzzLex(f *testing.F) {
	for i, l := range lexerLanguages {
		files, _ := filepath.Glob(filepath.Join("testdata/lang", l.name, "*"))
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil && !strings.HasSuffix(file, ".tags") {
				f.Add(uint8(i), src)
			}
		}
	}
	p := NewParser(nil)
	defer p.Close()
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		l := lexerLanguages[int(lang)%len(lexerLanguages)]
		tags, err := p.lex(context.Background(), l, "fuzz"+l.exts[0], src)
		if errors.Is(err, errLexerPanic) {
			t.Fatalf("%s: %v", l.name, err)
		}
		if !slices.IsSortedFunc(tags, func(a, b Tag) int { return a.Line - b.Line }) {
			t.Fatalf("%s: tags not sorted", l.name)
		}
		for _, tg := range tags {
			if tg.Name == "" || tg.Name == "_" || strings.ContainsAny(tg.Name, "\n\r") {
				t.Fatalf("%s: bad tag %+v", l.name, tg)
			}
		}
	})
}

// cppAll is every mark of C++ in one expression.
var cppAll = regexp.MustCompile(`(?m)^\s*(namespace\s+\w|template\s*<|class\s+\w+[^;]*\{|(public|private|protected)\s*:)|\w::\w|extern\s+"C"`)

// FuzzMarked checks that mark.in, which searches a head only when it holds
// one of the words every match holds, tells what the search alone tells,
// and the marks of C++ one by one what one search for all of them does.
func FuzzMarked(f *testing.F) {
	for _, s := range []string{
		"int add(int, int);\n",
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\n",
		"extern\n\t\"C\" int x;\n",
		"extern int counter;\n",
		"  namespace  cart {\n",
		"template<typename T> T id(T);\n",
		"class Cart : public Base {\n",
		"class Forward;\n",
		"  public:\n",
		"a::b\n",
		"/* a device class */\nint x;\n",
		"@interface Cart : NSObject\n@end\n",
		"  #import \"x.h\"\n",
		"/* @param x */\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		cpp := false
		for _, m := range cppMarks {
			cpp = cpp || m.in(head)
		}
		if want := cppAll.Match(head); cpp != want {
			t.Errorf("the marks of C++ in %q: %t, one search for all of them: %t", head, cpp, want)
		}
		if got, want := objcMark.in(head), objcMark.re.Match(head); got != want {
			t.Errorf("objcMark.in(%q) = %t, the search alone %t", head, got, want)
		}
	})
}
