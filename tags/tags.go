package tags

import (
	"errors"
	"fmt"
	"path"
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
}

var (
	// ErrUnsupportedLanguage is returned for a path whose language repomap
	// does not parse.
	ErrUnsupportedLanguage = errors.New("tags: unsupported language")
	// ErrTimeout is returned when parsing a file took longer than the
	// parser's timeout.
	ErrTimeout = errors.New("tags: parse timed out")
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

// Detect returns the language of the file at path p, by its extension, or
// "" when repomap does not parse it.
func Detect(p string) string {
	ext := strings.ToLower(path.Ext(p))
	for _, l := range languages {
		if slices.Contains(l.exts, ext) {
			return l.name
		}
	}
	return ""
}

// Languages returns the names of the supported languages, sorted.
func Languages() []string {
	names := make([]string, len(languages))
	for i, l := range languages {
		names[i] = l.name
	}
	slices.Sort(names)
	return names
}
