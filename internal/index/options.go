package index

import (
	"io/fs"
	"log/slog"
	"time"

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
	Roles            []RoleRule            // rules of roles after each root's RolesFile
	Progress         func(done, total int) // called as files are parsed; may be nil
	Logger           *slog.Logger          // never nil
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
}

// mapPath returns the path in the map of the file at rel in r, a segment
// that holds a credential redacted.
func (r *root) mapPath(rel string) string {
	if r.Name != "" {
		rel = r.Name + "/" + rel
	}
	return redact.Path(rel)
}
