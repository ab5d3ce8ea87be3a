package tags

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind tells a definition from a reference.
type Kind uint8

// The kinds of tag.
const (
	Definition Kind = iota + 1
	Reference
)

// String returns "def" or "ref".
func (k Kind) String() string {
	switch k {
	case Definition:
		return "def"
	case Reference:
		return "ref"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Tag is one name in a file.
type Tag struct {
	Path string // slash-separated, relative to the root of the map
	Name string // the identifier
	Kind Kind   // Definition or Reference
	Sub  string // the kind of definition or reference: "function", "method", "call"…
	Line int    // 0-based row of the name
	// Qual is what qualifies a reference, as the source spells it: the
	// operand of a selector ("q" in q.F()), the module an import names,
	// the receiver of a method. Empty when nothing does. The link stage
	// uses it to tell which definitions a reference can mean.
	Qual string
}

var (
	// ErrUnsupportedLanguage is returned for a path whose language repomap
	// does not parse.
	ErrUnsupportedLanguage = errors.New("tags: unsupported language")
	// ErrTimeout is returned when parsing a file took longer than the
	// parser's timeout.
	ErrTimeout = errors.New("tags: parse timed out")
	// ErrNoGrammar is returned by Parser.Floor for a file whose language
	// has no tree-sitter grammar: a lexer reads it.
	ErrNoGrammar = errors.New("tags: no tree-sitter grammar")
)

// QueryError reports a tags query that does not compile against its
// grammar.
type QueryError struct {
	File    string // the query file, such as "go-tags.scm"
	Row     int    // 0-based
	Column  int    // 0-based
	Message string
}

func (e *QueryError) Error() string {
	return fmt.Sprintf("tags: query %s:%d:%d: %s", e.File, e.Row+1, e.Column+1, e.Message)
}

// Language describes one supported language.
type Language struct {
	Name       string
	Tier       int      // 1: a tree-sitter grammar and tags query; 2: a lexer
	Extensions []string // lower-case, with the dot
	Files      []string // base names that are this language
	Defs, Refs bool     // whether its tags include definitions, references
}

// Languages returns the supported languages, sorted by name. A tier-1
// language whose query fails to compile is reported with neither
// definitions nor references.
func Languages() []Language {
	p := NewParser(nil)
	defer p.Close()
	out := make([]Language, 0, len(languages))
	for _, l := range languages {
		info := Language{Name: l.name, Tier: 1, Extensions: l.exts, Files: l.files}
		if l.grammar == nil {
			info.Tier, info.Defs = 2, true
			info.Refs = l.byHand || lexSpecs[l.name] == nil || !lexSpecs[l.name].noRefs
		} else if c, err := p.compile(l.name); err == nil {
			for _, cp := range c.captures {
				info.Defs = info.Defs || cp.kind == Definition
				info.Refs = info.Refs || cp.kind == Reference
			}
			info.Refs = info.Refs || l.lexer != ""
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b Language) int { return strings.Compare(a.Name, b.Name) })
	return out
}
