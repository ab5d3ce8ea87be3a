package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/repomap-dev/repomap/repomap"
)

// DefaultCanonBudgets returns the budgets Canon maps at by default.
func DefaultCanonBudgets() []int { return []int{2048, 4096} }

// Canon is the central API of one repository, as its own documentation
// presents it to a newcomer: the names that a map of the repository with
// no focus and no request should show. ReadCanons reads canons from
// files; RunCanons measures how many of their names the maps show.
type Canon struct {
	Repo     string `json:"repo"`     // owner/name
	Commit   string `json:"commit"`   // the commit mapped
	Language string `json:"language"` // the main language, for the report
	// Within, when not empty, holds globs (the syntax of
	// repomap.Options.Exclude) of the files whose definitions count: the
	// library's own, so that a method of the same name in an example or
	// a test does not.
	Within []string    `json:"within,omitempty"`
	Names  []CanonName `json:"names"`
}

// CanonName is one name of a canon.
type CanonName struct {
	Name   string `json:"name"`
	Source string `json:"source"` // where the documentation shows it
}

var (
	repoName   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	commitHash = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// check reports what is wrong with c, if anything.
func (c *Canon) check() error {
	if !repoName.MatchString(c.Repo) || strings.Contains(c.Repo, "..") {
		return fmt.Errorf("repo %q is not owner/name", c.Repo)
	}
	if !commitHash.MatchString(c.Commit) {
		return fmt.Errorf("commit %q is not 40 lowercase hex digits", c.Commit)
	}
	for _, g := range c.Within {
		if !doublestar.ValidatePattern(g) {
			return fmt.Errorf("within: bad glob %q", g)
		}
	}
	if len(c.Names) == 0 {
		return errors.New("no names")
	}
	seen := make(map[string]bool)
	for _, n := range c.Names {
		if n.Name == "" || strings.ContainsAny(n.Name, " \t\n.!") {
			return fmt.Errorf("name %q is not an identifier", n.Name)
		}
		if seen[n.Name] {
			return fmt.Errorf("name %q is there twice", n.Name)
		}
		seen[n.Name] = true
	}
	return nil
}

// counts reports whether definitions in the file at p count for c.
func (c *Canon) counts(p string) bool {
	if len(c.Within) == 0 {
		return true
	}
	for _, g := range c.Within {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// ReadCanons reads the canons of the *.json files of dir, in the order of
// their names, and checks them: a repository named owner/name, a commit
// of 40 lowercase hex digits, valid globs, and names that are
// identifiers, each once. A file holds one canon as a JSON object with
// the fields of Canon:
//
//	{
//	  "repo": "owner/name",
//	  "commit": "<40 hex digits>",
//	  "language": "Go",
//	  "within": ["*.go"],
//	  "names": [{"name": "NewProgram", "source": "README, All Together Now"}]
//	}
//
// Two canons of one repository are an error.
func ReadCanons(dir string) ([]Canon, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("eval: no canon (*.json) in %s", dir)
	}
	slices.Sort(paths)
	var cs []Canon
	repos := make(map[string]string)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		var c Canon
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("eval: canon %s: %w", p, err)
		}
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("eval: canon %s: %w", p, err)
		}
		if other, ok := repos[c.Repo]; ok {
			return nil, fmt.Errorf("eval: canons %s and %s are both of %s", other, p, c.Repo)
		}
		repos[c.Repo] = p
		cs = append(cs, c)
	}
	return cs, nil
}

// CanonConfig says what Canon measures.
type CanonConfig struct {
	// Canons are the canons to measure, as ReadCanons returns them.
	Canons []Canon

	// Repos is the directory of the repositories: the canon of owner/name
	// is measured on the git repository (bare, or with a work tree) at
	// Repos/owner/name, whose object store must hold the canon's commit.
	// The tree of that commit is read from the object store; nothing is
	// checked out and nothing is written.
	Repos string

	// Budgets are the token budgets of the maps; nil means
	// DefaultCanonBudgets().
	Budgets []int

	// Variants are the ranking setups to compare, as for Run; nil means
	// one, "default", with repomap's default options.
	Variants []Variant

	// Logger receives a line per repository at Info level; nil means none.
	Logger *slog.Logger
}

// CanonReport is what RunCanons measured.
type CanonReport struct {
	Budgets  []int          `json:"budgets"`
	Variants []string       `json:"variants"`
	Repos    []CanonOutcome `json:"repos"`
	Seconds  float64        `json:"seconds"`
}

// CanonOutcome is how the maps of one repository did on its canon.
type CanonOutcome struct {
	Repo     string `json:"repo"`
	Commit   string `json:"commit"`
	Language string `json:"language"`
	Names    int    `json:"names"` // the names of the canon
	Files    int    `json:"files"` // the files of the tree the map found
	// Undefined are the canon's names that no file it counts defines
	// (as Map.Definitions finds them), in the canon's order: no map can
	// show them, at any budget.
	Undefined []string `json:"undefined"`
	// Maps has one entry per variant and budget, variant by variant.
	Maps []CanonMap `json:"maps"`
}

// CanonMap is what one map showed of a canon.
type CanonMap struct {
	Variant string `json:"variant"`
	Budget  int    `json:"budget"`
	Tokens  int    `json:"tokens"`
	// Shown and Missing are the canon's names the map shows and does
	// not, in the canon's order.
	Shown   []string `json:"shown"`
	Missing []string `json:"missing"`
	// Where gives, for each name shown, the first file in map order that
	// shows it.
	Where map[string]string `json:"where"`
	// Files are the files the map shows, in its order; Top are the five
	// best-ranked files of the tree.
	Files []string `json:"files"`
	Top   []string `json:"top"`
}

// RunCanons maps the tree of each canon's commit with no focus and no
// request, at every budget and for every variant, and counts the canon's
// names that the maps show.
//
// A name is shown when a file the map shows (repomap.Result.Files) shows
// a definition (FileResult.Defs) whose name is the canon's name, exactly
// and case-sensitively, and the file's path matches a glob of
// Canon.Within (any file does when Within is empty). A method or a field
// is written by its own name ("Run", not "Program.Run"), a macro without
// its "!" ("json", not "json!"). A name counts once however many files
// show it.
func RunCanons(ctx context.Context, cfg CanonConfig) (*CanonReport, error) {
	start := time.Now()
	if len(cfg.Canons) == 0 {
		return nil, errors.New("eval: no canon")
	}
	if cfg.Repos == "" {
		return nil, errors.New("eval: no directory of repositories")
	}
	budgets := cfg.Budgets
	if budgets == nil {
		budgets = DefaultCanonBudgets()
	}
	// The checks and defaults of Run's budgets, variants and logger.
	c, err := Config{Budgets: budgets, Variants: cfg.Variants, Logger: cfg.Logger}.withDefaults()
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	rep := &CanonReport{Budgets: c.Budgets}
	for _, v := range c.Variants {
		rep.Variants = append(rep.Variants, v.Name)
	}
	for i := range cfg.Canons {
		cn := &cfg.Canons[i]
		if err := cn.check(); err != nil {
			return nil, fmt.Errorf("eval: canon of %s: %w", cn.Repo, err)
		}
		t := time.Now()
		out, err := measureCanon(ctx, cn, filepath.Join(cfg.Repos, filepath.FromSlash(cn.Repo)), c)
		if err != nil {
			return nil, fmt.Errorf("eval: canon of %s: %w", cn.Repo, err)
		}
		rep.Repos = append(rep.Repos, *out)
		c.Logger.Info("eval: canon", "repo", cn.Repo, "files", out.Files, "seconds", time.Since(t).Seconds())
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// measureCanon maps the tree of cn's commit in the repository at dir.
func measureCanon(ctx context.Context, cn *Canon, dir string, c Config) (_ *CanonOutcome, err error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	r := &repo{dir: dir}
	hash, err := r.resolve(ctx, cn.Commit)
	if err != nil {
		return nil, err
	}
	files, err := r.tree(ctx, hash)
	if err != nil {
		return nil, err
	}
	bl, err := r.openBlobs(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := bl.Close(); err == nil {
			err = cerr
		}
	}()
	fsys := &treeFS{blobs: bl}
	fsys.set(newTree(files))

	out := &CanonOutcome{Repo: cn.Repo, Commit: hash, Language: cn.Language, Names: len(cn.Names)}
	for i, v := range c.Variants {
		if err := canonMaps(ctx, fsys, cn, v, c, out, i == 0); err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
	}
	return out, nil
}

// canonMaps makes the maps of variant v at every budget and adds what
// they show of cn to out; with first, it sets out's Files and Undefined
// as well.
func canonMaps(ctx context.Context, fsys *treeFS, cn *Canon, v Variant, c Config, out *CanonOutcome, first bool) error {
	o := variantOptions(v, c.Logger)
	m, err := repomap.NewFS(fsys, &o)
	if err != nil {
		return err
	}
	defer m.Close()
	for _, b := range c.Budgets {
		res, err := m.Build(ctx, repomap.Request{MaxTokens: b})
		if err != nil {
			return err
		}
		out.Files = res.Stats.Files
		cm := matchCanon(cn, res)
		cm.Variant, cm.Budget = v.Name, b
		out.Maps = append(out.Maps, cm)
	}
	if !first {
		return nil
	}
	names := make([]string, len(cn.Names))
	for i, n := range cn.Names {
		names[i] = n.Name
	}
	defs, err := m.Definitions(ctx, names...)
	if err != nil {
		return err
	}
	defined := make(map[string]bool)
	for _, d := range defs {
		if cn.counts(d.Path) {
			defined[d.Name] = true
		}
	}
	for _, n := range names {
		if !defined[n] {
			out.Undefined = append(out.Undefined, n)
		}
	}
	return nil
}

// variantOptions returns the options of v's maps: its own, without a
// budget (each request has one) and always made anew.
func variantOptions(v Variant, logger *slog.Logger) repomap.Options {
	var o repomap.Options
	if v.Options != nil {
		if p := v.Options(); p != nil {
			o = *p
		}
	}
	o.MaxTokens = 0
	o.Refresh = repomap.RefreshAlways
	if o.Logger == nil {
		o.Logger = logger
	}
	return o
}

// matchCanon returns what the map res shows of cn's names.
func matchCanon(cn *Canon, res *repomap.Result) CanonMap {
	cm := CanonMap{Tokens: res.Tokens, Where: make(map[string]string)}
	for _, f := range res.Files {
		cm.Files = append(cm.Files, f.Path)
		if !cn.counts(f.Path) {
			continue
		}
		for _, d := range f.Defs {
			if _, ok := cm.Where[d.Name]; !ok && slices.ContainsFunc(cn.Names, func(n CanonName) bool { return n.Name == d.Name }) {
				cm.Where[d.Name] = f.Path
			}
		}
	}
	for _, n := range cn.Names {
		if _, ok := cm.Where[n.Name]; ok {
			cm.Shown = append(cm.Shown, n.Name)
		} else {
			cm.Missing = append(cm.Missing, n.Name)
		}
	}
	cm.Top = res.Ranked[:min(5, len(res.Ranked))]
	return cm
}

// WriteText writes the report as text: a table with a row per repository
// and variant, with the canon's names defined in the tree and those shown
// at each budget, then, per repository, the names no file defines, and
// for each map the names missing, the first five files of the map and
// the five best-ranked files.
func (r *CanonReport) WriteText(w io.Writer) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "repository\tlanguage\tcommit\tfiles\tdefined\tvariant")
	for _, bud := range r.Budgets {
		fmt.Fprintf(tw, "\t@%d", bud)
	}
	fmt.Fprint(tw, "\n")
	for _, o := range r.Repos {
		for _, v := range r.Variants {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d/%d\t%s", o.Repo, o.Language, short(o.Commit), o.Files, o.Names-len(o.Undefined), o.Names, v)
			for _, m := range o.Maps {
				if m.Variant == v {
					fmt.Fprintf(tw, "\t%d/%d", len(m.Shown), o.Names)
				}
			}
			fmt.Fprint(tw, "\n")
		}
	}
	tw.Flush()
	for _, o := range r.Repos {
		fmt.Fprintf(&b, "\n%s\n", o.Repo)
		if len(o.Undefined) > 0 {
			fmt.Fprintf(&b, "  defined by no file counted: %s\n", orNone(o.Undefined))
		}
		for _, m := range o.Maps {
			fmt.Fprintf(&b, "  %s @%d (%d tokens, %d files): missing %s\n", m.Variant, m.Budget, m.Tokens, len(m.Files), orNone(m.Missing))
			fmt.Fprintf(&b, "    opens with %s\n", orNone(m.Files[:min(5, len(m.Files))]))
			fmt.Fprintf(&b, "    top ranked %s\n", orNone(m.Top))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
