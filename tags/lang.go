package tags

import (
	"unsafe"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// language is one supported language: its grammar and its tags query.
type language struct {
	name    string
	exts    []string // lower-case, with the dot
	grammar func() unsafe.Pointer
}

// queryFile is the name of the language's tags query in queries.FS.
func (l *language) queryFile() string { return l.name + "-tags.scm" }

var languages = []*language{
	{name: "go", exts: []string{".go"}, grammar: tsgo.Language},
	{name: "python", exts: []string{".py", ".pyi"}, grammar: tspython.Language},
}

func lookup(name string) *language {
	for _, l := range languages {
		if l.name == name {
			return l
		}
	}
	return nil
}
