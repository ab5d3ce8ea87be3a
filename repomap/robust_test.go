package repomap

// Robustness: hostile trees. Whatever the tree holds, the map comes out,
// complete and on time, and shows nothing from outside its roots.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// rbMap returns a Map of fsys, closed when the test ends.
//
// Unless opts sets one, the parse timeout is a minute: these tests check
// what is parsed and shown, not how fast, and a busy machine must not
// time out the parse of a large file they expect in the map.
func rbMap(t *testing.T, fsys fs.FS, opts *Options) *Map {
	t.Helper()
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.ParseTimeout == 0 {
		o.ParseTimeout = time.Minute
	}
	m, err := NewFS(fsys, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// rbBuild builds the map of m for req, failing the test on an error, and
// checks its text's format.
func rbBuild(t *testing.T, m *Map, req Request) *Result {
	t.Helper()
	r, err := m.Build(context.Background(), req)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	rbCheckText(t, r)
	return r
}

// rbCheckText checks the text of a map: valid UTF-8, blocks after a blank
// line, each a path line naming a file of the Result, then source lines
// after "│" of at most maxLine runes, and "⋮" lines.
func rbCheckText(t *testing.T, r *Result) {
	t.Helper()
	if !utf8.ValidString(r.Text) {
		t.Errorf("map text is not valid UTF-8")
	}
	if strings.ContainsAny(r.Text, "\r\x00") {
		t.Errorf("map text has a carriage return or NUL:\n%q", r.Text)
	}
	files := make(map[string]bool)
	for _, f := range r.Files {
		files[f.Path] = true
	}
	afterBlank := true // the first line is a path
	for line := range strings.Lines(r.Text) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			afterBlank = true
			continue
		case line == hiddenMark:
		case strings.HasPrefix(line, shownMark):
			if n := utf8.RuneCountInString(line); n > maxLine {
				t.Errorf("map line of %d runes, more than %d: %.120q", n, maxLine, line)
			}
		case afterBlank:
			p := rbPathOf(line)
			if !files[p] {
				t.Errorf("map path line %q names %q, not a file of the Result", line, p)
			}
		default:
			t.Errorf("map line %q is neither a path (first or after a blank line), nor %s, nor after %s", line, hiddenMark, shownMark)
		}
		afterBlank = false
	}
}

// rbPathOf returns the path a map's path line names.
func rbPathOf(line string) string {
	p := strings.TrimSuffix(line, ":")
	if strings.HasPrefix(p, `"`) {
		if q, err := strconv.Unquote(p); err == nil {
			return q
		}
	}
	return p
}

func rbSkipped(r *Result) map[string]string {
	out := make(map[string]string)
	for _, s := range r.Skipped {
		out[s.Path] = s.Reason
	}
	return out
}

// rbDefLine returns the line of the definition name in the file at p of
// the map, or 0 when the map does not show it.
func rbDefLine(r *Result, p, name string) int {
	for _, f := range r.Files {
		if f.Path != p {
			continue
		}
		for _, d := range f.Defs {
			if d.Name == name {
				return d.Line
			}
		}
	}
	return 0
}

// rbWrite writes the files, by slash-separated path, under dir.
func rbWrite(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBadInput maps files with binary content, broken or mixed encodings
// and every kind of line ending: binary files are left out with a reason,
// the rest are mapped with their definitions on the lines an editor
// shows, and the map has no carriage return or invalid UTF-8.
func TestBadInput(t *testing.T) {
	utf16 := []byte{0xff, 0xfe}
	for _, c := range "def utf16():\n    pass\n" {
		utf16 = append(utf16, byte(c), 0)
	}
	tree := fstest.MapFS{
		"nul.go": {Data: []byte("package p\n\nfunc NUL() {}\x00\x00\n")},
		// Past the 8,000 bytes looked at, a NUL does not make a file binary.
		"late_nul.go":  {Data: []byte("package p\n\n" + strings.Repeat("// filler\n", 900) + "func LateNUL() { _ = \"\x00\" }\n")},
		"utf16.py":     {Data: utf16},
		"png.go":       {Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
		"latin1.py":    {Data: []byte("# caf\xe9\nx = 'd\xe9j\xe0'\n\ndef after_latin1():\n    return 'na\xefve'\n")},
		"mixed.py":     {Data: []byte("# café\n# caf\xe9\ndef mixed_enc():\n    pass\n")},
		"bad_name.py":  {Data: []byte("def caf\xe9_bad():\n    pass\n")},
		"bom.go":       {Data: []byte("\xef\xbb\xbfpackage p\n\nfunc Bom() {}\n")},
		"crlf.go":      {Data: []byte("package p\r\n\r\n// doc\r\nfunc CRLF() {}\r\n")},
		"cr.py":        {Data: []byte("x = 1\r\r# c\rdef LoneCR():\r    pass\r")},
		"mixed_eol.py": {Data: []byte("a = 1\r\nb = 2\rc = 3\n\ndef MixedEOL():\r\n    pass\n")},
		"bom_crlf.py":  {Data: []byte("\xef\xbb\xbf# x\r\ndef BomCRLF():\r\n    pass\r\n")},
		"only_bom.py":  {Data: []byte("\xef\xbb\xbf")},
		"empty.go":     {Data: nil},
		"use.py":       {Data: []byte("after_latin1(); mixed_enc(); LoneCR(); MixedEOL(); BomCRLF()\n")},
		"use.go":       {Data: []byte("package p\n\nfunc use() { Bom(); CRLF(); NUL(); LateNUL() }\n")},
	}
	m := rbMap(t, tree, &Options{MaxTokens: 8000})
	r := rbBuild(t, m, Request{})

	skipped := rbSkipped(r)
	for _, p := range []string{"nul.go", "utf16.py", "png.go"} {
		if skipped[p] != "binary" {
			t.Errorf("Skipped[%s] = %q, want binary", p, skipped[p])
		}
	}
	if r.Stats.Skipped != len(r.Skipped) {
		t.Errorf("Stats.Skipped = %d, want %d, the length of Skipped", r.Stats.Skipped, len(r.Skipped))
	}
	if strings.Contains(r.Text, "func NUL") || strings.Contains(r.Text, "def utf16") || strings.Contains(r.Text, "IHDR") {
		t.Errorf("map shows a binary file's lines:\n%s", r.Text)
	}

	// Each definition on the line an editor shows, in the map and from
	// Definitions, with its line as the map shows it.
	for _, tc := range []struct {
		path, name string
		line       int
		shown      string
	}{
		{"latin1.py", "after_latin1", 4, "│def after_latin1():"},
		{"mixed.py", "mixed_enc", 3, "│def mixed_enc():"},
		{"bom.go", "Bom", 3, "│func Bom() {}"},
		{"crlf.go", "CRLF", 4, "│func CRLF() {}"},
		{"cr.py", "LoneCR", 4, "│def LoneCR():"},
		{"mixed_eol.py", "MixedEOL", 5, "│def MixedEOL():"},
		{"bom_crlf.py", "BomCRLF", 2, "│def BomCRLF():"},
		{"late_nul.go", "LateNUL", 903, "│func LateNUL() { _ = \"\uFFFD\" }"},
	} {
		if got := rbDefLine(r, tc.path, tc.name); got != tc.line {
			t.Errorf("map: %s in %s on line %d, want %d", tc.name, tc.path, got, tc.line)
		}
		defs, err := m.Definitions(context.Background(), tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(defs) != 1 || defs[0].Path != tc.path || defs[0].Line != tc.line {
			t.Errorf("Definitions(%s) = %+v, want one in %s on line %d", tc.name, defs, tc.path, tc.line)
			continue
		}
		if !strings.Contains(defs[0].Text, tc.shown+"\n") || strings.Contains(defs[0].Text, "\r") {
			t.Errorf("Definitions(%s).Text = %q, want the line %q and no carriage return", tc.name, defs[0].Text, tc.shown)
		}
	}
	// A name with an invalid byte is a definition all the same, shown
	// with U+FFFD where the byte was.
	if !strings.Contains(r.Text, "│def caf\uFFFD_bad():") {
		t.Errorf("map lacks bad_name.py's definition, made valid UTF-8:\n%s", r.Text)
	}
}

// TestHugeFiles maps a tree with a minified file over the size limit, one
// under it on a single line, and a large generated file: the first is left
// out with the reason, the second is parsed and its line cut in the map,
// and the map of the whole comes out within its budget.
func TestHugeFiles(t *testing.T) {
	minified := func(size int, prefix string) []byte {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "function %s%d(a,b){return a+b*%d}", prefix, i, i)
		}
		return []byte(b.String())
	}
	var gen strings.Builder
	gen.WriteString("// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage pb\n\n")
	for i := range 15000 {
		fmt.Fprintf(&gen, "func (x *Msg) GetField%d() int32 { return x.field%d }\n", i, i)
	}
	tree := fstest.MapFS{
		"big.min.js":  {Data: minified(5<<20, "big")},
		"mid.min.js":  {Data: minified(900<<10, "mid")},
		"msg.pb.go":   {Data: []byte(gen.String())},
		"use.js":      {Data: []byte("mid0(1, 2); mid7(3, 4); big0(5, 6);\n")},
		"main.go":     {Data: []byte("package main\n\nfunc main() { var x Msg; x.GetField7() }\n")},
		"unrelated.c": {Data: []byte("int unrelated(void) { return 0; }\n")},
	}
	m := rbMap(t, tree, nil) // the default limit, 1 MiB
	start := time.Now()
	r := rbBuild(t, m, Request{MaxTokens: 4000})
	t.Logf("map of a 5 MB, a 900 KB and a %d KB file: %v, %d tokens", gen.Len()>>10, time.Since(start), r.Tokens)

	if got, want := rbSkipped(r)["big.min.js"], fmt.Sprintf("larger than %d bytes", DefaultMaxFileSize); got != want {
		t.Errorf("Skipped[big.min.js] = %q, want %q", got, want)
	}
	if r.Stats.Skipped != 1 || len(r.Skipped) != 1 {
		t.Errorf("Skipped = %v (Stats.Skipped %d), want big.min.js alone", r.Skipped, r.Stats.Skipped)
	}
	if r.Tokens > 4000 {
		t.Errorf("map has %d tokens, more than its budget of 4000", r.Tokens)
	}
	defs, err := m.Definitions(context.Background(), "mid7", "big0", "GetField7")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Definition{}
	for _, d := range defs {
		got[d.Name] = d
	}
	if _, ok := got["big0"]; ok {
		t.Errorf("Definitions found big0 in a file over the size limit")
	}
	mid, ok := got["mid7"]
	if !ok || mid.Line != 1 {
		t.Fatalf("Definitions(mid7) = %+v, want it on line 1 of mid.min.js", defs)
	}
	if !strings.HasPrefix(mid.Text, shownMark+"function mid0(a,b)") || utf8.RuneCountInString(strings.SplitN(mid.Text, "\n", 2)[0]) != maxLine {
		t.Errorf("Definitions(mid7).Text = %.200q, want the line cut to %d runes", mid.Text, maxLine)
	}
	if d, ok := got["GetField7"]; !ok || d.Line != 12 {
		t.Errorf("Definitions(GetField7) = %+v, want it on line 12 of msg.pb.go", got["GetField7"])
	}
}

// TestSyntaxErrors maps truncated and broken files: each still gives the
// definitions of the parts that parse.
func TestSyntaxErrors(t *testing.T) {
	tree := fstest.MapFS{
		"trunc.go":    {Data: []byte("package p\n\nfunc Whole() {}\n\nfunc Cut(a int, b")},
		"trunc.py":    {Data: []byte("def whole_py():\n    pass\n\ndef cut(a, b")},
		"trunc.js":    {Data: []byte("function wholeJS() {}\nfunction cut(a, {")},
		"garbage.rs":  {Data: []byte("fn whole_rs() {}\n}}}}{{{ ))) fn\n")},
		"broken.java": {Data: []byte("class Broken { void wholeJava() {} void cut( ")},
		"half.rb":     {Data: []byte("def whole_rb\nend\n\nclass Open\n  def inner")},
		"junk.c":      {Data: []byte("int whole_c(void) { return 0; }\n#if\n}}} int x = (((;\n")},
		"use.py":      {Data: []byte("whole_py()\n")},
	}
	m := rbMap(t, tree, &Options{MaxTokens: 4000})
	rbBuild(t, m, Request{})
	for _, name := range []string{"Whole", "whole_py", "wholeJS", "whole_rs", "wholeJava", "whole_rb", "whole_c"} {
		defs, err := m.Definitions(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if len(defs) != 1 {
			t.Errorf("Definitions(%s) = %+v, want one definition from the part that parses", name, defs)
		}
	}
}

// deepTree returns files nested 100,000 brackets deep, one bracket a line,
// in Go, Python and JavaScript, each with a name inside the nesting, and a
// file that defines the name deep.py calls.
func deepTree() fstest.MapFS {
	const depth = 100000
	return fstest.MapFS{
		// The field of a struct declared 25,000 blocks down (a block is
		// two nodes deep; tree-sitter's queries see 65,535 nodes deep).
		"deep.go": {Data: []byte("package p\n\nfunc F() {\n" + strings.Repeat("{\n", depth/4) + "type local struct {\n\tDeepField int\n}\n" +
			strings.Repeat("{\n", depth*3/4) + strings.Repeat("}\n", depth+1))},
		// A call of a function it imports, 50,000 lists down.
		"deep.py": {Data: []byte("from lib import deep_call\n\nx = " + strings.Repeat("[\n", depth/2) + "deep_call(),\n" + strings.Repeat("[\n", depth/2) + strings.Repeat("]\n", depth))},
		"deep.js": {Data: []byte("x = " + strings.Repeat("[\n", depth/2) + "class {\n  deepMethod() {}\n},\n" + strings.Repeat("[\n", depth/2) + strings.Repeat("]\n", depth))},
		"lib.py":  {Data: []byte("def deep_call():\n    pass\n")},
	}
}

// rbLineOf returns the 1-based line of the first s in the file at p.
func rbLineOf(tree fstest.MapFS, p, s string) int {
	data := string(tree[p].Data)
	return strings.Count(data[:strings.Index(data, s)], "\n") + 1
}

// TestDeepNestingMap maps files nested 100,000 brackets deep, and renders
// definitions and uses that sit inside the nesting, in the Aider style
// with the header of every scope around them, in the compact style with
// the declarations around them: nothing recurses per level.
func TestDeepNestingMap(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: parses and renders 100,000-deep files")
	}
	tree := deepTree()
	m := rbMap(t, tree, &Options{Style: StyleAider})
	ctx := context.Background()
	start := time.Now()
	defs, err := m.Definitions(ctx, "DeepField", "deepMethod")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Definitions over the deep files: %v", time.Since(start))
	lines := map[string]int{"DeepField": rbLineOf(tree, "deep.go", "DeepField"), "deepMethod": rbLineOf(tree, "deep.js", "deepMethod")}
	for _, d := range defs {
		shown := strings.Count(d.Text, shownMark)
		if d.Line != lines[d.Name] || !strings.Contains(d.Text, "│\t"+d.Name+" int\n") && !strings.Contains(d.Text, "│  "+d.Name+"() {}\n") {
			t.Errorf("Definitions: %s on line %d, text ending %q; want line %d", d.Name, d.Line, d.Text[max(0, len(d.Text)-80):], lines[d.Name])
		}
		if shown < 25000 {
			t.Errorf("Definitions: %s shown with %d lines, want a header for each of the 25,000 scopes around it", d.Name, shown)
		}
		delete(lines, d.Name)
	}
	if len(lines) > 0 {
		t.Errorf("Definitions found none of %v", lines)
	}

	// A map big enough for the definitions with their headers.
	start = time.Now()
	r := rbBuild(t, m, Request{MaxTokens: 1 << 20})
	t.Logf("map of the deep files: %v, %d tokens", time.Since(start), r.Tokens)
	if rbDefLine(r, "deep.go", "DeepField") != rbLineOf(tree, "deep.go", "DeepField") || rbDefLine(r, "deep.js", "deepMethod") != rbLineOf(tree, "deep.js", "deepMethod") {
		t.Errorf("map lacks DeepField or deepMethod on their lines")
	}

	// A use inside the nesting, rendered in context by Related.
	rel, err := m.Related(ctx, "lib.py", Request{MaxTokens: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+rel.Text, "\ndeep.py:\n") || !strings.Contains(rel.Text, "│deep_call(),\n") {
		t.Errorf("Related(lib.py) lacks the deep use in deep.py:\n%.300s", rel.Text)
	}

	// The compact style: the field under its struct's header and the
	// signature of the function the struct is declared in; the method
	// under its class; none of the brackets between.
	mc := rbMap(t, tree, nil)
	start = time.Now()
	defs, err = mc.Definitions(ctx, "DeepField", "deepMethod")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Definitions over the deep files, compact: %v", time.Since(start))
	want := map[string]string{
		"DeepField":  "⋮\n│func F() {\n⋮\n│type local struct {\n│\tDeepField int\n⋮\n",
		"deepMethod": "⋮\n│class {\n│  deepMethod() {}\n⋮\n",
	}
	for _, d := range defs {
		if d.Text != want[d.Name] {
			t.Errorf("Definitions, compact: %s shown as %q, want %q", d.Name, d.Text, want[d.Name])
		}
		delete(want, d.Name)
	}
	if len(want) > 0 {
		t.Errorf("Definitions, compact, found none of %v", want)
	}
}

// TestParseTimeoutSkips maps a tree with a file whose tags take far
// longer than Options.ParseTimeout: it is left out with the reason, and
// the rest of the map is what it is without it.
func TestParseTimeoutSkips(t *testing.T) {
	tree := synthTree(12)
	// 100,000 unclosed brackets: the parse is quick, but the tags query
	// takes about 20 seconds.
	tree["slow.go"] = &fstest.MapFile{Data: []byte("package slow\nvar x = " + strings.Repeat("(", 100000))}
	const timeout = 300 * time.Millisecond
	m := rbMap(t, tree, &Options{ParseTimeout: timeout, MaxTokens: 8000})
	start := time.Now()
	r := rbBuild(t, m, Request{})
	took := time.Since(start)
	t.Logf("map with a pathological file and a %v timeout: %v", timeout, took)
	if took > 10*time.Second {
		t.Errorf("map took %v with a %v parse timeout", took, timeout)
	}
	if got, want := rbSkipped(r)["slow.go"], "parse took longer than 300ms"; got != want {
		t.Errorf("Skipped[slow.go] = %q, want %q", got, want)
	}
	if r.Stats.Skipped != 1 {
		t.Errorf("Stats.Skipped = %d, want 1", r.Stats.Skipped)
	}

	delete(tree, "slow.go")
	want := rbBuild(t, rbMap(t, tree, &Options{MaxTokens: 8000}), Request{})
	defsOf := func(r *Result) map[string][]Def {
		out := make(map[string][]Def)
		for _, f := range r.Files {
			if f.Path != "slow.go" {
				out[f.Path] = f.Defs
			}
		}
		return out
	}
	if diff := cmp.Diff(defsOf(want), defsOf(r)); diff != "" {
		t.Errorf("map with slow.go timed out differs from the map without it (-want +got):\n%s", diff)
	}
}

// TestParseTimeoutKept checks that a file whose parse timed out is parsed
// again by the next process (a busy machine runs out a timeout of the
// clock sooner), and left out without a parse once timedOutTries
// processes in a row timed out, its map then kept; a longer timeout, or
// a change of the file, parses it again.
func TestParseTimeoutKept(t *testing.T) {
	if testing.Short() {
		t.Skip("maps that each wait for a parse timeout")
	}
	root, dir := t.TempDir(), t.TempDir()
	rbWrite(t, root, map[string]string{
		"main.go": "package main\n\nfunc main() {}\n",
		"slow.go": "package main\nvar x = " + strings.Repeat("(", 100000),
	})
	const short = 300 * time.Millisecond
	for run, step := range []struct {
		timeout time.Duration
		change  bool
		parsed  int
		reused  bool
	}{
		{short, false, 2, false},     // both parsed; slow.go times out
		{short, false, 1, false},     // slow.go again, and again it times out
		{short, false, 0, true},      // left out without a parse: the map is kept
		{short / 2, false, 0, false}, // a shorter timeout: left out too
		{2 * short, false, 1, false}, // a longer one: parsed again
		{short, true, 1, false},      // slow.go changed: parsed again
		{short, false, 1, false},     // the second time in a row
		{short, false, 0, true},      // then left out
	} {
		if step.change {
			later := time.Now().Add(time.Hour)
			p := filepath.Join(root, "slow.go")
			if err := os.WriteFile(p, []byte("package main\nvar y = "+strings.Repeat("(", 100000)), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(p, later, later)
		}
		m, err := New(root, &Options{CacheDir: dir, ParseTimeout: step.timeout})
		if err != nil {
			t.Fatal(err)
		}
		r := rbBuild(t, m, Request{})
		m.Close()
		if got, want := rbSkipped(r)["slow.go"], "parse took longer than "; !strings.HasPrefix(got, want) {
			t.Fatalf("run %d: Skipped[slow.go] = %q, want %q…", run, got, want)
		}
		if r.Stats.Parsed != step.parsed || r.Stats.Reused != step.reused {
			t.Errorf("run %d, timeout %v: %d files parsed, map reused %t; want %d, %t", run, step.timeout, r.Stats.Parsed, r.Stats.Reused, step.parsed, step.reused)
		}
	}
}

// TestSymlinks maps a tree with symbolic links: loops, links to files
// and directories outside the root, dangling links, and links inside the
// root. The map ends, never shows what lies outside, and maps each file
// inside once.
func TestSymlinks(t *testing.T) {
	outside := t.TempDir()
	rbWrite(t, outside, map[string]string{
		"secret.go":   "package secret\n\n// root:x:0:0:root:/root:/bin/bash\nfunc Secret() {}\n",
		"passwd":      "root:x:0:0:root:/root:/bin/bash\n",
		"dir/more.go": "package dir\n\n// root:x:0:0\nfunc Outside() {}\n",
	})
	root := t.TempDir()
	rbWrite(t, root, map[string]string{
		"main.go":       "package main\n\nfunc main() { Secret(); Inside(); Outside() }\n",
		"lib/inside.go": "package lib\n\nfunc Inside() {}\n",
	})
	links := map[string]string{
		"secret.go":           filepath.Join(outside, "secret.go"),
		"passwd":              filepath.Join(outside, "passwd"),
		"etc_passwd.go":       "/etc/passwd",
		"etc":                 "/etc",
		"outdir":              outside,
		"loop":                ".",
		"lib/up":              "..",
		"lib/self":            "self",
		"a":                   "b",
		"b":                   "a",
		"dangling.go":         "missing.go",
		"lib/inside_alias.go": "inside.go",
		"alias_dir":           "lib",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	m, err := New(root, &Options{CacheDir: t.TempDir(), MaxTokens: 8000})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := m.Build(ctx, Request{})
	if err != nil {
		t.Fatal(err)
	}
	rbCheckText(t, r)
	for _, bad := range []string{"root:x", "func Secret", "func Outside", "outdir/", "etc/"} {
		if strings.Contains(r.Text, bad) {
			t.Errorf("map shows %q from outside the root:\n%s", bad, r.Text)
		}
	}
	var paths []string
	for _, f := range r.Files {
		paths = append(paths, f.Path)
	}
	paths = append(paths, r.Ranked...)
	for _, p := range paths {
		if p != "main.go" && p != "lib/inside.go" {
			t.Errorf("map has %s, want only main.go and lib/inside.go", p)
		}
	}
	skipped := rbSkipped(r)
	for name := range links {
		if skipped[name] != "symbolic link" {
			t.Errorf("Skipped[%s] = %q, want symbolic link", name, skipped[name])
		}
	}
	for _, name := range []string{"Secret", "Outside"} {
		if defs, err := m.Definitions(ctx, name); err != nil || len(defs) != 0 {
			t.Errorf("Definitions(%s) = %+v, %v; want none", name, defs, err)
		}
	}
	if defs, err := m.Definitions(ctx, "Inside"); err != nil || len(defs) != 1 || defs[0].Path != "lib/inside.go" {
		t.Errorf("Definitions(Inside) = %+v, %v; want the one in lib/inside.go", defs, err)
	}
	if ms, err := m.FindMentions(ctx, "see secret.go, outdir/dir/more.go and etc_passwd.go"); err != nil || len(ms.Files) != 0 {
		t.Errorf("FindMentions(links) = %v, %v; want no files", ms.Files, err)
	}
}

// TestSwappedForSymlink replaces a listed file, or the directory that
// holds it, by a link to one outside the root after the walk and before
// the file is read: the file is left out, and what the link leads to is
// not shown.
func TestSwappedForSymlink(t *testing.T) {
	for _, swapped := range []string{"zz.go", "zz"} {
		t.Run(swapped, func(t *testing.T) {
			outside := t.TempDir()
			secret := "package secret\n\n// root:x:0:0\nfunc Secret() {}\n"
			rbWrite(t, outside, map[string]string{"zz.go": secret, "zz/z.go": secret})
			root := t.TempDir()
			files := map[string]string{
				"zz.go":   "package p\n\nfunc Swapped() {}\n",
				"zz/z.go": "package zz\n\nfunc Swapped() {}\n",
				"use.go":  "package p\n\nfunc use() { Secret(); Swapped() }\n",
			}
			for i := range 64 {
				files[fmt.Sprintf("a%02d.go", i)] = fmt.Sprintf("package p\n\nfunc A%d() { Swapped() }\n", i)
			}
			rbWrite(t, root, files)
			done := false
			swap := func(n, total int) {
				// With one worker, files are parsed in path order: after the
				// first 64, the zz files are yet to come.
				if n == 64 && !done {
					done = true
					name := filepath.Join(root, swapped)
					if err := os.RemoveAll(name); err != nil {
						t.Error(err)
					}
					if err := os.Symlink(filepath.Join(outside, swapped), name); err != nil {
						t.Error(err)
					}
				}
			}
			m, err := New(root, &Options{NoCache: true, Parallelism: 1, Progress: swap, MaxTokens: 8000})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			r := rbBuild(t, m, Request{})
			if !done {
				t.Fatal("nothing was swapped")
			}
			if strings.Contains(r.Text, "root:x") || strings.Contains(r.Text, "func Secret") {
				t.Errorf("map shows what a link swapped in leads to:\n%s", r.Text)
			}
			p := swapped
			if p == "zz" {
				p = "zz/z.go"
			}
			if got := rbSkipped(r)[p]; got != "symbolic link" {
				t.Errorf("Skipped[%s] = %q, want symbolic link", p, got)
			}
		})
	}
}

// faultFS is a tree whose reads can fail or change it, for the faults of a
// real file system: files that cannot be read, files deleted or replaced
// between the walk and the read, directories that vanish during the walk.
type faultFS struct {
	fstest.MapFS
	readFile func(name string) error // before each ReadFile; an error fails it
	readDir  func(name string) error // before each ReadDir; an error fails it
}

func (f faultFS) ReadFile(name string) ([]byte, error) {
	if f.readFile != nil {
		if err := f.readFile(name); err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
	}
	return f.MapFS.ReadFile(name)
}

func (f faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if f.readDir != nil {
		if err := f.readDir(name); err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
		}
	}
	return f.MapFS.ReadDir(name)
}

// Open goes through the methods above for what WalkDir and ReadFile do
// with a plain fs.FS.
func (f faultFS) Open(name string) (fs.File, error) { return f.MapFS.Open(name) }

// TestFaults maps trees whose files fail in the ways of a real file
// system: each failing file or directory is left out with the reason, and
// the rest is mapped.
func TestFaults(t *testing.T) {
	base := func() fstest.MapFS {
		return fstest.MapFS{
			"ok.go":          {Data: []byte("package p\n\nfunc OK() { Locked(); Gone(); Replaced(); Vanished() }\n")},
			"locked.go":      {Data: []byte("package p\n\nfunc Locked() {}\n")},
			"gone.go":        {Data: []byte("package p\n\nfunc Gone() {}\n")},
			"replaced.go":    {Data: []byte("package p\n\nfunc Replaced() {}\n")},
			"vanish/v.go":    {Data: []byte("package vanish\n\nfunc Vanished() {}\n")},
			"stays/s.go":     {Data: []byte("package stays\n\nfunc Stays() { OK() }\n")},
			"flaky/flaky.go": {Data: []byte("package flaky\n\nfunc Flaky() { OK() }\n")},
		}
	}
	tree := base()
	reads := map[string]int{}
	fsys := faultFS{
		MapFS: tree,
		readFile: func(name string) error {
			reads[name]++
			switch name {
			case "locked.go": // chmod 000, as a non-root user meets it
				return fs.ErrPermission
			case "gone.go": // deleted after the walk listed it
				delete(tree, name)
			case "replaced.go": // replaced by a directory
				delete(tree, name)
				tree["replaced.go/x"] = &fstest.MapFile{Data: []byte("x")}
				return errors.New("is a directory")
			case "flaky/flaky.go": // readable to parse, gone when rendered
				if reads[name] > 1 {
					return fs.ErrNotExist
				}
			}
			return nil
		},
		readDir: func(name string) error {
			if name == "vanish" { // listed by its parent, gone when entered
				return fs.ErrNotExist
			}
			return nil
		},
	}
	m := rbMap(t, fsys, &Options{MaxTokens: 4000, Parallelism: 1})
	r, err := m.Build(context.Background(), Request{})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	skipped := rbSkipped(r)
	for p, want := range map[string]string{
		"locked.go":   "unreadable: permission denied",
		"gone.go":     "unreadable: file does not exist",
		"replaced.go": "unreadable: is a directory",
		"vanish":      "unreadable: file does not exist",
	} {
		if skipped[p] != want {
			t.Errorf("Skipped[%s] = %q, want %q", p, skipped[p], want)
		}
	}
	if r.Stats.Skipped != len(r.Skipped) {
		t.Errorf("Stats.Skipped = %d, want %d", r.Stats.Skipped, len(r.Skipped))
	}
	for _, name := range []string{"OK", "Stays"} {
		if !strings.Contains(r.Text, "func "+name+"()") {
			t.Errorf("map lacks %s:\n%s", name, r.Text)
		}
	}
	// flaky.go was parsed but could not be read to render: it is listed
	// by name, and its lines are not made up.
	if strings.Contains(r.Text, "func Flaky") {
		t.Errorf("map shows a file that could not be read:\n%s", r.Text)
	}
	for _, f := range r.Files {
		if f.Path == "flaky/flaky.go" && !strings.HasPrefix(f.Text, "flaky/flaky.go\n") {
			t.Errorf("flaky/flaky.go in the map as %q, want its name alone", f.Text)
		}
	}
}

// TestVanishingDirOnDisk removes a directory of a tree on disk while the
// walk is under way: the map leaves it out and comes out.
func TestVanishingDirOnDisk(t *testing.T) {
	root := t.TempDir()
	rbWrite(t, root, map[string]string{
		"a/a.go": "package a\n\nfunc A() { B() }\n",
		"b/b.go": "package b\n\nfunc B() {}\n",
		"c/c.go": "package c\n\nfunc C() { A() }\n",
	})
	removed := false
	fsys := dirHook{FS: os.DirFS(root), before: func(name string) {
		if name == "a" && !removed { // b is listed already, and entered next
			removed = true
			if err := os.RemoveAll(filepath.Join(root, "b")); err != nil {
				t.Error(err)
			}
		}
	}}
	// One goroutine walks, so that the directories are read in order.
	m := rbMap(t, fsys, &Options{Parallelism: 1})
	r := rbBuild(t, m, Request{})
	if !removed {
		t.Fatal("b was never removed")
	}
	if got := rbSkipped(r)["b"]; !strings.HasPrefix(got, "unreadable: ") {
		t.Errorf("Skipped[b] = %q, want unreadable", got)
	}
	if !strings.Contains(r.Text, "func A()") || !strings.Contains(r.Text, "func C()") {
		t.Errorf("map lacks a.go or c.go:\n%s", r.Text)
	}
}

// dirHook calls before ahead of each ReadDir.
type dirHook struct {
	fs.FS
	before func(name string)
}

func (d dirHook) ReadDir(name string) ([]fs.DirEntry, error) {
	d.before(name)
	return fs.ReadDir(d.FS, name)
}

// TestOddNames maps files whose names have spaces, newlines, control
// characters, quotes, colons, invalid UTF-8 and great length: the map
// names each unambiguously (quoted as a Go string where a plain name could
// be misread), and so does the JSON form.
func TestOddNames(t *testing.T) {
	long := strings.Repeat("long-directory-name/", 8) + "deep.go"
	names := []string{
		"with space.go", "new\nline.go", "tab\there.go", " lead.go", "trail .go",
		`"quoted".go`, "colon:.go", "bad\xffname.go", "bad\xfename.go", "ファイル.go", long,
	}
	root := t.TempDir()
	files := map[string]string{}
	for i, n := range names {
		files[n] = fmt.Sprintf("package p\n\nfunc Odd%d() {}\n", i)
	}
	rbWrite(t, root, files)
	m, err := New(root, &Options{NoCache: true, MaxTokens: 8000})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r := rbBuild(t, m, Request{})

	// Each file once, its path line reading back as its name; a name
	// that is not UTF-8 with those bytes as "\xHH", in the text and in
	// JSON alike.
	shown := func(n string) string {
		if utf8.ValidString(n) {
			return n
		}
		return strings.NewReplacer("\xff", `\xff`, "\xfe", `\xfe`).Replace(n)
	}
	named := map[string]int{}
	for line := range strings.Lines(r.Text) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" || line == hiddenMark || strings.HasPrefix(line, shownMark) {
			continue
		}
		named[rbPathOf(line)]++
	}
	for _, n := range names {
		if named[shown(n)] != 1 {
			t.Errorf("map names %q %d times, want once:\n%s", shown(n), named[shown(n)], r.Text)
		}
	}
	// Every file is read by its name and parsed. (Where the index reads
	// through os.DirFS alone, which opens no name that is not UTF-8, those
	// are listed by name, with the reason.)
	for i, n := range names {
		if !utf8.ValidString(n) && runtime.GOOS != "linux" {
			if got := rbSkipped(r)[shown(n)]; !strings.HasPrefix(got, "unreadable: ") {
				t.Errorf("Skipped[%q] = %q, want unreadable", shown(n), got)
			}
			continue
		}
		if !strings.Contains(r.Text, fmt.Sprintf("│func Odd%d() {}", i)) {
			t.Errorf("map lacks the definition in %q", n)
		}
	}

	// The JSON form: the text as it is, and a path per file.
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc Result
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Text != r.Text {
		t.Errorf("JSON text differs from the map")
	}
	jsonPaths := map[string]int{}
	for _, f := range doc.Files {
		jsonPaths[f.Path]++
	}
	for _, n := range names {
		if jsonPaths[shown(n)] != 1 {
			t.Errorf("JSON has path %q %d times, want once", shown(n), jsonPaths[shown(n)])
		}
	}
	for p := range jsonPaths {
		if strings.Contains(p, "\uFFFD") {
			t.Errorf("JSON path %q has lost bytes", p)
		}
	}
}

// TestSkippedStaysListed builds a map again with nothing changed: the
// files left out of parsing are still in Result.Skipped, with their
// reasons, though nothing was parsed this time.
func TestSkippedStaysListed(t *testing.T) {
	tree := fstest.MapFS{
		"big.go":  {Data: []byte("package p\n\nfunc Big() {}\n" + strings.Repeat("// filler\n", 200))},
		"bin.go":  {Data: []byte("package p\x00")},
		"main.go": {Data: []byte("package p\n\nfunc main() { Big() }\n")},
	}
	m := rbMap(t, tree, &Options{MaxFileSize: 1000, Refresh: RefreshAlways})
	first := rbBuild(t, m, Request{})
	again := rbBuild(t, m, Request{})
	if again.Stats.Parsed != 0 {
		t.Fatalf("second build parsed %d files, want none", again.Stats.Parsed)
	}
	if diff := cmp.Diff(first.Skipped, again.Skipped); diff != "" || len(first.Skipped) != 2 {
		t.Errorf("Skipped of the second build (-first +second):\n%s\nfirst: %v", diff, first.Skipped)
	}
	if again.Stats.Skipped != 2 {
		t.Errorf("second build: Stats.Skipped = %d, want 2", again.Stats.Skipped)
	}
}

// TestNoCredentialInMap: a credential in a shown line never reaches the
// map, Definitions or Related, the definition stays, and Stats counts the
// line.
func TestNoCredentialInMap(t *testing.T) {
	const token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	tree := fstest.MapFS{
		"config.go": {Data: []byte("package p\n\n// GithubToken is used by Fetch.\nconst GithubToken = \"" + token + "\"\n")},
		"fetch.go":  {Data: []byte("package p\n\nfunc Fetch() string { return GithubToken }\n")},
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
	if strings.Contains(r.Text, token[4:20]) || !strings.Contains(r.Text, "const GithubToken = ") {
		t.Errorf("map shows the token, or not the definition:\n%s", r.Text)
	}
	if r.Stats.Redacted != 1 {
		t.Errorf("Stats.Redacted = %d, want 1", r.Stats.Redacted)
	}
	defs, err := m.Definitions(context.Background(), "GithubToken")
	if err != nil || len(defs) != 1 || strings.Contains(defs[0].Text, token[4:20]) {
		t.Errorf("Definitions(GithubToken) = %+v, %v: want it, without the token", defs, err)
	}
	rel, err := m.Related(context.Background(), "fetch.go", Request{MaxTokens: 0})
	if err != nil || strings.Contains(rel.Text, token[4:20]) {
		t.Errorf("Related(fetch.go) = %v, %v: want it without the token", rel, err)
	}
}

// TestSkipsKept maps a tree with a file too large to parse, and a binary
// one, in new processes on one disk cache: each map lists the files left
// out as the first did, and a larger Options.MaxFileSize, then a smaller
// one again, parse the large file, then leave it out.
func TestSkipsKept(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	rbWrite(t, root, map[string]string{
		"big.go":  "package main\n\nfunc Big() {}\n" + strings.Repeat("// more\n", 200),
		"bin.go":  "package main\x00\x01\x02",
		"main.go": "package main\n\nfunc main() { Big() }\n",
	})
	for run, step := range []struct {
		limit   int64
		budget  int
		skipped []string
		big     bool // the map shows Big
	}{
		{100, 1000, []string{"big.go larger than 100 bytes", "bin.go binary"}, false},
		{100, 900, []string{"big.go larger than 100 bytes", "bin.go binary"}, false},
		{1 << 20, 1000, []string{"bin.go binary"}, true},
		{1 << 20, 900, []string{"bin.go binary"}, true},
		{100, 800, []string{"big.go larger than 100 bytes", "bin.go binary"}, false},
	} {
		m, err := New(root, &Options{CacheDir: dir, MaxFileSize: step.limit})
		if err != nil {
			t.Fatal(err)
		}
		r := rbBuild(t, m, Request{MaxTokens: step.budget})
		m.Close()
		var skipped []string
		for _, s := range r.Skipped {
			skipped = append(skipped, s.Path+" "+s.Reason)
		}
		if !slices.Equal(skipped, step.skipped) || r.Stats.Skipped != len(step.skipped) {
			t.Errorf("run %d, limit %d: skipped %q (%d), want %q", run, step.limit, skipped, r.Stats.Skipped, step.skipped)
		}
		if got := strings.Contains(r.Text, "func Big()"); got != step.big {
			t.Errorf("run %d, limit %d: the map shows Big: %t, want %t:\n%s", run, step.limit, got, step.big, r.Text)
		}
	}
}
