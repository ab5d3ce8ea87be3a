// Package tags turns source files into tags: the names a file defines and
// the names it refers to, found with tree-sitter and the tags queries of
// package [github.com/repomap-dev/repomap/queries].
//
// It is the only package of repomap that uses tree-sitter; no tree-sitter
// type appears in its API. Every tree-sitter object it makes is closed,
// and captures are read with QueryCursor.Matches (go-tree-sitter's
// Captures iterator leaks C memory per capture).
//
// # Tags
//
// A [Tag] is one name: a [Definition] (a function, a method, a type, a
// class, a package-level constant or variable, a struct field…) or a
// [Reference] (a call, a type use, a composite literal, a package
// qualifier, a decorator, an imported name…). Its Line is the 0-based row
// of the name itself, not of the whole definition. Its Sub is the kind of
// definition or reference, taken from the capture name of the query
// (@name.definition.function gives "function"). A name or qualifier that
// holds a credential (a token as a JSON key, a heading or a CSS class;
// see internal/redact's HoldsSecret) gives no tag: a token is no useful
// name, and a tag's name is shown whole wherever definitions are listed.
//
// # Parsing
//
// A [Parser] holds one tree-sitter parser. It is not safe for concurrent
// use: give each goroutine its own, and Close it. The compiled tags
// queries, some of which take seconds to compile, live in a [Queries],
// which parsers on several goroutines may share (ParserOptions.Queries)
// so that each query is compiled once for all of them. [Parser.Parse]
// returns a file's tags sorted by line; [Parser.File] returns them with
// the file's [Outline] from the same parse: the shape of its syntax tree
// that a renderer needs to show a definition with the headers of the
// scopes around it. [Parser.Outline] returns the outline alone, which
// needs the grammar and no query.
//
// Where a grammar fails on what its language allows, the source it
// parses may be mended first: a Kotlin class header whose primary
// constructor starts on the next line has its line break moved in front
// of "constructor". A mend changes blanks only, so byte offsets and the
// rows of names are the file's, and names are read from the file.
//
// # Languages
//
// [Detect] names the language of a file by its base name, its extension,
// and for a file without extension its "#!" line (and a ".h" header is C or
// C++ by its content). [Languages] lists those supported, in two tiers:
// tier 1 has a tree-sitter grammar and one of our tags queries; tier 2,
// for languages without a usable grammar, takes definitions and
// references from the tokens of a chroma lexer, with a table of defining
// words per language; its outline has the declarations its tokens tell
// (a signature's open parentheses, a body's braces) and no scope rows.
//
// # Effects on the process
//
// The first [NewParser] points tree-sitter's allocator, which is global to
// the process, at the C library's malloc and free: go-tree-sitter's own
// hooks call into Go for every allocation and end in the same malloc and
// free, so memory allocated either way may be freed the other way, and
// another tree-sitter user in the process is unaffected but for speed.
package tags
