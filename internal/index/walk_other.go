//go:build !linux

package index

import "io/fs"

// diskDir is a directory of a tree on disk, open while the walk lists
// it: on Linux alone (see walk_linux.go); elsewhere the walk lists every
// directory through the tree's fs.FS.
type diskDir struct{}

func openDiskDir(string) *diskDir { return nil }

func (*diskDir) readDir() ([]fs.DirEntry, error) { return nil, nil }

func (*diskDir) stamp(string) (size, mod int64, err error) { return 0, 0, nil }

func (*diskDir) close() {}
