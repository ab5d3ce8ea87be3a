//go:build !linux

package index

import "errors"

// dirWatch watches the directories of a tree on Linux alone (see
// watch_linux.go); elsewhere a Map kept open walks its trees again for
// every map.
type dirWatch struct{}

// ErrNotWatched is returned for a tree that no watch can follow.
var ErrNotWatched = errors.New("no watch of directories on this system")

func newDirWatch(string) (*dirWatch, error) { return nil, ErrNotWatched }

func (*dirWatch) add(string) (int32, error) { return 0, ErrNotWatched }

func (*dirWatch) remove(int32) {}

type dirEvent struct {
	wd   int32
	mask uint32
	name string
}

func (dirEvent) overflowed() bool { return true }

func (dirEvent) ended() bool { return true }

func (dirEvent) isDir() bool { return false }

func (*dirWatch) read() ([]dirEvent, error) { return nil, ErrNotWatched }

func (*dirWatch) close() {}
