package index

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestReadFile checks that readFile into one buffer gives each file's
// bytes as fs.ReadFile does, whether the file is larger or smaller than
// the last, that the buffer is kept for the next file but for one larger
// than maxReadBuf, and that an error is fs.ReadFile's.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"small.go":  "package a\n",
		"big.go":    strings.Repeat("func f() {}\n", 10000),
		"empty.txt": "",
		"huge.txt":  strings.Repeat("x", maxReadBuf+1),
		"tiny.go":   "x",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, fsys := range []fs.FS{os.DirFS(dir), mapFS(files)} {
		var buf []byte
		var last []byte
		for _, name := range []string{"small.go", "big.go", "tiny.go", "empty.txt", "big.go", "huge.txt", "small.go"} {
			got, err := readFile(fsys, name, &buf)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := files[name]; string(got) != want {
				t.Errorf("%T %s: %d bytes, want %d", fsys, name, len(got), len(want))
			}
			if name == "huge.txt" {
				if buf != nil {
					t.Errorf("%T: a buffer of %d bytes kept after %s", fsys, cap(buf), name)
				}
			} else if len(got) > 0 && (cap(buf) == 0 || &buf[:1][0] != &got[0]) {
				t.Errorf("%T %s: not read into the buffer", fsys, name)
			}
			if name == "tiny.go" && &last[0] != &got[0] {
				t.Errorf("%T: the buffer was not used again for a smaller file", fsys)
			}
			last = got
		}
		_, err := readFile(fsys, "missing.go", &buf)
		_, want := fs.ReadFile(fsys, "missing.go")
		if err == nil || want == nil || errText(err) != errText(want) {
			t.Errorf("%T: missing file: %v, want %v", fsys, err, want)
		}
	}
	// A file that grew after it was stated is read to its end.
	g := &growing{MapFile: fstest.MapFile{Data: []byte(strings.Repeat("a", 100))}, more: bytes.Repeat([]byte("b"), 5000)}
	var buf []byte
	got, err := readFile(oneFile{g}, "f", &buf)
	if err != nil || len(got) != 5100 {
		t.Errorf("a file that grew: %d bytes, %v; want 5100", len(got), err)
	}
}

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for name, text := range files {
		m[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return m
}

// growing is a file whose Stat gives its size before it grew by more.
type growing struct {
	fstest.MapFile
	more []byte
	off  int
}

type oneFile struct{ g *growing }

func (o oneFile) Open(string) (fs.File, error) { return o.g, nil }

func (g *growing) Stat() (fs.FileInfo, error) {
	return fstest.MapFS{"f": &g.MapFile}.Stat("f")
}

func (g *growing) Read(p []byte) (int, error) {
	all := append(append([]byte(nil), g.Data...), g.more...)
	if g.off >= len(all) {
		return 0, io.EOF
	}
	n := copy(p, all[g.off:])
	g.off += n
	return n, nil
}

func (g *growing) Close() error { return nil }
