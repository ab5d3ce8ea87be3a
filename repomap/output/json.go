package output

import (
	"path/filepath"
	"strconv"

	"github.com/repomap-dev/repomap/repomap"
)

// SchemaVersion is the version of the JSON documents that "repomap --format
// json" prints and the MCP server's tools return as structured content;
// every document has it in its "schema" field.
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
//	        {"name": "main", "qualifier": "", "kind": "function", "line": 12}   // line is 1-based
//	      ],
//	      "text": "main.go:\n⋮\n│func main() {\n⋮\n"          // its part of "text"
//	    }
//	  ],
//	  "ranked_files": [          // the files of the ranking, best first (see below)
//	    {"path": "geo/geo.go", "score": 0.0456}
//	  ],
//	  "ranked_defs": [           // the definitions of the ranking, best first
//	    {"path": "geo/geo.go", "name": "Dist", "qualifier": "p Point", "kind": "method", "line": 9, "score": 0.0456}
//	  ]
//	}
//
// A root's "name" prefixes the paths of its files, as "name/path"; it is
// "" for a map of one tree. Its "dir" is the directory as it was given,
// slash-separated, or "" for a tree that is not a directory on disk.
// The budget caps "text" alone: the rest of the document is not counted.
// In a related map, "kind" is "use" for a line that uses a definition of
// the file the map is about. A definition's "qualifier" is the one its
// language's tags record (a Python method's class, a Go method's
// receiver; see repomap.Def), "" for none.
//
// The map is the start of a ranked list of definitions; "ranked_defs"
// are the definitions it shows followed by the next ones of the list
// (repomap.RankedMore more entries of the list), best first, each with
// the score it was ranked by. "ranked_files" are the files of those
// definitions and the files listed by name, in the order of each one's
// first entry, with that entry's score. Files of a later tier (tests,
// examples…) come after the others whatever their scores.
//
// Version 2 added "qualifier", "ranked_files" and "ranked_defs".
//
// # Definitions (repomap defs)
//
//	{
//	  "schema": 2,
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
//	  "schema": 2,
//	  "roots": […],
//	  "references": [            // for each name asked for, its files, best ranked first
//	    {"name": "Area", "path": "main.go", "rank": 0.0123, "lines": [6, 9]}
//	  ]
//	}
//
// # The file graph (repomap graph)
//
//	{
//	  "schema": 2,
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
const SchemaVersion = 2

// Head is the start of every JSON document.
type Head struct {
	Schema int    `json:"schema"`
	Roots  []Root `json:"roots"`
}

// Root is a root of a map in a JSON document.
type Root struct {
	Name string `json:"name"` // prefixes its files' paths; "" for a single root
	Dir  string `json:"dir"`  // as given, slash-separated; "" when not on disk
}

// MapDoc is a map as a JSON document.
type MapDoc struct {
	Head
	*repomap.Result
}

// DefinitionsDoc is what Map.Definitions found, as a JSON document.
type DefinitionsDoc struct {
	Head
	Definitions []repomap.Definition `json:"definitions"`
}

// ReferencesDoc is what Map.References found for one or more names, as
// a JSON document.
type ReferencesDoc struct {
	Head
	References []NamedReference `json:"references"`
}

// NamedReference is a file that refers to a name.
type NamedReference struct {
	Name string `json:"name"`
	repomap.Reference
}

// NewHead returns the head of a document about a map of the roots.
func NewHead(roots []repomap.Root) Head {
	h := Head{Schema: SchemaVersion, Roots: make([]Root, 0, len(roots))}
	for _, r := range roots {
		h.Roots = append(h.Roots, Root{Name: r.Name, Dir: filepath.ToSlash(r.Dir)})
	}
	return h
}

// NewMapDoc returns the document of r, a map of the roots: r with its
// ranks and scores rounded and no null arrays.
func NewMapDoc(roots []repomap.Root, r *repomap.Result) *MapDoc {
	c := *r
	c.Files = make([]repomap.FileResult, len(r.Files))
	for i, f := range r.Files {
		f.Rank = Round6(f.Rank)
		if f.Defs == nil {
			f.Defs = []repomap.Def{}
		}
		c.Files[i] = f
	}
	c.RankedFiles = make([]repomap.RankedFile, len(r.RankedFiles))
	for i, f := range r.RankedFiles {
		f.Score = Round6(f.Score)
		c.RankedFiles[i] = f
	}
	c.RankedDefs = make([]repomap.RankedDef, len(r.RankedDefs))
	for i, d := range r.RankedDefs {
		d.Score = Round6(d.Score)
		c.RankedDefs[i] = d
	}
	return &MapDoc{NewHead(roots), &c}
}

// NewDefinitionsDoc returns the document of defs, definitions in the
// roots.
func NewDefinitionsDoc(roots []repomap.Root, defs []repomap.Definition) *DefinitionsDoc {
	if defs == nil {
		defs = []repomap.Definition{}
	}
	return &DefinitionsDoc{NewHead(roots), defs}
}

// NewReferencesDoc returns a document of references in the roots, with
// none yet; Add adds those of a name.
func NewReferencesDoc(roots []repomap.Root) *ReferencesDoc {
	return &ReferencesDoc{NewHead(roots), []NamedReference{}}
}

// Add adds the references to name, as Map.References returns them.
func (doc *ReferencesDoc) Add(name string, refs []repomap.Reference) {
	for _, r := range refs {
		r.Rank = Round6(r.Rank)
		if r.Lines == nil {
			r.Lines = []int{}
		}
		doc.References = append(doc.References, NamedReference{name, r})
	}
}

// Round6 returns x to six significant digits: enough to order files, and
// the same on every platform.
func Round6(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// GraphDoc is a file graph as a JSON document.
type GraphDoc struct {
	Head
	Files []GraphFileDoc `json:"files"`
	Edges []GraphEdgeDoc `json:"edges"`
}

// GraphFileDoc is a file of a graph document.
type GraphFileDoc struct {
	Path     string  `json:"path"`
	Rank     float64 `json:"rank"`
	Teleport float64 `json:"teleport"`
	Role     string  `json:"role"`
}

// GraphEdgeDoc is an edge of a graph document.
type GraphEdgeDoc struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	Back   float64 `json:"back"`
}

// NewGraphDoc returns the document of the files of a graph of the roots,
// with no edges.
func NewGraphDoc(roots []repomap.Root, files []repomap.GraphFile) *GraphDoc {
	doc := &GraphDoc{Head: NewHead(roots), Files: make([]GraphFileDoc, 0, len(files)), Edges: []GraphEdgeDoc{}}
	for _, f := range files {
		doc.Files = append(doc.Files, GraphFileDoc{Path: f.Path, Rank: Round6(f.Rank), Teleport: Round6(f.Teleport), Role: f.Role.String()})
	}
	return doc
}

// NewGraphEdgeDoc returns the document of an edge of a graph.
func NewGraphEdgeDoc(e repomap.GraphEdge) GraphEdgeDoc {
	return GraphEdgeDoc{From: e.From, To: e.To, Name: e.Name, Weight: Round6(e.Weight), Back: Round6(e.Back)}
}
