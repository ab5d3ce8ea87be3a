package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dirWatch is an inotify instance watching directories of one tree on
// disk: from the moment a directory's watch is added, the kernel queues
// an event for each change of one of its entries, made by any process.
type dirWatch struct {
	fd  int
	dev uint64 // the device of the tree's directory: no directory on another is watched
	buf []byte
}

// watchMask is what a directory's watch reports: its entries' changes
// of bytes or attributes, entries that came, went or moved, and the
// directory's own end.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// selfEvents end a watch, or say that its directory is no longer where
// it was.
const selfEvents = unix.IN_IGNORED | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_UNMOUNT

// zfsMagic is ZFS's f_type, which golang.org/x/sys/unix does not name.
const zfsMagic = 0x2fc12fc1

// localFS reports whether the file system of f_type typ is one whose
// every change passes through this kernel, so that inotify sees it. A
// network or FUSE file system changed by another machine, or by the
// host of a virtual machine, is not.
func localFS(typ int64) bool {
	switch typ {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC,
		unix.REISERFS_SUPER_MAGIC, unix.RAMFS_MAGIC, zfsMagic:
		return true
	}
	return false
}

// ErrNotWatched is returned for a tree that no watch can follow.
var ErrNotWatched = errors.New("not on a local file system")

// newDirWatch returns a watch for the tree at dir, or an error when its
// file system is not a local one or inotify cannot be had.
func newDirWatch(dir string) (*dirWatch, error) {
	var sf unix.Statfs_t
	if err := unix.Statfs(dir, &sf); err != nil {
		return nil, err
	}
	if !localFS(int64(sf.Type)) {
		return nil, fmt.Errorf("%w (f_type %#x)", ErrNotWatched, sf.Type)
	}
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return nil, err
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("inotify_init1", err)
	}
	return &dirWatch{fd: fd, dev: uint64(st.Dev), buf: make([]byte, 64<<10)}, nil
}

// add watches the directory at path, before it is read, and returns its
// watch's number: the same for a directory watched already.
func (d *dirWatch) add(path string) (int32, error) {
	wd, err := unix.InotifyAddWatch(d.fd, path, watchMask)
	if err != nil {
		return 0, os.NewSyscallError("inotify_add_watch", err)
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, err
	}
	if uint64(st.Dev) != d.dev {
		return 0, fmt.Errorf("%s: %w", path, errors.New("on another file system than the tree"))
	}
	return int32(wd), nil
}

// remove ends the watch wd.
func (d *dirWatch) remove(wd int32) {
	unix.InotifyRmWatch(d.fd, uint32(wd)) // a watch the kernel ended already is no error of the tree's
}

// dirEvent is one event of a dirWatch: the watch's number, what
// happened, and the name of the entry it happened to ("" for the
// directory itself).
type dirEvent struct {
	wd   int32
	mask uint32
	name string
}

// overflowed reports whether events were lost because the kernel's
// queue was full.
func (e dirEvent) overflowed() bool { return e.mask&unix.IN_Q_OVERFLOW != 0 }

// ended reports whether the event ends the watch or moved its directory.
func (e dirEvent) ended() bool { return e.mask&selfEvents != 0 }

// isDir reports whether the entry of the event is a directory.
func (e dirEvent) isDir() bool { return e.mask&unix.IN_ISDIR != 0 }

// read returns the events queued since the last read, without waiting.
func (d *dirWatch) read() ([]dirEvent, error) {
	var evs []dirEvent
	for {
		n, err := unix.Read(d.fd, d.buf)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN):
			return evs, nil
		case err != nil:
			return nil, os.NewSyscallError("read inotify", err)
		}
		for b := d.buf[:n]; len(b) >= unix.SizeofInotifyEvent; {
			size := binary.NativeEndian.Uint32(b[12:])
			end := unix.SizeofInotifyEvent + int(size)
			if end > len(b) {
				return nil, errors.New("read inotify: a short event")
			}
			name := b[unix.SizeofInotifyEvent:end]
			for len(name) > 0 && name[len(name)-1] == 0 {
				name = name[:len(name)-1]
			}
			evs = append(evs, dirEvent{
				wd:   int32(binary.NativeEndian.Uint32(b)),
				mask: binary.NativeEndian.Uint32(b[4:]),
				name: string(name),
			})
			b = b[end:]
		}
	}
}

// close ends the watch and all of its directories'.
func (d *dirWatch) close() { unix.Close(d.fd) }
