package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/mcpserver"
)

// exe returns a command that runs the repomap binary with args: the test
// binary itself, which TestMain turns into repomap.
func exe(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), "REPOMAP_TEST_MAIN=1")
	return cmd
}

func TestBinary(t *testing.T) {
	dir := writeTree(t, shopTree)
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{args: []string{"--no-cache", "--tokens", "200", dir}, stdout: "cart/cart.go:\n⋮\n│type Cart struct {"},
		{args: []string{"defs", "--no-cache", "--root", dir, "Total"}, stdout: "cart/cart.go:14: function Total\n"},
		{args: []string{"graph", "--no-cache", dir}, stdout: "main.go\tcart/cart.go\tTotal\t1\n"},
		{args: []string{"version"}, stdout: "repomap "},
		{args: []string{"bench", "--floor", "--runs", "1", dir}, stdout: "\ncold/floor  "},
		{args: []string{"bench", "--runs", "1", dir}, stdout: "\nnew budget  "},
		{args: []string{"bench", "--floor-run", "--exclude", "cart", dir}, stdout: `"lexed":0`},
		{args: []string{"bench", "--floor-run", "--floor-threads", "3", "--exclude", "cart", dir}, stdout: `"lexed":0`},
		{args: []string{"bench", "--floor-run", "--floor-threads", "0", dir}, code: 2, stderr: "--floor-threads takes a positive number"},
		{args: []string{"nope"}, code: 2, stderr: "repomap: no command or directory nope\n"},
		{args: []string{"--no-cache", filepath.Join(dir, "missing") + "/"}, code: 1, stderr: "no such file"},
	} {
		var stdout, stderr bytes.Buffer
		cmd := exe(context.Background(), t, tc.args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("repomap %q: exit %d, stdout\n%s\nstderr\n%s\nwant exit %d, stdout with %q, stderr with %q",
				tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestMCP starts "repomap mcp" on a small tree and talks to it as an
// agent would, with the SDK's client.
func TestMCP(t *testing.T) {
	dir := writeTree(t, shopTree)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The map's flags are the server's too.
	cmd := exe(ctx, t, "mcp", "-v", "--no-cache", "--refresh", "always", "--exclude", "tools", "--tokens", "300", dir)
	stderr := &syncBuffer{}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	indexed := make(chan bool, 1)
	go func() {
		// The server reads the tree as it starts, before any call.
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			stderr.Write(append(sc.Bytes(), '\n'))
			if strings.HasPrefix(sc.Text(), "repomap: indexed ") {
				indexed <- true
			}
		}
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	select {
	case <-indexed:
	case <-ctx.Done():
		t.Fatalf("the server did not index the tree before a call:\n%s", stderr.String())
	}
	defer func() {
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v\nstderr:\n%s", err, stderr.String())
		}
		if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
			t.Errorf("repomap mcp did not exit cleanly: %v\nstderr:\n%s", cmd.ProcessState, stderr.String())
		}
	}()

	if info := cs.InitializeResult().ServerInfo; info.Name != "repomap" || info.Version != version() {
		t.Errorf("server info %+v, want repomap %s", info, version())
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		// One sentence that says what the tool is for.
		if d := tool.Description; !strings.HasSuffix(d, ".") || strings.Count(d, ". ") > 0 || len(d) < 40 {
			t.Errorf("tool %s: description %q is not one sentence", tool.Name, d)
		}
	}
	want := []string{mcpserver.ToolDefinitions, mcpserver.ToolReferences, mcpserver.ToolRelated, mcpserver.ToolMap} // by name
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("tools %q, want %q", names, want)
	}

	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s(%v): %v\nstderr:\n%s", name, args, err, stderr.String())
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		want    string // a part of the answer
		wantErr bool
	}{
		{tool: mcpserver.ToolMap, args: map[string]any{}, want: "cart/cart.go:\n⋮\n│type Cart struct {"},
		{tool: mcpserver.ToolMap, args: map[string]any{"tokens": 25, "text": "Generated code in big.pb.go is slow"}, want: "gen/big.pb.go:\n⋮\n│func Generated() {}"},
		{tool: mcpserver.ToolMap, args: map[string]any{"focus": []string{"main.go"}, "mentions": []string{"Total"}, "tokens": 300}, want: "│func Total(c *Cart) int"},
		{tool: mcpserver.ToolMap, args: map[string]any{"focus": []string{filepath.Join(dir, "main.go")}}, want: "cart/cart.go:"},
		{tool: mcpserver.ToolDefinitions, args: map[string]any{"names": []string{"Add"}}, want: "cart/cart.go:9: method Add\n⋮\n│func (c *Cart) Add(item string) {\n"},
		{tool: mcpserver.ToolDefinitions, args: map[string]any{"names": []string{"Nothing"}}, want: "no definition of Nothing"},
		{tool: mcpserver.ToolDefinitions, args: map[string]any{"names": []string{"report"}}, want: "no definition of report"}, // --exclude tools
		{tool: mcpserver.ToolReferences, args: map[string]any{"name": "Cart"}, want: "cart/cart.go: 9 14\nmain.go: 6\n"},
		{tool: mcpserver.ToolRelated, args: map[string]any{"file": "main.go", "tokens": 200}, want: "cart/cart.go:\n⋮\n│type Cart struct {"},
		{tool: mcpserver.ToolRelated, args: map[string]any{"file": "nope.go"}, want: "no file nope.go in the repository", wantErr: true},
		{tool: mcpserver.ToolMap, args: map[string]any{"focus": []string{"nope.go"}}, want: "no file nope.go in the repository", wantErr: true},
		{tool: mcpserver.ToolMap, args: map[string]any{"tokens": 100000000}, want: "100000000", wantErr: true},
		{tool: mcpserver.ToolRelated, args: map[string]any{"file": "/elsewhere/x.go"}, want: "outside the repository", wantErr: true},
		{tool: mcpserver.ToolDefinitions, args: map[string]any{}, want: "names", wantErr: true},
	} {
		got, isErr := call(tc.tool, tc.args)
		if isErr != tc.wantErr || !strings.Contains(got, tc.want) {
			t.Errorf("%s(%v) = %q (error %v), want it to contain %q (error %v)", tc.tool, tc.args, got, isErr, tc.want, tc.wantErr)
		}
	}

	// The server's Map sees the tree change between calls.
	f := filepath.Join(dir, "cart", "extra.go")
	if err := os.WriteFile(f, []byte("package cart\n\nfunc Clear(c *Cart) { c.Items = nil }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := call(mcpserver.ToolDefinitions, map[string]any{"names": []string{"Clear"}}); !strings.Contains(got, "cart/extra.go:3: function Clear") {
		t.Errorf("find_definitions(Clear) after adding it = %q", got)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and readers at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
