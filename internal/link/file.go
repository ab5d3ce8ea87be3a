package link

import "github.com/repomap-dev/repomap/tags"

// File is what the link stage knows of one file of a tree.
type File struct {
	Path string // in the map
	Rel  string // relative to its root
	Lang string // its language, as tags.Detect names it
	Tags tags.Set
	// Version tells two states of the file apart: a Linker updated to
	// files relinks those whose version changed.
	Version uint64
}
