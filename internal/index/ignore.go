package index

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignorePattern is one line of an ignore file (gitignore syntax), which
// applies below the directory whose path parts are domain.
//
// It matches a path as git matches it against an entry the walk meets:
// the path itself, not its directories, which the walk met first and
// did not enter if they were ignored. So a rule that names a directory
// above the walk's root ("/versions", of a repository that holds the
// root) leaves the root's files alone, as ripgrep's walk does for a
// path it is given; and "foo/**/" matches the directories below foo,
// not foo's own files. (gitignore.ParsePattern of go-git matches a path
// when a rule matches any directory above it, and "foo/**" matches foo.)
type ignorePattern struct {
	domain []string
	// glob is the pattern, with gitignore's special characters kept and
	// doublestar's others escaped: matched against the path's last part
	// alone for a pattern without a slash but at its end (base), and
	// against the whole path below domain otherwise.
	glob   string
	base   bool
	within bool // it ends in "/**": it matches what is inside a directory, not the directory
	negate bool
	dir    bool // it ended in "/": it matches directories alone
}

// parsePattern parses line, a line of an ignore file that is neither
// blank nor a comment, as git reads it.
func parsePattern(line string, domain []string) *ignorePattern {
	p := &ignorePattern{domain: append([]string(nil), domain...)}
	if strings.HasPrefix(line, "!") {
		p.negate, line = true, line[1:]
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " ")
	}
	if strings.HasSuffix(line, "/") {
		p.dir, line = true, strings.TrimSuffix(line, "/")
	}
	p.base = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if t, ok := strings.CutSuffix(line, "/**"); ok {
		p.within, line = true, t
	}
	// Braces are literal in gitignore, special to doublestar.
	p.glob = strings.NewReplacer("{", `\{`, "}", `\}`).Replace(line)
	if !doublestar.ValidatePattern(p.glob) {
		p.glob = "" // a malformed pattern matches nothing
	}
	return p
}

// Match matches the path whose parts are path, a directory when isDir is
// set, as git matches the entry (see ignorePattern).
func (p *ignorePattern) Match(path []string, isDir bool) gitignore.MatchResult {
	if len(path) <= len(p.domain) || p.glob == "" {
		return gitignore.NoMatch
	}
	for i, e := range p.domain {
		if path[i] != e {
			return gitignore.NoMatch
		}
	}
	rel := path[len(p.domain):]
	var ok bool
	switch {
	case p.dir && !isDir:
	case p.base && !p.within:
		ok = doublestar.MatchUnvalidated(p.glob, rel[len(rel)-1])
	case p.within:
		// "foo/**": what lies below a directory that "foo" matches.
		for k := 1; k < len(rel) && !ok; k++ {
			ok = doublestar.MatchUnvalidated(p.glob, strings.Join(rel[:k], "/"))
		}
	default:
		ok = doublestar.MatchUnvalidated(p.glob, strings.Join(rel, "/"))
	}
	switch {
	case !ok:
		return gitignore.NoMatch
	case p.negate:
		return gitignore.Include
	}
	return gitignore.Exclude
}
