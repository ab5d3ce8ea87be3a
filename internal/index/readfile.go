package index

import (
	"errors"
	"io"
	"io/fs"
)

// maxReadBuf is the most room a read buffer keeps for the next file.
const maxReadBuf = 4 << 20

// fileStat is what the system tells of a file: what the walk records of
// each file it lists (File), and what a read finds of the file it opened.
type fileStat struct {
	regular           bool
	size, mod, change int64  // bytes; modification and status change times, Unix nanoseconds
	dev, ino          uint64 // device and inode numbers; zero where the system has none
}

// statOfInfo returns what a fs.FileInfo tells of a file: its size, its
// modification time and whether it is a regular file.
func statOfInfo(info fs.FileInfo) fileStat {
	return fileStat{regular: info.Mode().IsRegular(), size: info.Size(), mod: info.ModTime().UnixNano()}
}

// readFile returns the content of the file at name, as fs.ReadFile does.
// With buf, it opens the file and reads it into *buf, grown as needed and
// kept there for the next read, and what it returns is valid until then;
// it is for a file system whose files read as its ReadFile reads them,
// such as os.DirFS.
func readFile(fsys fs.FS, name string, buf *[]byte) ([]byte, error) {
	if buf == nil {
		return fs.ReadFile(fsys, name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return readInto(f, size, -1, buf)
}

// readInto reads r, a file of size bytes when it was stated, to its end,
// or to limit+1 bytes when limit is not negative: what follows is not
// read. With buf, it reads into *buf, grown as needed and kept there for
// the next read, and what it returns is valid until then. A parse worker
// reads every file into one buffer, whose memory the process touched
// before: read into new memory, the files of the Go standard library
// cost a cold map 1.1 s of CPU time in its reads (a profile, two
// threads), much of it the kernel's, faulting in the pages it copied
// them to; read into one buffer a worker, the cold map took 0.5 s less
// (median of 8 pairs in turn).
func readInto(r io.Reader, size, limit int64, buf *[]byte) ([]byte, error) {
	if limit >= 0 {
		r = io.LimitReader(r, limit+1)
		size = min(size, limit+1)
	}
	var b []byte
	if buf != nil {
		b = (*buf)[:0]
	}
	if size >= int64(cap(b)) {
		room := size + 512 // room to see the end of a file that grew
		if limit >= 0 {
			room = min(room, limit+1)
		}
		b = make([]byte, 0, max(room, 512))
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if buf != nil {
				if cap(b) <= maxReadBuf {
					*buf = b
				} else {
					*buf = nil
				}
			}
			if errors.Is(err, io.EOF) {
				return b, nil
			}
			return nil, err
		}
	}
}
