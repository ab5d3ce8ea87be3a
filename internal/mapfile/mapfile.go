// Package mapfile tells whether a path in a [repomap.Map] names one of
// its files, for the commands that take files from people and agents.
package mapfile

import (
	"io/fs"
	"strings"

	"github.com/repomap-dev/repomap/repomap"
)

// Exists reports whether p, a slash-separated path in m (relative to its
// root, or "name/path" with several roots), names a file, not a
// directory, in a root of m.
func Exists(m *repomap.Map, p string) bool {
	for _, r := range m.Roots() {
		rel := p
		if r.Name != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(p, r.Name+"/"); !ok {
				continue
			}
		}
		if r.FS == nil || !fs.ValidPath(rel) {
			continue
		}
		if info, err := fs.Stat(r.FS, rel); err == nil && !info.IsDir() {
			return true
		}
	}
	return false
}
