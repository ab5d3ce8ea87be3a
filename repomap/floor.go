package repomap

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

// Floor parses, on one goroutine, each file of the tree at dir that a map
// reads with tree-sitter, and runs its tags query, as tags.Parser.Floor
// does: the least work that gives those files' tags, with the allocator a
// map uses. A map's cost, measured as a ratio of it, holds on any machine
// (repomap bench --floor). It walks the tree and reads the files as a map
// does, with opts's Exclude, Include, MaxFileSize and ParseTimeout, and
// caches nothing. Only a walk that fails or a context that is done give
// an error.
func Floor(ctx context.Context, dir string, opts *Options) (FloorStats, error) {
	var st FloorStats
	o, err := opts.withDefaults()
	if err != nil {
		return st, err
	}
	r := Root{Dir: dir, FS: os.DirFS(dir)}
	files, _, err := walkRoot(ctx, r, true, o.Exclude, o.Include, o.Parallelism, nil)
	if err != nil {
		return st, err
	}
	p := tags.NewParser(&tags.ParserOptions{Timeout: o.ParseTimeout})
	defer p.Close()
	for _, f := range files {
		f.rel = f.path
		src, ok, _ := readForParse(r.FS, f, o.MaxFileSize)
		if !ok || tags.Detect(f.rel, src) == "" {
			continue
		}
		n, err := p.Floor(ctx, f.rel, src)
		switch {
		case err == nil:
			st.Files++
			st.Bytes += int64(len(src))
			st.Captures += n
		case ctx.Err() != nil:
			return st, fmt.Errorf("repomap: %w", ctx.Err())
		case errors.Is(err, tags.ErrNoGrammar):
			st.Lexed++
		default:
			st.Failed++
		}
	}
	return st, nil
}
