package repomap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// IgnoreFile is the name of the file, at the root of a tree, that lists
// in gitignore syntax what maps of the tree leave out, beyond what the
// tree's .gitignore files ignore.
const IgnoreFile = ".repomapignore"

// file is one regular file found under a root.
type file struct {
	path string // slash-separated: its path in the map
	root int    // index of its root
	rel  string // its path relative to its root
	size int64
	mod  int64 // modification time, Unix nanoseconds
}

// skip is a file left out of the map, with the reason.
type skip struct {
	path   string
	reason string
}

// walk lists the regular files under the root of fsys, in lexical order,
// as walkGlobs does with no globs.
func walk(ctx context.Context, fsys fs.FS) ([]file, []skip, error) {
	return walkGlobs(ctx, fsys, nil, nil)
}

// walkGlobs lists the regular files under the root of fsys, in lexical
// order, honouring the .gitignore files of the tree (nested ones too),
// .git/info/exclude and a .repomapignore file at the root, and never
// entering .git. Symbolic links are not followed: a link inside the root
// reaches a file the walk lists anyway, and one that leads outside the
// root must not show up in a map. Entries that cannot be read are skipped
// with a reason; only an unreadable root is an error.
//
// The globs select by path relative to the root (see Options.Exclude and
// Options.Include): a file or directory matching an exclude glob is left
// out, a directory with all it holds; with include globs, only the files
// that match one, or lie under a directory that matches one, are listed,
// and directories that can hold no such file are not entered.
func walkGlobs(ctx context.Context, fsys fs.FS, exclude, include []string) ([]file, []skip, error) {
	var (
		files    []file
		skipped  []skip
		patterns = readIgnore(fsys, ".git/info/exclude", nil)
		matcher  = gitignore.NewMatcher(patterns)
		sel      = newSelection(exclude, include)
	)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == "." {
				return err
			}
			skipped = append(skipped, skip{p, "unreadable: " + errText(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == "." {
			// .repomapignore comes after .gitignore, so that its "!"
			// patterns can take back what the root's .gitignore leaves out.
			add := readIgnore(fsys, ".gitignore", nil)
			add = append(add, readIgnore(fsys, IgnoreFile, nil)...)
			if len(add) > 0 {
				patterns = append(patterns, add...)
				matcher = gitignore.NewMatcher(patterns)
			}
			return nil
		}
		parts := strings.Split(p, "/")
		typ := d.Type()
		switch {
		case d.IsDir():
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			if matcher.Match(parts, true) || !sel.enter(p) {
				return fs.SkipDir
			}
			if add := readIgnore(fsys, path.Join(p, ".gitignore"), parts); len(add) > 0 {
				patterns = append(patterns, add...)
				matcher = gitignore.NewMatcher(patterns)
			}
			return nil
		case matcher.Match(parts, false) || !sel.keep(p):
			return nil
		case typ&fs.ModeSymlink != 0:
			skipped = append(skipped, skip{p, "symbolic link"})
			return nil
		case !typ.IsRegular():
			skipped = append(skipped, skip{p, "not a regular file"})
			return nil
		}
		info, err := d.Info()
		if err != nil {
			skipped = append(skipped, skip{p, "unreadable: " + errText(err)})
			return nil
		}
		files = append(files, file{path: p, size: info.Size(), mod: info.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("repomap: walk: %w", err)
	}
	return files, skipped, nil
}

// readIgnore reads the gitignore patterns of the file at name, which apply
// below the directory whose path parts are domain. A missing or unreadable
// file has no patterns.
func readIgnore(fsys fs.FS, name string, domain []string) []gitignore.Pattern {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// errText is err's message without the path that fs errors repeat.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// selection is the exclude and include globs of Options, cleaned.
type selection struct {
	exclude, include []string
	bases            []string // the part of each include glob before its first wildcard
}

func newSelection(exclude, include []string) selection {
	var s selection
	for _, g := range exclude {
		s.exclude = append(s.exclude, cleanGlob(g))
	}
	for _, g := range include {
		g = cleanGlob(g)
		s.include = append(s.include, g)
		base, _ := doublestar.SplitPattern(g)
		if !hasMeta(g) {
			base = g
		}
		s.bases = append(s.bases, base)
	}
	return s
}

// cleanGlob returns the glob without a leading "./" or a trailing "/".
func cleanGlob(g string) string {
	g = strings.TrimPrefix(g, "./")
	if len(g) > 1 {
		g = strings.TrimSuffix(g, "/")
	}
	return g
}

func hasMeta(g string) bool { return strings.ContainsAny(g, `*?[{\`) }

// excluded reports whether the path p matches an exclude glob.
func (s selection) excluded(p string) bool {
	for _, g := range s.exclude {
		if doublestar.MatchUnvalidated(g, p) {
			return true
		}
	}
	return false
}

// enter reports whether the walk should enter the directory at p: it is
// not excluded, and without include globs or when it may hold a file
// that one selects.
func (s selection) enter(p string) bool {
	if s.excluded(p) {
		return false
	}
	if len(s.include) == 0 {
		return true
	}
	for i, g := range s.include {
		b := s.bases[i]
		if b == "." || b == p || strings.HasPrefix(b, p+"/") || strings.HasPrefix(p, b+"/") || doublestar.MatchUnvalidated(g, p) {
			return true
		}
	}
	return false
}

// keep reports whether the file at p is selected: it is not excluded,
// and without include globs or when it, or a directory above it, matches
// one.
func (s selection) keep(p string) bool {
	if s.excluded(p) {
		return false
	}
	if len(s.include) == 0 {
		return true
	}
	for _, g := range s.include {
		if doublestar.MatchUnvalidated(g, p) || doublestar.MatchUnvalidated(g+"/**", p) {
			return true
		}
	}
	return false
}

// checkGlobs returns an error naming the first malformed glob.
func checkGlobs(field string, globs []string) error {
	for _, g := range globs {
		if !doublestar.ValidatePattern(cleanGlob(g)) {
			return fmt.Errorf("repomap: %s: malformed glob %q", field, g)
		}
	}
	return nil
}
