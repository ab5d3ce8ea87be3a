package link

import (
	"context"

	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/tags"
)

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

// Files returns the files of the snapshot s as the link stage takes
// them, their tags read and decoded, or ctx's error.
func Files(ctx context.Context, s *index.Snapshot) ([]File, error) {
	if err := s.DecodeAll(ctx); err != nil {
		return nil, err
	}
	out := make([]File, s.Len())
	for i, f := range s.Files {
		out[i] = File{Path: f.Path, Rel: f.Rel, Lang: tags.Detect(f.Path, nil), Tags: s.Tags(ctx, i), Version: s.Version(i)}
	}
	return out, nil
}
