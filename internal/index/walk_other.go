//go:build !linux

package index

import (
	"errors"
	"io/fs"
	"os"
)

// rootDir and diskDir are directories of a tree on disk, open while the
// index reads it: on Linux alone (see walk_linux.go); elsewhere the walk
// lists every directory, and the index reads every file, through the
// tree's fs.FS.
type rootDir struct{}

type diskDir struct{}

var errNoDir = errors.New("no directory descriptors on this system")

func openRootDir(string) (*rootDir, error) { return nil, errNoDir }

func (*rootDir) close() {}

func (*rootDir) same(*rootDir) bool { return true }

func (*rootDir) openDir(string) (*diskDir, error) { return nil, errNoDir }

func (*rootDir) openFile(string) (*os.File, fileStat, error) { return nil, fileStat{}, errNoDir }

func isLink(error) bool { return false }

// lstat returns what the system tells of the file at path, without
// following a symbolic link.
func lstat(path string) (fileStat, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(info), nil
}

func (*diskDir) readDir() ([]fs.DirEntry, error) { return nil, errNoDir }

func (*diskDir) stat(string) (fileStat, error) { return fileStat{}, errNoDir }

func (*diskDir) close() {}
