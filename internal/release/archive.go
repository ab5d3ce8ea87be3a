package main

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// An archive is a target's archive in the release.
type archive struct {
	Target target
	Name   string // repomap_1.2.3_linux_amd64.tar.gz
	SHA256 string // in hex
	Size   int64
}

// Platform returns the archive's GOOS/GOARCH.
func (a archive) Platform() string { return a.Target.String() }

// archiveName returns the name of t's archive of version.
func archiveName(t target, version string) string {
	ext := ".tar.gz"
	if t.goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("repomap_%s_%s_%s%s", strings.TrimPrefix(version, "v"), t.goos, t.goarch, ext)
}

// A member is a file of an archive.
type member struct {
	name string
	path string // its contents
	mode os.FileMode
}

// writeArchive writes b's archive into out: the binary with the module's
// LICENSE and README.md, dated the commit's time.
func writeArchive(out, root string, b binary, st stamp) (archive, error) {
	a := archive{Target: b.target, Name: archiveName(b.target, st.version)}
	mtime, err := time.Parse(time.RFC3339, st.time)
	if err != nil {
		return a, err
	}
	members := []member{
		{name: b.target.exe(), path: b.path, mode: 0o755},
		{name: "LICENSE", path: filepath.Join(root, "LICENSE"), mode: 0o644},
		{name: "README.md", path: filepath.Join(root, "README.md"), mode: 0o644},
	}
	path := filepath.Join(out, a.Name)
	f, err := os.Create(path)
	if err != nil {
		return a, err
	}
	h := sha256.New()
	w := io.MultiWriter(f, h)
	if b.target.goos == "windows" {
		err = writeZip(w, members, mtime)
	} else {
		err = writeTarGz(w, members, mtime)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return a, fmt.Errorf("%s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return a, err
	}
	a.SHA256, a.Size = hex.EncodeToString(h.Sum(nil)), fi.Size()
	return a, nil
}

// writeTarGz writes a gzipped tar of members, each owned by root and
// dated mtime, with no name or time in the gzip header: the same files
// make the same bytes.
func writeTarGz(w io.Writer, members []member, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, m := range members {
		data, err := os.ReadFile(m.path)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: m.name, Mode: int64(m.mode), Size: int64(len(data)), ModTime: mtime, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes a zip of members dated mtime.
func writeZip(w io.Writer, members []member, mtime time.Time) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, m := range members {
		data, err := os.ReadFile(m.path)
		if err != nil {
			return err
		}
		hdr := &zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: mtime}
		hdr.SetMode(m.mode)
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeChecksums writes the archives' sums as sha256sum prints them.
func writeChecksums(path string, archives []archive) error {
	var b strings.Builder
	for _, a := range slices.SortedFunc(slices.Values(archives), func(a, b archive) int { return strings.Compare(a.Name, b.Name) }) {
		fmt.Fprintf(&b, "%s  %s\n", a.SHA256, a.Name)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
