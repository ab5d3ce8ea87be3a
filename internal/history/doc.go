// Package history reads which files the commits of a git repository
// changed together, when, and what their messages said, for the ranking:
// the files that changed with the files a request points at tend to
// change with them again, code that changed lately is where work goes,
// and the files that commits about the same things changed are where a
// request's words point.
//
// # Reading
//
// [Read] lists the non-merge commits reachable from a commit with the git
// binary ("git log --no-merges -M --name-status"), newest first, each
// with the start of its message (its subject and up to about a kilobyte
// of its body), at most
// Options.Depth of them ([DefaultDepth]). A commit keeps the files it
// added, modified, deleted or renamed, unless it changed more than
// Options.MaxFiles ([DefaultMaxFiles]): a sweep over the tree, a move of
// a package or a vendored update says little about which files belong
// together. The renames git's rename detection finds are followed, those
// of the large commits too: every path is the name its file has at the
// commit read from, so a file keeps the history it had under an older
// name. Nothing is written to the repository: git runs with optional
// locks off, in an environment that cannot point it elsewhere (package
// gitcmd).
//
// The git binary, not go-git, reads the log: on django, go-git's tree
// diffs took 131 s for 2,000 commits, git 0.3 s. [Open] finds the
// repository a directory lies in (a .git directory, or a .git file of a
// worktree or a submodule), and [Repo.Head] reads HEAD from the
// repository's files (HEAD, a loose ref, packed-refs) without running
// anything, so that asking whether HEAD moved costs microseconds.
// A directory outside git ([ErrNoRepository]), a shallow clone
// ([ErrShallow], whose history is cut), a repository without commits
// ([ErrNoCommit]) or one git cannot read give an error; the caller maps
// without a history.
//
// # Keeping
//
// A History is kept by its Head (in the disk cache of a map's root, as
// [History.Encode] writes it; [Decode] reads it back). When HEAD moves
// on, [History.Extend] reads only the commits since, when the new HEAD
// descends from the old one and those commits are at least as new (so
// that a read from the new HEAD would list them first); the oldest
// commits past the depth are dropped, and the paths renamed since are
// renamed in the commits before. A rewritten history is read anew. An
// extended history is the one a read from the new HEAD gives.
//
// # The binary form
//
//	magic     "rmhist" and a version byte (2)
//	head      uvarint length, then the hex of Head
//	time      varint, Time (Unix seconds)
//	options   uvarint Depth, uvarint MaxFiles
//	paths     uvarint count, then each: uvarint length, bytes
//	commits   uvarint count, then each: varint of the time of the commit
//	          before it in the list (Time for the first) minus its own,
//	          uvarint length and bytes of its message, uvarint count of
//	          its files, then each file's id (uvarint)
//
// # Signals
//
// A [View] is the history of a map's files, by their paths in the map
// (a root below the top of its repository, and the roots of a map of
// several, each by its Part). [View.CoChanged] says how much each file
// changed with a set of files: each commit that changed one of them
// gives each other file it changed the file's weight, times 1/2 to the
// power of the commit's age in half-lives, divided by the number of the
// commit's other files. [View.Recency] says how lately a file changed.
// [View.Messages] says how well the messages of the commits that changed
// a file match a request's words: BM25 over the messages, of the commits
// that match best.
// Ages are counted from the commit the history was read from, not from
// the clock, so that the same repository gives the same map at any time.
package history
