// Package eval measures how well repo maps point at the files a change
// needs, on a repository's own history: for past commits, would a map of
// the tree before the commit have shown the files the commit changed?
// It is the offline "commit localisation" benchmark: no data set, any
// language repomap parses, and any git repository. [RunTasks] asks the
// same of a task set instead: issues filed against repositories, and the
// files their fixes changed (see Tasks below).
//
// # Commits
//
// [Run] reads the non-merge commits reachable from Config.Rev, newest
// first (git log order), and evaluates the first Config.Commits that
// qualify. Renames are not detected: a renamed file is a deleted file and
// an added one. A file is a source file when repomap parses it: when
// [github.com/repomap-dev/repomap/tags.Detect] names its language from its
// path, or, for a file without extension, from its first line as well.
// Symbolic links and submodules are not files. With Config.Roles, a
// source file must also have one of those roles (see repomap.Role) in a
// map of the parent's tree: the role is found through the public API,
// from a Map of a tree holding the file alone with the tree's
// repomap.RolesFile, so it is the one the maps give it. A commit
// qualifies when
//
//   - it has a parent (a root commit has nothing to map);
//   - it touches (adds, modifies or deletes) between [MinFiles] and
//     [MaxFiles] source files;
//   - at least two of them were in the parent's tree.
//
// The wanted files of a commit are the source files it modifies or
// deletes: the touched source files that exist in the parent, since a map
// of the parent cannot show a file the commit adds. A wanted file the map
// cannot show (one a .gitignore of the tree ignores, say) still counts.
// Report.Skipped counts the commits left out, by reason.
//
// # Trees
//
// The tree mapped for a commit is its first parent's (with
// Config.SourceOnly, its source files alone, with its .gitignore files,
// repomap.IgnoreFile and repomap.RolesFile, so that what they leave out
// stays out and the roles stay as they were), read from the
// object store with "git ls-tree" and one long-lived "git cat-file
// --batch", as an [io/fs.FS] whose file contents are read only when the
// map opens them: nothing is checked out and nothing is written to the
// repository. Each variant has one [repomap.Map] over that fs.FS, which is
// switched from commit to commit; a file's modification time is made from
// its blob's hash, so a Map, which keeps a file's tags while its size and
// time are unchanged, parses only the files that differ from the tree
// mapped before. VariantReport.Files and Parsed say how many.
//
// # Questions
//
// Each commit asks three questions of each variant's maps, at every
// budget:
//
//   - focus: the first wanted file, in path order, is the focus
//     (Request.Focus), as if an agent were editing it; the other wanted
//     files are the ones the map should show.
//   - message: no focus; the commit message, without its trailers
//     (Co-authored-by, Signed-off-by…), is the user's words
//     (Request.Text); all the wanted files are the ones the map should
//     show.
//   - overview: no focus and no request, the map that goes into a
//     context file; the definitions the commit's new lines use, in other
//     files, are the ones it should show (see Overview below).
//
// # Overview
//
// The overview question asks whether the map for no request shows what
// a change needs from the rest of the tree. For each touched source file
// that the commit adds or modifies, its new version is parsed (package
// tags, as the map parses) and its added lines are found with "git diff
// -U0" (every line, for a file the commit adds). Each name that a
// reference tag on an added line refers to, once per file, is then
//
//   - local, when the new version of the file defines the name itself:
//     the reference is taken to be to that definition;
//   - undefined, when no other file of the parent tree defines it, as
//     [repomap.Map.Definitions] finds definitions (builtins, names from
//     outside the tree, what the commit adds), a document's heading not
//     counting, since no reference links to one;
//   - common, when more than [MaxDefiners] (3) other files define it;
//   - resolved, otherwise: each of its definitions in those files is
//     wanted.
//
// The bound is there because references are tied to definitions by name
// alone until the link stage resolves them: a call of String or get
// would otherwise stand for hundreds of definitions it does not use
// (see MaxDefiners). OverviewNames counts the names of each kind. The
// wanted definitions are those of every changed file, each (path, line,
// name) once. A commit without any is left out of the overview's means;
// OverviewSummary.Commits says how many have some.
//
// The map is the unpersonalized one, the pagerank baseline of the other
// questions, at each budget. For W its wanted definitions, per commit:
//
//   - recall@B = the share of W whose lines the map shows: a definition
//     is shown when a file the map shows lists it among its FileResult.Defs,
//     with the same line and name;
//   - file recall@B = the share of W in the files the map shows, with
//     their definitions' lines or not;
//   - reciprocal rank = 1/r, r the position in Result.Ranked of the first
//     file holding a definition of W;
//   - tokens, files and definitions shown.
//
// The random baseline shows, at each budget, as many files as the map,
// drawn as for the message question from the source files of the
// ranked list; it shows files, not lines, so its file recall is the
// figure to compare. The pagerank baseline is the map itself.
//
// # Metrics
//
// For one question, with W the set of its wanted files, a map at a budget
// B shows the files of Result.Files and ranks the files of Result.Ranked
// (every file of the tree but the focus, best first). Per commit:
//
//   - recall@B = |W ∩ shown| / |W|;
//   - hit@B = 1 when W ∩ shown is not empty, else 0;
//   - reciprocal rank = 1/r, with r the 1-based position in the ranked
//     list of the first file of W; 0 when no file of W is in it. The
//     ranked list does not depend on the budget, so neither does it;
//   - tokens@B = Result.Tokens.
//
// The report gives, per question and budget, the means over the commits
// evaluated: recall, hit rate, MRR, tokens, and files shown.
//
// # Baselines
//
// Two baselines are measured on the same commits, per variant:
//
//   - pagerank: the variant's map with neither focus nor mentions
//     (unpersonalized PageRank), at the same budgets. One map answers both
//     questions; for the focus question the focus file is taken out of its
//     ranked list before the reciprocal rank is taken (it is not in W).
//   - random: the source files among the map's ranked list, in a random
//     order: sorted by the SHA-256 of "<seed>\x00<commit hash>\x00<path>"
//     (the seed in decimal), which anyone can recompute. At budget B the
//     random "map" shows the first k files of that order, k being the
//     number of files the variant's map shows for the same question at B
//     (or all of them, if fewer): the same number of files, chosen
//     blindly. Its reciprocal rank is from the random order; it has no
//     tokens.
//
// # Variants
//
// Config.Variants compares ways of making maps in one run: each has a
// function that returns its [repomap.Options] (ranking options among
// them), and its own Map.
//
// # Tasks
//
// [RunTasks] measures maps on a task set ([Task], read by [ReadTasks]
// from JSON Lines): an issue's text, the repository and commit it was
// filed against, and the files its fix changed, the gold files, as in
// SWE-bench. Any team's own issue history in that format will do. Each
// repository is read from a git mirror (TaskConfig.Mirrors), as the
// history is: trees from the object store, never checked out. The tasks
// of one repository are evaluated in the order of their base commits'
// times, with one Map per variant whose tags carry from tree to tree
// (and, with TaskConfig.CacheDir, from run to run).
//
// A task's gold files are those of its GoldFiles that are source files
// (as for commits) at the base commit; the others are dropped
// (TaskRun.Dropped), and a task with none left is skipped, as are tasks
// whose repository has no mirror or whose base commit the mirror lacks
// (TaskReport.Skipped). Each task is one question, as the message
// question of a commit: no focus; the statement is the user's words
// (Request.Text); all the gold files are wanted. TaskRun.Mentions counts
// what [repomap.Map.FindMentions] finds in it. With G the gold files and
// the map at budget B showing the files of Result.Files:
//
//   - recall@B = |G ∩ shown| / |G|;
//   - all@B = 1 when every file of G is shown, any@B = 1 when one is;
//   - reciprocal rank = 1/r, r the position of the first file of G in
//     Result.Ranked, and top5 = 1 when r is 1 to 5 (neither depends on
//     the budget);
//   - tokens@B = Result.Tokens, and the seconds the map took.
//
// The report gives their means over the tasks evaluated, per budget,
// for the map and two baselines, which rank the candidates, the source
// files among the map's ranked files, and at each budget show the first
// k of them, k being the number of files the map shows for the task at
// that budget (or all, if fewer):
//
//   - bm25: the candidates by Okapi BM25 of the statement against each
//     file's path and contents (k1 = 1.2, b = 0.75; terms are words split
//     at non-alphanumerics and case changes, lower-cased: see bm25.go);
//   - random: the candidates sorted by the SHA-256 of
//     "<seed>\x00<instance id>\x00<path>", as for commits.
//
// The ranking of files is also given without a budget: acc@1, acc@5,
// acc@10 (the share of tasks with r at most 1, 5, 10) and MRR, for the
// map (r in Result.Ranked) and for bm25 (r in its order of the
// candidates).
//
// # Definitions
//
// A task may name the code its fix edits (Task.GoldSpans: for a gold
// file, names such as "Class.method", "function", "Class", as in
// SWE-bench's annotations). Its gold definitions are those names in its
// gold files, each once ("Class.prop_1" beside "Class.prop" names the
// same definition, a second one of that name); "imports", "docstring"
// and any name with a colon ("impl:N", "Class:N": code outside a
// definition) are left out,
// and a task with none has no definition figures. A definition of a map
// (a Def of Result.Files, a RankedDef), named n in file f with the
// qualifier q its tags record and kind k, is the gold definition
// "C.m" of f when n is m and the last identifier of q is the last part
// of C ("Point" in "Point", "p Point", "*Point"; "Inner" for
// "Outer.Inner.m"), or when n is "C.m"; it is the gold definition "n"
// of f when q is empty (a function, a class) or k is "class". A
// definition nested in a gold function or method (a function inside it,
// a class inside it: its lines are the gold definition's, and a map that
// shows it shows the gold one's signature above it) is that gold
// definition too; the methods of a gold class are not the class. With D
// the gold definitions of the tasks that have some:
//
//   - shown@B = the share of D that the map at budget B shows by name
//     (among its Result.Files' Defs), pooled over the tasks, and
//     file shown@B the share of D whose file it shows;
//   - definition acc@1, acc@5, acc@10 and MRR, over those tasks, with r
//     the position of the first gold definition in Result.RankedDefs
//     (the definitions of the map at the largest budget and of the
//     repomap.RankedMore items after them; none beyond counts as not
//     found);
//   - the same for bm25 over definitions: every definition of the
//     candidate files that a map could show, as tags give them, is one
//     document, made of its qualifier and name, the comment lines right
//     above it, and its lines down to the first non-blank line indented
//     no deeper that does not start with a closing bracket (a Python
//     function's body, a class with its methods), scored against the
//     statement as the files are (bm25.go); ties by path, line and name.
package eval
