package index

import (
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/redact"
)

// Options configures an Index. Every field is set: the Map applies the
// defaults.
type Options struct {
	Parallelism  int           // files parsed at once
	MaxFileSize  int64         // larger files are listed, not parsed
	ParseTimeout time.Duration // a parse that takes longer leaves the file out
	// Exclude and Include select the files of each root by their paths
	// (see repomap.Options).
	Exclude, Include []string
	// NoIgnore and NoIgnoreParent leave out ignore rules (see
	// repomap.Options); ParseVendored parses the files of vendored
	// directories.
	NoIgnore, NoIgnoreParent, ParseVendored bool
	Roles                                   []RoleRule            // rules of roles after each root's RolesFile
	Progress                                func(done, total int) // called as files are parsed; may be nil
	Logger                                  *slog.Logger          // never nil
}

// Root is one tree the index walks.
type Root struct {
	// Name prefixes the paths of its files in the map ("Name/path"); ""
	// for none.
	Name string
	// FS is the tree; Dir its directory on disk, or "". With OnDisk, FS is
	// os.DirFS(Dir), which the walk reads directly.
	FS     fs.FS
	Dir    string
	OnDisk bool
	// Cache is the root's disk cache of tags, or nil.
	Cache *cache.Cache
}

// root is a Root with what the index knows of it.
type root struct {
	Root
	loaded bool // whether the disk cache was read
	// known reports whether the disk cache holds the file at a path, of
	// nKnown files within the index's selection, once it was read or
	// written; nil before.
	known  func(rel string) bool
	nKnown int
	walks  int        // walks of the root so far
	watch  *rootWatch // from its second walk on, when it can be watched
	// dir is the root's directory open on disk, where the walk and the
	// reads go (dirOf); retired, those open before it.
	dir     *rootDir
	retired []*rootDir
}

// mapPath returns the path in the map of the file at rel in r, a segment
// that holds a credential redacted, and each byte that is not UTF-8 as
// "\xHH" (quotedBytes).
func (r *root) mapPath(rel string) string {
	if r.Name != "" {
		rel = r.Name + "/" + rel
	}
	return redact.Path(quotedBytes(rel))
}

// quotedBytes returns p with each byte that is not part of valid UTF-8
// written as a Go string escape, "\xHH". A file's name is bytes, which
// the index reads the file by (File.Rel), but a map is text, and JSON
// turns such bytes into U+FFFD: two names could read alike, and neither
// as itself. (Git quotes them too, with core.quotePath.)
func quotedBytes(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02x`, p[i])
		} else {
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	return b.String()
}
