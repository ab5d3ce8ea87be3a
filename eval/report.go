package eval

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// Report is what Run measured.
type Report struct {
	Dir     string `json:"dir"`
	Head    string `json:"head"` // the commit whose history was read
	Seed    int64  `json:"seed"`
	Budgets []int  `json:"budgets"`
	// Roles are Config.Roles, by name; SourceOnly is Config.SourceOnly.
	Roles      []string `json:"roles,omitempty"`
	SourceOnly bool     `json:"source_only,omitempty"`

	// Scanned counts the non-merge commits looked at; Skipped counts
	// those left out, by reason (SkipRoot…).
	Scanned int            `json:"scanned"`
	Skipped map[string]int `json:"skipped"`

	// Commits are the commits evaluated, newest first.
	Commits []Commit `json:"commits"`
	// Variants hold the figures, one per Config.Variants entry.
	Variants []VariantReport `json:"variants"`
	// Overview sums what the overview question wanted of the commits.
	Overview OverviewSummary `json:"overview"`

	Seconds          float64 `json:"seconds"` // the whole run
	CommitsPerSecond float64 `json:"commits_per_second"`
}

// Commit is one commit evaluated.
type Commit struct {
	Hash    string `json:"hash"`
	Parent  string `json:"parent"` // the tree mapped is this commit's
	Subject string `json:"subject"`
	// Message is the commit message without its trailers
	// (withoutTrailers): the user's words of the message question.
	Message string `json:"-"`
	// Wanted are the source files the commit modified or deleted, which
	// were in the parent, by path.
	Wanted []string `json:"wanted"`
	// Focus is the focus file of the focus question: Wanted[0].
	Focus string `json:"focus"`
	// Mentioned are the files the message mentions, as
	// repomap.Map.FindMentions finds them.
	Mentioned []string `json:"mentioned,omitempty"`
	// Overview is what the overview question wants of the commit.
	Overview OverviewWanted `json:"overview"`
	// Results holds the outcomes, one per variant.
	Results []CommitResult `json:"results"`
}

// OverviewSummary sums the overview question's wanted definitions over
// the commits evaluated.
type OverviewSummary struct {
	// Commits counts the commits that want a definition: the overview's
	// means are over them alone.
	Commits int `json:"commits"`
	// Defs counts the definitions wanted, summed over the commits.
	Defs int `json:"defs"`
	// Names sums the commits' counts of names.
	Names OverviewNames `json:"names"`
}

// CommitResult is how one variant did on one commit.
type CommitResult struct {
	Focus    Outcomes         `json:"focus"`
	Message  Outcomes         `json:"message"`
	Overview OverviewOutcomes `json:"overview"`
}

// Outcomes are the outcomes of the map and its baselines for one question.
type Outcomes struct {
	Map      Outcome `json:"map"`
	Random   Outcome `json:"random"`
	PageRank Outcome `json:"pagerank"`
}

// Outcome is what one map, or baseline, showed of the wanted files.
type Outcome struct {
	// First is the 1-based position of the first wanted file in the
	// ranked list of files; 0 when the list has none.
	First int `json:"first"`
	// Found, Files and Tokens have one entry per budget: the wanted files
	// the map shows, all the files it shows, and its tokens (0 for the
	// random baseline, which has no text).
	Found  []int `json:"found"`
	Files  []int `json:"files"`
	Tokens []int `json:"tokens"`
}

// VariantReport holds one variant's figures and costs.
type VariantReport struct {
	Name string `json:"name"`
	// Focus, Message and Overview have a row per budget.
	Focus    []Row         `json:"focus"`
	Message  []Row         `json:"message"`
	Overview []OverviewRow `json:"overview"`

	// Files sums the files of the trees mapped, one tree per commit;
	// Parsed sums the files whose tags were computed, the others' being
	// reused from the commit before. Builds counts the maps made.
	Files   int     `json:"files"`
	Parsed  int     `json:"parsed"`
	Builds  int     `json:"builds"`
	Seconds float64 `json:"seconds"` // time spent making its maps
}

// Row holds the figures of one question at one budget.
type Row struct {
	Budget   int     `json:"budget"`
	Map      Metrics `json:"map"`
	Random   Metrics `json:"random"`
	PageRank Metrics `json:"pagerank"`
}

// Metrics are means over the commits evaluated.
type Metrics struct {
	// Recall is the mean share of the wanted files that the map shows.
	Recall float64 `json:"recall"`
	// HitRate is the share of commits whose map shows a wanted file.
	HitRate float64 `json:"hit_rate"`
	// MRR is the mean of 1/First, counting 0 when First is 0. It does not
	// depend on the budget: the ranked list does not.
	MRR float64 `json:"mrr"`
	// Tokens is the mean length of the map (0 for the random baseline).
	Tokens float64 `json:"tokens"`
	// Files is the mean number of files the map shows.
	Files float64 `json:"files"`
}

// OverviewRow holds the figures of the overview question at one budget.
type OverviewRow struct {
	Budget int             `json:"budget"`
	Map    OverviewMetrics `json:"map"`
	Random OverviewMetrics `json:"random"`
}

// OverviewMetrics are means over the commits that want a definition
// (OverviewSummary.Commits).
type OverviewMetrics struct {
	// Recall is the mean share of the wanted definitions whose lines the
	// map shows; 0 for the random baseline, which shows no lines.
	Recall float64 `json:"recall"`
	// FileRecall is the mean share of the wanted definitions in the
	// files the map shows.
	FileRecall float64 `json:"file_recall"`
	// MRR is the mean of 1/First, counting 0 when First is 0.
	MRR float64 `json:"mrr"`
	// Tokens, Files and Defs are the mean tokens, files and definitions
	// the map shows (tokens and definitions 0 for the random baseline).
	Tokens float64 `json:"tokens"`
	Files  float64 `json:"files"`
	Defs   float64 `json:"defs"`
}

// aggregateOverview returns the overview rows of variant v.
func aggregateOverview(commits []Commit, v int, budgets []int) []OverviewRow {
	rows := make([]OverviewRow, len(budgets))
	for j, b := range budgets {
		rows[j].Budget = b
		for _, m := range []struct {
			dst *OverviewMetrics
			get func(*OverviewOutcomes) *OverviewOutcome
		}{
			{&rows[j].Map, func(o *OverviewOutcomes) *OverviewOutcome { return &o.Map }},
			{&rows[j].Random, func(o *OverviewOutcomes) *OverviewOutcome { return &o.Random }},
		} {
			var sum OverviewMetrics
			n := 0
			for _, c := range commits {
				wanted := len(c.Overview.Defs)
				if wanted == 0 {
					continue
				}
				n++
				o := m.get(&c.Results[v].Overview)
				sum.Recall += float64(o.Found[j]) / float64(wanted)
				sum.FileRecall += float64(o.InFiles[j]) / float64(wanted)
				if o.First > 0 {
					sum.MRR += 1 / float64(o.First)
				}
				sum.Tokens += float64(o.Tokens[j])
				sum.Files += float64(o.Files[j])
				sum.Defs += float64(o.Defs[j])
			}
			if n > 0 {
				f := float64(n)
				sum.Recall /= f
				sum.FileRecall /= f
				sum.MRR /= f
				sum.Tokens /= f
				sum.Files /= f
				sum.Defs /= f
			}
			*m.dst = sum
		}
	}
	return rows
}

// aggregate returns the rows of variant v for the focus question, or
// the message question.
func aggregate(commits []Commit, v int, budgets []int, focus bool) []Row {
	rows := make([]Row, len(budgets))
	for j, b := range budgets {
		rows[j].Budget = b
		for _, m := range []struct {
			dst *Metrics
			get func(*Outcomes) *Outcome
		}{
			{&rows[j].Map, func(o *Outcomes) *Outcome { return &o.Map }},
			{&rows[j].Random, func(o *Outcomes) *Outcome { return &o.Random }},
			{&rows[j].PageRank, func(o *Outcomes) *Outcome { return &o.PageRank }},
		} {
			var sum Metrics
			for _, c := range commits {
				res := &c.Results[v].Message
				wanted := len(c.Wanted)
				if focus {
					res = &c.Results[v].Focus
					wanted--
				}
				o := m.get(res)
				sum.Recall += float64(o.Found[j]) / float64(wanted)
				if o.Found[j] > 0 {
					sum.HitRate++
				}
				if o.First > 0 {
					sum.MRR += 1 / float64(o.First)
				}
				sum.Tokens += float64(o.Tokens[j])
				sum.Files += float64(o.Files[j])
			}
			if n := float64(len(commits)); n > 0 {
				sum.Recall /= n
				sum.HitRate /= n
				sum.MRR /= n
				sum.Tokens /= n
				sum.Files /= n
			}
			*m.dst = sum
		}
	}
	return rows
}

// WriteText writes the report as text: what was evaluated, then for each
// variant a table per question with a row per budget.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "repository  %s at %s\n", r.Dir, short(r.Head))
	fmt.Fprintf(&b, "commits     %d evaluated of %d non-merge commits scanned", len(r.Commits), r.Scanned)
	writeSkipped(&b, r.Skipped)
	if len(r.Roles) > 0 || r.SourceOnly {
		what := "every role"
		if len(r.Roles) > 0 {
			what = strings.Join(r.Roles, ", ")
		}
		tree := "the whole tree mapped"
		if r.SourceOnly {
			tree = "the source files alone mapped"
		}
		fmt.Fprintf(&b, "source      files of %s; %s\n", what, tree)
	}
	fmt.Fprintf(&b, "seed        %d\n", r.Seed)
	fmt.Fprintf(&b, "time        %.1fs, %.2f commits/s\n", r.Seconds, r.CommitsPerSecond)
	if len(r.Commits) == 0 {
		b.WriteString("\nno commit to evaluate\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	for _, v := range r.Variants {
		reused := 0.0
		if v.Files > 0 {
			reused = 100 * float64(v.Files-v.Parsed) / float64(v.Files)
		}
		fmt.Fprintf(&b, "\nvariant %s: %d maps in %.1fs; tags computed for %d of %d files (%.1f%% reused)\n",
			v.Name, v.Builds, v.Seconds, v.Parsed, v.Files, reused)
		b.WriteString("\nfocus: the first changed file is the focus; wanted: the other changed files\n")
		writeRows(&b, v.Focus)
		b.WriteString("\nmessage: the commit message is the text, no focus; wanted: the changed files\n")
		writeRows(&b, v.Message)
		fmt.Fprintf(&b, "\noverview: no focus, no request; wanted: the definitions in other files that the added lines use (%d commits)\n", r.Overview.Commits)
		writeOverviewRows(&b, v.Overview)
	}
	n := r.Overview.Names
	fmt.Fprintf(&b, "\noverview: %d definitions wanted by %d of %d commits; of %d names referred to on added lines, %d resolved (defined in 1 to %d other files), %d common (more), %d undefined elsewhere, %d defined by the referring file\n",
		r.Overview.Defs, r.Overview.Commits, len(r.Commits), n.Referred, n.Resolved, MaxDefiners, n.Common, n.Undefined, n.Local)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRows(b *strings.Builder, rows []Row) {
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\tmap\t\t\t\t\t\trandom\t\t\t\tpagerank\t\t\t\t\t\n")
	fmt.Fprint(tw, "budget\trecall\thit\tMRR\ttokens\tfiles\t\trecall\thit\tMRR\t\trecall\thit\tMRR\ttokens\tfiles\t\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%.3f\t%.3f\t%.3f\t%.0f\t%.1f\t\t%.3f\t%.3f\t%.3f\t\t%.3f\t%.3f\t%.3f\t%.0f\t%.1f\t\n",
			r.Budget,
			r.Map.Recall, r.Map.HitRate, r.Map.MRR, r.Map.Tokens, r.Map.Files,
			r.Random.Recall, r.Random.HitRate, r.Random.MRR,
			r.PageRank.Recall, r.PageRank.HitRate, r.PageRank.MRR, r.PageRank.Tokens, r.PageRank.Files)
	}
	tw.Flush()
	trimLines(b, buf.String())
}

func writeOverviewRows(b *strings.Builder, rows []OverviewRow) {
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\tmap\t\t\t\t\t\t\trandom\t\t\t\n")
	fmt.Fprint(tw, "budget\trecall\tin files\tMRR\ttokens\tfiles\tdefs\t\tin files\tMRR\tfiles\t\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%.3f\t%.3f\t%.3f\t%.0f\t%.1f\t%.1f\t\t%.3f\t%.3f\t%.1f\t\n",
			r.Budget,
			r.Map.Recall, r.Map.FileRecall, r.Map.MRR, r.Map.Tokens, r.Map.Files, r.Map.Defs,
			r.Random.FileRecall, r.Random.MRR, r.Random.Files)
	}
	tw.Flush()
	trimLines(b, buf.String())
}

// writeSkipped writes "; skipped: " and the counts of skipped, by
// reason, then a newline; only the newline when skipped is empty.
func writeSkipped(b *strings.Builder, skipped map[string]int) {
	if len(skipped) > 0 {
		reasons := slices.Sorted(maps.Keys(skipped))
		parts := make([]string, len(reasons))
		for i, k := range reasons {
			parts[i] = fmt.Sprintf("%d %s", skipped[k], k)
		}
		fmt.Fprintf(b, "; skipped: %s", strings.Join(parts, ", "))
	}
	b.WriteString("\n")
}

func short(hash string) string { return hash[:min(12, len(hash))] }
