package eval

import (
	"bytes"
	"encoding/hex"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// treeFS is the tree of one commit as an fs.FS, read lazily from the
// object store: listing it costs nothing but the "git ls-tree" that made
// it, and a file's content is read through cat-file when it is opened.
//
// A file's modification time is made from its blob's hash, so that a
// file whose content is the same in two commits has the same size and
// time in both: a repomap.Map, which keeps the tags of a file while its
// size and time are unchanged, then parses only what a commit changed.
//
// The tree shown can be switched (set) between uses; the Map holds the
// treeFS, not the tree.
type treeFS struct {
	blobs *blobs

	mu sync.RWMutex
	t  *tree
}

// tree is one commit's files and directories.
type tree struct {
	files map[string]entry
	dirs  map[string][]fs.DirEntry // by directory ("." for the top), sorted by name
}

// newTree indexes files (as from repo.tree) by directory.
func newTree(files map[string]entry) *tree {
	t := &tree{files: files, dirs: map[string][]fs.DirEntry{".": nil}}
	made := make(map[string]bool) // directories listed in their parent
	for p, e := range files {
		dir := path.Dir(p)
		t.dirs[dir] = append(t.dirs[dir], &fileInfo{name: path.Base(p), e: e})
		for dir != "." && !made[dir] {
			made[dir] = true
			parent := path.Dir(dir)
			t.dirs[parent] = append(t.dirs[parent], &fileInfo{name: path.Base(dir), dir: true})
			dir = parent
		}
	}
	for _, es := range t.dirs {
		slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	return t
}

func (f *treeFS) set(t *tree) {
	f.mu.Lock()
	f.t = t
	f.mu.Unlock()
}

func (f *treeFS) current() *tree {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.t
}

// Open implements fs.FS.
func (f *treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	t := f.current()
	if es, ok := t.dirs[name]; ok {
		return &dirFile{info: fileInfo{name: path.Base(name), dir: true}, entries: es}, nil
	}
	e, ok := t.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	data, err := f.blobs.read(e.oid)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &openFile{info: fileInfo{name: path.Base(name), e: e}, r: bytes.NewReader(data)}, nil
}

// ReadFile implements fs.ReadFileFS.
func (f *treeFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	t := f.current()
	e, ok := t.files[name]
	if !ok {
		if _, ok := t.dirs[name]; ok {
			return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDir}
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	data, err := f.blobs.read(e.oid)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, nil
}

// ReadDir implements fs.ReadDirFS.
func (f *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	t := f.current()
	es, ok := t.dirs[name]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(es), nil
}

// Stat implements fs.StatFS.
func (f *treeFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	t := f.current()
	if _, ok := t.dirs[name]; ok {
		return &fileInfo{name: path.Base(name), dir: true}, nil
	}
	if e, ok := t.files[name]; ok {
		return &fileInfo{name: path.Base(name), e: e}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

var errIsDir = fsError("is a directory")

type fsError string

func (e fsError) Error() string { return string(e) }

// fileInfo describes a file or directory of a tree; it is its own
// fs.DirEntry.
type fileInfo struct {
	name string
	dir  bool
	e    entry
}

func (i *fileInfo) Name() string { return i.name }
func (i *fileInfo) Size() int64  { return i.e.size }
func (i *fileInfo) IsDir() bool  { return i.dir }
func (i *fileInfo) Sys() any     { return nil }

func (i *fileInfo) Mode() fs.FileMode {
	switch {
	case i.dir:
		return fs.ModeDir | 0o555
	case i.e.mode == "120000":
		return fs.ModeSymlink | 0o777
	case i.e.mode == "100755":
		return 0o555
	}
	return 0o444
}

// ModTime is a time made from the blob's hash: the same for the same
// content, different (as surely as hashes are) for different content.
// Directories have the zero time.
func (i *fileInfo) ModTime() time.Time {
	if i.dir {
		return time.Time{}
	}
	return blobTime(i.e.oid)
}

func (i *fileInfo) Type() fs.FileMode          { return i.Mode().Type() }
func (i *fileInfo) Info() (fs.FileInfo, error) { return i, nil }

// blobTime returns the time that stands for the blob oid: the first 62
// bits of its hash as nanoseconds after 1970, a time between 1970 and
// 2116 that survives the round trip through UnixNano.
func blobTime(oid string) time.Time {
	var b [8]byte
	if _, err := hex.Decode(b[:], []byte(oid[:min(len(oid), 16)])); err != nil {
		return time.Time{}
	}
	var n uint64
	for _, c := range b {
		n = n<<8 | uint64(c)
	}
	return time.Unix(0, int64(n>>2))
}

// openFile is an open file of a tree, read from memory.
type openFile struct {
	info fileInfo
	r    *bytes.Reader
}

func (f *openFile) Stat() (fs.FileInfo, error) { return &f.info, nil }
func (f *openFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *openFile) Close() error               { return nil }

// dirFile is an open directory of a tree.
type dirFile struct {
	info    fileInfo
	entries []fs.DirEntry
	off     int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return &d.info, nil }
func (d *dirFile) Close() error               { return nil }

func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: errIsDir}
}

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return slices.Clone(rest), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return slices.Clone(rest[:n]), nil
}
