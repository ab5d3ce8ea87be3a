// Package repomap makes repo maps: for a source tree and a task, the
// definitions that matter most, as real source lines under their file's
// path, within a token budget.
//
// # Use
//
// [New] (or [NewFS], or [NewRoots] for several trees ranked as one) makes
// a [Map]; [Map.Render] returns the map for a [Request]: the files being
// worked on (Focus), the user's words (Text: a task, an issue, a
// traceback), and identifiers and paths mentioned on their own (Mentions).
// [Map.Build] returns the map with what went into it; its json tags give
// it the form "repomap --format json" prints.
// Close the Map when done. A Map keeps the tags it read, so an agent can
// keep one open across turns: see [Refresh].
//
// The same index answers lookups on demand: [Map.Definitions] (where is
// a name defined), [Map.References] (which files use it) and
// [Map.Related] (the files most related to one file, both ways).
//
// # How a map is made
//
// A request flows one way through stages, each a package of its own that
// takes the value the one before gives (docs/architecture.md draws them):
//
//   - the index (internal/index) walks the roots, leaving out what
//     .gitignore and .repomapignore files ignore and what Options.Exclude
//     and Options.Include leave out, and parses each source file that
//     changed, once, into its tags (package
//     [github.com/repomap-dev/repomap/tags], tree-sitter or a lexer, some
//     sixty languages); unchanged files come from memory or from the disk
//     cache (package [github.com/repomap-dev/repomap/cache]). It gives a
//     snapshot: the files, each with its [Role], and a store of their
//     tags, words and lines that later stages read through it, with the
//     request's context;
//   - the link stage (internal/link) ties each reference to the
//     definitions it can mean, by the rules of its language, or by name;
//   - the policy (internal/policy) shapes the ranking's input for the
//     request: the files it points at and those most relevant to its
//     words (BM25 over the words of their text, names and paths), the
//     weight of each kind of link, the tiers of roles;
//   - package [github.com/repomap-dev/repomap/rank] ranks the definitions
//     with personalized PageRank over the graph of which files use which;
//   - the items stage (internal/items) makes the ranked list, each item
//     with the rows of its file that show it;
//   - the render stage (internal/render) finds the longest prefix of the
//     list that stays within the budget, and writes it.
//
// Lookups ([Map.Definitions], [Map.References], [Map.Related]) take one
// snapshot of the index per call, however many names they are given, and
// link it with the map's rules.
//
// # A Map kept open, and the next process
//
// A Map keeps what its stages made. From its second map on, on Linux, it
// watches the directories of a tree on a local disk (inotify) and stats
// only the files that events name, instead of every file; anything but a
// change of files it lists (a file or a directory that came, went or
// moved, an ignore file, events lost) walks the tree again. After files
// change, the index parses them alone (from their syntax trees of before, when a Map parsed them
// after a change already), the link stage links again only what their
// change can change and updates the rank index rather than making it
// anew, and the fit renders the blocks of the changed files alone; what
// changed goes to the disk cache on a goroutine of the Map's own. The map
// is the one a new Map makes of the same tree and request: the tests
// check it after changes, additions, removals and renames in several
// languages. The first map of a Map is kept in the disk cache, and a new
// Map's first map for the same request, options and tree (the stamps of
// every file) is read back instead of made ([Stats].Reused).
//
// # The text of a map
//
// Files come in path order, each after a blank line. A file with
// definitions to show is its path and a colon, then its lines: each shown
// source line after "│" (U+2502), and a line "⋮" (U+22EE) for each run of
// hidden lines. Options.Style says how a definition is shown. In the
// compact style, the default, it is its signature (a multi-line one whole,
// up to where its body opens) under the header lines of the declarations
// around it (its class, impl or namespace, the function a nested function
// is in), and nothing of any body: a struct or a class is its header line,
// with the members that are ranked too. A hidden run of a single row is
// shown instead when the row costs no more than the "⋮" line (a blank
// line, a brace). In the Aider style, it is shown with the headers of
// the syntax scopes around it: the class around a method, the first rows
// of a struct or of a short function body, a multi-line signature; a
// hidden run of a single row is shown instead, and a blank line after a
// shown line is taken along. Lines are cut to 100 characters. A file with
// nothing to show is its path alone. Focus files are left out.
//
// # Budget
//
// The budget is a hard cap measured with a tiktoken encoding (o200k_base by
// default): the map never has more tokens. See [Budget] for how it follows
// from a model's context window.
//
// # Errors
//
// A file that cannot be read or parsed is listed by name, or left out, and
// logged through Options.Logger; it never fails the map. Render fails only
// when the root cannot be walked, the context is done, or the Map is
// closed. The package prints nothing.
//
// # Effects on the process
//
// tree-sitter's allocator is global to the process: it is set as package
// tags describes. The tokenizer's tables, built into the binary, are
// loaded once per process, the first time a map is counted.
package repomap
