package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/repomap-dev/repomap/tags"
)

// schema is the version of the on-disk format.
const schema = 2

var (
	bucketMeta  = []byte("meta")
	bucketFiles = []byte("files")
	bucketBlobs = []byte("blobs")
	// bucketStamps holds, by path, what LoadStamps reads of each entry
	// of bucketFiles (appendStamp), kept with the entries by Store, so
	// that LoadStamps reads a few bytes a file instead of every entry.
	// A database without it (written before it was kept) gets it on its
	// next Store or StoreBlobs.
	bucketStamps = []byte("stamps")
	keySchema    = []byte("schema")
	keyFinger    = []byte("fingerprint")
	keyRoot      = []byte("root")
)

var (
	// ErrLocked is returned when another process held the database for
	// longer than Options.Timeout.
	ErrLocked = errors.New("cache: database is locked by another process")
)

// Entry is what the cache holds for one file.
type Entry struct {
	Size    int64 // the file's size when it was parsed
	ModTime int64 // its modification time, Unix nanoseconds
	// Change is its status change time (ctime), Unix nanoseconds, and
	// Inode its inode number; zero where the system tells neither.
	Change int64
	Inode  uint64
	// Sum is a hash of the content that was parsed (xxHash64), or zero
	// for none: what tells whether a file whose stamp changed, or could
	// not tell a change, changed.
	Sum uint64
	// Racy says that the file was modified so close to its read that
	// an edit in the same tick of the file system's clock would leave
	// its stamp as it is: its content is checked again next time.
	Racy bool
	// Tags is the file's tags, as Store writes them. Load leaves them
	// in Encoded instead, for the caller to decode when it needs them;
	// Store writes Encoded as it was read when Tags is empty.
	Tags    tags.Set
	Encoded Encoded
	Outline *tags.Outline // its outline, or nil when none was made
	// Generated is whether the head of the file's text says it was
	// generated ("Code generated … DO NOT EDIT.").
	Generated bool
	// Words is the binary form of the file's words.Bag (see
	// internal/words), or nil for none. The cache keeps it as it is.
	Words []byte
	// Skip is why the file has no tags, when it was left out of parsing
	// (too large, binary, a parse that failed), or "": the index's form
	// of its reason, which the cache keeps as it is.
	Skip string
	// TimedOut counts the parses of the file, one after another, that ran
	// out of the time Timeout; zero when it was parsed. Such an entry has
	// no tags.
	TimedOut int
	Timeout  time.Duration
}

// Options configures a Cache. The zero value is ready to use.
type Options struct {
	// Timeout bounds the wait for another process's lock; zero means one
	// second.
	Timeout time.Duration
	// NoPrune keeps Store from pruning the directory (see Prune), which
	// it does at most once a day.
	NoPrune bool
	// Logger is told, once, of values of the database whose checksums
	// do not match them, which are left out as if not there; nil means
	// none is told.
	Logger *slog.Logger
}

// Cache is the tag cache of one root. Its methods may be called from
// several goroutines, and several processes may use the same database.
type Cache struct {
	path        string
	root        string
	fingerprint []byte
	timeout     time.Duration
	prune       bool
	logger      *slog.Logger
	damaged     *atomic.Bool // a damaged value was logged
}

// DefaultDir returns the default directory of caches:
// os.UserCacheDir()/repomap.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	return filepath.Join(d, "repomap"), nil
}

// New returns the cache of the tree at root, kept in dir ("" means
// DefaultDir). It creates dir if needed but opens no database yet.
func New(dir, root string, opts *Options) (*Cache, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	given := dir != ""
	if dir, err = dirOrDefault(dir); err != nil {
		return nil, err
	}
	// The databases hold the names and rendered maps of private source:
	// they are the user's alone, whatever the umask.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if info, err := os.Stat(dir); err == nil && !given && info.Mode().Perm()&0o077 != 0 {
		os.Chmod(dir, 0o700) // made by an earlier version, under the umask
	}
	path, err := dbPath(dir, abs)
	if err != nil {
		return nil, err
	}
	c := &Cache{
		path:        path,
		root:        abs,
		fingerprint: Fingerprint(),
		timeout:     time.Second,
	}
	if opts != nil && opts.Timeout > 0 {
		c.timeout = opts.Timeout
	}
	c.prune = opts == nil || !opts.NoPrune
	c.logger, c.damaged = slog.New(slog.DiscardHandler), new(atomic.Bool)
	if opts != nil && opts.Logger != nil {
		c.logger = opts.Logger
	}
	return c, nil
}

// Path returns the database file's path.
func (c *Cache) Path() string { return c.path }

// Load returns every valid entry of the cache, by path, with its tags
// checked but left encoded (Entry.Encoded). A missing
// database is empty; a corrupt one is moved aside and is empty; one that
// another process holds for longer than the timeout gives ErrLocked.
func (c *Cache) Load(ctx context.Context) (map[string]Entry, error) {
	out := make(map[string]Entry)
	err := c.read(ctx, bucketFiles, nil, func(keys []string, vals [][]byte) error {
		entries, ok, err := c.decodeAll(ctx, vals, decode)
		for i, e := range entries {
			if ok[i] { // a bad entry is dropped, not fatal
				out[keys[i]] = e
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Stamp is what LoadStamps reads of an entry: all but its tags, words and
// outline, which stay in the database for Get to read when they are
// needed. A warm map of a large tree shows a few dozen files: copying
// every entry out of the database took it a sixth of its CPU time.
type Stamp struct {
	Size, ModTime int64         // as in Entry
	Change        int64         // as in Entry
	Inode, Sum    uint64        // as in Entry
	Racy          bool          // as in Entry
	Generated     bool          // as in Entry
	Outline       bool          // the entry has an outline
	Skip          string        // as in Entry
	TimedOut      int           // as in Entry
	Timeout       time.Duration // as in Entry
	// Strings and Tags are the numbers of strings and of tags of its
	// tags, as Encoded.Len gives them.
	Strings, Tags int
	// Seen is what the function given to LoadStamps made of the entry,
	// or nil.
	Seen any
}

// LoadStamps returns the stamp of every valid entry of the cache, by
// path: the entries Load returns, each checked as Load checks it,
// without what Get reads. With see, it calls see with each of them as
// Load would return it, whose tags and words are the database's bytes,
// valid during the call alone, and keeps what see returns in the stamp:
// what the caller reads of every entry, read where it lies. see is
// called on several goroutines at once. LoadStamps fails as Load does.
func (c *Cache) LoadStamps(ctx context.Context, see func(e Entry) any) (map[string]Stamp, error) {
	if see == nil {
		if out, ok, err := c.loadKeptStamps(ctx); ok || err != nil {
			return out, err
		}
	}
	var out map[string]Stamp
	err := c.read(ctx, bucketFiles, nil, func(keys []string, vals [][]byte) error {
		out = make(map[string]Stamp, len(keys))
		seen := make([]any, len(vals))
		entries, ok, err := c.decodeAll(ctx, vals, decodeInPlace, func(i int, e Entry) {
			if see != nil {
				seen[i] = see(e)
			}
		})
		for i, e := range entries {
			if ok[i] {
				st := stampOf(e)
				st.Seen = seen[i]
				out[keys[i]] = st
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == nil { // no database, or a damaged one
		out = make(map[string]Stamp)
	}
	return out, nil
}

// loadKeptStamps reads the stamps from bucketStamps; ok is false when the
// database has no such bucket, or one that is damaged: LoadStamps then
// reads them from the entries.
func (c *Cache) loadKeptStamps(ctx context.Context) (out map[string]Stamp, ok bool, err error) {
	err = c.read(ctx, bucketStamps, nil, func(keys []string, vals [][]byte) error {
		out, ok = make(map[string]Stamp, len(keys)), true
		for i, v := range vals {
			st, good := readStamp(v)
			if !good {
				c.damage(1)
				out, ok = nil, false
				return nil
			}
			out[keys[i]] = st
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, ok, nil
}

// Get returns the entries of the paths, as Load returns them; a path the
// cache does not hold, or whose entry is not valid, is not in the map. It
// fails as Load does.
func (c *Cache) Get(ctx context.Context, paths []string) (map[string]Entry, error) {
	out := make(map[string]Entry, len(paths))
	err := c.read(ctx, bucketFiles, paths, func(keys []string, vals [][]byte) error {
		entries, ok, err := c.decodeAll(ctx, vals, decode)
		for i, e := range entries {
			if ok[i] {
				out[keys[i]] = e
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// read opens the database read-only and calls f with the keys of paths
// that bucket holds, or all of its keys when paths is nil, and their
// values; f is not called when the database or the bucket is not there.
// The values live until f returns. A missing database has none; a corrupt
// one is moved aside and has none; one that another process holds for
// longer than the timeout gives ErrLocked.
func (c *Cache) read(ctx context.Context, bucket []byte, paths []string, f func(keys []string, vals [][]byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	info, err := os.Stat(c.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err == nil && info.Size() == 0:
		// An empty file (a crash before bbolt wrote anything): read-only,
		// bbolt cannot even start it.
		c.moveAside()
		return nil
	}
	db, err := c.open(true, 0)
	if err != nil {
		return err
	}
	if db == nil { // was corrupt, moved aside
		return nil
	}
	defer db.Close()
	err = safely(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if !c.current(tx) {
				return nil
			}
			b := tx.Bucket(bucket)
			if b == nil {
				return nil
			}
			// The values live as long as tx: they are decoded, on every
			// core, before it ends.
			var keys []string
			var vals [][]byte
			if paths == nil {
				if err := b.ForEach(func(k, v []byte) error {
					keys, vals = append(keys, string(k)), append(vals, v)
					return nil
				}); err != nil {
					return err
				}
			} else {
				for _, p := range paths {
					if v := b.Get([]byte(p)); v != nil {
						keys, vals = append(keys, p), append(vals, v)
					}
				}
			}
			return f(keys, vals)
		})
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		db.Close()
		c.moveAside()
		return nil
	}
	if info != nil {
		c.touch(info.ModTime())
	}
	return nil
}

// decodeAll is decodeAll that reports the values whose checksums do not
// match them (damage).
func (c *Cache) decodeAll(ctx context.Context, vals [][]byte, dec func([]byte) (Entry, error), then ...func(i int, e Entry)) (entries []Entry, ok []bool, err error) {
	var bad atomic.Int64
	checked := func(b []byte) (Entry, error) {
		e, err := dec(b)
		if errors.Is(err, errChecksum) {
			bad.Add(1)
		}
		return e, err
	}
	entries, ok, err = decodeAll(ctx, vals, checked, then...)
	c.damage(int(bad.Load()))
	return entries, ok, err
}

// damage logs, the first time n is not zero, that n values of the
// database were left out because their checksums do not match them:
// what reads them takes them for missing, and the next write replaces
// them.
func (c *Cache) damage(n int) {
	if n > 0 && c.damaged.CompareAndSwap(false, true) {
		c.logger.Warn("repomap: tag cache: damaged values left out (checksum mismatch)", "db", c.path, "values", n)
	}
}

// decodeAll decodes vals with dec on as many goroutines as there are
// cores (up to four), each reading the memory-mapped file as safely
// does, and calls each function of then with the index and the entry of
// each value that decoded, on the goroutine that decoded it. ok[i] says whether vals[i]
// decoded.
func decodeAll(ctx context.Context, vals [][]byte, dec func([]byte) (Entry, error), then ...func(i int, e Entry)) (entries []Entry, ok []bool, err error) {
	entries, ok = make([]Entry, len(vals)), make([]bool, len(vals))
	workers := max(1, min(runtime.GOMAXPROCS(0), 4, len(vals)/256))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			errs[w] = safely(func() error {
				for i, n := w, 0; i < len(vals); i, n = i+workers, n+1 {
					if n%256 == 0 && ctx.Err() != nil {
						return ctx.Err()
					}
					var err error
					entries[i], err = dec(vals[i])
					ok[i] = err == nil
					for _, f := range then {
						if ok[i] {
							f(i, entries[i])
						}
					}
				}
				return nil
			})
		})
	}
	wg.Wait()
	return entries, ok, errors.Join(errs...)
}

// touch records a use of the database: its modification time, which
// Prune goes by, becomes now. A write records one anyway; a read sets it
// at most once an hour.
func (c *Cache) touch(mod time.Time) {
	if now := time.Now(); now.Sub(mod) > time.Hour {
		os.Chtimes(c.path, time.Time{}, now)
	}
}

// storeBlock is the size of the blocks Store encodes entries into.
const storeBlock = 1 << 20

// Store writes the entries in put, replacing those of the same paths, and
// deletes the entries of paths for which keep returns false, all in one
// transaction. A nil keep keeps every entry.
func (c *Cache) Store(ctx context.Context, put map[string]Entry, keep func(path string) bool) error {
	// The values are encoded before the database is opened, which is
	// then held for less time, and mapped as large as the write makes it.
	// bbolt keeps each value until the commit. They are encoded one
	// after another into blocks of storeBlock bytes, not each into a
	// buffer of its own grown as it is written.
	vals := make(map[string][]byte, len(put))
	size := 0
	var buf []byte
	for p, e := range put {
		if cap(buf)-len(buf) < storeBlock/16 {
			buf = make([]byte, 0, storeBlock)
		}
		start := len(buf)
		buf = encode(buf, e)
		vals[p] = buf[start:len(buf):len(buf)]
		size += len(p) + len(vals[p])
	}
	err := c.update(ctx, size, func(tx *bolt.Tx) error {
		files, err := tx.CreateBucketIfNotExists(bucketFiles)
		if err != nil {
			return err
		}
		// In key order: bbolt inserts each key into its leaf's sorted
		// list, which grows without a split until the commit, so keys in
		// a map's order cost a move of the list each (O(n²): 7 s of a
		// 100,000-file tree's first map), and keys in order none.
		paths := slices.Sorted(maps.Keys(vals))
		for _, p := range paths {
			if err := files.Put([]byte(p), vals[p]); err != nil {
				return fmt.Errorf("put %s: %w", p, err)
			}
		}
		stamps, err := c.stampsOf(tx, files, paths, vals)
		if err != nil {
			return err
		}
		if keep == nil {
			return nil
		}
		var gone [][]byte
		err = files.ForEach(func(k, _ []byte) error {
			if !keep(string(k)) {
				gone = append(gone, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range gone {
			if err := files.Delete(k); err != nil {
				return err
			}
			if err := stamps.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cache: store: %w", err)
	}
	if c.prune {
		c.pruneDaily(time.Now())
	}
	return nil
}

// stampsOf writes the stamps of the entries vals put in files, in the
// order of paths, their keys, and
// returns the bucket of stamps; a database without one gets one, with
// the stamps of all of its entries.
func (c *Cache) stampsOf(tx *bolt.Tx, files *bolt.Bucket, paths []string, vals map[string][]byte) (*bolt.Bucket, error) {
	stamps := tx.Bucket(bucketStamps)
	if stamps == nil {
		var err error
		if stamps, err = tx.CreateBucket(bucketStamps); err != nil {
			return nil, err
		}
		// (Read first, then written: a write may map the file anew,
		// and what ForEach gives lies in the old mapping.)
		var keys, all [][]byte
		err = files.ForEach(func(k, v []byte) error {
			if e, err := decodeInPlace(v); err == nil {
				keys, all = append(keys, bytes.Clone(k)), append(all, appendStamp(nil, stampOf(e)))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			if err := stamps.Put(k, all[i]); err != nil {
				return nil, err
			}
		}
		return stamps, nil
	}
	for _, p := range paths {
		var err error
		if e, bad := decodeInPlace(vals[p]); bad != nil {
			// An entry that does not read back has no stamp: LoadStamps
			// leaves it out, as it leaves out such an entry.
			err = stamps.Delete([]byte(p))
		} else {
			err = stamps.Put([]byte(p), appendStamp(nil, stampOf(e)))
		}
		if err != nil {
			return nil, fmt.Errorf("put %s: %w", p, err)
		}
	}
	return stamps, nil
}

// reset empties the database of tx and records this format and
// fingerprint in it.
func (c *Cache) reset(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketFiles, bucketStamps, bucketBlobs} {
		if err := tx.DeleteBucket(b); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return err
		}
	}
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	for k, v := range map[string][]byte{string(keySchema): {schema}, string(keyFinger): c.fingerprint, string(keyRoot): []byte(c.root)} {
		if err := meta.Put([]byte(k), v); err != nil {
			return err
		}
	}
	return nil
}

// LoadBlob returns the blob StoreBlob stored under name, or nil when there
// is none. Blobs are what a caller derives from the entries and keeps
// beside them; they go with the entries when the fingerprint changes. A
// missing or corrupt database has none; one that another process holds
// for longer than the timeout gives ErrLocked.
func (c *Cache) LoadBlob(ctx context.Context, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if info, err := os.Stat(c.path); err != nil || info.Size() == 0 {
		return nil, nil // Load deals with what is wrong
	}
	db, err := c.open(true, 0)
	if err != nil || db == nil {
		return nil, err
	}
	defer db.Close()
	var out []byte
	err = safely(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketBlobs); b != nil && c.current(tx) {
				if v := c.blob(b.Get([]byte(name))); v != nil {
					out = bytes.Clone(v) // v lives as long as tx
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("cache: load blob: %w", err)
	}
	return out, nil
}

// ReadBlobs calls f with the blobs StoreBlob stored under names, nil for
// one there is none of, in one read of the database: the bytes are the
// database's own, valid until f returns, which must not change them nor
// keep them. A missing or corrupt database has none; one that another
// process holds for longer than the timeout gives ErrLocked; an error of
// f is returned.
func (c *Cache) ReadBlobs(ctx context.Context, names []string, f func(blobs [][]byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	blobs := make([][]byte, len(names))
	if info, err := os.Stat(c.path); err != nil || info.Size() == 0 {
		return f(blobs) // Load deals with what is wrong
	}
	db, err := c.open(true, 0)
	if err != nil {
		return err
	}
	if db == nil {
		return f(blobs)
	}
	defer db.Close()
	var ferr error
	err = safely(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketBlobs); b != nil && c.current(tx) {
				for i, name := range names {
					blobs[i] = c.blob(b.Get([]byte(name)))
				}
			}
			ferr = f(blobs)
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("cache: read blobs: %w", err)
	}
	return ferr
}

// blob returns the blob v holds without its checksum, or nil when v is
// nil or its checksum does not match it (damage).
func (c *Cache) blob(v []byte) []byte {
	if v == nil {
		return nil
	}
	b, err := checkSum(v)
	if err != nil {
		c.damage(1)
		return nil
	}
	return b[:len(b):len(b)]
}

// StoreBlob stores data under name, replacing what was there.
func (c *Cache) StoreBlob(ctx context.Context, name string, data []byte) error {
	return c.StoreBlobs(ctx, []string{name}, [][]byte{data})
}

// StoreBlobs stores each of data under the name of the same index in
// names, replacing what was there, in one write of the database.
func (c *Cache) StoreBlobs(ctx context.Context, names []string, data [][]byte) error {
	if len(names) != len(data) {
		return fmt.Errorf("cache: store blobs: %d names for %d blobs", len(names), len(data))
	}
	size := 0
	for i := range names {
		size += len(names[i]) + len(data[i])
	}
	err := c.update(ctx, size, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketBlobs)
		if err != nil {
			return err
		}
		for i, name := range names {
			if err := b.Put([]byte(name), appendSum(slices.Clip(data[i]), 0)); err != nil {
				return err
			}
		}
		if files := tx.Bucket(bucketFiles); files != nil && tx.Bucket(bucketStamps) == nil {
			// A database written before the stamps were kept gets them.
			_, err = c.stampsOf(tx, files, nil, nil)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("cache: store blob: %w", err)
	}
	return nil
}

// update opens the database for writing, emptied first when it was
// written with another format or fingerprint, and runs f in one
// transaction, which writes about size bytes.
func (c *Cache) update(ctx context.Context, size int, f func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	db, err := c.open(false, size)
	if err != nil {
		return err
	}
	if db == nil {
		if db, err = c.open(false, size); err != nil || db == nil {
			return fmt.Errorf("cannot rebuild %s", c.path)
		}
	}
	defer db.Close()
	return safely(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			if !c.current(tx) {
				if err := c.reset(tx); err != nil {
					return err
				}
			}
			return f(tx)
		})
	})
}

// pruneStamp is the file of a cache directory whose modification time
// tells when Store last pruned it.
const pruneStamp = "last-prune"

// pruneDaily prunes the directory of the database, keeping it, unless
// that was done less than a day before now. Failures only leave files
// for the next time.
func (c *Cache) pruneDaily(now time.Time) {
	stamp := filepath.Join(filepath.Dir(c.path), pruneStamp)
	if info, err := os.Stat(stamp); err == nil && now.Sub(info.ModTime()) < 24*time.Hour {
		return
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		return
	}
	os.Chtimes(stamp, time.Time{}, now)
	Prune(filepath.Dir(c.path), &PruneOptions{Keep: []string{c.path}, Now: func() time.Time { return now }})
}

// bigWrite is the size of a write from which bbolt maps the database as
// large as the write will make it, from the start: as a write makes the
// file grow past what is mapped, bbolt copies every page it holds out of
// the mapping and maps the file again, which the first write of the
// cache of the Go standard library (50 MB) did several times, for a
// twentieth of the CPU time of its cold map. (Windows makes the file as
// large as the mapping at once, and the mapping is left to bbolt there.)
const bigWrite = 4 << 20

// open opens the database, read-only or for writing, for a write of
// about write bytes. It returns nil and
// no error when the file was corrupt and has been moved aside.
func (c *Cache) open(readOnly bool, write int) (*bolt.DB, error) {
	var db *bolt.DB
	err := safely(func() error {
		var err error
		o := &bolt.Options{
			Timeout:      c.timeout,
			ReadOnly:     readOnly,
			NoSync:       false,
			FreelistType: bolt.FreelistMapType,
		}
		if !readOnly && write > bigWrite && runtime.GOOS != "windows" {
			var size int64 // of the file now; none before the first write
			if info, err := os.Stat(c.path); err == nil {
				size = info.Size()
			}
			o.InitialMmapSize = int(min(size+int64(write)+int64(write)/4, 1<<30))
		}
		db, err = bolt.Open(c.path, 0o600, o)
		if err == nil && !readOnly {
			// bbolt creates the file as the umask lets it, and an earlier
			// version made it readable by others.
			if info, err := os.Stat(c.path); err == nil && info.Mode().Perm() != 0o600 {
				os.Chmod(c.path, 0o600)
			}
		}
		return err
	})
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch),
		errors.Is(err, bolterrors.ErrChecksum), errors.Is(err, errPanic):
		c.moveAside()
		return nil, nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("cache: %w", err)
	}
	// bbolt reports other damage with errors of its own making.
	c.moveAside()
	return nil, nil
}

// current reports whether the database was written with this format and
// fingerprint.
func (c *Cache) current(tx *bolt.Tx) bool {
	meta := tx.Bucket(bucketMeta)
	return meta != nil &&
		bytes.Equal(meta.Get(keySchema), []byte{schema}) &&
		bytes.Equal(meta.Get(keyFinger), c.fingerprint)
}

// moveAside renames a damaged database out of the way, so that the next
// open starts afresh; the damaged file is kept for inspection.
func (c *Cache) moveAside() {
	if err := os.Rename(c.path, c.path+".corrupt"); err != nil {
		os.Remove(c.path)
	}
}

var errPanic = errors.New("cache: database damaged")

// safely runs f and turns a panic, which bbolt raises on some damaged
// files, into errPanic. A fault while reading the memory-mapped file (a
// truncated database) panics instead of killing the process.
func safely(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	return f()
}
