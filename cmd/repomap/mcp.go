package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"

	"github.com/repomap-dev/repomap/mcpserver"
	"github.com/repomap-dev/repomap/repomap"
)

func mcpCommand() *command {
	return &command{
		name:  "mcp",
		usage: "repomap mcp [flags] [ROOT...]",
		short: "serve the map to agents over MCP on standard input and output",
		long: `
Mcp serves the trees at the ROOTs (by default the current directory) to a
coding agent as a Model Context Protocol server over standard input and
output, until the agent closes its input. Its tools are:

	repo_map          the map, for focus files, mentioned names, the
	                  user's request as free text, and a token budget
	find_definitions  every definition of some names
	find_references   the files that refer to a name, with the lines
	related_files     the map of the files related to one file

They answer in the text formats of the map, defs, refs and related, and
with the same answer as structured content: the JSON document of
--format json, which each tool's output schema describes. The server
keeps one map open across calls: after the first, a call reads only the
files that changed. The budget flags set the default budget of repo_map
and related_files, --max-tokens the most a call may ask for.

Indexing starts with the server, so that the first call finds the tags
read; a call that sends a progress token gets progress notifications
while files are parsed. A call still waiting for the tree after
--answer-within answers that it is not ready, and how far the reading
is, before a client's request timeout (60 s by default in clients built
on the TypeScript SDK) would end it; the reading goes on, and a later
call gets the answer. A line on standard input that is not a JSON-RPC
message the server takes is answered with a JSON-RPC error, and the
server reads on. Diagnostics (-v) go to standard error.

To add it to an agent, give the agent the command; in the JSON of most
agents' MCP configuration (Claude Code's .mcp.json, say):

	{"mcpServers": {"repomap": {"command": "repomap", "args": ["mcp", "--tokens", "4096"]}}}

docs/mcp.md has the configuration of Claude Code, Cursor, Gemini CLI and
VS Code.`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.mapFlags(fl)
			fl.IntVar(&c.maxTokens, "max-tokens", mcpserver.DefaultMaxTokens, "the most `tokens` a call may ask for; a call that asks for more gets an error")
			fl.DurationVar(&c.within, "answer-within", mcpserver.DefaultAnswerWithin, "how long a call waits for the tree to be read before it answers that it is not ready; 0 waits as long as it takes")
		},
		run: runMCP,
	}
}

func runMCP(ctx context.Context, e *env, c *config, args []string) int {
	if msg := c.check(); msg != "" {
		return e.usage(msg)
	}
	if c.maxTokens < 1 || c.tokens > c.maxTokens {
		return e.usage("--max-tokens takes a positive number, no less than --tokens")
	}
	if c.within < 0 {
		return e.usage("--answer-within takes a duration such as 50s, or 0 to wait as long as it takes")
	}
	within := c.within
	if within == 0 {
		within = -1 // no limit
	}
	dirs, msg := rootArgs(args)
	if msg != "" {
		return e.usage(msg)
	}
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintln(e.stderr, "repomap: mcp serves the Model Context Protocol on standard input and output, for an agent to start; see 'repomap help mcp' (Ctrl-D ends it)")
	}
	progress := &mcpserver.Progress{}
	e.progress = nil // standard error is the agent's log, not a terminal to draw on
	m, err := c.openWith(e, dirs, progress.Report)
	if err != nil {
		return fail(e, err)
	}
	defer m.Close()
	s := mcpserver.New(m, &mcpserver.Options{
		Implementation: &mcp.Implementation{Name: "repomap", Version: version()},
		MaxTokens:      c.maxTokens,
		Progress:       progress,
		Include:        c.include,
		AnswerWithin:   within,
	})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// Read the tree now, so that the first call finds it read. A call
		// meanwhile waits for this build and reports its progress.
		res, err := m.Build(ctx, repomap.Request{})
		switch {
		case err != nil && ctx.Err() == nil:
			fmt.Fprintf(e.stderr, "repomap: indexing: %v\n", err)
		case err == nil && c.verbose:
			fmt.Fprintf(e.stderr, "repomap: indexed %d files\n", res.Stats.Files)
		}
	}()
	if err := s.Run(ctx, mcpserver.NewStdioTransport(e.stdin, e.stdout)); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		return fail(e, err)
	}
	return exitOK
}
