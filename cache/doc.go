// Package cache stores the tags of a tree's files on disk, so that a map
// of a tree whose files have not changed needs no parsing.
//
// # Location
//
// One database per root: the file <dir>/<key>.db, where dir is by default
// os.UserCacheDir()/repomap and key is the first 32 hex digits of the
// SHA-256 of the root's absolute path. Nothing is written into the tree.
// The directory is made mode 0700 and the databases 0600, whatever the
// umask: they hold the names and rendered maps of private source.
//
// # Pruning
//
// A database's modification time is its last use: a write sets it, and so
// does a read, at most once an hour. [Prune] removes the databases of
// roots that no longer exist and those not used for 90 days
// ([DefaultMaxAge]), then the least recently used ones
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
//	"schema"       the format version, one byte (currently 2)
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
//	ctime     varint    its status change time, Unix nanoseconds (0: none)
//	inode     uvarint   its inode number (0: none)
//	sum       8 bytes   xxHash64 of the content parsed, little-endian
//	                    (0: none)
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
//	                    bit 4, why it has no tags follows; bit 5, the
//	                    file changed too close to its read for the
//	                    stamp to tell a later change (racy)
//	words     bytes     with flags bit 2: uvarint length, then the file's
//	                    words.Bag in its binary form
//	timed out bytes     with flags bit 3: uvarint count of the parses that
//	                    timed out, one after another, then uvarint timeout
//	                    in nanoseconds
//	skip      bytes     with flags bit 4: uvarint length, then why the
//	                    file was left out of parsing, in the index's
//	                    form (a kind's byte, then what it depends on)
//	outline   bytes     with flags bit 0: the file's tags.Outline in its
//	                    binary form
//	crc       4 bytes   CRC-32C of all the above, little-endian
//
// An entry is valid while the file's size, modification and change times
// and inode are those recorded, and the entry is not racy; a caller that
// finds them changed, or the entry racy, may check the file's content
// against sum before it parses the file again.
//
// Bucket "stamps" maps the same paths to what [Cache.LoadStamps] reads
// of each entry: the same stamp and sum, flags, why it has no tags, its
// timeouts and the counts of its strings and tags, then a CRC-32C.
//
// Bucket "blobs" maps a name to what a caller derived from the entries
// ([Cache.StoreBlob]): the bytes it gave, which the cache does not read,
// then their CRC-32C. It is emptied with the files when the fingerprint
// changes.
//
// A value whose checksum does not match it was damaged where bbolt
// checks nothing (bbolt checks its pages' structure, not their content):
// it is read as missing, and logged once (Options.Logger).
package cache
