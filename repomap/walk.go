package repomap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

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
// honouring the .gitignore files of the tree (nested ones too) and
// .git/info/exclude, and never entering .git. Symbolic links are not
// followed: a link inside the root reaches a file the walk lists anyway,
// and one that leads outside the root must not show up in a map. Entries
// that cannot be read are skipped with a reason; only an unreadable root
// is an error.
func walk(ctx context.Context, fsys fs.FS) ([]file, []skip, error) {
	var (
		files    []file
		skipped  []skip
		patterns = readIgnore(fsys, ".git/info/exclude", nil)
		matcher  = gitignore.NewMatcher(patterns)
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
			if add := readIgnore(fsys, ".gitignore", nil); len(add) > 0 {
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
			if matcher.Match(parts, true) {
				return fs.SkipDir
			}
			if add := readIgnore(fsys, path.Join(p, ".gitignore"), parts); len(add) > 0 {
				patterns = append(patterns, add...)
				matcher = gitignore.NewMatcher(patterns)
			}
			return nil
		case matcher.Match(parts, false):
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
