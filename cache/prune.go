package cache

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Limits that Prune applies by default.
const (
	// DefaultMaxAge is how long a database may go unused.
	DefaultMaxAge = 90 * 24 * time.Hour
	// DefaultMaxSize bounds the size of all the databases of a directory.
	DefaultMaxSize = 1 << 30
)

// DB describes one database file of a cache directory.
type DB struct {
	Path    string    // the file's path
	Root    string    // the absolute path of its root, or "" when List could not read it
	Size    int64     // the file's size in bytes
	LastUse time.Time // when a map last read or wrote it: the file's modification time
	Corrupt bool      // a damaged database moved aside (<key>.db.corrupt)
}

// PruneOptions configures Prune. The zero value applies the defaults.
type PruneOptions struct {
	// MaxAge is how long a database may go unused before Prune removes
	// it; zero means DefaultMaxAge, a negative value no limit.
	MaxAge time.Duration
	// MaxSize bounds the total size of the databases in bytes: past it,
	// Prune removes the least recently used first. Zero means
	// DefaultMaxSize, a negative value no limit.
	MaxSize int64
	// Keep lists database files that Prune leaves in place whatever
	// their age and size, such as those of the roots being mapped.
	Keep []string
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// dbFiles returns the database files in dir ("" means DefaultDir),
// without their roots, least recently used first. A missing dir has none.
func dbFiles(dir string) ([]DB, error) {
	dir, err := dirOrDefault(dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	var dbs []DB
	for _, e := range entries {
		name := e.Name()
		corrupt := strings.HasSuffix(name, ".db.corrupt")
		if !e.Type().IsRegular() || !corrupt && !strings.HasSuffix(name, ".db") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		dbs = append(dbs, DB{Path: filepath.Join(dir, name), Size: info.Size(), LastUse: info.ModTime(), Corrupt: corrupt})
	}
	slices.SortFunc(dbs, func(a, b DB) int {
		return cmp.Or(a.LastUse.Compare(b.LastUse), strings.Compare(a.Path, b.Path))
	})
	return dbs, nil
}

// List returns the databases in dir ("" means DefaultDir), least
// recently used first, each with the root its file records. A database
// that another process holds, or that cannot be read, is listed without
// its root.
func List(dir string) ([]DB, error) {
	dbs, err := dbFiles(dir)
	if err != nil {
		return nil, err
	}
	for i := range dbs {
		if !dbs[i].Corrupt {
			dbs[i].Root = readRoot(dbs[i].Path)
		}
	}
	return dbs, nil
}

// readRoot returns the root recorded in the database at path, or "".
func readRoot(path string) string {
	var root string
	safely(func() error {
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 100 * time.Millisecond})
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			if meta := tx.Bucket(bucketMeta); meta != nil {
				root = string(meta.Get(keyRoot))
			}
			return nil
		})
	})
	return root
}

// Prune removes from dir ("" means DefaultDir) the databases of roots
// that no longer exist and those that no map has used for longer than
// opts.MaxAge, then, while their total size is above opts.MaxSize, the
// least recently used of the others, and returns those it removed. A
// database that another process holds is left in place, as are those of
// opts.Keep.
func Prune(dir string, opts *PruneOptions) ([]DB, error) {
	var o PruneOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxAge == 0 {
		o.MaxAge = DefaultMaxAge
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	dbs, err := dbFiles(dir)
	if err != nil {
		return nil, err
	}
	now := o.Now()
	return removeDBs(dbs, func(db DB, total int64) bool {
		old := o.MaxAge > 0 && now.Sub(db.LastUse) > o.MaxAge
		big := o.MaxSize > 0 && total > o.MaxSize
		return (old || big || rootGone(db)) && !slices.Contains(o.Keep, db.Path)
	})
}

// rootGone reports whether the root the database db records no longer
// exists. A database whose root cannot be read (another process holds
// it, or it is damaged) is not taken for one whose root is gone.
func rootGone(db DB) bool {
	if db.Corrupt {
		return false
	}
	root := readRoot(db.Path)
	if root == "" {
		return false
	}
	_, err := os.Stat(root)
	return errors.Is(err, fs.ErrNotExist)
}

// RemoveAll removes every database in dir ("" means DefaultDir) but
// those that other processes hold, and returns those it removed.
func RemoveAll(dir string) ([]DB, error) {
	dbs, err := dbFiles(dir)
	if err != nil {
		return nil, err
	}
	return removeDBs(dbs, func(DB, int64) bool { return true })
}

// removeDBs removes the databases, in order, for which drop returns true,
// given the total size of those still there, but those that other
// processes hold, and returns those it removed.
func removeDBs(dbs []DB, drop func(db DB, total int64) bool) ([]DB, error) {
	var total int64
	for _, db := range dbs {
		total += db.Size
	}
	var removed []DB
	var errs []error
	for _, db := range dbs {
		if !drop(db, total) {
			continue
		}
		ok, err := removeDB(db)
		if err != nil && !errors.Is(err, ErrLocked) {
			errs = append(errs, err)
		}
		if ok {
			removed = append(removed, db)
			total -= db.Size
		}
	}
	return removed, errors.Join(errs...)
}

// Remove removes the database of the tree at root from dir ("" means
// DefaultDir), and the damaged copy moved aside, if any. It reports
// whether there was a database. One that another process holds gives
// ErrLocked.
func Remove(dir, root string) (bool, error) {
	dir, err := dirOrDefault(dir)
	if err != nil {
		return false, err
	}
	path, err := dbPath(dir, root)
	if err != nil {
		return false, err
	}
	found, err := removeDB(DB{Path: path})
	if err != nil {
		return false, err
	}
	aside, err := removeDB(DB{Path: path + ".corrupt", Corrupt: true})
	return found || aside, err
}

// removeDB removes the database file and reports whether it was there.
// One that another process holds gives ErrLocked.
func removeDB(db DB) (bool, error) {
	if _, err := os.Stat(db.Path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if !db.Corrupt {
		// Take the write lock, so as not to pull the file from under a
		// process that is writing it.
		var locked bool
		safely(func() error {
			b, err := bolt.Open(db.Path, 0o600, &bolt.Options{Timeout: 50 * time.Millisecond})
			locked = errors.Is(err, bolterrors.ErrTimeout)
			if err == nil {
				b.Close()
			}
			return err
		})
		if locked {
			return false, ErrLocked
		}
	}
	err := os.Remove(db.Path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("cache: %w", err)
}

// dirOrDefault returns dir, or DefaultDir when dir is "".
func dirOrDefault(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return DefaultDir()
}

// dbPath returns the path of the database of the tree at root in dir.
func dbPath(dir, root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".db"), nil
}
