package index

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/repomap-dev/repomap/tags"
)

// FloorStats is what Floor did.
type FloorStats struct {
	Files    int   `json:"files"`    // files parsed and queried with tree-sitter
	Bytes    int64 `json:"bytes"`    // their bytes
	Captures int   `json:"captures"` // the nodes their tags queries captured
	Lexed    int   `json:"lexed"`    // files of languages a lexer reads, left out
	Failed   int   `json:"failed"`   // files whose parse failed or timed out
}

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
func Floor(ctx context.Context, dir string, o Options) (FloorStats, error) {
	r := &root{Root: Root{Dir: dir, FS: os.DirFS(dir), OnDisk: true}}
	if d, err := openRootDir(dir); err == nil {
		r.dir = d
		defer d.close()
	}
	files, _, err := walkRoot(ctx, r.Root, walkOptionsOf(o, r.dir), nil)
	if err != nil {
		return FloorStats{}, err
	}
	stats := make([]FloorStats, max(1, min(o.Parallelism, len(files))))
	// The workers share the compiled queries, as a map's parsers do:
	// each language's is compiled once.
	queries := tags.NewQueries()
	defer queries.Close()
	newParser := func() *tags.Parser {
		return tags.NewParser(&tags.ParserOptions{Timeout: o.ParseTimeout, Queries: queries})
	}
	bufs := make([][]byte, len(stats)) // each worker's read buffer, as a map's parse has
	onParsers(ctx, len(stats), len(files), newParser, func(w int, p *tags.Parser, k int) {
		floorFile(ctx, p, r, files[k], o.MaxFileSize, &stats[w], &bufs[w])
	})
	if err := ctx.Err(); err != nil {
		return FloorStats{}, fmt.Errorf("repomap: %w", err)
	}
	var st FloorStats
	for _, s := range stats {
		st.Files += s.Files
		st.Bytes += s.Bytes
		st.Captures += s.Captures
		st.Lexed += s.Lexed
		st.Failed += s.Failed
	}
	return st, nil
}

// floorFile reads f and runs the floor's parse and query of it with p,
// counting what it did in st.
func floorFile(ctx context.Context, p *tags.Parser, r *root, f File, maxSize int64, st *FloorStats, buf *[]byte) {
	f.Rel = f.Path
	src, _, ok, _ := readForParse(r, f, maxSize, buf)
	if !ok || tags.Detect(f.Rel, src) == "" {
		return
	}
	n, err := p.Floor(ctx, f.Rel, src)
	switch {
	case err == nil:
		st.Files++
		st.Bytes += int64(len(src))
		st.Captures += n
	case ctx.Err() != nil:
	case errors.Is(err, tags.ErrNoGrammar):
		st.Lexed++
	default:
		st.Failed++
	}
}
