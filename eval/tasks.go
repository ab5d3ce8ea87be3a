package eval

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

// Task is one task of a task set: an issue filed against a repository at a
// commit, and the files its fix changed.
type Task struct {
	InstanceID string `json:"instance_id"`
	// Repo names the repository, as "owner/name".
	Repo string `json:"repo"`
	// BaseCommit is the commit whose tree is mapped.
	BaseCommit string `json:"base_commit"`
	// ProblemStatement is the text: the user's words.
	ProblemStatement string `json:"problem_statement"`
	// GoldFiles are the files the fix changed, by path from the top of
	// the repository.
	GoldFiles []string `json:"gold_files"`
	// GoldSpans names, for gold files, the code the fix edits, as
	// SWE-bench's span annotations do: "Class.method", "function",
	// "Class" for definitions; "imports", "docstring" and "impl:N" (any
	// name with a colon) for code outside definitions, which the
	// evaluation leaves out. May be absent.
	GoldSpans map[string][]string `json:"gold_spans,omitempty"`
}

// ReadTasks reads a task set in JSON Lines: one Task object a line; blank
// lines are skipped. Every task needs an instance_id (unique), a repo and
// a base_commit.
func ReadTasks(r io.Reader) ([]Task, error) {
	var out []Task
	seen := make(map[string]bool)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var t Task
		if err := json.Unmarshal([]byte(line), &t); err != nil {
			return nil, fmt.Errorf("eval: task line %d: %w", n, err)
		}
		switch {
		case t.InstanceID == "" || t.Repo == "" || t.BaseCommit == "":
			return nil, fmt.Errorf("eval: task line %d: instance_id, repo or base_commit missing", n)
		case seen[t.InstanceID]:
			return nil, fmt.Errorf("eval: task line %d: instance %s twice", n, t.InstanceID)
		}
		seen[t.InstanceID] = true
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: tasks: %w", err)
	}
	return out, nil
}

// DefaultTaskBudgets returns the budgets RunTasks maps at by default, in
// tokens.
func DefaultTaskBudgets() []int { return []int{1024, 4096, 8192} }

// TaskConfig says what RunTasks measures.
type TaskConfig struct {
	// Tasks is the task set.
	Tasks []Task

	// Mirrors gives the git directory (bare, or a work tree) that holds
	// each repository, by Task.Repo. Tasks of a repository without one
	// are skipped. Nothing is written to a mirror.
	Mirrors map[string]string

	// Repos, when not empty, keeps only the tasks of these repositories;
	// Instances, when not empty, only these instances. Limit, when
	// positive, keeps the first Limit tasks of the set that remain, in
	// the set's order.
	Repos     []string
	Instances []string
	Limit     int

	// Budgets are the token budgets of the maps; nil means
	// DefaultTaskBudgets().
	Budgets []int

	// Seed seeds the random baseline; any value, zero included, is a seed.
	Seed int64

	// Variants are the ranking setups to compare, as for Config. Nil
	// means one, "default", with repomap's default options.
	Variants []Variant

	// CacheDir, when set, keeps the tags of the files mapped on disk there
	// (repomap.Options.CacheDir), one cache per mirror and variant, so
	// that a second run parses only what the first did not see. Empty
	// means no disk cache: tags are still reused in memory from one task
	// to the next of the same repository.
	CacheDir string

	// Logger receives a line per task at Info level; nil means none.
	Logger *slog.Logger
}

// Why tasks are left out, as TaskReport.Skipped counts them.
const (
	SkipNoMirror = "no mirror of the repository"
	SkipNoCommit = "base commit not in the mirror"
	SkipNoGold   = "no gold file is a source file at the base commit"
)

func (c TaskConfig) withDefaults() (TaskConfig, error) {
	if c.Limit < 0 {
		return c, fmt.Errorf("eval: Limit %d is negative", c.Limit)
	}
	base := Config{Budgets: c.Budgets, Variants: c.Variants, Logger: c.Logger, Commits: 1}
	base, err := base.withDefaults()
	if err != nil {
		return c, err
	}
	if c.Budgets == nil {
		base.Budgets = DefaultTaskBudgets()
	}
	c.Budgets, c.Variants, c.Logger = base.Budgets, base.Variants, base.Logger
	return c, nil
}

// RunTasks evaluates maps on a task set: for each task it maps the
// repository's tree at the base commit, at each budget, with the problem
// statement as the user's words and no focus, and checks which of the
// gold files the maps show, against BM25 and random rankings of the same
// files cut at the same number of files. See the package documentation.
//
// RunTasks reads the mirrors with git (which must be on PATH) and never
// writes to them.
func RunTasks(ctx context.Context, cfg TaskConfig) (*TaskReport, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	start := time.Now()
	rep := &TaskReport{Seed: c.Seed, Budgets: c.Budgets, Skipped: make(map[string]int)}
	for _, v := range c.Variants {
		rep.Variants = append(rep.Variants, TaskVariantReport{Name: v.Name})
	}
	tasks := selectTasks(c)
	rep.Selected = len(tasks)
	// By repository, in the order of their first task.
	var repos []string
	byRepo := make(map[string][]Task)
	for _, t := range tasks {
		if byRepo[t.Repo] == nil {
			repos = append(repos, t.Repo)
		}
		byRepo[t.Repo] = append(byRepo[t.Repo], t)
	}
	slices.Sort(repos)
	for _, name := range repos {
		dir, ok := c.Mirrors[name]
		if !ok || dir == "" {
			for _, t := range byRepo[name] {
				rep.skip(t, SkipNoMirror)
			}
			continue
		}
		e := &evaluator{cfg: Config{Budgets: c.Budgets, Seed: c.Seed, Logger: c.Logger}, repo: &repo{dir: dir}, source: make(map[string]bool)}
		if err := e.runTasks(ctx, c, rep, dir, byRepo[name]); err != nil {
			return nil, fmt.Errorf("eval: %s: %w", name, err)
		}
	}
	for v := range rep.Variants {
		rep.Variants[v].Rows = aggregateTasks(rep.Tasks, v, c.Budgets)
		aggregateRanking(&rep.Variants[v], rep.Tasks, v)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// selectTasks returns the tasks of c that its filters keep.
func selectTasks(c TaskConfig) []Task {
	var out []Task
	for _, t := range c.Tasks {
		if len(c.Repos) > 0 && !slices.Contains(c.Repos, t.Repo) {
			continue
		}
		if len(c.Instances) > 0 && !slices.Contains(c.Instances, t.InstanceID) {
			continue
		}
		if c.Limit > 0 && len(out) == c.Limit {
			break
		}
		out = append(out, t)
	}
	return out
}

func (r *TaskReport) skip(t Task, reason string) {
	r.Skipped[reason]++
	r.SkippedTasks = append(r.SkippedTasks, SkippedTask{InstanceID: t.InstanceID, Repo: t.Repo, Reason: reason})
}

// runTasks evaluates the tasks of one repository, whose mirror is dir.
func (e *evaluator) runTasks(ctx context.Context, c TaskConfig, rep *TaskReport, dir string, tasks []Task) error {
	// The base commits, oldest first, so that each tree differs little
	// from the one mapped before it.
	type based struct {
		Task
		hash string
		time int64
	}
	if _, err := e.repo.output(ctx, "rev-parse", "--git-dir"); err != nil {
		return fmt.Errorf("mirror %s: %w", dir, err)
	}
	var todo []based
	for _, t := range tasks {
		hash, err := e.repo.resolve(ctx, t.BaseCommit)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rep.skip(t, SkipNoCommit)
			continue
		}
		out, err := e.repo.output(ctx, "show", "-s", "--format=%ct", hash)
		if err != nil {
			return err
		}
		sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			return fmt.Errorf("commit time of %s: %q", hash, out)
		}
		todo = append(todo, based{t, hash, sec})
	}
	if len(todo) == 0 {
		return nil
	}
	slices.SortStableFunc(todo, func(a, b based) int {
		if c := cmp.Compare(a.time, b.time); c != 0 {
			return c
		}
		return cmp.Compare(a.InstanceID, b.InstanceID)
	})

	bl, err := e.repo.openBlobs(ctx)
	if err != nil {
		return err
	}
	defer bl.Close()
	e.blobs = bl
	fsys := &treeFS{blobs: bl}
	hist := &histories{dir: dir}
	maps := make([]*repomap.Map, len(c.Variants))
	for i, v := range c.Variants {
		o := hist.withHistory(variantOptions(v, c.Logger))
		root := repomap.Root{FS: fsys}
		if c.CacheDir != "" {
			// The cache is named by the mirror, and shared by the
			// variants (tags do not depend on the ranking); the files'
			// times stand for their blobs, so an entry holds for the same
			// content in any commit.
			o.CacheDir = c.CacheDir
			root.Dir = dir + "#tasks"
		}
		m, err := repomap.NewRoots([]repomap.Root{root}, &o)
		if err != nil {
			return fmt.Errorf("variant %s: %w", v.Name, err)
		}
		defer m.Close()
		maps[i] = m
	}
	docs := &bm25Docs{}
	parser := tags.NewParser(&tags.ParserOptions{Timeout: repomap.DefaultParseTimeout})
	defer parser.Close()
	defDocs := &bm25Defs{parser: parser}
	for i, t := range todo {
		files, err := e.repo.tree(ctx, t.hash)
		if err != nil {
			return err
		}
		tr := TaskRun{InstanceID: t.InstanceID, Repo: t.Repo, BaseCommit: t.hash}
		for _, g := range t.GoldFiles {
			f, ok := files[g]
			src := false
			if ok && regular(f.mode) {
				if src, err = e.parsed(g, f.oid); err != nil {
					return err
				}
			}
			if src {
				tr.Gold = append(tr.Gold, g)
			} else {
				tr.Dropped = append(tr.Dropped, g)
			}
		}
		slices.Sort(tr.Gold)
		tr.Gold = slices.Compact(tr.Gold)
		if len(tr.Gold) == 0 {
			rep.skip(t.Task, SkipNoGold)
			continue
		}
		fsys.set(newTree(files))
		hist.set(t.hash)
		for v, m := range maps {
			res, err := e.task(ctx, m, t.Task, tr.Gold, files, docs, defDocs)
			if err != nil {
				return fmt.Errorf("task %s: %w", t.InstanceID, err)
			}
			vr := &rep.Variants[v]
			vr.Files += res.stats.files
			vr.Parsed += res.stats.parsed
			vr.Builds += res.stats.builds
			vr.Seconds += sum(res.Seconds)
			vr.BM25Seconds += res.BM25Seconds
			tr.Mentions = res.mentions
			tr.Results = append(tr.Results, res.TaskResult)
		}
		rep.Tasks = append(rep.Tasks, tr)
		c.Logger.Info("eval: task", "n", i+1, "of", len(todo), "repo", t.Repo, "instance", t.InstanceID)
	}
	return nil
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// taskOutcome is what one variant's maps did on one task, with costs.
type taskOutcome struct {
	TaskResult
	mentions Mentioned
	stats    commitStats
}

// task maps the tree set in m's fs at every budget for t, and ranks the
// same files by BM25 and at random, and, when t has gold definitions in
// the files gold, their definitions by BM25.
func (e *evaluator) task(ctx context.Context, m *repomap.Map, t Task, gold []string, files map[string]entry, docs *bm25Docs, defDocs *bm25Defs) (taskOutcome, error) {
	var out taskOutcome
	budgets := e.cfg.Budgets
	ms, err := m.FindMentions(ctx, t.ProblemStatement)
	if err != nil {
		return out, err
	}
	out.mentions = Mentioned{Files: len(ms.Files), Idents: len(ms.Idents)}
	req := repomap.Request{Text: t.ProblemStatement}
	out.Map = newOutcome(len(budgets))
	out.Seconds = make([]float64, len(budgets))
	gdefs := goldDefs(t.GoldSpans, gold)
	var sites *goldSites
	if len(gdefs) > 0 {
		out.Defs = newDefOutcome(gdefs, len(budgets))
		if sites, err = findGoldSites(ctx, defDocs.parser, gdefs, files, e.blobs); err != nil {
			return out, err
		}
	}
	var ranked []string
	for j, b := range budgets {
		req.MaxTokens = b
		start := time.Now()
		r, err := m.Build(ctx, req)
		if err != nil {
			return out, err
		}
		out.Seconds[j] = time.Since(start).Seconds()
		if j == 0 {
			out.stats.files = r.Stats.Files
		}
		out.stats.builds++
		out.stats.parsed += r.Stats.Parsed
		out.Map.record(j, r, gold)
		if out.Defs != nil {
			out.Defs.record(j, r, gdefs, sites)
		}
		ranked = r.Ranked
	}
	out.Map.First = firstWanted(ranked, gold)

	// The baselines rank the source files among the map's ranked list.
	var cands []string
	for _, f := range ranked {
		fe, ok := files[f]
		if !ok || !regular(fe.mode) {
			continue
		}
		if src, err := e.parsed(f, fe.oid); err != nil {
			return out, err
		} else if src {
			cands = append(cands, f)
		}
	}
	start := time.Now()
	bm, err := docs.order(t.ProblemStatement, cands, files, e.blobs)
	if err != nil {
		return out, err
	}
	random := randomOrder(e.cfg.Seed, t.InstanceID, cands)
	out.BM25, out.Random = cutOutcome(bm, gold, out.Map.Files), cutOutcome(random, gold, out.Map.Files)
	if out.Defs != nil {
		if out.Defs.BM25First, out.Defs.BM25Docs, err = defDocs.firstGold(ctx, t.ProblemStatement, gdefs, sites, cands, files, e.blobs); err != nil {
			return out, err
		}
	}
	out.BM25Seconds = time.Since(start).Seconds()
	return out, nil
}

// cutOutcome is the outcome of showing, at each budget, the first files
// of order, as many as the map showed (files[j]) or all of them.
func cutOutcome(order, gold []string, files []int) Outcome {
	o := newOutcome(len(files))
	o.First = firstWanted(order, gold)
	for j, n := range files {
		k := min(n, len(order))
		o.Files[j] = k
		o.Found[j] = countWanted(order[:k], gold)
	}
	return o
}

// bm25Docs are the BM25 documents of the files of the last tree ranked,
// by path and blob, kept for the next tree.
type bm25Docs struct {
	m map[string]termCounts
}

// order returns cands ranked by BM25 against query, each document being
// the file's path, a newline and its contents.
func (d *bm25Docs) order(query string, cands []string, files map[string]entry, bl *blobs) ([]string, error) {
	next := make(map[string]termCounts, len(cands))
	ds := make([]termCounts, len(cands))
	for i, p := range cands {
		key := p + "\x00" + files[p].oid
		tc, ok := d.m[key]
		if !ok {
			data, err := bl.read(files[p].oid)
			if err != nil {
				return nil, err
			}
			tc = countTerms(p + "\n" + string(data))
		}
		next[key] = tc
		ds[i] = tc
	}
	d.m = next
	return rankBM25(query, cands, ds), nil
}
