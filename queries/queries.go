// Package queries holds the tree-sitter tags queries of every language
// repomap maps, one file per language named <language>-tags.scm.
//
// A query captures the name node of each definition as
// @name.definition.<kind> and of each reference as @name.reference.<kind>.
// Where two patterns capture the same node, the one written first in the
// file wins; the tags package relies on that order. A node captured as
// @ignore is taken by no later pattern.
package queries

import "embed"

// FS holds the *-tags.scm files.
//
//go:embed *-tags.scm
var FS embed.FS
