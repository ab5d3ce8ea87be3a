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
// Every tool is read-only, and says so in its annotations. Each has an
// explicit input schema: arrays of strings, the required fields, a
// description per field, and for tokens the range [Options.MaxTokens]
// allows, so that a request beyond it is a tool error. A call that sends
// a progress token gets progress notifications while files are parsed,
// when the Map's Progress option is [Progress.Report].
//
// The command "repomap mcp" runs such a server over standard input and
// output, on a [NewStdioTransport], and starts indexing as it starts.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/internal/mapfile"
	"github.com/repomap-dev/repomap/internal/output"
	"github.com/repomap-dev/repomap/repomap"
)

// The names of the tools.
const (
	ToolMap         = "repo_map"
	ToolDefinitions = "find_definitions"
	ToolReferences  = "find_references"
	ToolRelated     = "related_files"
)

// DefaultMaxTokens is the most tokens a call may ask for when
// Options.MaxTokens is zero: a large map, a few percent of a large
// model's context.
const DefaultMaxTokens = 32768

// Options configures a server. A nil *Options, and every zero field,
// means the default.
type Options struct {
	// Implementation names the server to clients; nil means the name
	// "repomap".
	Implementation *mcp.Implementation

	// MaxTokens caps the tokens argument of repo_map and related_files;
	// zero means DefaultMaxTokens.
	MaxTokens int

	// Progress, when set, reports the Map's progress to the calls that
	// asked for it; the Map must have been made with Progress.Report as
	// its Options.Progress.
	Progress *Progress
}

// New returns a server with the tools of [AddTools] over m. The caller
// keeps m open while the server runs, and closes it after.
func New(m *repomap.Map, opts *Options) *mcp.Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	impl := o.Implementation
	if impl == nil {
		impl = &mcp.Implementation{Name: "repomap"}
	}
	s := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: "repomap maps this repository: call repo_map first for an overview ranked for the task, then find_definitions, find_references and related_files to look closer. Paths are relative to the repository root.",
	})
	AddTools(s, m, &o)
	return s
}

// MapArgs are the arguments of the repo_map tool.
type MapArgs struct {
	Focus    []string `json:"focus,omitempty"`
	Mentions []string `json:"mentions,omitempty"`
	Text     string   `json:"text,omitempty"`
	Tokens   int      `json:"tokens,omitempty"`
}

// DefinitionsArgs are the arguments of the find_definitions tool.
type DefinitionsArgs struct {
	Names []string `json:"names"`
}

// ReferencesArgs are the arguments of the find_references tool.
type ReferencesArgs struct {
	Name string `json:"name"`
}

// RelatedArgs are the arguments of the related_files tool.
type RelatedArgs struct {
	File   string `json:"file"`
	Tokens int    `json:"tokens,omitempty"`
}

// The input schemas of the tools, written out rather than derived from
// the argument types: arrays are plain arrays of strings (not nullable),
// and every field has a description.

func objectSchema(required []string, props map[string]*jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

func stringsSchema(desc string, minItems int) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: desc}
	if minItems > 0 {
		s.MinItems = &minItems
	}
	return s
}

func stringSchema(desc string, minLength int) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	if minLength > 0 {
		s.MinLength = &minLength
	}
	return s
}

func tokensSchema(desc string, most int) *jsonschema.Schema {
	least, top := 1.0, float64(most)
	return &jsonschema.Schema{Type: "integer", Minimum: &least, Maximum: &top,
		Description: fmt.Sprintf("%s; at most %d. Omit it for the server's budget.", desc, most)}
}

// readOnly returns the annotations of a tool that only reads the tree.
func readOnly(title string) *mcp.ToolAnnotations {
	closed := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// AddTools adds the tools repo_map, find_definitions, find_references
// and related_files, answering from m, to s.
func AddTools(s *mcp.Server, m *repomap.Map, opts *Options) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	checkTokens := func(n int) error {
		switch {
		case n < 0:
			return errors.New("tokens must not be negative")
		case n > o.MaxTokens:
			return fmt.Errorf("tokens is %d, more than this server allows (%d)", n, o.MaxTokens)
		}
		return nil
	}
	pathDesc := "a path relative to the repository root (\"name/path\" with several roots), or an absolute path inside it"

	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolMap,
		Title:       "Repository map",
		Annotations: readOnly("Repository map"),
		Description: "Returns a map of the repository for the files being worked on (which it leaves out) and the names mentioned: the definitions that matter most, as source lines under their file's path relative to the repository root, within a token budget.",
		InputSchema: objectSchema(nil, map[string]*jsonschema.Schema{
			"focus":    stringsSchema("Files being worked on, each "+pathDesc+". The map ranks what they use and leaves them out.", 0),
			"mentions": stringsSchema("Identifiers and paths the user mentioned; they rank higher.", 0),
			"text":     stringSchema("Free text, such as the user's request, whose mentions of files and identifiers steer the ranking.", 0),
			"tokens":   tokensSchema("The most tokens the map may have", o.MaxTokens),
		}),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in MapArgs) (*mcp.CallToolResult, any, error) {
		if err := checkTokens(in.Tokens); err != nil {
			return nil, nil, err
		}
		focus, err := mapPaths(m, in.Focus)
		if err != nil {
			return nil, nil, err
		}
		defer o.Progress.watch(ctx, req)()
		res, err := m.Build(ctx, repomap.Request{Focus: focus, Mentions: in.Mentions, Text: in.Text, MaxTokens: in.Tokens})
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
		Title:       "Find definitions",
		Annotations: readOnly("Find definitions"),
		Description: "Finds every definition of the given names (functions, methods, types, classes…) and shows each with its file (relative to the repository root), line and the headers of the scopes around it.",
		InputSchema: objectSchema([]string{"names"}, map[string]*jsonschema.Schema{
			"names": stringsSchema("The names to find the definitions of, such as function, type or class names; at least one.", 1),
		}),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in DefinitionsArgs) (*mcp.CallToolResult, any, error) {
		if len(in.Names) == 0 {
			return nil, nil, errors.New("names is empty")
		}
		defer o.Progress.watch(ctx, req)()
		defs, err := m.Definitions(ctx, in.Names...)
		if err != nil {
			return nil, nil, err
		}
		if len(defs) == 0 {
			return textResult(fmt.Sprintf("no definition of %s\n", strings.Join(in.Names, ", "))), nil, nil
		}
		return textResult(output.Definitions(defs)), nil, nil
	})

	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolReferences,
		Title:       "Find references",
		Annotations: readOnly("Find references"),
		Description: "Lists the files (relative to the repository root) that refer to a name, best ranked first, each with the line numbers of its references.",
		InputSchema: objectSchema([]string{"name"}, map[string]*jsonschema.Schema{
			"name": stringSchema("The name to find the references to, such as a function, type or class name.", 1),
		}),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in ReferencesArgs) (*mcp.CallToolResult, any, error) {
		if in.Name == "" {
			return nil, nil, errors.New("name is empty")
		}
		defer o.Progress.watch(ctx, req)()
		refs, err := m.References(ctx, in.Name)
		if err != nil {
			return nil, nil, err
		}
		if len(refs) == 0 {
			return textResult(fmt.Sprintf("no references to %s\n", in.Name)), nil, nil
		}
		return textResult(output.References(refs)), nil, nil
	})

	mcp.AddTool(s, &mcp.Tool{
		Name:        ToolRelated,
		Title:       "Related files",
		Annotations: readOnly("Related files"),
		Description: "Returns a map of the files most related to one file, with paths relative to the repository root: the files defining what it uses, with those definitions, and the files using what it defines, with the lines that use it.",
		InputSchema: objectSchema([]string{"file"}, map[string]*jsonschema.Schema{
			"file":   stringSchema("The file, "+pathDesc+".", 1),
			"tokens": tokensSchema("The most tokens the answer may have", o.MaxTokens),
		}),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in RelatedArgs) (*mcp.CallToolResult, any, error) {
		if err := checkTokens(in.Tokens); err != nil {
			return nil, nil, err
		}
		ps, err := mapPaths(m, []string{in.File})
		if err != nil {
			return nil, nil, err
		}
		defer o.Progress.watch(ctx, req)()
		res, err := m.Related(ctx, ps[0], repomap.Request{MaxTokens: in.Tokens})
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

// mapPaths returns the paths in the map of the files at ps; a path
// outside the repository, or one that names no file in it, is an error.
func mapPaths(m *repomap.Map, ps []string) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		q, ok := m.MapPath(p)
		if !ok {
			return nil, fmt.Errorf("%s is outside the repository", p)
		}
		if !mapfile.Exists(m, q) {
			return nil, fmt.Errorf("no file %s in the repository", p)
		}
		out = append(out, q)
	}
	return out, nil
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
