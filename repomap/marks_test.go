package repomap

import "github.com/repomap-dev/repomap/internal/render"

// The map's text format, as the tests of this package check it.
const (
	shownMark  = render.ShownMark
	hiddenMark = render.HiddenMark
	maxLine    = render.MaxLine
)
