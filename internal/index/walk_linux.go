package index

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// rootDir is the directory of a root on disk, open for as long as the
// index may read the root: the walk opens the root's directories, and
// the index its files, relative to it, and a symbolic link anywhere
// below it is refused. A path is never looked up twice from its string:
// a directory the walk listed and that was replaced by a link to /etc
// before the walk read it, or a file replaced by a link to /dev/zero
// before it was read, is not followed.
type rootDir struct {
	fd       int
	dev, ino uint64 // of the directory
}

// openRootDir opens the directory at path. Links in path itself are
// followed: the root is the directory the user named.
func openRootDir(path string) (*rootDir, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return &rootDir{fd: fd, dev: st.Dev, ino: st.Ino}, nil
}

func (r *rootDir) close() { unix.Close(r.fd) }

// same reports whether r and s are the same directory.
func (r *rootDir) same(s *rootDir) bool { return r.dev == s.dev && r.ino == s.ino }

// noOpenat2 is set once openat2 is found missing (a kernel before 5.6,
// or a sandbox that refuses it): open then looks a path up one part at
// a time.
var noOpenat2 atomic.Bool

// open opens the entry at rel, a slash-separated path below r, with
// flags, neither blocking on a FIFO nor following a symbolic link at any
// part of rel (the error is then ELOOP or ENOTDIR).
func (r *rootDir) open(rel string, flags int) (int, error) {
	flags |= unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK
	if !noOpenat2.Load() {
		for {
			fd, err := unix.Openat2(r.fd, rel, &unix.OpenHow{
				Flags:   uint64(flags),
				Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
			})
			switch {
			case err == unix.EINTR || err == unix.EAGAIN:
				continue
			case err == unix.ENOSYS:
				noOpenat2.Store(true)
			default:
				return fd, err
			}
			break
		}
	}
	dfd := r.fd
	defer func() {
		if dfd != r.fd {
			unix.Close(dfd)
		}
	}()
	parts := strings.Split(rel, "/")
	for _, part := range parts[:len(parts)-1] {
		if part == ".." {
			return -1, unix.EXDEV
		}
		fd, err := unix.Openat(dfd, part, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		if err != nil {
			return -1, err
		}
		if dfd != r.fd {
			unix.Close(dfd)
		}
		dfd = fd
	}
	if last := parts[len(parts)-1]; last == ".." {
		return -1, unix.EXDEV
	}
	return unix.Openat(dfd, parts[len(parts)-1], flags, 0)
}

// openDir opens the directory at rel below r (open), for the walk.
func (r *rootDir) openDir(rel string) (*diskDir, error) {
	fd, err := r.open(rel, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: rel, Err: err}
	}
	return &diskDir{f: os.NewFile(uintptr(fd), rel), fd: fd}, nil
}

// openFile opens the file at rel below r (open) for reading, and
// returns what fstat tells of it.
func (r *rootDir) openFile(rel string) (*os.File, fileStat, error) {
	fd, err := r.open(rel, unix.O_RDONLY)
	if err != nil {
		return nil, fileStat{}, &fs.PathError{Op: "open", Path: rel, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fileStat{}, &fs.PathError{Op: "stat", Path: rel, Err: err}
	}
	return os.NewFile(uintptr(fd), rel), statOf(&st), nil
}

// isLink reports whether err is that of an open that met a symbolic
// link.
func isLink(err error) bool { return errors.Is(err, unix.ELOOP) }

// statOf returns what the walk and the reads keep of st.
func statOf(st *unix.Stat_t) fileStat {
	return fileStat{
		regular: st.Mode&unix.S_IFMT == unix.S_IFREG,
		size:    st.Size,
		mod:     st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		change:  st.Ctim.Sec*1e9 + st.Ctim.Nsec,
		dev:     st.Dev,
		ino:     st.Ino,
	}
}

// lstat returns what the system tells of the file at path, without
// following a symbolic link.
func lstat(path string) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return fileStat{}, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	return statOf(&st), nil
}

// diskDir is a directory of a tree on disk, open while the walk lists it:
// its entries' stamps are read by its descriptor and their names
// (fstatat), not by their paths, which the kernel looks up part by part.
// On babel, whose 27,000 files lie eight directories deep, the lookups
// were a fifth of a warm map's system time.
type diskDir struct {
	f  *os.File
	fd int
}

// readDir returns the directory's entries sorted by name, as fs.ReadDir
// does.
func (d *diskDir) readDir() ([]fs.DirEntry, error) {
	entries, err := d.f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// stat returns what fstatat tells of the entry name of the directory,
// without following a symbolic link.
func (d *diskDir) stat(name string) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileStat{}, err
	}
	return statOf(&st), nil
}

func (d *diskDir) close() { d.f.Close() }
