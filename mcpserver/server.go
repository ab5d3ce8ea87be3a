// Package mcpserver serves the lookups of a [repomap.Map] to coding
// agents as Model Context Protocol tools, with the official Go SDK
// ([github.com/modelcontextprotocol/go-sdk/mcp]).
//
// The tools are:
//
//   - repo_map: the map of the repository for the files being worked on,
//     the names mentioned and the user's request, within a token budget
//     ([repomap.Map.Build]).
//   - find_definitions: every definition of some names, with its scope
//     ([repomap.Map.Definitions]).
//   - find_references: the files that refer to a name, best ranked first,
//     with the lines ([repomap.Map.References]).
//   - related_files: the map of the files most related to one file, in
//     both directions ([repomap.Map.Related]).
//
// Every tool answers with text, in the formats of the repomap command's
// text output. Paths are paths in the map (relative to the root, or
// "name/path" with several roots); absolute paths inside a root are
// accepted too. One Map serves every call, so that calls after the first
// reuse what it learned of the tree and cost little.
//
// The command "repomap mcp" runs such a server over standard input and
// output.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/repomap"
)

// The names of the tools.
const (
	ToolMap         = "repo_map"
	ToolDefinitions = "find_definitions"
	ToolReferences  = "find_references"
	ToolRelated     = "related_files"
)

// New returns a server named by impl (name "repomap" when nil) with the
// tools of [AddTools] over m. The caller keeps m open while the server
// runs, and closes it after.
func New(m *repomap.Map, impl *mcp.Implementation) *mcp.Server {
	if impl == nil {
		impl = &mcp.Implementation{Name: "repomap"}
	}
	s := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: "repomap maps this repository: call repo_map first for an overview ranked for the task, then find_definitions, find_references and related_files to look closer.",
	})
	AddTools(s, m)
	return s
}

// MapArgs are the arguments of the repo_map tool.
type MapArgs struct {
	Focus    []string `json:"focus,omitempty" jsonschema:"files being worked on, as paths in the map; the map ranks what they use and leaves them out"`
	Mentions []string `json:"mentions,omitempty" jsonschema:"identifiers and paths the user mentioned"`
	Text     string   `json:"text,omitempty" jsonschema:"free text, such as the user's request, whose mentions of files and identifiers steer the ranking"`
	Tokens   int      `json:"tokens,omitempty" jsonschema:"the most tokens the map may have; default: the server's budget"`
}

// DefinitionsArgs are the arguments of the find_definitions tool.
type DefinitionsArgs struct {
	Names []string `json:"names" jsonschema:"the names to find the definitions of, such as function, type or class names"`
}

// ReferencesArgs are the arguments of the find_references tool.
type ReferencesArgs struct {
	Name string `json:"name" jsonschema:"the name to find the references to"`
}

// RelatedArgs are the arguments of the related_files tool.
type RelatedArgs struct {
	File   string `json:"file" jsonschema:"the file, as a path in the map"`
	Tokens int    `json:"tokens,omitempty" jsonschema:"the most tokens the answer may have; default: the server's budget"`
}

// AddTools adds the tools repo_map, find_definitions, find_references
// and related_files, answering from m, to s.
func AddTools(s *mcp.Server, m *repomap.Map) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolMap,
		Description: "Returns a map of the repository: the definitions that matter most for the files being worked on and the names mentioned, as source lines under their file's path, within a token budget.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in MapArgs) (*mcp.CallToolResult, any, error) {
		if in.Tokens < 0 {
			return nil, nil, errors.New("tokens must not be negative")
		}
		focus, err := mapPaths(m, in.Focus)
		if err != nil {
			return nil, nil, err
		}
		mentions := in.Mentions
		if strings.TrimSpace(in.Text) != "" {
			ms, err := m.FindMentions(ctx, in.Text)
			if err != nil {
				return nil, nil, err
			}
			mentions = append(mentions, ms.All()...)
		}
		res, err := m.Build(ctx, repomap.Request{Focus: focus, Mentions: mentions, MaxTokens: in.Tokens})
		if err != nil {
			return nil, nil, err
		}
		text := strings.TrimPrefix(res.Text, "\n")
		if text == "" {
			text = "(the map is empty: no files, or a budget too small for one)\n"
		}
		return textResult(text), nil, nil
	})

	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolDefinitions,
		Description: "Finds every definition of the given names (functions, methods, types, classes…) and shows each with its file, line and the headers of the scopes around it.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in DefinitionsArgs) (*mcp.CallToolResult, any, error) {
		if len(in.Names) == 0 {
			return nil, nil, errors.New("names is empty")
		}
		defs, err := m.Definitions(ctx, in.Names...)
		if err != nil {
			return nil, nil, err
		}
		if len(defs) == 0 {
			return textResult(fmt.Sprintf("no definition of %s\n", strings.Join(in.Names, ", "))), nil, nil
		}
		return textResult(repomap.FormatDefinitions(defs)), nil, nil
	})

	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolReferences,
		Description: "Lists the files that refer to a name, best ranked first, each with the line numbers of its references.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in ReferencesArgs) (*mcp.CallToolResult, any, error) {
		if in.Name == "" {
			return nil, nil, errors.New("name is empty")
		}
		refs, err := m.References(ctx, in.Name)
		if err != nil {
			return nil, nil, err
		}
		if len(refs) == 0 {
			return textResult(fmt.Sprintf("no references to %s\n", in.Name)), nil, nil
		}
		return textResult(repomap.FormatReferences(refs)), nil, nil
	})

	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolRelated,
		Description: "Returns a map of the files most related to one file: the files defining what it uses, with those definitions, and the files using what it defines, with the lines that use it.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in RelatedArgs) (*mcp.CallToolResult, any, error) {
		if in.Tokens < 0 {
			return nil, nil, errors.New("tokens must not be negative")
		}
		ps, err := mapPaths(m, []string{in.File})
		if err != nil {
			return nil, nil, err
		}
		res, err := m.Related(ctx, ps[0], in.Tokens)
		if err != nil {
			return nil, nil, err
		}
		text := strings.TrimPrefix(res.Text, "\n")
		if text == "" {
			text = fmt.Sprintf("no file is related to %s\n", ps[0])
		}
		return textResult(text), nil, nil
	})
}

// mapPaths returns the paths in the map of the files at ps.
func mapPaths(m *repomap.Map, ps []string) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		q, ok := m.MapPath(p)
		if !ok {
			return nil, fmt.Errorf("%s is outside the repository", p)
		}
		out = append(out, q)
	}
	return out, nil
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
