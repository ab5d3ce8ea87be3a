package eval

import "github.com/repomap-dev/repomap/repomap"

// Declarations returns how many declarations the map res shows: its
// shown lines that are a definition's own line, the line a definition
// it shows (repomap.FileResult.Defs) is on, each line of each file once.
// The rows a map shows for context (the header of a class, the body of
// a short function, the fields of a struct that is shown for its name)
// are not declarations unless a definition on them is shown too.
func Declarations(res *repomap.Result) int {
	n := 0
	for _, f := range res.Files {
		seen := make(map[int]bool, len(f.Defs))
		for _, d := range f.Defs {
			if !seen[d.Line] {
				seen[d.Line] = true
				n++
			}
		}
	}
	return n
}

// Density returns the declarations res shows per 1,000 tokens of its
// text (see Declarations); 0 for an empty map.
func Density(res *repomap.Result) float64 {
	if res.Tokens == 0 {
		return 0
	}
	return float64(Declarations(res)) * 1000 / float64(res.Tokens)
}
