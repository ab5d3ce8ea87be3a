package index

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// A Map kept open walks its trees again for every map: on the Go
// standard library, 11,478 stat calls and 1,324 directory reads, a
// quarter of a map after one file changed. From its second walk of a
// root on disk on, it watches the root's directories instead (dirWatch:
// inotify, on Linux, on a local file system): a directory's watch is
// added before the walk reads it, and from then on the kernel queues an
// event for each change of one of its entries. The next walk reads the
// events. When they are only of files the last walk listed, or of
// entries its rules leave out, or of entries that came and went, it
// stats those files alone, and gives the last walk's lists with their
// new sizes and times. Anything else makes a new walk: a file or a
// directory that came, went or moved, an ignore file, the rules of git
// from outside the tree, events lost to a full queue. An error of the
// watch ends it, and the Map walks as it did before. The lists are
// those a new walk gives (TestWatchedWalk).

// rootWatch is what a root's watch knows of the root's last walk.
type rootWatch struct {
	d   *dirWatch
	dir string // the root's directory on disk

	// What the walk's goroutines add, under mu: per watch, its directory
	// (relative to the root, "." for the root); per directory walked,
	// the ignore rules of its entries; and the walk's first error.
	mu   sync.Mutex
	wds  map[int32]string
	dirs map[string]*ignoreSet
	err  error

	walked  bool // files and skipped are a walk's
	files   []File
	skipped []Omitted
	at      map[string]int      // per path of files, its index; -1 for a path of skipped
	outside []gitignore.Pattern // the rules from outside the tree (walkTree)
	tracked *trackedFiles       // the files git tracks, which no rule leaves out (walkOptions.tracked)
	sel     selection
	rewalks int   // walks made since the watch began
	failed  error // what ended the watch
}

// newRootWatch returns a watch of the tree at dir, or an error.
func newRootWatch(dir string) (*rootWatch, error) {
	d, err := newDirWatch(dir)
	if err != nil {
		return nil, err
	}
	return &rootWatch{d: d, dir: dir}, nil
}

// add watches the directory rel of the tree, before the walk reads it.
func (rw *rootWatch) add(rel string) {
	wd, err := rw.d.add(filepath.Join(rw.dir, filepath.FromSlash(rel)))
	rw.mu.Lock()
	defer rw.mu.Unlock()
	switch {
	case err != nil:
		rw.err = cmp.Or(rw.err, err)
	case rw.wds[wd] != "" && rw.wds[wd] != rel:
		// One directory reached by two paths (a bind mount): its events
		// would name one of them.
		rw.err = cmp.Or(rw.err, errors.New(rel+": the same directory as "+rw.wds[wd]))
	default:
		rw.wds[wd] = rel
	}
}

// rules records the ignore rules of the entries of the directory rel.
func (rw *rootWatch) rules(rel string, ignore *ignoreSet) {
	rw.mu.Lock()
	rw.dirs[rel] = ignore
	rw.mu.Unlock()
}

// rearm readies the watch for a new walk, and returns the watches of
// the walk before.
func (rw *rootWatch) rearm() map[int32]string {
	old := rw.wds
	rw.wds, rw.dirs, rw.walked = make(map[int32]string), make(map[string]*ignoreSet), false
	rw.rewalks++
	return old
}

// done takes the lists of a walk the watch followed from its start, and
// ends the watches of directories that walk did not list. It reports
// an error of the watch, which then cannot be used.
func (rw *rootWatch) done(old map[int32]string, files []File, skipped []Omitted, outside []gitignore.Pattern, tracked *trackedFiles, sel selection) error {
	if rw.err != nil {
		return rw.err
	}
	for wd := range old {
		if _, ok := rw.wds[wd]; !ok {
			rw.d.remove(wd)
		}
	}
	rw.walked, rw.files, rw.skipped, rw.outside, rw.tracked, rw.sel = true, files, skipped, outside, tracked, sel
	rw.at = make(map[string]int, len(files)+len(skipped))
	for i, f := range files {
		rw.at[f.Path] = i
	}
	for _, s := range skipped {
		rw.at[s.Path] = -1
	}
	return nil
}

// since returns the lists of the tree as a new walk would give them,
// from the last walk's and the events since, with ok (they are rw's,
// for the caller to copy, not to keep); or, when the
// events say the tree must be walked again, or the watch failed (err),
// not ok. outside is the rules from outside the tree that a walk now
// starts with, and tracked the files git now tracks in it: when either
// changed (a file added to git's index), the tree is walked again.
func (rw *rootWatch) since(outside []gitignore.Pattern, tracked *trackedFiles) (files []File, skipped []Omitted, ok bool, err error) {
	if !rw.walked {
		return nil, nil, false, nil
	}
	evs, err := rw.d.read()
	if err != nil {
		return nil, nil, false, err
	}
	if !reflect.DeepEqual(outside, rw.outside) || !tracked.sameIndex(rw.tracked) {
		return nil, nil, false, nil
	}
	var stale []int // files whose stamps may have changed
	for _, ev := range evs {
		if ev.overflowed() {
			return nil, nil, false, nil
		}
		dir, known := rw.wds[ev.wd]
		switch {
		case !known:
			continue // a directory an earlier walk listed, and the last did not
		case ev.ended(), ev.name == "", ev.name == ".gitignore", ev.name == IgnoreFile:
			return nil, nil, false, nil
		}
		p := ev.name
		if dir != "." {
			p = dir + "/" + ev.name
		}
		if i, listed := rw.at[p]; listed {
			if i < 0 || ev.isDir() {
				return nil, nil, false, nil
			}
			stale = append(stale, i)
			continue
		}
		if _, walked := rw.dirs[p]; walked || !rw.leftOut(dir, ev.name, ev.isDir()) && rw.exists(p) {
			return nil, nil, false, nil
		}
	}
	// The lists are rw's own, which the caller copies (index.walk): the
	// stamps change in place.
	for _, i := range stale {
		f := &rw.files[i]
		st, err := lstat(filepath.Join(rw.dir, filepath.FromSlash(f.Path)))
		if err != nil || !st.regular {
			rw.walked = false
			return nil, nil, false, nil
		}
		f.Size, f.Mod, f.Change, f.Dev, f.Ino = st.size, st.mod, st.change, st.dev, st.ino
	}
	return rw.files, rw.skipped, true, nil
}

// leftOut reports whether the walk leaves out the entry name of the
// directory dir by its rules, as walker.dir decides.
func (rw *rootWatch) leftOut(dir, name string, isDir bool) bool {
	ignore, ok := rw.dirs[dir]
	if !ok {
		return false
	}
	p := name
	if dir != "." {
		p = dir + "/" + name
	}
	if name == ".git" {
		return true
	}
	ignored, _ := ignore.match(strings.Split(p, "/"), isDir, nil)
	if isDir {
		return ignored && !rw.tracked.holds(p) || !rw.sel.enter(p)
	}
	return ignored && !rw.tracked.has(p) || !rw.sel.keep(p)
}

// exists reports whether the tree has an entry at p, or may have.
func (rw *rootWatch) exists(p string) bool {
	_, err := os.Lstat(filepath.Join(rw.dir, filepath.FromSlash(p)))
	return !errors.Is(err, fs.ErrNotExist)
}

// close ends the watch.
func (rw *rootWatch) close() { rw.d.close() }
