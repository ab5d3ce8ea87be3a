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
// Symbolic links and submodules are not files. A commit qualifies when
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
// The tree mapped for a commit is its first parent's, read from the
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
// Each commit asks two questions of each variant's maps, at every budget:
//
//   - focus: the first wanted file, in path order, is the focus
//     (Request.Focus), as if an agent were editing it; the other wanted
//     files are the ones the map should show.
//   - message: no focus; the commit message is the user's words
//     (Request.Text); all the wanted files are the ones the map should
//     show.
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
package eval
