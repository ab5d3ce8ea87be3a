package tags

import (
	"bytes"
	"context"
	"slices"
)

// A document's code: the fenced code blocks of a Markdown document, in a
// language repomap reads, are parsed as that language, and the names
// their code uses are the document's references. A project's README
// shows its central API in its examples (`r := gin.Default()`,
// `console.print(…)`), so a map can rank what the examples use.

// Bounds on the code of one document that is read for references.
const (
	maxDocBlocks    = 1000    // code blocks read
	maxDocCodeBytes = 1 << 20 // bytes of code read
)

// fenceLanguages are the words of fences' info strings that name a
// language otherwise than by one of its extensions ("py" and "go" are
// extensions; "python" and "golang" are not).
var fenceLanguages = map[string]string{
	"python": "python", "python3": "python", "py3": "python", "pycon": "python",
	"ipython": "python", "ipython3": "python", "pytest": "python",
	"golang":     "go",
	"rust":       "rust",
	"javascript": "javascript", "node": "javascript", "nodejs": "javascript",
	"typescript": "typescript",
	"kotlin":     "kotlin",
	"csharp":     "csharp", "c#": "csharp",
	"c++":     "cpp",
	"ruby":    "ruby",
	"haskell": "haskell",
	"julia":   "julia",
	"elixir":  "elixir",
	"ocaml":   "ocaml",
	"clojure": "clojure",
	"erlang":  "erlang",
	"perl":    "perl",
}

// notCode are the languages whose blocks are not read for references:
// shells, data, markup and build files, whose words name commands and
// keys rather than the code of the tree.
var notCode = set("bash", "cmake", "css", "graphql", "hcl", "html", "json", "make", "markdown",
	"nix", "powershell", "properties", "protobuf", "scss", "sql", "toml", "vim", "xml", "yaml")

// fenceLanguage returns the language of a code block whose fence's info
// string starts with info (lower-case), or "" when it names none that
// repomap reads as code.
func fenceLanguage(info string) string {
	if info == "" {
		return ""
	}
	name, ok := fenceLanguages[info]
	if !ok {
		name = Detect("block."+info, nil)
	}
	if name == "" || notCode[name] || lookup(name) == nil {
		return ""
	}
	return name
}

// markdown returns the tags of the Markdown document src, at path: its
// headings (markdownTags) and the references of its code blocks
// (codeRefs), in line order.
func (p *Parser) markdown(ctx context.Context, path string, src []byte) ([]Tag, error) {
	heads, blocks := scanMarkdown(path, src)
	refs, err := p.codeRefs(ctx, path, blocks)
	if err != nil {
		return nil, err
	}
	return mergeByLine(heads, refs), nil
}

// codeRefs returns the references of the code blocks of the document at
// path, each on the document's line, in line order: the block is parsed
// as the language its fence names (fenceLanguage), and its definitions
// are left out. A block in no such language gives none; one that does
// not parse gives the references of the parts that do.
func (p *Parser) codeRefs(ctx context.Context, path string, blocks []codeBlock) ([]Tag, error) {
	var out []Tag
	read := 0
	for k, b := range blocks {
		if k == maxDocBlocks || read >= maxDocCodeBytes {
			break
		}
		name := fenceLanguage(b.info)
		if name == "" {
			continue
		}
		src := blockSource(name, b)
		read += len(src)
		found, err := p.blockTags(ctx, name, path, src)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			continue // a block that cannot be read is not the document's fault
		}
		for _, t := range found {
			if t.Kind == Reference {
				t.Line += b.first
				out = append(out, t)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Tag) int { return a.Line - b.Line })
	return out, nil
}

// blockTags returns the tags of src, a code block of the document at
// path, read as the language name.
func (p *Parser) blockTags(ctx context.Context, name, path string, src []byte) ([]Tag, error) {
	l := lookup(name)
	if l.grammar == nil {
		if l.byHand || lexSpecs[l.name] == nil {
			return nil, nil
		}
		return p.lexRefs(ctx, l, path, src)
	}
	c, err := p.compile(name)
	if err != nil {
		return nil, err
	}
	tree, b, err := p.parseTimed(ctx, c.lang, l.source(src), nil)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	defer b.release()
	set, err := p.query(ctx, tree, c, l, path, src, b)
	return set.Unpack(path), err
}

// blockSource returns the code of block b, in the language name, as a
// source the grammar can parse, with the block's lines on the same rows:
// the indentation they share taken off (a block in a list item), and of a
// Python session ("pycon", or lines that start with ">>>") the statements
// alone, the prompts taken off and the output blanked. Statements outside
// a function (Go, Rust) need no mending: the grammars recover from the
// error, and the calls in them are still tagged.
func blockSource(name string, b codeBlock) []byte {
	lines := make([][]byte, len(b.lines))
	indent := -1 // the least indentation of the block's lines that are not blank
	for _, l := range b.lines {
		if t, n := trimIndent(l); len(bytes.TrimSpace(t)) > 0 && (indent < 0 || n < indent) {
			indent = n
		}
	}
	for i, l := range b.lines {
		lines[i] = dedent(bytes.TrimRight(l, "\r"), indent)
	}
	session := name == "python" && (b.info == "pycon" ||
		slices.ContainsFunc(lines, func(l []byte) bool { return bytes.HasPrefix(l, []byte(">>>")) }))
	for i, l := range lines {
		if session {
			if bytes.HasPrefix(l, []byte(">>> ")) || bytes.HasPrefix(l, []byte("... ")) {
				lines[i] = l[4:]
			} else {
				lines[i] = nil // a bare prompt, or output
			}
		}
	}
	return bytes.Join(lines, []byte{'\n'})
}

// dedent returns line without up to n columns of its leading spaces and
// tabs.
func dedent(line []byte, n int) []byte {
	rest, _ := trimIndentUpTo(line, n)
	return rest
}
