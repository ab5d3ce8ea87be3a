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
// text output, and with the same answer as structured content: the JSON
// document of "repomap --format json" ([output.SchemaVersion]), which
// its output schema describes. Paths are paths in the map (relative to
// the root, or "name/path" with several roots); absolute paths inside a
// root are accepted too. One Map serves every call, so that calls after
// the first reuse what it learned of the tree and cost little.
//
// Every tool is read-only, and says so in its annotations. Each has an
// explicit input schema: arrays of strings, the required fields, a
// description per field, and for tokens the range [Options.MaxTokens]
// allows. The server checks the arguments itself, and a bad one is a
// tool error that names it and says what it takes; a string given for a
// list is taken as a list of one.
//
// A call that sends a progress token gets progress notifications while
// files are parsed, when the Map's Progress option is [Progress.Report].
// A call still waiting for the tree to be read after
// [Options.AnswerWithin] answers with a tool error saying so, and how
// far the reading is, so that a client's request timeout (60 s by
// default in the TypeScript SDK) never ends it; the reading goes on for
// the next call.
//
// The command "repomap mcp" runs such a server over standard input and
// output, on a [NewStdioTransport], and starts indexing as it starts.
package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
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

// DefaultAnswerWithin is how long a call waits for the tree to be read
// when Options.AnswerWithin is zero: within the 60 s a client built on
// the TypeScript SDK waits by default.
const DefaultAnswerWithin = 50 * time.Second

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

	// Include is the Map's Include option, if it has one, for the answer
	// to a call whose map is empty to say why.
	Include []string

	// AnswerWithin is how long a call waits for its answer before it
	// answers that the tree is still being read; zero means
	// DefaultAnswerWithin, and a negative duration waits as long as the
	// answer takes.
	AnswerWithin time.Duration
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

const pathDesc = "a path relative to the repository root (\"name/path\" with several roots), or an absolute path inside it"

// The arguments of the tools.
var (
	mapParams = []param{
		{name: "focus", kind: kindStrings, takes: "a list of paths of files in the repository", example: `["main.go"]`,
			desc: "Files being worked on, each " + pathDesc + ". The map ranks what they use and leaves them out."},
		{name: "mentions", kind: kindStrings, takes: "a list of identifiers or paths", example: `["Render"]`,
			desc: "Identifiers and paths the user mentioned; they rank higher."},
		{name: "text", kind: kindString, takes: "free text", example: `"fix the retry in the HTTP client"`,
			desc: "Free text, such as the user's request, whose mentions of files and identifiers steer the ranking."},
		{name: "tokens", kind: kindTokens, desc: "The most tokens the map may have"},
	}
	definitionsParams = []param{
		{name: "names", kind: kindStrings, required: true, takes: "a list of names", example: `["Render"]`,
			desc: "The names to find the definitions of, such as function, type or class names; at least one."},
	}
	referencesParams = []param{
		{name: "name", kind: kindString, required: true, takes: "a name", example: `"Render"`,
			desc: "The name to find the references to, such as a function, type or class name."},
	}
	relatedParams = []param{
		{name: "file", kind: kindString, required: true, takes: "the path of a file in the repository", example: `"main.go"`,
			desc: "The file, " + pathDesc + "."},
		{name: "tokens", kind: kindTokens, desc: "The most tokens the answer may have"},
	}
)

// readOnly returns the annotations of a tool that only reads the tree.
func readOnly(title string) *mcp.ToolAnnotations {
	closed := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// answer is what a tool found: its text and its JSON document.
type answer struct {
	text string
	doc  any
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
	if o.AnswerWithin == 0 {
		o.AnswerWithin = DefaultAnswerWithin
	}
	srv := &server{opts: o}
	mapSchema, defsSchema, refsSchema := outputSchema[output.MapDoc](), outputSchema[output.DefinitionsDoc](), outputSchema[output.ReferencesDoc]()

	addTool(srv, s, &mcp.Tool{
		Name:         ToolMap,
		Title:        "Repository map",
		Description:  "Returns a map of the repository for the files being worked on (which it leaves out) and the names mentioned: the definitions that matter most, as source lines under their file's path relative to the repository root, within a token budget.",
		OutputSchema: mapSchema,
	}, mapParams, func(ctx context.Context, in MapArgs) (answer, error) {
		focus, err := mapPaths(m, "focus", in.Focus)
		if err != nil {
			return answer{}, err
		}
		res, err := m.Build(ctx, repomap.Request{Focus: focus, Mentions: in.Mentions, Text: in.Text, MaxTokens: in.Tokens})
		if err != nil {
			return answer{}, err
		}
		return mapAnswer(m, res, func() string {
			return fmt.Sprintf("(the map is empty: %s)\n", output.EmptyReason(rootNames(m), o.Include, res))
		}), nil
	})

	addTool(srv, s, &mcp.Tool{
		Name:         ToolDefinitions,
		Title:        "Find definitions",
		Description:  "Finds every definition of the given names (functions, methods, types, classes…) and shows each with its file (relative to the repository root), line and the headers of the scopes around it; then the names that have none.",
		OutputSchema: defsSchema,
	}, definitionsParams, func(ctx context.Context, in DefinitionsArgs) (answer, error) {
		defs, err := m.Definitions(ctx, in.Names...)
		if err != nil {
			return answer{}, err
		}
		text := output.Definitions(defs)
		if missing := namesWithout(in.Names, defs); len(missing) > 0 {
			text += fmt.Sprintf("no definition of %s\n", strings.Join(missing, ", "))
		}
		return answer{text, output.NewDefinitionsDoc(m.Roots(), defs)}, nil
	})

	addTool(srv, s, &mcp.Tool{
		Name:         ToolReferences,
		Title:        "Find references",
		Description:  "Lists the files (relative to the repository root) that refer to a name, best ranked first, each with the line numbers of its references.",
		OutputSchema: refsSchema,
	}, referencesParams, func(ctx context.Context, in ReferencesArgs) (answer, error) {
		refs, err := m.References(ctx, in.Name)
		if err != nil {
			return answer{}, err
		}
		doc := output.NewReferencesDoc(m.Roots())
		doc.Add(in.Name, refs)
		text := output.References(refs)
		if len(refs) == 0 {
			text = fmt.Sprintf("no references to %s\n", in.Name)
		}
		return answer{text, doc}, nil
	})

	addTool(srv, s, &mcp.Tool{
		Name:         ToolRelated,
		Title:        "Related files",
		Description:  "Returns a map of the files most related to one file, with paths relative to the repository root: the files defining what it uses, with those definitions, and the files using what it defines, with the lines that use it.",
		OutputSchema: mapSchema,
	}, relatedParams, func(ctx context.Context, in RelatedArgs) (answer, error) {
		ps, err := mapPaths(m, "file", []string{in.File})
		if err != nil {
			return answer{}, err
		}
		res, err := m.Related(ctx, ps[0], repomap.Request{MaxTokens: in.Tokens})
		if err != nil {
			return answer{}, err
		}
		return mapAnswer(m, res, func() string { return fmt.Sprintf("no file is related to %s\n", ps[0]) }), nil
	})
}

// mapAnswer returns the answer of res, a map of m, with the text empty
// gives when the map is empty.
func mapAnswer(m *repomap.Map, res *repomap.Result, empty func() string) answer {
	text := res.Text
	if text == "" {
		text = empty()
	}
	return answer{text, output.NewMapDoc(m.Roots(), res)}
}

// server is what the tools of a server share.
type server struct {
	opts Options

	mu   sync.Mutex
	ends map[*mcp.ServerSession]chan struct{} // see sessionEnd
}

// addTool adds the tool t, with the arguments ps, to s: its handler
// checks the arguments, decodes them into an In, and calls find with
// them, within the server's AnswerWithin.
func addTool[In any](srv *server, s *mcp.Server, t *mcp.Tool, ps []param, find func(context.Context, In) (answer, error)) {
	t.Annotations = readOnly(t.Title)
	t.InputSchema = inputSchema(ps, srv.opts.MaxTokens)
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decodeArgs(t.Name, ps, srv.opts.MaxTokens, req.Params.Arguments, &in); err != nil {
			return toolError(err), nil
		}
		defer srv.opts.Progress.watch(ctx, req)()
		a, err := srv.within(ctx, req, t.Name, func(ctx context.Context) (answer, error) { return find(ctx, in) })
		if err != nil {
			return toolError(err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.text}}, StructuredContent: a.doc}, nil
	})
}

// errNotReady is the error of a call that ran out of time waiting for
// the tree to be read.
type errNotReady struct {
	tool        string
	after       time.Duration
	done, total int
}

func (e *errNotReady) Error() string {
	far := ""
	if e.total > 0 {
		far = fmt.Sprintf(": %d of %d files parsed", e.done, e.total)
	}
	return fmt.Sprintf("not ready: repomap is still reading the repository after %v%s. The reading goes on; call %s again in a little while for the answer.", e.after, far, e.tool)
}

// within returns what find finds, or errNotReady if that takes longer
// than AnswerWithin; then find goes on until it ends or the session
// does, so that the next call finds the tree read.
func (srv *server) within(ctx context.Context, req *mcp.CallToolRequest, tool string, find func(context.Context) (answer, error)) (answer, error) {
	if srv.opts.AnswerWithin < 0 {
		return find(ctx)
	}
	type found struct {
		a   answer
		err error
	}
	work, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan found, 1)
	go func() {
		a, err := find(work)
		done <- found{a, err}
	}()
	timer := time.NewTimer(srv.opts.AnswerWithin)
	defer timer.Stop()
	select {
	case f := <-done:
		stop()
		return f.a, f.err
	case <-ctx.Done():
		stop()
		return answer{}, ctx.Err()
	case <-timer.C:
	}
	end := srv.sessionEnd(req.Session)
	go func() {
		select {
		case <-done:
		case <-end:
		}
		stop()
	}()
	d, t := srv.opts.Progress.last()
	return answer{}, &errNotReady{tool: tool, after: srv.opts.AnswerWithin, done: d, total: t}
}

// sessionEnd returns a channel closed when ss ends, or never for a nil
// ss.
func (srv *server) sessionEnd(ss *mcp.ServerSession) <-chan struct{} {
	if ss == nil {
		return nil
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if ch, ok := srv.ends[ss]; ok {
		return ch
	}
	if srv.ends == nil {
		srv.ends = make(map[*mcp.ServerSession]chan struct{})
	}
	ch := make(chan struct{})
	srv.ends[ss] = ch
	go func() {
		_ = ss.Wait()
		srv.mu.Lock()
		delete(srv.ends, ss)
		srv.mu.Unlock()
		close(ch)
	}()
	return ch
}

func toolError(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// outputSchema returns the schema of the JSON document T: its arrays are
// never null.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the schema of %T: %v", *new(T), err))
	}
	var tighten func(*jsonschema.Schema)
	tighten = func(s *jsonschema.Schema) {
		if len(s.Types) == 2 && s.Types[0] == "null" {
			s.Type, s.Types = s.Types[1], nil
		}
		for _, p := range s.Properties {
			tighten(p)
		}
		if s.Items != nil {
			tighten(s.Items)
		}
	}
	tighten(s)
	return s
}

// namesWithout returns the names, in order and once each, that no
// definition of defs has.
func namesWithout(names []string, defs []repomap.Definition) []string {
	found := make(map[string]bool)
	for _, d := range defs {
		found[d.Name] = true
	}
	var missing []string
	for _, n := range names {
		if !found[n] {
			missing = append(missing, n)
			found[n] = true
		}
	}
	return missing
}

// rootNames names the roots of m as the command was given them.
func rootNames(m *repomap.Map) []string {
	var names []string
	for _, r := range m.Roots() {
		switch {
		case r.Dir != "":
			names = append(names, r.Dir)
		case r.Name != "":
			names = append(names, r.Name)
		default:
			names = append(names, "the tree")
		}
	}
	return names
}

// mapPaths returns the paths in the map of the files at ps, given as the
// argument arg; a path outside the repository, or one that names no file
// in it, is an error.
func mapPaths(m *repomap.Map, arg string, ps []string) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		q, ok := m.MapPath(p)
		if !ok {
			return nil, fmt.Errorf("%s: %s is outside the repository", arg, p)
		}
		if !m.HasFile(q) {
			return nil, fmt.Errorf("%s: no file %s in the repository", arg, p)
		}
		out = append(out, q)
	}
	return out, nil
}
