package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/mcpserver"
	"github.com/repomap-dev/repomap/repomap"
)

// tree is a package of a few files and a program that uses it.
func tree() fstest.MapFS {
	fsys := fstest.MapFS{
		"main.go": {Data: []byte("package main\n\nimport \"example.com/shapes\"\n\nfunc main() { println(shapes.Area(2, 3)) }\n")},
	}
	for i := range 5 {
		fsys[fmt.Sprintf("shapes/s%d.go", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "package shapes\n\nfunc Area%d(w, h float64) float64 { return w * h }\n", i)}
	}
	fsys["shapes/area.go"] = &fstest.MapFile{Data: []byte("package shapes\n\n// Area returns w×h.\nfunc Area(w, h float64) float64 { return w * h }\n")}
	return fsys
}

// connect serves a Map of tree with opts and returns a client session to
// it; the Map is made with progress as its Progress option.
func connect(t *testing.T, opts *mcpserver.Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, _ := connectBoth(t, opts, copts)
	return cs
}

// connectBoth is connect that also returns the server's end of the
// session.
func connectBoth(t *testing.T, opts *mcpserver.Options, copts *mcp.ClientOptions) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	var o mcpserver.Options
	if opts != nil {
		o = *opts
	}
	ropts := &repomap.Options{MaxTokens: 500}
	if o.Progress != nil {
		ropts.Progress = o.Progress.Report
	}
	return serve(t, tree(), ropts, &o, copts)
}

// serve serves a Map of fsys made with ropts, with opts, and returns the
// ends of a session with a client made with copts.
func serve(t *testing.T, fsys fs.FS, ropts *repomap.Options, opts *mcpserver.Options, copts *mcp.ClientOptions) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	m, err := repomap.NewFS(fsys, ropts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(m, opts).Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, copts).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ss
}

// text returns the text of a tool's answer.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestSchemas checks what a client sees of each tool: a title, read-only
// annotations, and an input schema every client accepts.
func TestSchemas(t *testing.T) {
	cs := connect(t, &mcpserver.Options{MaxTokens: 5000}, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{
		mcpserver.ToolMap:         nil,
		mcpserver.ToolDefinitions: {"names"},
		mcpserver.ToolReferences:  {"name"},
		mcpserver.ToolRelated:     {"file"},
	}
	for _, tool := range tools.Tools {
		a := tool.Annotations
		if tool.Title == "" || a == nil || !a.ReadOnlyHint || a.Title != tool.Title {
			t.Errorf("tool %s: title %q, annotations %+v; want a title and a read-only hint", tool.Name, tool.Title, a)
		}
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Type       string   `json:"type"`
			Required   []string `json:"required"`
			Properties map[string]struct {
				Type        any                 `json:"type"`
				Description string              `json:"description"`
				Items       *struct{ Type any } `json:"items"`
				Minimum     *float64            `json:"minimum"`
				Maximum     *float64            `json:"maximum"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		if schema.Type != "object" || fmt.Sprint(schema.Required) != fmt.Sprint(required[tool.Name]) {
			t.Errorf("tool %s: schema type %q, required %q; want object, required %q", tool.Name, schema.Type, schema.Required, required[tool.Name])
		}
		for name, p := range schema.Properties {
			typ, ok := p.Type.(string)
			switch {
			case !ok:
				t.Errorf("tool %s: %s has type %v, want one type", tool.Name, name, p.Type)
			case p.Description == "":
				t.Errorf("tool %s: %s has no description", tool.Name, name)
			case typ == "array" && (p.Items == nil || p.Items.Type != "string"):
				t.Errorf("tool %s: %s is an array without string items", tool.Name, name)
			}
			if name == "tokens" && (typ != "integer" || p.Minimum == nil || *p.Minimum != 1 || p.Maximum == nil || *p.Maximum != 5000) {
				t.Errorf("tool %s: tokens is %s in [%v, %v], want an integer in [1, 5000]", tool.Name, typ, p.Minimum, p.Maximum)
			}
		}
	}
	if len(tools.Tools) != len(required) {
		t.Errorf("%d tools, want %d", len(tools.Tools), len(required))
	}
}

// TestToolErrors checks the calls that must fail with a tool error.
func TestToolErrors(t *testing.T) {
	cs := connect(t, &mcpserver.Options{MaxTokens: 2000}, nil)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{mcpserver.ToolMap, map[string]any{"tokens": 2001}, "2000"},
		{mcpserver.ToolRelated, map[string]any{"file": "main.go", "tokens": 100000000}, "2000"},
		{mcpserver.ToolMap, map[string]any{"focus": []string{"nope.go"}}, "no file nope.go"},
		{mcpserver.ToolMap, map[string]any{"focus": []string{"shapes"}}, "no file shapes"},
		{mcpserver.ToolMap, map[string]any{"focus": nil}, "focus"},
		{mcpserver.ToolDefinitions, map[string]any{"names": nil}, "names"},
		{mcpserver.ToolDefinitions, map[string]any{"names": []string{}}, "names"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		if got := text(res); !res.IsError || !strings.Contains(got, tc.want) {
			t.Errorf("%s(%v) = %q (error %v), want an error with %q", tc.tool, tc.args, got, res.IsError, tc.want)
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolMap, Arguments: map[string]any{"tokens": 2000, "focus": []string{"main.go"}}})
	if err != nil || res.IsError || !strings.Contains(text(res), "shapes/area.go:") {
		t.Errorf("repo_map at the cap = %q, %v", text(res), err)
	}
}

// TestProgress checks that a call with a progress token hears how far
// the parsing is, up to all of the files.
func TestProgress(t *testing.T) {
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cs, ss := connectBoth(t, &mcpserver.Options{Progress: &mcpserver.Progress{}}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, req.Params)
		},
	})
	params := &mcp.CallToolParams{Name: mcpserver.ToolMap, Arguments: map[string]any{}}
	params.SetProgressToken("map-1")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	// The client handles what the server sends it in order, but answers
	// to its own calls at once: a ping from the server after the answer
	// returns once the client has handled the notifications before it.
	if err := ss.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	files := float64(len(tree()))
	if len(got) == 0 || got[len(got)-1].ProgressToken != "map-1" || got[len(got)-1].Progress != files || got[len(got)-1].Total != files {
		t.Errorf("progress notifications %+v, want the last for map-1 at %v of %v", got, files, files)
	}

	// A call without a token, or after the files are read, hears nothing.
	n := len(got)
	mu.Unlock()
	params = &mcp.CallToolParams{Name: mcpserver.ToolDefinitions, Arguments: map[string]any{"names": []string{"Area"}}}
	params.SetProgressToken("defs-1")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	if err := ss.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(got) != n {
		t.Errorf("a call on a read tree had progress notifications %+v", got[n:])
	}
}
