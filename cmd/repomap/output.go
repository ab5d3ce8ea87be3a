package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/repomap-dev/repomap/internal/tokens"
	"github.com/repomap-dev/repomap/repomap"
)

// The output formats.
const (
	formatText     = "text"
	formatMarkdown = "markdown"
	formatJSON     = "json"
)

// schemaVersion is the version of the JSON documents that "--format json"
// prints; every document has it in its "schema" field.
//
// The version changes whenever a field is added, removed or renamed, or
// its meaning changes; a program that reads the documents should check
// it. Within a version, the documents have exactly the fields below, and
// every array is present (empty rather than null). The fields after
// "roots" are the JSON form of the library's results: [repomap.Result],
// [repomap.Definition], [repomap.Reference] and [repomap.Graph].
//
// # A map (repomap, repomap related)
//
//	{
//	  "schema": 1,
//	  "roots": [{"name": "", "dir": "."}],
//	  "budget": 1024,            // the most tokens the map could have
//	  "tokens": 987,             // the tokens of "text"
//	  "encoding": "o200k_base",  // the tokenizer that counted them
//	  "text": "\nmain.go:\n⋮\n…", // the map, exactly as --format text prints it
//	  "files": [                 // the files of the map, in map order (by path)
//	    {
//	      "path": "main.go",     // slash-separated, prefixed by the root's name if it has one
//	      "rank": 0.0123,        // its PageRank (in a related map: the weight of its links), 6 digits
//	      "defs": [              // the definitions it shows, by line; empty for a file listed by name
//	        {"name": "main", "kind": "function", "line": 12}   // line is 1-based
//	      ],
//	      "text": "main.go:\n⋮\n│func main() {\n⋮\n"          // its part of "text"
//	    }
//	  ]
//	}
//
// A root's "name" prefixes the paths of its files, as "name/path"; it is
// "" for a map of one tree. Its "dir" is the directory as it was given,
// slash-separated, or "" for a tree that is not a directory on disk.
// The budget caps "text" alone: the rest of the document is not counted.
// In a related map, "kind" is "use" for a line that uses a definition of
// the file the map is about.
//
// # Definitions (repomap defs)
//
//	{
//	  "schema": 1,
//	  "roots": […],
//	  "definitions": [           // by path, then line
//	    {"path": "shapes/area.go", "name": "Area", "kind": "function", "line": 4,
//	     "text": "⋮\n│func Area(w, h float64) float64 {\n⋮\n"}  // as a map shows it, without the path line
//	  ]
//	}
//
// # References (repomap refs)
//
//	{
//	  "schema": 1,
//	  "roots": […],
//	  "references": [            // for each name asked for, its files, best ranked first
//	    {"name": "Area", "path": "main.go", "rank": 0.0123, "lines": [6, 9]}
//	  ]
//	}
//
// # The file graph (repomap graph)
//
//	{
//	  "schema": 1,
//	  "roots": […],
//	  "files": [                 // the files of the graph, best ranked first
//	    {"path": "main.go", "rank": 0.0123,  // its PageRank, as in a map
//	     "teleport": 0.25,       // its share of PageRank's teleport
//	     "role": "source"}       // source, test, example, fixture, generated, vendored, docs, config, community, asset
//	  ],
//	  "edges": [                 // by from, to and name; one per (from, to, name)
//	    {"from": "main.go", "to": "shapes/area.go", "name": "Area",
//	     "weight": 1.5,          // its weight in the PageRank
//	     "back": 0.5}            // the part of weight that flows back from a definition in "from" to a use in "to"
//	  ]
//	}
//
// PageRank (damping 0.85) on the edges, summed per pair of files, with
// the files' teleport as personalization gives their ranks. Numbers have
// six significant digits. With -top, the files are the best ranked and
// the edges those between them.
const schemaVersion = 1

// jsonHead is the start of every JSON document.
type jsonHead struct {
	Schema int        `json:"schema"`
	Roots  []jsonRoot `json:"roots"`
}

// jsonRoot is a root of a map in a JSON document.
type jsonRoot struct {
	Name string `json:"name"` // prefixes its files' paths; "" for a single root
	Dir  string `json:"dir"`  // as given, slash-separated; "" when not on disk
}

// mapDoc is a map as a JSON document.
type mapDoc struct {
	jsonHead
	*repomap.Result
}

// definitionsDoc is what Map.Definitions found, as a JSON document.
type definitionsDoc struct {
	jsonHead
	Definitions []repomap.Definition `json:"definitions"`
}

// referencesDoc is what Map.References found for one or more names, as
// a JSON document.
type referencesDoc struct {
	jsonHead
	References []namedReference `json:"references"`
}

// namedReference is a file that refers to a name.
type namedReference struct {
	Name string `json:"name"`
	repomap.Reference
}

func newHead(roots []repomap.Root) jsonHead {
	h := jsonHead{Schema: schemaVersion, Roots: make([]jsonRoot, 0, len(roots))}
	for _, r := range roots {
		h.Roots = append(h.Roots, jsonRoot{Name: r.Name, Dir: filepath.ToSlash(r.Dir)})
	}
	return h
}

// newMapDoc returns the document of r, a map of the roots: r with its
// ranks rounded and no null arrays.
func newMapDoc(roots []repomap.Root, r *repomap.Result) *mapDoc {
	c := *r
	c.Files = make([]repomap.FileResult, len(r.Files))
	for i, f := range r.Files {
		f.Rank = round6(f.Rank)
		if f.Defs == nil {
			f.Defs = []repomap.Def{}
		}
		c.Files[i] = f
	}
	return &mapDoc{newHead(roots), &c}
}

func newDefinitionsDoc(roots []repomap.Root, defs []repomap.Definition) *definitionsDoc {
	if defs == nil {
		defs = []repomap.Definition{}
	}
	return &definitionsDoc{newHead(roots), defs}
}

// newReferencesDoc returns a document of references in the roots, with
// none yet; add adds those of a name.
func newReferencesDoc(roots []repomap.Root) *referencesDoc {
	return &referencesDoc{newHead(roots), []namedReference{}}
}

// add adds the references to name, as Map.References returns them.
func (doc *referencesDoc) add(name string, refs []repomap.Reference) {
	for _, r := range refs {
		r.Rank = round6(r.Rank)
		if r.Lines == nil {
			r.Lines = []int{}
		}
		doc.References = append(doc.References, namedReference{name, r})
	}
}

// round6 returns x to six significant digits: enough to order files, and
// the same on every platform.
func round6(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// encodeJSON writes v to w as indented JSON, with "<", ">" and "&" as
// they are.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// rootTitle names the roots for a heading: the base name of a single
// root's directory, or the names of several.
func rootTitle(roots []repomap.Root) string {
	var names []string
	for _, r := range roots {
		n := r.Name
		if n == "" && r.Dir != "" {
			if abs, err := filepath.Abs(r.Dir); err == nil {
				n = filepath.Base(abs)
			}
		}
		if n == "" {
			n = "the tree"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// markdownMap returns the map r under a heading, in a fenced code block.
// budget is the document's budget, which r.Budget may be less than.
func markdownMap(title string, r *repomap.Result, budget int) string {
	text := strings.TrimPrefix(r.Text, "\n")
	fence := "```"
	for line := range strings.Lines(text) {
		if n := len(line) - len(strings.TrimLeft(line, "`")); n >= len(fence) {
			fence = strings.Repeat("`", n+1)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "A map of %d tokens (%s) in a budget of %d for this whole file, made by repomap: source lines under their file's path, \"⋮\" for lines left out.\n\n", r.Tokens, r.Encoding, budget)
	fmt.Fprintf(&b, "%stext\n%s%s\n", fence, text, fence)
	return b.String()
}

// printStats writes how the map was made.
func printStats(w io.Writer, r *repomap.Result) {
	s := r.Stats
	fmt.Fprintf(w, "files      %d seen, %d parsed, %d from cache, %d skipped\n", s.Files, s.Parsed, s.Cached, s.Skipped)
	reasons := map[string]int{}
	for _, sk := range r.Skipped {
		reason, _, _ := strings.Cut(sk.Reason, ":")
		reasons[reason]++
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  skipped  %d %s\n", reasons[k], k)
	}
	var roles []string
	for r := repomap.RoleSource; r <= repomap.RoleAsset; r++ {
		if n := s.Roles[r.String()]; n > 0 {
			roles = append(roles, fmt.Sprintf("%d %s", n, r))
		}
	}
	if len(roles) > 0 {
		fmt.Fprintf(w, "roles      %s\n", strings.Join(roles, ", "))
	}
	fmt.Fprintf(w, "tags       %d definitions, %d references\n", s.Defs, s.Refs)
	fmt.Fprintf(w, "graph      %d files, %d links (%s)\n", s.Nodes, s.Links, s.Linked)
	reused := ""
	switch {
	case s.Reused:
		reused = ", the last map of these files for this request"
	case s.Refit:
		reused = ", fitted from the last ranking of these files for this request"
	}
	fmt.Fprintf(w, "map        %d of %d tokens (%s), %d files shown%s\n", r.Tokens, r.Budget, r.Encoding, len(r.Files), reused)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0fms", d.Seconds()*1000) }
	fmt.Fprintf(w, "time       walk %s, tags %s, rank %s, fit %s, cache %s, total %s\n",
		ms(s.Walk), ms(s.Tags), ms(s.Rank), ms(s.Fit), ms(s.Store), ms(s.Total))
}

// markdownWithin returns the markdown document of a map under title, the
// whole document within the map's budget: build makes the map with at
// most maxTokens tokens (0: the budget of the flags), and is called again
// with less room for the map while the heading and the fence do not fit.
// A budget too small for the heading and the fence alone is an error.
func markdownWithin(title string, build func(maxTokens int) (*repomap.Result, error)) (string, error) {
	r, err := build(0)
	if err != nil {
		return "", err
	}
	budget := r.Budget
	count, err := tokenCounter(r.Encoding)
	if err != nil {
		return "", err
	}
	for {
		doc := markdownMap(title, r, budget)
		n := count(doc)
		over := n - budget
		if over <= 0 {
			return doc, nil
		}
		if r.Tokens == 0 {
			return "", fmt.Errorf("a budget of %s is too small for a markdown map: its heading and fence alone take %s (--format text has none)", plural(budget, "token"), plural(n, "token"))
		}
		if r, err = build(max(r.Tokens-over, 1)); err != nil {
			return "", err
		}
	}
}

// tokenCounter returns a function that counts tokens of the encoding
// named, from the tables built into the binary.
func tokenCounter(name string) (func(string) int, error) {
	enc, err := tokens.Get(name)
	if err != nil {
		return nil, err
	}
	return enc.Count, nil
}
