package repomap

import (
	"context"

	"github.com/repomap-dev/repomap/internal/index"
)

// Role is what a file is for in its repository, as its path, its name and
// the head of its content tell. The ranking puts the code of a tree
// first: its source, then its tests and examples below the code they
// use, then fixtures, generated and vendored code, and documents,
// configuration, CI and community files last, unless the request points
// at them. Its String method gives its name, as ParseRole takes it.
type Role = index.Role

// The roles of files.
const (
	RoleSource    = index.RoleSource    // the code of the tree
	RoleTest      = index.RoleTest      // tests, by each language's conventions
	RoleExample   = index.RoleExample   // examples, samples and demos
	RoleFixture   = index.RoleFixture   // test data, goldens, snapshots
	RoleGenerated = index.RoleGenerated // generated code, lockfiles, minified bundles
	RoleVendored  = index.RoleVendored  // copies of other projects: vendor/, third_party/, node_modules/
	RoleDocs      = index.RoleDocs      // documentation
	RoleConfig    = index.RoleConfig    // configuration and build files
	RoleCommunity = index.RoleCommunity // CI and community files: .github/, CONTRIBUTING, CODEOWNERS…
	RoleAsset     = index.RoleAsset     // images, fonts, media: never parsed
)

// ParseRole returns the role named s.
func ParseRole(s string) (Role, error) { return index.ParseRole(s) }

// RoleRule gives the files whose path matches Glob the role Role, in
// place of the one found from their path and content. Glob has the syntax
// of Options.Exclude.
type RoleRule = index.RoleRule

// RolesFile is the name of the file, at the root of a tree, whose lines
// give roles to files: a role and a glob, separated by space, as
// "fixture **/golden/**"; a line starting with "#" is a comment. Rules
// that come later win, and Options.Roles come after the file's.
const RolesFile = index.RolesFile

// ParseRoleRule returns the rule that s gives, written as a line of a
// RolesFile: a role, a space and a glob, as "fixture **/golden/**".
func ParseRoleRule(s string) (RoleRule, error) { return index.ParseRoleRule(s) }

// IgnoreFile is the name of the file, at the root of a tree, that lists
// in gitignore syntax what maps of the tree leave out, beyond what the
// tree's .gitignore files ignore.
const IgnoreFile = index.IgnoreFile

// CheckPattern returns an error that names the pattern p when it is not
// one that Options.Exclude and Options.Include accept.
func CheckPattern(p string) error { return index.CheckPattern(p) }

// FloorStats is what Floor did.
type FloorStats = index.FloorStats

// Floor parses each file of the tree at dir that a map reads with
// tree-sitter, and runs its tags query, as tags.Parser.Floor does: the
// least work that gives those files' tags, with the allocator a map uses.
// A map's cost, measured as a ratio of it, holds better from one machine
// to another than its time (repomap bench --floor). It works on
// opts.Parallelism goroutines, each with a parser of its own and taking
// the next file not yet taken, as a map's parse does; with 1, on one. It
// walks the tree and reads the files as a map does, with opts's Exclude,
// Include, MaxFileSize and ParseTimeout, and caches nothing. Only a walk
// that fails or a context that is done give an error.
func Floor(ctx context.Context, dir string, opts *Options) (FloorStats, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return FloorStats{}, err
	}
	return index.Floor(ctx, dir, o.indexOptions())
}
