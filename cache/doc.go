// Package cache stores the tags of a tree's files on disk, so that a map
// of a tree whose files have not changed needs no parsing.
//
// # Location
//
// One database per root: the file <dir>/<key>.db, where dir is by default
// os.UserCacheDir()/repomap and key is the first 32 hex digits of the
// SHA-256 of the root's absolute path. Nothing is written into the tree.
//
// # Pruning
//
// A database's modification time is its last use: a write sets it, and so
// does a read, at most once an hour. [Prune] removes the databases not
// used for 90 days ([DefaultMaxAge]), then the least recently used ones
// while all of them together are larger than 1 GiB ([DefaultMaxSize]);
// [List] describes each database, with the root it records, and [Remove]
// removes one root's. None of them removes a database that another
// process holds. [Cache.Store] prunes the directory, keeping its own
// database, at most once a day (the file "last-prune" records when),
// unless Options.NoPrune is set.
//
// # Access
//
// The database is a bbolt file. [Cache.Load] opens it read-only (a shared
// lock), reads every entry into memory and closes it ([Cache.LoadStamps]
// reads of each entry all but its tags, words and outline, and
// [Cache.Get] the whole entries of some paths); [Cache.Store] opens
// it for writing (an exclusive lock), writes all new entries in one
// transaction, deletes the entries of files that are gone, and closes it.
// So a process holds the file only for the moment it reads or writes, and
// several processes mapping one tree take turns. Opening waits at most
// Options.Timeout for a lock; after that the caller goes on without the
// cache. A database that cannot be read (truncated, garbage, a panic in
// bbolt while reading) is moved aside to <key>.db.corrupt and rebuilt.
// A process killed while writing loses only that write: bbolt commits are
// atomic.
//
// # Format
//
// Bucket "meta" holds:
//
//	"schema"       the format version, one byte (currently 1)
//	"fingerprint"  SHA-256 of everything tags depend on: the tag format
//	               version, every query file and the versions of the
//	               grammar modules; entries written under another
//	               fingerprint are dropped
//	"root"         the root's absolute path, for people reading the file
//
// Bucket "files" maps a file's slash-separated path, relative to the root,
// to its entry:
//
//	size      uvarint   the file's size when it was parsed
//	mtime     varint    its modification time, Unix nanoseconds
//	nstrings  uvarint   then each string: uvarint length, bytes
//	ntags     uvarint   then each tag: uvarint kind (1 def, 2 ref; plus
//	                    4 when a qualifier follows), uvarint index of its
//	                    name in the strings, uvarint index of its sub-kind
//	                    in the strings, with kind bit 4 a uvarint of 1 plus
//	                    the index of its qualifier, and a varint row minus
//	                    the previous tag's row (the first: minus 0)
//	flags     byte      optional: bit 0, an outline follows; bit 1, the
//	                    file's head says it is generated; bit 2, words
//	                    follow; bit 3, the file's parses timed out;
//	                    bit 4, why it has no tags follows
//	words     bytes     with flags bit 2: uvarint length, then the file's
//	                    words.Bag in its binary form
//	timed out bytes     with flags bit 3: uvarint count of the parses that
//	                    timed out, one after another, then uvarint timeout
//	                    in nanoseconds
//	skip      bytes     with flags bit 4: uvarint length, then why the
//	                    file was left out of parsing
//	outline   bytes     with flags bit 0, to the end: the file's
//	                    tags.Outline in its binary form
//
// An entry is valid while the file's size and modification time are those
// recorded.
//
// Bucket "blobs" maps a name to what a caller derived from the entries
// ([Cache.StoreBlob]): bytes the cache does not read. It is emptied with
// the files when the fingerprint changes.
package cache
