package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/mcpserver"
	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
)

// call calls a tool with args given as JSON.
func call(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	params := &mcp.CallToolParams{Name: tool}
	if args != "" {
		params.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("%s(%s): %v", tool, args, err)
	}
	return res
}

// TestStructuredContent checks that every tool has an output schema,
// and that each answer's structured content is valid under it and is the
// JSON document of what the text shows.
func TestStructuredContent(t *testing.T) {
	cs := connect(t, nil, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range tools.Tools {
		raw, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil || s.Type != "object" {
			t.Fatalf("tool %s: output schema %s (%v), want an object's", tool.Name, raw, err)
		}
		if strings.Contains(string(raw), `"null"`) {
			t.Errorf("tool %s: output schema %s allows null, but no field of the documents is ever null", tool.Name, raw)
		}
		if schemas[tool.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("tool %s: %v", tool.Name, err)
		}
	}
	for _, tc := range []struct {
		tool, args string
		check      func(doc map[string]any) bool
	}{
		{mcpserver.ToolMap, `{"focus":["main.go"]}`, func(doc map[string]any) bool {
			files := doc["files"].([]any)
			return len(files) > 0 && files[0].(map[string]any)["path"] == "shapes/area.go"
		}},
		{mcpserver.ToolMap, `{"tokens":1}`, func(doc map[string]any) bool { return len(doc["files"].([]any)) == 0 }},
		{mcpserver.ToolDefinitions, `{"names":["Area","Nope"]}`, func(doc map[string]any) bool {
			defs := doc["definitions"].([]any)
			return len(defs) == 1 && defs[0].(map[string]any)["path"] == "shapes/area.go"
		}},
		{mcpserver.ToolReferences, `{"name":"Area"}`, func(doc map[string]any) bool {
			refs := doc["references"].([]any)
			return len(refs) == 1 && refs[0].(map[string]any)["path"] == "main.go" && refs[0].(map[string]any)["name"] == "Area"
		}},
		{mcpserver.ToolReferences, `{"name":"Nope"}`, func(doc map[string]any) bool { return len(doc["references"].([]any)) == 0 }},
		{mcpserver.ToolRelated, `{"file":"main.go"}`, func(doc map[string]any) bool {
			files := doc["files"].([]any)
			return len(files) > 0 && files[0].(map[string]any)["path"] == "shapes/area.go"
		}},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if res.IsError {
			t.Errorf("%s(%s) = error %q", tc.tool, tc.args, text(res))
			continue
		}
		doc, ok := res.StructuredContent.(map[string]any)
		if !ok {
			t.Errorf("%s(%s): structured content %T, want an object", tc.tool, tc.args, res.StructuredContent)
			continue
		}
		if err := schemas[tc.tool].Validate(doc); err != nil {
			t.Errorf("%s(%s): structured content not valid under the output schema: %v", tc.tool, tc.args, err)
		}
		if doc["schema"] != float64(output.SchemaVersion) || !tc.check(doc) {
			t.Errorf("%s(%s): structured content %v", tc.tool, tc.args, doc)
		}
		if mt, ok := doc["text"].(string); ok && mt != "" && strings.TrimPrefix(mt, "\n") != text(res) {
			t.Errorf("%s(%s): the document's text %q is not the answer's %q", tc.tool, tc.args, mt, text(res))
		}
	}
}

// TestMapRanked checks that the map tool's structured content lists the
// files and definitions in the order and with the scores of the
// library's ranking for the same request.
func TestMapRanked(t *testing.T) {
	cs := connect(t, nil, nil)
	m, err := repomap.NewFS(tree(), &repomap.Options{MaxTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Build(context.Background(), repomap.Request{Focus: []string{"main.go"}, Text: "the area of a shape"})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(output.NewMapDoc(m.Roots(), res))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	got, ok := call(t, cs, mcpserver.ToolMap, `{"focus":["main.go"],"text":"the area of a shape"}`).StructuredContent.(map[string]any)
	if !ok {
		t.Fatal("the map tool's answer has no structured content")
	}
	for _, key := range []string{"ranked_files", "ranked_defs"} {
		if len(want[key].([]any)) == 0 || fmt.Sprint(got[key]) != fmt.Sprint(want[key]) {
			t.Errorf("%s is %v, want the library's %v", key, got[key], want[key])
		}
	}
}

// TestArgumentErrors checks the errors of bad arguments: in the server's
// own words, naming the argument and what it takes.
func TestArgumentErrors(t *testing.T) {
	cs := connect(t, &mcpserver.Options{MaxTokens: 2000}, nil)
	for _, tc := range []struct {
		tool, args, want string
	}{
		{mcpserver.ToolMap, `{"tokens":40000}`, "tokens takes a whole number from 1 to 2000 (omit it for the server's budget); got 40000"},
		{mcpserver.ToolMap, `{"tokens":"abc"}`, `tokens takes a whole number from 1 to 2000 (omit it for the server's budget); got "abc"`},
		{mcpserver.ToolMap, `{"tokens":1.5}`, "tokens takes a whole number from 1 to 2000 (omit it for the server's budget); got 1.5"},
		{mcpserver.ToolMap, `{"tokens":0}`, "tokens takes a whole number from 1 to 2000"},
		{mcpserver.ToolMap, `{"focus":5}`, `focus takes a list of paths of files in the repository, such as ["main.go"]; got 5`},
		{mcpserver.ToolMap, `{"focus":[1]}`, `focus takes a list of paths of files in the repository, such as ["main.go"]; got [1]`},
		{mcpserver.ToolMap, `{"focus":null}`, `focus takes a list of paths of files in the repository, such as ["main.go"]; got null`},
		{mcpserver.ToolMap, `{"focus":"nope.go"}`, "focus: no file nope.go in the repository"},
		{mcpserver.ToolMap, `{"focus":["/etc/passwd"]}`, "focus: /etc/passwd is outside the repository"},
		{mcpserver.ToolMap, `{"text":["a"]}`, `text takes free text, such as "fix the retry in the HTTP client"; got ["a"]`},
		{mcpserver.ToolMap, `{"fcus":["main.go"]}`, `repo_map has no argument "fcus"; it takes focus, mentions, text and tokens`},
		{mcpserver.ToolMap, `[1]`, "the arguments of repo_map are a JSON object of focus, mentions, text and tokens; got [1]"},
		{mcpserver.ToolDefinitions, `{}`, `find_definitions needs names: a list of names, such as ["Render"]`},
		{mcpserver.ToolDefinitions, `{"names":[]}`, `names is an empty list; it takes a list of names, such as ["Render"]`},
		{mcpserver.ToolDefinitions, `{"names":""}`, `names is empty; it takes a list of names, such as ["Render"]`},
		{mcpserver.ToolReferences, `{"name":""}`, `name is empty; it takes a name, such as "Render"`},
		{mcpserver.ToolReferences, `{"name":["Area"]}`, `name takes a name, such as "Render"; got ["Area"]`},
		{mcpserver.ToolRelated, `{"tokens":100}`, `related_files needs file: the path of a file in the repository, such as "main.go"`},
		{mcpserver.ToolRelated, `{"file":"shapes"}`, "file: no file shapes in the repository"},
		{mcpserver.ToolRelated, `{"file":"main.go","tokens":-5}`, "tokens takes a whole number from 1 to 2000"},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if got := text(res); !res.IsError || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s(%s) = %q (error %v), want an error starting %q", tc.tool, tc.args, got, res.IsError, tc.want)
		}
	}
}

// TestLenientArguments checks what the server takes that its schema does
// not say: a string for a list of one, and no arguments at all.
func TestLenientArguments(t *testing.T) {
	cs := connect(t, nil, nil)
	for _, tc := range []struct{ tool, args, like string }{
		{mcpserver.ToolMap, `{"focus":"main.go"}`, `{"focus":["main.go"]}`},
		{mcpserver.ToolMap, `{"mentions":"Area3"}`, `{"mentions":["Area3"]}`},
		{mcpserver.ToolDefinitions, `{"names":"Area"}`, `{"names":["Area"]}`},
		{mcpserver.ToolMap, ``, `{}`},
	} {
		got, want := call(t, cs, tc.tool, tc.args), call(t, cs, tc.tool, tc.like)
		if got.IsError || text(got) != text(want) {
			t.Errorf("%s(%s) = %q (error %v), want the answer to %s: %q", tc.tool, tc.args, text(got), got.IsError, tc.like, text(want))
		}
	}
}

// TestDefinitionsMissing checks that find_definitions says which names
// have no definition.
func TestDefinitionsMissing(t *testing.T) {
	cs := connect(t, nil, nil)
	for _, tc := range []struct {
		args string
		want string // the answer's last line
	}{
		{`{"names":["Area","Nope","Area2","Zilch","Nope"]}`, "no definition of Nope, Zilch"},
		{`{"names":["Nope"]}`, "no definition of Nope"},
		{`{"names":["Area"]}`, "│func Area(w, h float64) float64 { return w * h }"},
	} {
		got := strings.TrimSuffix(text(call(t, cs, mcpserver.ToolDefinitions, tc.args)), "\n")
		if last := got[strings.LastIndex(got, "\n")+1:]; last != tc.want {
			t.Errorf("find_definitions(%s) = %q, want it to end with %q", tc.args, got, tc.want)
		}
	}
}

// TestEmptyMapReason checks that an empty map's answer says why, as the
// command does.
func TestEmptyMapReason(t *testing.T) {
	cs := connect(t, nil, nil)
	if got, want := text(call(t, cs, mcpserver.ToolMap, `{"tokens":1}`)), "(the map is empty: a budget of 1 token is too small for one file)\n"; got != want {
		t.Errorf("repo_map of 1 token = %q, want %q", got, want)
	}

	include := []string{"src/**"}
	cs2, _ := serve(t, fstest.MapFS{"notes.bin": {Data: []byte{0, 1, 2}}}, &repomap.Options{Include: include}, &mcpserver.Options{Include: include}, nil)
	if got, want := text(call(t, cs2, mcpserver.ToolMap, `{}`)), "(the map is empty: no file matches --include src/**)\n"; got != want {
		t.Errorf("repo_map of no file = %q, want %q", got, want)
	}
}

// gatedFS is a tree whose file zz/slow.go cannot be opened until gate
// is closed.
type gatedFS struct {
	fsys fs.FS
	gate chan struct{}
}

func (g gatedFS) Open(name string) (fs.File, error) {
	if name == "zz/slow.go" {
		<-g.gate
	}
	return g.fsys.Open(name)
}

// TestAnswerWithin checks that a call waiting longer than AnswerWithin
// for the tree answers that it is not ready, how far the reading is,
// and that the reading goes on for the next call.
func TestAnswerWithin(t *testing.T) {
	// Enough files before the slow one for the Map to report progress (it
	// reports every 64 files): 7 + 130 + 1.
	fsys := tree()
	for i := range 130 {
		fsys[fmt.Sprintf("more/m%03d.go", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "package more\n\nfunc M%d() {}\n", i)}
	}
	fsys["zz/slow.go"] = &fstest.MapFile{Data: []byte("package zz\n\nfunc Slow() {}\n")}
	gate := make(chan struct{})
	progress := &mcpserver.Progress{}
	at128 := make(chan bool, 1) // the last report before the slow file
	report := func(done, total int) {
		progress.Report(done, total)
		if done == 128 {
			at128 <- true
		}
	}
	cs, _ := serve(t, gatedFS{fsys, gate}, &repomap.Options{Progress: report, Parallelism: 1},
		&mcpserver.Options{AnswerWithin: 200 * time.Millisecond, Progress: progress}, nil)

	start := time.Now()
	res := call(t, cs, mcpserver.ToolDefinitions, `{"names":["Slow"]}`)
	if got, took := text(res), time.Since(start); !res.IsError || !strings.HasPrefix(got, "not ready: repomap is still reading the repository after 200ms") ||
		!strings.HasSuffix(got, "The reading goes on; call find_definitions again in a little while for the answer.") || took > 5*time.Second {
		t.Errorf("find_definitions on a tree being read = %q (error %v) after %v, want \"not ready\" after 200ms", got, res.IsError, took)
	}
	// The reading the first call started goes on, up to the slow file; a
	// call then says how far it is.
	select {
	case <-at128:
	case <-time.After(time.Minute):
		t.Fatal("the Map did not report 128 files parsed")
	}
	res = call(t, cs, mcpserver.ToolDefinitions, `{"names":["Slow"]}`)
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "not ready: repomap is still reading the repository after 200ms: 128 of 138 files parsed.") {
		t.Errorf("find_definitions on a tree being read, 128 files in = %q (error %v), want \"not ready\" with 128 of 138 files", got, res.IsError)
	}
	close(gate)
	// Once the slow file is read, a call finds Slow.
	for range 100 {
		res = call(t, cs, mcpserver.ToolDefinitions, `{"names":["Slow"]}`)
		if !res.IsError {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := text(res); res.IsError || !strings.HasPrefix(got, "zz/slow.go:3: function Slow") {
		t.Errorf("find_definitions once the tree is read = %q (error %v), want Slow's definition", got, res.IsError)
	}
}
