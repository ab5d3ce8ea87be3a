package eval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

// Defaults and limits.
const (
	// DefaultCommits is how many commits Run evaluates by default.
	DefaultCommits = 50
	// MinFiles and MaxFiles bound the source files a commit must touch
	// (add, modify or delete) to be evaluated.
	MinFiles = 2
	MaxFiles = 20
)

// DefaultBudgets returns the budgets Run maps at by default, in tokens.
func DefaultBudgets() []int { return []int{1024, 2048, 4096, 8192} }

// Config says what Run measures.
type Config struct {
	// Dir is a directory of the git repository: its work tree, a
	// directory in it, or a bare repository. Nothing is written to it.
	Dir string

	// Rev names the commit whose history is read; "" means HEAD.
	Rev string

	// Commits is how many commits to evaluate: the newest that qualify.
	// Zero means DefaultCommits.
	Commits int

	// Budgets are the token budgets of the maps; nil means
	// DefaultBudgets().
	Budgets []int

	// Seed seeds the random baseline; any value, zero included, is a seed.
	Seed int64

	// Variants are the ranking setups to compare, each measured on the
	// same commits in the same run. Nil means one, "default", with
	// repomap's default options.
	Variants []Variant

	// Roles, when not nil, narrows the source files to the files of these
	// roles, as a map of the parent's tree gives them (see repomap.Role):
	// commits qualify, and their wanted files are taken, among those
	// alone, and the random baselines draw from them.
	Roles []repomap.Role

	// SourceOnly maps the source files alone: the tree mapped for a
	// commit holds no other file but the tree's ignore files (.gitignore,
	// repomap.IgnoreFile) and repomap.RolesFile, so that what they leave
	// out, or the roles they give, stay as they were.
	SourceOnly bool

	// Logger receives a line per commit at Info level; nil means none.
	Logger *slog.Logger
}

// Variant is one way of making maps.
type Variant struct {
	// Name names the variant in the report; it must be unique.
	Name string
	// Options returns the options of the variant's repomap.Map; nil, or
	// a nil result, means the defaults. Run then sets the budget of each
	// request, and Refresh to RefreshAlways, over what it returns.
	Options func() *repomap.Options
}

func (c Config) withDefaults() (Config, error) {
	if c.Dir == "" {
		c.Dir = "."
	}
	if c.Rev == "" {
		c.Rev = "HEAD"
	}
	switch {
	case c.Commits < 0:
		return c, fmt.Errorf("eval: Commits %d is negative", c.Commits)
	case c.Commits == 0:
		c.Commits = DefaultCommits
	}
	if c.Budgets == nil {
		c.Budgets = DefaultBudgets()
	}
	if len(c.Budgets) == 0 {
		return c, errors.New("eval: no budget")
	}
	for _, b := range c.Budgets {
		if b <= 0 {
			return c, fmt.Errorf("eval: budget %d is not positive", b)
		}
	}
	c.Budgets = slices.Clone(c.Budgets)
	if c.Variants == nil {
		c.Variants = []Variant{{Name: "default"}}
	}
	names := make(map[string]bool)
	for _, v := range c.Variants {
		if v.Name == "" || names[v.Name] {
			return c, fmt.Errorf("eval: variant name %q is empty or used twice", v.Name)
		}
		names[v.Name] = true
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Why commits are left out, as Report.Skipped counts them.
const (
	SkipRoot     = "root commit"
	SkipFew      = "fewer than 2 source files touched"
	SkipMany     = "more than 20 source files touched"
	SkipFewThere = "fewer than 2 touched source files in the parent"
)

// Run evaluates maps of the repository at cfg.Dir on its own history:
// for each of the newest cfg.Commits commits that qualify, it maps the
// tree as it was before the commit, at each budget, and checks which of
// the files the commit changed the maps show. See the package
// documentation for what qualifies and what is measured.
//
// Run reads the repository with git (which must be on PATH) and never
// writes to it: no checkout, no index update, no object written.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	start := time.Now()
	r := &repo{dir: c.Dir}
	head, err := r.resolve(ctx, c.Rev)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	bl, err := r.openBlobs(ctx)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	e := &evaluator{cfg: c, repo: r, blobs: bl, source: make(map[string]bool), rules: make(map[string]entry)}
	e.parser = tags.NewParser(&tags.ParserOptions{Timeout: repomap.DefaultParseTimeout})
	defer e.parser.Close()
	if c.Roles != nil {
		if e.probe, err = newRoleProbe(bl); err != nil {
			bl.Close()
			return nil, fmt.Errorf("eval: %w", err)
		}
		defer e.probe.Close()
	}
	rep, err := e.run(ctx, head)
	if cerr := bl.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	rep.Seconds = time.Since(start).Seconds()
	if rep.Seconds > 0 {
		rep.CommitsPerSecond = float64(len(rep.Commits)) / rep.Seconds
	}
	return rep, nil
}

// evaluator is one run of Run.
type evaluator struct {
	cfg    Config
	repo   *repo
	blobs  *blobs
	source map[string]bool // parsed of extensionless files, by base name and blob
	parser *tags.Parser    // for the new versions of changed files
	probe  *roleProbe      // with Config.Roles
	rules  map[string]entry
}

func (e *evaluator) run(ctx context.Context, head string) (*Report, error) {
	c := e.cfg
	rep := &Report{Dir: c.Dir, Head: head, Seed: c.Seed, Budgets: c.Budgets, Skipped: make(map[string]int), SourceOnly: c.SourceOnly}
	for _, r := range c.Roles {
		rep.Roles = append(rep.Roles, r.String())
	}

	// The commits: the newest that qualify.
	var picked []*Commit
	var touched [][]change // the source files each changed
	err := e.repo.history(ctx, head, func(cm commit) (bool, error) {
		rep.Scanned++
		p, ch, reason, err := e.pick(ctx, cm)
		if err != nil {
			return false, err
		}
		if reason != "" {
			rep.Skipped[reason]++
			return true, nil
		}
		picked = append(picked, p)
		touched = append(touched, ch)
		return len(picked) < c.Commits, nil
	})
	if err != nil {
		return nil, err
	}

	// One Map per variant over one tree that moves from commit to commit,
	// and its history with it.
	fsys := &treeFS{blobs: e.blobs}
	hist := &histories{dir: e.repo.dir}
	maps := make([]*repomap.Map, len(c.Variants))
	for i, v := range c.Variants {
		o := hist.withHistory(variantOptions(v, c.Logger))
		m, err := repomap.NewFS(fsys, &o)
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		defer m.Close()
		maps[i] = m
		rep.Variants = append(rep.Variants, VariantReport{Name: v.Name})
	}

	for i, p := range picked {
		files, err := e.repo.tree(ctx, p.Parent)
		if err != nil {
			return nil, err
		}
		if c.SourceOnly {
			if files, err = e.sourceTree(ctx, files); err != nil {
				return nil, err
			}
		}
		fsys.set(newTree(files))
		hist.set(p.Parent)
		for v, m := range maps {
			t := time.Now()
			var ch []change
			if v == 0 {
				ch = touched[i] // the first variant finds what the overview wants
			}
			res, st, err := e.commit(ctx, m, p, files, ch)
			if err != nil {
				return nil, fmt.Errorf("commit %s: %w", p.Hash, err)
			}
			vr := &rep.Variants[v]
			vr.Files += st.files
			vr.Parsed += st.parsed
			vr.Builds += st.builds
			vr.Seconds += time.Since(t).Seconds()
			p.Results = append(p.Results, res)
		}
		rep.Commits = append(rep.Commits, *p)
		if len(p.Overview.Defs) > 0 {
			rep.Overview.Commits++
			rep.Overview.Defs += len(p.Overview.Defs)
		}
		rep.Overview.Names.add(p.Overview.Names)
		c.Logger.Info("eval: commit", "n", i+1, "of", len(picked), "hash", short(p.Hash), "subject", p.Subject)
	}
	for v := range rep.Variants {
		rep.Variants[v].Focus = aggregate(rep.Commits, v, c.Budgets, true)
		rep.Variants[v].Message = aggregate(rep.Commits, v, c.Budgets, false)
		rep.Variants[v].Overview = aggregateOverview(rep.Commits, v, c.Budgets)
	}
	return rep, nil
}

// sourceTree returns the source files of files, with the tree's ignore
// files and RolesFile.
func (e *evaluator) sourceTree(ctx context.Context, files map[string]entry) (map[string]entry, error) {
	rules := files[repomap.RolesFile]
	out := make(map[string]entry)
	for p, f := range files {
		if path.Base(p) == ".gitignore" || p == repomap.IgnoreFile || p == repomap.RolesFile {
			out[p] = f
			continue
		}
		if !regular(f.mode) {
			continue
		}
		src, err := e.isSource(ctx, p, f, rules)
		if err != nil {
			return nil, err
		}
		if src {
			out[p] = f
		}
	}
	return out, nil
}

// rulesOf returns the entry of the RolesFile of the tree of rev; the zero
// entry when it has none.
func (e *evaluator) rulesOf(ctx context.Context, rev string) (entry, error) {
	if f, ok := e.rules[rev]; ok {
		return f, nil
	}
	out, err := e.repo.output(ctx, "ls-tree", "-z", "-l", "--full-tree", rev, "--", repomap.RolesFile)
	if err != nil {
		return entry{}, err
	}
	var f entry
	if meta, _, ok := strings.Cut(string(out), "\t"); ok {
		if fields := strings.Fields(meta); len(fields) == 4 && fields[1] == "blob" {
			size, _ := strconv.ParseInt(fields[3], 10, 64)
			f = entry{mode: fields[0], oid: fields[2], size: size}
		}
	}
	e.rules[rev] = f
	return f, nil
}

// pick returns the commit as evaluated, with the source files it
// changed, or why it is not evaluated.
func (e *evaluator) pick(ctx context.Context, cm commit) (*Commit, []change, string, error) {
	if len(cm.parents) == 0 {
		return nil, nil, SkipRoot, nil
	}
	var rules entry
	if e.cfg.Roles != nil {
		var err error
		if rules, err = e.rulesOf(ctx, cm.parents[0]); err != nil {
			return nil, nil, "", err
		}
	}
	var touched []change
	var wanted []string
	for _, ch := range cm.changes {
		before, after := regular(ch.oldMode), regular(ch.newMode)
		if !before && !after {
			continue
		}
		f := entry{mode: ch.newMode, oid: ch.newOID}
		if before {
			f = entry{mode: ch.oldMode, oid: ch.oldOID}
		}
		src, err := e.isSource(ctx, ch.path, f, rules)
		if err != nil {
			return nil, nil, "", err
		}
		if !src {
			continue
		}
		touched = append(touched, ch)
		if before {
			wanted = append(wanted, ch.path)
		}
	}
	switch {
	case len(touched) < MinFiles:
		return nil, nil, SkipFew, nil
	case len(touched) > MaxFiles:
		return nil, nil, SkipMany, nil
	case len(wanted) < 2:
		return nil, nil, SkipFewThere, nil
	}
	slices.Sort(wanted)
	wanted = slices.Compact(wanted)
	subject, _, _ := strings.Cut(strings.TrimSpace(cm.message), "\n")
	return &Commit{Hash: cm.hash, Parent: cm.parents[0], Subject: subject, Message: withoutTrailers(cm.message), Wanted: wanted, Focus: wanted[0]}, touched, "", nil
}

// regular reports whether a git file mode is a regular file's.
func regular(mode string) bool { return mode == "100644" || mode == "100755" }

// isSource reports whether the file at p, f, is a source file: one
// repomap parses (see parsed) and, with Config.Roles, of one of those
// roles in a tree whose RolesFile is rules.
func (e *evaluator) isSource(ctx context.Context, p string, f entry, rules entry) (bool, error) {
	src, err := e.parsed(p, f.oid)
	if err != nil || !src || e.cfg.Roles == nil {
		return src, err
	}
	r, ok, err := e.probe.role(ctx, p, f, rules)
	if err != nil {
		return false, err
	}
	return ok && slices.Contains(e.cfg.Roles, r), nil
}

// parsed reports whether repomap parses the file at p with content
// oid, deciding as the map does: by name and extension, and for a file
// without extension by its first line too.
func (e *evaluator) parsed(p, oid string) (bool, error) {
	if tags.Detect(p, nil) != "" {
		return true, nil
	}
	if path.Ext(p) != "" {
		return false, nil
	}
	key := path.Base(p) + "\x00" + oid
	if src, ok := e.source[key]; ok {
		return src, nil
	}
	data, err := e.blobs.read(oid)
	if err != nil {
		return false, err
	}
	src := tags.Detect(p, data) != ""
	e.source[key] = src
	return src, nil
}

// commitStats is what mapping one commit cost.
type commitStats struct{ files, parsed, builds int }

// commit maps the tree before p for each question and baseline at every
// budget with m, and returns the outcomes. With touched, the source
// files p changed, it sets p.Overview first, from m's definitions.
func (e *evaluator) commit(ctx context.Context, m *repomap.Map, p *Commit, files map[string]entry, touched []change) (CommitResult, commitStats, error) {
	var st commitStats
	budgets := e.cfg.Budgets
	build := func(req repomap.Request, b int) (*repomap.Result, error) {
		req.MaxTokens = b
		res, err := m.Build(ctx, req)
		if err != nil {
			return nil, err
		}
		if st.builds == 0 {
			st.files = res.Stats.Files
		}
		st.builds++
		st.parsed += res.Stats.Parsed
		return res, nil
	}
	rules := files[repomap.RolesFile]
	isSource := func(q string) bool {
		f, ok := files[q]
		if !ok || !regular(f.mode) {
			return false
		}
		src, err := e.isSource(ctx, q, f, rules)
		return err == nil && src
	}

	ms, err := m.FindMentions(ctx, p.Message)
	if err != nil {
		return CommitResult{}, st, err
	}
	questions := []struct {
		req    repomap.Request
		wanted []string
		out    *Outcomes
	}{
		{repomap.Request{Focus: []string{p.Focus}}, p.Wanted[1:], nil},
		{repomap.Request{Text: p.Message}, p.Wanted, nil},
	}
	var res CommitResult
	questions[0].out, questions[1].out = &res.Focus, &res.Message
	for _, q := range questions {
		q.out.Map = newOutcome(len(budgets))
		var ranked []string
		for j, b := range budgets {
			r, err := build(q.req, b)
			if err != nil {
				return res, st, err
			}
			q.out.Map.record(j, r, q.wanted)
			ranked = r.Ranked
		}
		q.out.Map.First = firstWanted(ranked, q.wanted)

		// The random baseline shows as many files as the map did, from a
		// random order of the source files the map could have shown.
		var cands []string
		for _, f := range ranked {
			if isSource(f) {
				cands = append(cands, f)
			}
		}
		order := randomOrder(e.cfg.Seed, p.Hash, cands)
		q.out.Random = newOutcome(len(budgets))
		q.out.Random.First = firstWanted(order, q.wanted)
		for j := range budgets {
			k := min(q.out.Map.Files[j], len(order))
			q.out.Random.Files[j] = k
			q.out.Random.Found[j] = countWanted(order[:k], q.wanted)
		}
	}

	// The unpersonalized map answers both questions; for the focus
	// question the focus file is taken out of its ranked list. It is the
	// overview map too.
	res.Focus.PageRank = newOutcome(len(budgets))
	res.Message.PageRank = newOutcome(len(budgets))
	var ranked []string
	overviews := make([]*repomap.Result, len(budgets))
	for j, b := range budgets {
		r, err := build(repomap.Request{}, b)
		if err != nil {
			return res, st, err
		}
		res.Focus.PageRank.record(j, r, questions[0].wanted)
		res.Message.PageRank.record(j, r, questions[1].wanted)
		ranked = r.Ranked
		overviews[j] = r
	}
	res.Focus.PageRank.First = firstWanted(slices.DeleteFunc(slices.Clone(ranked), func(f string) bool { return f == p.Focus }), questions[0].wanted)
	res.Message.PageRank.First = firstWanted(ranked, questions[1].wanted)

	// The overview: what the added lines use, after the maps, which
	// have read the tree.
	if touched != nil {
		if p.Overview, err = e.overviewWanted(ctx, m, p, touched); err != nil {
			return res, st, err
		}
	}
	wanted := p.Overview.Defs
	res.Overview.Map = newOverviewOutcome(len(budgets))
	for j, r := range overviews {
		res.Overview.Map.record(j, r, wanted)
	}
	res.Overview.Map.First = firstHolding(ranked, wanted)
	var cands []string
	for _, f := range ranked {
		if isSource(f) {
			cands = append(cands, f)
		}
	}
	order := randomOrder(e.cfg.Seed, p.Hash, cands)
	res.Overview.Random = newOverviewOutcome(len(budgets))
	res.Overview.Random.First = firstHolding(order, wanted)
	for j := range budgets {
		k := min(res.Overview.Map.Files[j], len(order))
		res.Overview.Random.Files[j] = k
		res.Overview.Random.InFiles[j] = countHeld(order[:k], wanted)
	}
	if len(ms.Files) > 0 {
		p.Mentioned = ms.Files
	}
	return res, st, nil
}

func newOutcome(n int) Outcome {
	return Outcome{Found: make([]int, n), Files: make([]int, n), Tokens: make([]int, n)}
}

// record notes what the map r, made at the j-th budget, shows.
func (o *Outcome) record(j int, r *repomap.Result, wanted []string) {
	shown := make([]string, len(r.Files))
	for i, f := range r.Files {
		shown[i] = f.Path
	}
	o.Found[j] = countWanted(shown, wanted)
	o.Files[j] = len(r.Files)
	o.Tokens[j] = r.Tokens
}

// countWanted returns how many of wanted are in files.
func countWanted(files, wanted []string) int {
	n := 0
	for _, f := range files {
		if slices.Contains(wanted, f) {
			n++
		}
	}
	return n
}

// firstWanted returns the 1-based position in list of its first wanted
// file, or 0 when it has none.
func firstWanted(list, wanted []string) int {
	for i, f := range list {
		if slices.Contains(wanted, f) {
			return i + 1
		}
	}
	return 0
}

// randomOrder returns files in the random baseline's order for the
// commit: by the SHA-256 of "<seed>\x00<commit>\x00<path>", then by path.
// It depends on nothing else, so that anyone can recompute it.
func randomOrder(seed int64, commit string, files []string) []string {
	type keyed struct {
		key  [sha256.Size]byte
		path string
	}
	ks := make([]keyed, len(files))
	prefix := strconv.FormatInt(seed, 10) + "\x00" + commit + "\x00"
	for i, f := range files {
		ks[i] = keyed{sha256.Sum256([]byte(prefix + f)), f}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := bytes.Compare(a.key[:], b.key[:]); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.path
	}
	return out
}
