package repomap

import (
	"path/filepath"
	"strconv"
)

// SchemaVersion is the version of the JSON documents that [JSONMap],
// [JSONDefinitions] and [JSONReferences] encode, as "repomap --format
// json" prints them. Every document has it in its "schema" field.
//
// The version changes whenever a field is added, removed or renamed, or
// its meaning changes; a program that reads the documents should check
// it. Within a version, the documents have exactly the fields below, and
// every array is present (empty rather than null).
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
const SchemaVersion = 1

// JSONRoot is a root of a map in a JSON document.
type JSONRoot struct {
	Name string `json:"name"` // prefixes its files' paths; "" for a single root
	Dir  string `json:"dir"`  // as given, slash-separated; "" when not on disk
}

// JSONMap is a map as a JSON document; see [SchemaVersion].
type JSONMap struct {
	Schema   int        `json:"schema"`
	Roots    []JSONRoot `json:"roots"`
	Budget   int        `json:"budget"`
	Tokens   int        `json:"tokens"`
	Encoding string     `json:"encoding"`
	Text     string     `json:"text"`
	Files    []JSONFile `json:"files"`
}

// JSONFile is one file of a [JSONMap].
type JSONFile struct {
	Path string    `json:"path"`
	Rank float64   `json:"rank"`
	Defs []JSONDef `json:"defs"`
	Text string    `json:"text"`
}

// JSONDef is one definition shown in a [JSONFile].
type JSONDef struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Line int    `json:"line"`
}

// JSONDefinitions is what [Map.Definitions] found, as a JSON document;
// see [SchemaVersion].
type JSONDefinitions struct {
	Schema      int              `json:"schema"`
	Roots       []JSONRoot       `json:"roots"`
	Definitions []JSONDefinition `json:"definitions"`
}

// JSONDefinition is one definition of a [JSONDefinitions].
type JSONDefinition struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// JSONReferences is what [Map.References] found for one or more names,
// as a JSON document; see [SchemaVersion].
type JSONReferences struct {
	Schema     int             `json:"schema"`
	Roots      []JSONRoot      `json:"roots"`
	References []JSONReference `json:"references"`
}

// JSONReference is one file that refers to a name, in a [JSONReferences].
type JSONReference struct {
	Name  string  `json:"name"`
	Path  string  `json:"path"`
	Rank  float64 `json:"rank"`
	Lines []int   `json:"lines"`
}

// NewJSONMap returns the document of r, a map of the roots.
func NewJSONMap(roots []Root, r *Result) *JSONMap {
	doc := &JSONMap{
		Schema:   SchemaVersion,
		Roots:    jsonRoots(roots),
		Budget:   r.Budget,
		Tokens:   r.Tokens,
		Encoding: r.Encoding,
		Text:     r.Text,
		Files:    make([]JSONFile, 0, len(r.Files)),
	}
	for _, f := range r.Files {
		jf := JSONFile{Path: f.Path, Rank: round6(f.Rank), Defs: make([]JSONDef, 0, len(f.Defs)), Text: f.Text}
		for _, d := range f.Defs {
			jf.Defs = append(jf.Defs, JSONDef(d))
		}
		doc.Files = append(doc.Files, jf)
	}
	return doc
}

// NewJSONDefinitions returns the document of defs, found in the roots.
func NewJSONDefinitions(roots []Root, defs []Definition) *JSONDefinitions {
	doc := &JSONDefinitions{Schema: SchemaVersion, Roots: jsonRoots(roots), Definitions: make([]JSONDefinition, 0, len(defs))}
	for _, d := range defs {
		doc.Definitions = append(doc.Definitions, JSONDefinition(d))
	}
	return doc
}

// NewJSONReferences returns a document of references in the roots, with
// none yet; [JSONReferences.Add] adds those of a name.
func NewJSONReferences(roots []Root) *JSONReferences {
	return &JSONReferences{Schema: SchemaVersion, Roots: jsonRoots(roots), References: []JSONReference{}}
}

// Add adds the references to name, as [Map.References] returns them.
func (doc *JSONReferences) Add(name string, refs []Reference) {
	for _, r := range refs {
		lines := r.Lines
		if lines == nil {
			lines = []int{}
		}
		doc.References = append(doc.References, JSONReference{Name: name, Path: r.Path, Rank: round6(r.Rank), Lines: lines})
	}
}

func jsonRoots(roots []Root) []JSONRoot {
	out := make([]JSONRoot, 0, len(roots))
	for _, r := range roots {
		dir := r.Dir
		if dir != "" {
			dir = filepath.ToSlash(dir)
		}
		out = append(out, JSONRoot{Name: r.Name, Dir: dir})
	}
	return out
}

// round6 returns x to six significant digits: enough to order files, and
// the same on every platform.
func round6(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}
