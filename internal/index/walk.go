package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// IgnoreFile is the name of the file, at the root of a tree, that lists
// in gitignore syntax what maps of the tree leave out, beyond what the
// tree's .gitignore files ignore.
const IgnoreFile = ".repomapignore"

// File is one regular File found under a root.
type File struct {
	Path string // slash-separated: its path in the map
	Root int    // index of its root
	Rel  string // its path relative to its root
	Size int64
	Mod  int64 // modification time, Unix nanoseconds
	// Change is the file's status change time (ctime), Unix
	// nanoseconds, and Dev and Ino its device and inode numbers, where
	// the system tells them (zero where it does not): a file replaced by
	// another of the same size and modification time, or whose
	// modification time was set back, has another inode or change time.
	Change   int64
	Dev, Ino uint64
}

// Omitted is a file left out of the map, with the reason.
type Omitted struct {
	Path string
	Skip Skip
}

// walk lists the regular files under the root of fsys, in lexical order,
// as walkTree does with no options.
func walk(ctx context.Context, fsys fs.FS) ([]File, []Omitted, error) {
	return walkTree(ctx, fsys, walkOptions{})
}

// walkRoot lists the files of the root r as walkTree does, with o, and
// the rules of git from above the tree (gitPatterns) when r has a
// directory on disk.
//
// With o.root, r.FS is the directory on disk o.root has open, and the
// walk reads its directories there (diskDir); with rw too, the lists
// come from rw, or the walk is followed by it (rootWatch).
func walkRoot(ctx context.Context, r Root, o walkOptions, rw *rootWatch) ([]File, []Omitted, error) {
	if r.Dir != "" && !o.noIgnore {
		g, err := gitRulesOf(r.Dir, o.noIgnoreParent)
		if err != nil {
			return nil, nil, err
		}
		o.git, o.tracked, o.inRepo = g.patterns, g.tracked, g.inRepo
	}
	if rw == nil || o.root == nil {
		return walkTree(ctx, r.FS, o)
	}
	outside := outsideRules(treeReader{r.FS, o.root}, o.git)
	files, skipped, ok, err := rw.since(outside, o.tracked)
	switch {
	case err != nil:
		rw.failed = err
		return walkTree(ctx, r.FS, o)
	case ok:
		return files, skipped, nil
	}
	old := rw.rearm()
	o.watch = rw
	if files, skipped, err = walkTree(ctx, r.FS, o); err != nil {
		return nil, nil, err
	}
	if err := rw.done(old, files, skipped, outside, o.tracked, newSelection(o.exclude, o.include)); err != nil {
		rw.failed = err
	}
	return files, skipped, nil
}

// outsideRules returns the ignore rules that a walk of fsys starts with,
// those from outside the tree: git's (walkOptions.git), and the tree's
// .git/info/exclude, in the directory the walk never enters.
func outsideRules(t treeReader, git []gitignore.Pattern) []gitignore.Pattern {
	return append(slices.Clip(git), readIgnore(t, ".git/info/exclude", nil)...)
}

// treeReader reads the small files of a tree that its walk reads (its
// ignore files): through root, the tree's directory open on disk, when
// not nil (rootDir.openFile), else through fsys.
type treeReader struct {
	fsys fs.FS
	root *rootDir
}

// maxIgnoreFile is the most of an ignore file that is read.
const maxIgnoreFile = 8 << 20

// readFile returns the content of the file at name, a regular file that
// no symbolic link leads to, read to at most maxIgnoreFile bytes when
// the tree is on disk.
func (t treeReader) readFile(name string) ([]byte, error) {
	if t.root == nil {
		return fs.ReadFile(t.fsys, name)
	}
	f, st, err := t.root.openFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !st.regular {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNotRegular}
	}
	return readInto(f, st.size, maxIgnoreFile, nil)
}

// errNotRegular is the error of a read of what is not a regular file.
var errNotRegular = errors.New("not a regular file")

// walkOptions tells a walk what to leave out beyond the ignore files it
// finds inside the tree.
type walkOptions struct {
	// exclude and include are Options.Exclude and Options.Include.
	exclude, include []string
	// git holds the rules of git that come from outside the tree, as
	// gitPatterns returns them for the tree's directory on disk. Every
	// ignore file inside the tree weighs more than they do.
	git []gitignore.Pattern
	// workers is how many goroutines read directories; 0 means one.
	workers int
	// root, when not nil, is the tree's directory open on disk, where
	// its fs.FS reads (os.DirFS): the walk opens directories there
	// (rootDir.openDir).
	root *rootDir
	// watch, when not nil, watches each directory of the walk before it
	// is read, and is given each one's rules (rootWatch).
	watch *rootWatch
	// beforeDir, when not nil, is called with each directory before the
	// walk opens it: for tests to change the tree under the walk.
	beforeDir func(dir string)
	// noIgnore and noIgnoreParent are Options.NoIgnore and
	// NoIgnoreParent.
	noIgnore, noIgnoreParent bool
	// tracked lists the files git tracks in the tree, which no ignore
	// rule leaves out; inRepo says that the tree lies in a git
	// repository, where the built-in rules (builtinRules) do not apply.
	tracked *trackedFiles
	inRepo  bool
}

// walkOptionsOf returns the options of a walk of a root with o, the
// index's Options, through root, its directory open on disk, or nil.
func walkOptionsOf(o Options, root *rootDir) walkOptions {
	return walkOptions{exclude: o.Exclude, include: o.Include, workers: o.Parallelism, root: root,
		noIgnore: o.NoIgnore, noIgnoreParent: o.NoIgnoreParent}
}

// builtinRules are the ignore rules of a tree outside git, of the files
// no map has a use for and that a repository's .gitignore would leave
// out: compiled code of interpreters (Python's __pycache__ and .pyc,
// Java's .class, Emacs Lisp's .elc, Erlang's .beam, Lua's .luac). They
// weigh least: an ignore file of the tree can take them back.
var builtinRules = []string{"__pycache__/", "*.py[cod]", "*$py.class", "*.class", "*.elc", "*.beam", "*.luac"}

// walkTree lists the regular files under the root of fsys, in lexical
// order, honouring the .gitignore files of the tree (nested ones too),
// .git/info/exclude and a .repomapignore file at the root, the rules of
// o.git, and never entering .git. Symbolic links are not followed: a
// link inside the root reaches a file the walk lists anyway, and one that
// leads outside the root must not show up in a map. Entries that cannot
// be read are skipped with a reason; only an unreadable root is an error.
//
// The globs select by path relative to the root (see Options.Exclude and
// Options.Include): a file or directory matching an exclude glob is left
// out, a directory with all it holds; with include globs, only the files
// that match one, or lie under a directory that matches one, are listed,
// and directories that can hold no such file are not entered.
func walkTree(ctx context.Context, fsys fs.FS, o walkOptions) ([]File, []Omitted, error) {
	if o.watch != nil {
		o.watch.add(".")
	}
	t := treeReader{fsys, o.root}
	var entries []fs.DirEntry
	var err error
	if o.root != nil {
		var dd *diskDir
		if dd, err = o.root.openDir("."); err == nil {
			entries, err = dd.readDir()
			dd.close()
		}
	} else {
		entries, err = fs.ReadDir(fsys, ".")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("repomap: walk: %w", err)
	}
	// .repomapignore comes after .gitignore, so that its "!" patterns can
	// take back what the root's .gitignore leaves out.
	var patterns []gitignore.Pattern
	if !o.noIgnore {
		if !o.inRepo && !slices.ContainsFunc(entries, func(d fs.DirEntry) bool { return d.Name() == ".git" }) {
			patterns = parseIgnore([]byte(strings.Join(builtinRules, "\n")), nil)
		}
		patterns = append(patterns, outsideRules(t, o.git)...)
		patterns = append(patterns, dirIgnore(t, ".", entries, nil)...)
		patterns = append(patterns, readIgnore(t, IgnoreFile, nil)...)
	}
	w := &walker{ctx: ctx, tree: t, watch: o.watch, beforeDir: o.beforeDir, sel: newSelection(o.exclude, o.include),
		noIgnore: o.noIgnore, tracked: o.tracked}
	top := &dirList{}
	w.run(max(o.workers, 1), dirJob{dir: ".", entries: entries, ignore: newIgnoreSet(nil, patterns, nil), out: top})
	if w.err != nil {
		return nil, nil, fmt.Errorf("repomap: walk: %w", w.err)
	}
	nf, ns := top.count()
	files, skipped := make([]File, 0, nf), make([]Omitted, 0, ns)
	top.flatten(&files, &skipped)
	return files, skipped, nil
}

// A walker lists the files of a tree for walkTree, a directory at a
// time, on several goroutines: each directory's list holds its files and
// the lists of its directories in the order of its entries, so that the
// files come out in the same order however the work was shared.
type walker struct {
	ctx       context.Context
	tree      treeReader       // the tree, and its directory on disk (walkOptions.root)
	watch     *rootWatch       // walkOptions.watch
	beforeDir func(dir string) // walkOptions.beforeDir
	sel       selection
	noIgnore  bool          // walkOptions.noIgnore
	tracked   *trackedFiles // walkOptions.tracked

	mu      sync.Mutex
	more    sync.Cond // signalled when a job is queued or the last is done
	queue   []dirJob
	pending int   // jobs queued or under way
	err     error // the first error, which stops the walk
}

// dirJob is a directory to list: its path and path parts, its ignore
// rules (see walker.dir), where its list goes, and its entries, once
// read.
type dirJob struct {
	dir     string
	parts   []string
	entries []fs.DirEntry // nil until read
	ignore  *ignoreSet
	out     *dirList
	// trackedOnly says that the rules leave the directory out, and that
	// it is walked for the files git tracks in it alone.
	trackedOnly bool
}

// dirList is what the walk found in one directory, in the order of its
// entries.
type dirList struct {
	items []dirItem
}

// dirItem is one entry of a dirList: a file, a file left out, or the
// list of a directory.
type dirItem struct {
	file *File
	skip *Omitted
	dir  *dirList
}

// count returns the numbers of files and skips of l and of its
// directories.
func (l *dirList) count() (files, skips int) {
	for _, it := range l.items {
		switch {
		case it.file != nil:
			files++
		case it.skip != nil:
			skips++
		default:
			f, s := it.dir.count()
			files, skips = files+f, skips+s
		}
	}
	return files, skips
}

// flatten appends the files and skips of l and of its directories, in
// order.
func (l *dirList) flatten(files *[]File, skipped *[]Omitted) {
	for _, it := range l.items {
		switch {
		case it.file != nil:
			*files = append(*files, *it.file)
		case it.skip != nil:
			*skipped = append(*skipped, *it.skip)
		default:
			it.dir.flatten(files, skipped)
		}
	}
}

// run lists the tree from the job first on workers goroutines.
func (w *walker) run(workers int, first dirJob) {
	w.more.L = &w.mu
	w.queue, w.pending = []dirJob{first}, 1
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				w.mu.Lock()
				for len(w.queue) == 0 && w.pending > 0 {
					w.more.Wait()
				}
				if w.pending == 0 {
					w.mu.Unlock()
					return
				}
				job := w.queue[0]
				w.queue = w.queue[1:]
				stop := w.err != nil
				w.mu.Unlock()
				var err error
				if !stop {
					err = w.dir(job)
				}
				w.mu.Lock()
				if err != nil && w.err == nil {
					w.err = err
				}
				if w.pending--; w.pending == 0 {
					w.more.Broadcast()
				}
				w.mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// push queues the jobs.
func (w *walker) push(jobs []dirJob) {
	if len(jobs) == 0 {
		return
	}
	w.mu.Lock()
	w.queue = append(w.queue, jobs...)
	w.pending += len(jobs)
	w.mu.Unlock()
	w.more.Broadcast()
}

// dir lists the directory of job: with patterns, the ignore rules that
// apply there, in the order of their weight (the last one that matches
// decides). A directory's patterns are its parent's and those of its own
// .gitignore, looked for in its entries rather than opened in every
// directory. Its directories are queued as jobs of their own.
func (w *walker) dir(job dirJob) error {
	out, entries, ignore := job.out, job.entries, job.ignore
	if w.watch != nil && entries == nil {
		w.watch.add(job.dir)
	}
	if w.beforeDir != nil {
		w.beforeDir(job.dir)
	}
	var dd *diskDir
	if root := w.tree.root; root != nil {
		// Opened relative to the root, following no link: the directory
		// the walk listed may have been replaced by one since.
		var err error
		if dd, err = root.openDir(job.dir); err != nil {
			out.items = append(out.items, dirItem{skip: &Omitted{job.dir, openFailure(err)}})
			return nil
		}
		defer dd.close()
	}
	if entries == nil {
		var err error
		if dd != nil {
			entries, err = dd.readDir()
		} else {
			entries, err = fs.ReadDir(w.tree.fsys, job.dir)
		}
		if err != nil {
			out.items = append(out.items, dirItem{skip: &Omitted{job.dir, unreadable(err)}})
			return nil
		}
		if !w.noIgnore && !job.trackedOnly {
			more := nestedExclude(w.tree, job.dir, entries, job.parts)
			more = append(more, dirIgnore(w.tree, job.dir, entries, job.parts)...)
			if len(more) > 0 {
				ignore = newIgnoreSet(ignore, more, job.parts)
			}
		}
	}
	if w.watch != nil {
		w.watch.rules(job.dir, ignore)
	}
	var scratch []int32
	var subs []dirJob
	defer func() { w.push(subs) }()
	for _, d := range entries {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		name := d.Name()
		if name == ".git" {
			continue // git's own, a directory or a worktree's link to one
		}
		p := name
		if job.dir != "." {
			p = job.dir + "/" + name
		}
		ps := append(slices.Clip(job.parts), name)
		typ := d.Type()
		ignored := job.trackedOnly
		switch {
		case d.IsDir():
			if !ignored {
				ignored, scratch = ignore.match(ps, true, scratch)
			}
			if ignored && !w.tracked.holds(p) || !w.sel.enter(p) {
				continue
			}
			sub := &dirList{}
			out.items = append(out.items, dirItem{dir: sub})
			subs = append(subs, dirJob{dir: p, parts: ps, ignore: ignore.below(name), out: sub, trackedOnly: ignored})
			continue
		}
		if !ignored {
			ignored, scratch = ignore.match(ps, false, scratch)
		}
		if ignored && !w.tracked.has(p) || !w.sel.keep(p) {
			continue
		}
		switch {
		case typ&fs.ModeSymlink != 0:
			out.items = append(out.items, dirItem{skip: &Omitted{p, Skip{Kind: SkipSymlink}}})
			continue
		case !typ.IsRegular():
			out.items = append(out.items, dirItem{skip: &Omitted{p, Skip{Kind: SkipIrregular}}})
			continue
		}
		st, err := w.stat(dd, d)
		switch {
		case err != nil:
			out.items = append(out.items, dirItem{skip: &Omitted{p, unreadable(err)}})
			continue
		case !st.regular: // it changed since the directory was read
			out.items = append(out.items, dirItem{skip: &Omitted{p, Skip{Kind: SkipIrregular}}})
			continue
		}
		out.items = append(out.items, dirItem{file: &File{Path: p, Size: st.size, Mod: st.mod, Change: st.change, Dev: st.dev, Ino: st.ino}})
	}
	return nil
}

// stat returns what the system tells of the file of entry d, read by
// dd, its directory open on disk, when it is not nil.
func (w *walker) stat(dd *diskDir, d fs.DirEntry) (fileStat, error) {
	if dd != nil {
		return dd.stat(d.Name())
	}
	info, err := d.Info()
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(info), nil
}

// openFailure is why an entry that could not be opened is left out.
func openFailure(err error) Skip {
	if isLink(err) {
		return Skip{Kind: SkipSymlink}
	}
	return unreadable(err)
}

// unreadable returns the reason a file the system would not open or
// read, with err, is left out.
func unreadable(err error) Skip { return Skip{Kind: SkipUnreadable, Err: errText(err)} }

// ignoreSet is the ignore rules that apply in one directory, the last
// one that matches deciding (gitignore.Matcher), indexed by their quick
// tests (quickPattern): a rule whose name no part of a path has cannot
// match it, and below a directory that has the name every path has it.
// The walk tries on each entry the rules it can match alone: babel's
// root .gitignore has 70, tried on each of 40,000 entries.
type ignoreSet struct {
	patterns []gitignore.Pattern // the rules, each without its quick test
	// always lists the rules to try on every entry: those without a quick
	// test, and those whose test the directory's path passes; byName and
	// suffix, those whose test only an entry of that name, or with that
	// suffix, can pass. Each list is in the rules' order.
	always []int32
	byName map[string][]int32
	suffix []int32
	quick  []quickPattern // per rule: its quick test (the zero one for none)
}

// newIgnoreSet returns the set of up's rules, then more, which apply in
// the directory whose path parts are parts (up, nil for none, being the
// set of the directory above, or of no directory).
func newIgnoreSet(up *ignoreSet, more []gitignore.Pattern, parts []string) *ignoreSet {
	s := &ignoreSet{byName: make(map[string][]int32)}
	if up != nil {
		s.patterns = slices.Clone(up.patterns)
		s.quick = slices.Clone(up.quick)
		s.always = slices.Clone(up.always)
		for name, is := range up.byName {
			s.byName[name] = is
		}
		s.suffix = up.suffix
	}
	for _, p := range more {
		i := int32(len(s.patterns))
		q, ok := p.(quickPattern)
		switch {
		case !ok:
			s.patterns = append(s.patterns, p)
			s.quick = append(s.quick, quickPattern{})
			s.always = append(s.always, i)
			continue
		case q.name != "" && !slices.Contains(parts, q.name):
			s.byName[q.name] = append(slices.Clip(s.byName[q.name]), i)
		case q.suffix != "" && !slices.ContainsFunc(parts, func(part string) bool { return strings.HasSuffix(part, q.suffix) }):
			s.suffix = append(slices.Clip(s.suffix), i)
		default:
			s.always = append(s.always, i)
		}
		s.patterns = append(s.patterns, q.Pattern)
		s.quick = append(s.quick, q)
	}
	return s
}

// below returns the set of the directory name of s's directory: the
// rules that only an entry of that name could match are tried on every
// entry below it.
func (s *ignoreSet) below(name string) *ignoreSet {
	named := s.byName[name]
	var suffixed []int32
	for _, i := range s.suffix {
		if strings.HasSuffix(name, s.quick[i].suffix) {
			suffixed = append(suffixed, i)
		}
	}
	if len(named) == 0 && len(suffixed) == 0 {
		return s
	}
	t := *s
	t.always = slices.Concat(s.always, named, suffixed)
	slices.Sort(t.always)
	t.always = slices.Compact(t.always)
	return &t
}

// match reports whether the rules ignore the entry whose path parts are
// ps (the last one its name), as gitignore.Matcher does; scratch is
// space for it, returned for the next call.
func (s *ignoreSet) match(ps []string, isDir bool, scratch []int32) (bool, []int32) {
	name := ps[len(ps)-1]
	try := s.always
	named := s.byName[name]
	if len(named) > 0 || len(s.suffix) > 0 {
		scratch = append(append(scratch[:0], s.always...), named...)
		for _, i := range s.suffix {
			if strings.HasSuffix(name, s.quick[i].suffix) {
				scratch = append(scratch, i)
			}
		}
		if len(scratch) > len(s.always) {
			slices.Sort(scratch)
			try = scratch
		}
	}
	for k := len(try) - 1; k >= 0; k-- {
		if m := s.patterns[try[k]].Match(ps, isDir); m > gitignore.NoMatch {
			return m == gitignore.Exclude, scratch
		}
	}
	return false, scratch
}

// nestedExclude returns the patterns of the info/exclude file of the git
// repository whose top level is the directory dir of the tree, whose
// entries are entries and path parts domain, when a .git directory or
// file among them makes it one (a nested repository or a submodule), or
// none. They apply below dir, as that repository's .gitignore files do.
// A submodule's git directory (its .git file says where) is read when it
// lies in the tree, as the superproject's .git/modules does.
func nestedExclude(t treeReader, dir string, entries []fs.DirEntry, domain []string) []gitignore.Pattern {
	if dir == "." {
		return nil // the root's: outsideRules and gitRulesOf read it
	}
	i, ok := slices.BinarySearchFunc(entries, ".git", func(d fs.DirEntry, name string) int {
		return strings.Compare(d.Name(), name)
	})
	if !ok {
		return nil
	}
	gitDir := path.Join(dir, ".git")
	if !entries[i].IsDir() {
		data, err := t.readFile(gitDir)
		if err != nil {
			return nil
		}
		g, found := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if g = strings.TrimSpace(g); !found || path.IsAbs(g) {
			return nil
		}
		if gitDir = path.Join(dir, g); !fs.ValidPath(gitDir) {
			return nil // outside the tree
		}
	}
	if data, err := t.readFile(path.Join(gitDir, "commondir")); err == nil {
		if c := path.Join(gitDir, strings.TrimSpace(string(data))); fs.ValidPath(c) {
			gitDir = c
		}
	}
	return readIgnore(t, path.Join(gitDir, "info", "exclude"), domain)
}

// dirIgnore returns the patterns of the .gitignore file among entries, the
// entries of the directory dir whose path parts are domain, or none.
func dirIgnore(t treeReader, dir string, entries []fs.DirEntry, domain []string) []gitignore.Pattern {
	if _, ok := slices.BinarySearchFunc(entries, ".gitignore", func(d fs.DirEntry, name string) int {
		return strings.Compare(d.Name(), name)
	}); !ok {
		return nil
	}
	return readIgnore(t, path.Join(dir, ".gitignore"), domain)
}

// readIgnore reads the gitignore patterns of the file at name, which apply
// below the directory whose path parts are domain. A missing or unreadable
// file has no patterns.
func readIgnore(t treeReader, name string, domain []string) []gitignore.Pattern {
	data, err := t.readFile(name)
	if err != nil {
		return nil
	}
	return parseIgnore(data, domain)
}

// parseIgnore returns the gitignore patterns of the file content data,
// which apply below the directory whose path parts are domain.
func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, newQuickPattern(line, domain))
	}
	return ps
}

// quickPattern is a gitignore pattern with a quick test in front of its
// match. Most patterns of a large tree's ignore files name a file or a
// directory literally ("dist", "/packages/*/lib") or by its extension
// ("*.log"), and a path none of whose parts has that name or ends in that
// extension cannot match them; matching every pattern against every
// part of every path took more than a second on a tree of 27,000 files.
type quickPattern struct {
	gitignore.Pattern
	// name is a part that the path must have, suffix an ending that one of
	// its parts must have; both are empty when the pattern has neither.
	name, suffix string
}

// newQuickPattern parses line as parsePattern does and takes the longest
// literal part of its pattern as the one a path must have.
func newQuickPattern(line string, domain []string) quickPattern {
	q := quickPattern{Pattern: parsePattern(line, domain)}
	p := strings.TrimPrefix(line, "!")
	if !strings.HasSuffix(p, `\ `) {
		p = strings.TrimRight(p, " ")
	}
	p = strings.TrimSuffix(p, "/")
	for part := range strings.SplitSeq(p, "/") {
		switch {
		case !strings.ContainsAny(part, `*?[\`):
			if len(part) > len(q.name) {
				q.name = part
			}
		case part[0] == '*' && !strings.ContainsAny(part[1:], `*?[\`) && len(part) > len(q.suffix)+1:
			q.suffix = part[1:]
		}
	}
	if q.name != "" {
		q.suffix = ""
	}
	return q
}

// Match matches the path parts p as the pattern does.
func (q quickPattern) Match(p []string, isDir bool) gitignore.MatchResult {
	switch {
	case q.name != "" && !slices.Contains(p, q.name):
		return gitignore.NoMatch
	case q.suffix != "" && !slices.ContainsFunc(p, func(s string) bool { return strings.HasSuffix(s, q.suffix) }):
		return gitignore.NoMatch
	}
	return q.Pattern.Match(p, isDir)
}

// errText is err's message without the path that fs errors repeat.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// selection is the exclude and include patterns of Options, as globs.
type selection struct {
	exclude, include []glob
	bases            []string // the part of each include glob before its first wildcard
}

// glob is a pattern of Options.Exclude or Options.Include, with the
// meaning it has in a .gitignore file, as a doublestar glob that matches
// a whole path relative to the root.
type glob struct {
	pattern string
	dirOnly bool // the pattern ended in "/": it matches directories only
}

// parseGlob turns a pattern as Options.Exclude documents it into a glob:
// a pattern with no slash but at its end matches at any depth ("**/"
// goes before it), one with a slash at its start or in its middle, or
// that starts with "./", matches from the root.
func parseGlob(g string) (glob, error) {
	orig := g
	if strings.HasPrefix(g, "!") {
		return glob{}, fmt.Errorf("pattern %q: a \"!\" pattern takes back what others leave out, which only an ignore file (%s) can do", orig, IgnoreFile)
	}
	anchored := strings.HasPrefix(g, "./")
	gl := glob{dirOnly: len(strings.TrimPrefix(g, "./")) > 1 && strings.HasSuffix(g, "/")}
	g = cleanGlob(g)
	if t, ok := strings.CutPrefix(g, "/"); ok && t != "" {
		g, anchored = t, true
	}
	if g == "" {
		return glob{}, fmt.Errorf("empty pattern %q", orig)
	}
	if !anchored && !strings.Contains(g, "/") && g != "**" {
		g = "**/" + g
	}
	if !doublestar.ValidatePattern(g) {
		return glob{}, fmt.Errorf("malformed glob %q", orig)
	}
	gl.pattern = g
	return gl, nil
}

// newSelection returns the selection of the patterns, which checkGlobs
// has accepted.
func newSelection(exclude, include []string) selection {
	var s selection
	for _, g := range exclude {
		gl, _ := parseGlob(g)
		s.exclude = append(s.exclude, gl)
	}
	for _, g := range include {
		gl, _ := parseGlob(g)
		s.include = append(s.include, gl)
		base, _ := doublestar.SplitPattern(gl.pattern)
		if !hasMeta(gl.pattern) {
			base = gl.pattern
		}
		s.bases = append(s.bases, base)
	}
	return s
}

// cleanGlob returns the glob without a leading "./" or a trailing "/".
func cleanGlob(g string) string {
	g = strings.TrimPrefix(g, "./")
	if len(g) > 1 {
		g = strings.TrimSuffix(g, "/")
	}
	return g
}

func hasMeta(g string) bool { return strings.ContainsAny(g, `*?[{\`) }

// excluded reports whether the path p, of a directory when dir is set,
// matches an exclude glob.
func (s selection) excluded(p string, dir bool) bool {
	for _, g := range s.exclude {
		if (dir || !g.dirOnly) && doublestar.MatchUnvalidated(g.pattern, p) && !g.isPrefix(p) {
			return true
		}
	}
	return false
}

// isPrefix reports whether p is the directory whose contents a glob
// that ends in "/**" matches: "foo/**" matches what lies below foo, as
// in a .gitignore file, not foo (which doublestar's "**" matches too).
func (g glob) isPrefix(p string) bool {
	t, ok := strings.CutSuffix(g.pattern, "/**")
	return ok && doublestar.MatchUnvalidated(t, p)
}

// enter reports whether the walk should enter the directory at p: it is
// not excluded, and without include globs or when it may hold a file
// that one selects.
func (s selection) enter(p string) bool {
	if s.excluded(p, true) {
		return false
	}
	if len(s.include) == 0 {
		return true
	}
	for i, g := range s.include {
		b := s.bases[i]
		if b == "." || b == p || strings.HasPrefix(b, p+"/") || strings.HasPrefix(p, b+"/") || doublestar.MatchUnvalidated(g.pattern, p) {
			return true
		}
	}
	return false
}

// keep reports whether the file at p is selected: it is not excluded,
// and without include globs or when it, or a directory above it, matches
// one.
func (s selection) keep(p string) bool {
	if s.excluded(p, false) {
		return false
	}
	if len(s.include) == 0 {
		return true
	}
	for _, g := range s.include {
		if !g.dirOnly && doublestar.MatchUnvalidated(g.pattern, p) || doublestar.MatchUnvalidated(g.pattern+"/**", p) {
			return true
		}
	}
	return false
}

// selects reports whether the walk lists the file at p when it is there
// and no ignore rule leaves it out: no directory above it is excluded,
// and keep holds.
func (s selection) selects(p string) bool {
	if !s.keep(p) {
		return false
	}
	for d := path.Dir(p); len(s.exclude) > 0 && d != "."; d = path.Dir(d) {
		if s.excluded(d, true) {
			return false
		}
	}
	return true
}

// CheckPattern returns an error that names the pattern p when it is not
// one that Options.Exclude and Options.Include accept.
func CheckPattern(p string) error {
	_, err := parseGlob(p)
	return err
}

// CheckGlobs returns an error naming the first pattern of field that is
// malformed.
func CheckGlobs(field string, globs []string) error {
	for _, g := range globs {
		if _, err := parseGlob(g); err != nil {
			return fmt.Errorf("repomap: %s: %w", field, err)
		}
	}
	return nil
}
