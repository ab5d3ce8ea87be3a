package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

They answer in the text formats of the map, defs, refs and related. The
server keeps one map open across calls: after the first, a call reads
only the files that changed. The budget flags set the default budget of
repo_map and related_files. Diagnostics (-v) go to standard error.

To add it to an agent, give the agent the command; in the JSON of most
agents' MCP configuration (Claude Code's .mcp.json, say):

	{"mcpServers": {"repomap": {"command": "repomap", "args": ["mcp", "--tokens", "4096"]}}}`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.budgetFlags(fl)
			c.treeFlags(fl)
		},
		run: runMCP,
	}
}

func runMCP(ctx context.Context, e *env, c *config, args []string) int {
	if msg := c.check(); msg != "" {
		return e.usage(msg)
	}
	dirs := args
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	m, err := c.open(e, dirs, repomap.RefreshAuto)
	if err != nil {
		return fail(e, err)
	}
	defer m.Close()
	s := mcpserver.New(m, &mcp.Implementation{Name: "repomap", Version: version()})
	t := &mcp.IOTransport{Reader: os.Stdin, Writer: nopWriteCloser{e.stdout}}
	if err := s.Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		return fail(e, err)
	}
	return exitOK
}

// nopWriteCloser is a Writer with a Close that does nothing: the server
// does not close standard output.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
