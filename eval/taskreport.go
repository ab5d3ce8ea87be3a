package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// TaskReport is what RunTasks measured.
type TaskReport struct {
	Seed    int64 `json:"seed"`
	Budgets []int `json:"budgets"`

	// Selected counts the tasks the filters kept; Skipped counts those of
	// them left out, by reason (SkipNoMirror…), and SkippedTasks names
	// them.
	Selected     int            `json:"selected"`
	Skipped      map[string]int `json:"skipped"`
	SkippedTasks []SkippedTask  `json:"skipped_tasks,omitempty"`

	// Tasks are the tasks evaluated: by repository, then by the time of
	// their base commit.
	Tasks []TaskRun `json:"tasks"`
	// Variants hold the figures, one per TaskConfig.Variants entry.
	Variants []TaskVariantReport `json:"variants"`

	Seconds float64 `json:"seconds"` // the whole run
}

// SkippedTask is a task left out, with why.
type SkippedTask struct {
	InstanceID string `json:"instance_id"`
	Repo       string `json:"repo"`
	Reason     string `json:"reason"`
}

// TaskRun is one task evaluated.
type TaskRun struct {
	InstanceID string `json:"instance_id"`
	Repo       string `json:"repo"`
	BaseCommit string `json:"base_commit"` // the full hash
	// Gold are the gold files the maps should show: those that are
	// source files at the base commit, by path. Dropped are the others
	// (absent from the tree, or not source files).
	Gold    []string `json:"gold"`
	Dropped []string `json:"dropped,omitempty"`
	// Mentions counts what repomap.Map.FindMentions found in the
	// statement.
	Mentions Mentioned `json:"mentions"`
	// Results holds the outcomes, one per variant.
	Results []TaskResult `json:"results"`
}

// Mentioned counts the mentions found in a text.
type Mentioned struct {
	Files  int `json:"files"`
	Idents int `json:"idents"`
}

// TaskResult is how one variant did on one task: its maps, and the two
// baselines cut at the number of files each map showed.
type TaskResult struct {
	Map    Outcome `json:"map"`
	BM25   Outcome `json:"bm25"`
	Random Outcome `json:"random"`
	// Seconds is the time each map took to make, by budget; the first
	// pays for parsing what changed since the tree before.
	Seconds []float64 `json:"seconds"`
	// BM25Seconds is the time the BM25 rankings took, of files and of
	// definitions, reading the files that changed since the tree before
	// included.
	BM25Seconds float64 `json:"bm25_seconds"`
	// Defs is how the maps, and BM25 over definitions, did on the
	// task's gold definitions; nil when it has none.
	Defs *DefOutcome `json:"defs,omitempty"`
}

// TaskVariantReport holds one variant's figures and costs.
type TaskVariantReport struct {
	Name string `json:"name"`
	// Rows has a row per budget.
	Rows []TaskRow `json:"rows"`

	// Files sums the files of the trees mapped, one tree per task;
	// Parsed sums the files whose tags were computed, the others' being
	// reused from the tree before or the disk cache. Builds counts the
	// maps made.
	Files   int     `json:"files"`
	Parsed  int     `json:"parsed"`
	Builds  int     `json:"builds"`
	Seconds float64 `json:"seconds"` // time spent making maps
	// BM25Seconds is the time spent ranking by BM25.
	BM25Seconds float64 `json:"bm25_seconds"`

	// FileRank ranks the gold files over all the tasks: the map by
	// Result.Ranked, the baseline by BM25 over files. DefRank ranks the
	// gold definitions over the tasks with one: the map by
	// Result.RankedDefs, the baseline by BM25 over definitions. GoldDefs
	// counts those definitions.
	FileRank Ranking `json:"file_rank"`
	DefRank  Ranking `json:"def_rank"`
	GoldDefs int     `json:"gold_defs"`
}

// Ranking holds how well a map and its baseline rank what a task wants.
type Ranking struct {
	Tasks int         `json:"tasks"` // the tasks counted
	Map   RankMetrics `json:"map"`
	BM25  RankMetrics `json:"bm25"`
}

// RankMetrics are means over tasks of where the first wanted entry of a
// ranked list is, at position r (1-based; none: r = 0): AccK is the
// share of tasks with r in 1…K, MRR the mean of 1/r (0 for none).
type RankMetrics struct {
	Acc1  float64 `json:"acc1"`
	Acc5  float64 `json:"acc5"`
	Acc10 float64 `json:"acc10"`
	MRR   float64 `json:"mrr"`
}

// rankMetrics returns the metrics of the positions firsts.
func rankMetrics(firsts []int) RankMetrics {
	var m RankMetrics
	for _, r := range firsts {
		if r <= 0 {
			continue
		}
		m.MRR += 1 / float64(r)
		for _, acc := range []struct {
			k   int
			dst *float64
		}{{1, &m.Acc1}, {5, &m.Acc5}, {10, &m.Acc10}} {
			if r <= acc.k {
				*acc.dst++
			}
		}
	}
	if n := float64(len(firsts)); n > 0 {
		m.Acc1, m.Acc5, m.Acc10, m.MRR = m.Acc1/n, m.Acc5/n, m.Acc10/n, m.MRR/n
	}
	return m
}

// DefMetrics are shares of the gold definitions of all the tasks: those
// the map shows by name, and those whose file it shows.
type DefMetrics struct {
	Shown  float64 `json:"shown"`
	InFile float64 `json:"in_file"`
}

// aggregateRanking sets the ranking figures of variant v over tasks.
func aggregateRanking(vr *TaskVariantReport, tasks []TaskRun, v int) {
	var files, bm25Files, defs, bm25Defs []int
	vr.GoldDefs = 0
	for _, t := range tasks {
		r := &t.Results[v]
		files, bm25Files = append(files, r.Map.First), append(bm25Files, r.BM25.First)
		if r.Defs != nil {
			defs, bm25Defs = append(defs, r.Defs.First), append(bm25Defs, r.Defs.BM25First)
			vr.GoldDefs += r.Defs.Gold
		}
	}
	vr.FileRank = Ranking{Tasks: len(files), Map: rankMetrics(files), BM25: rankMetrics(bm25Files)}
	vr.DefRank = Ranking{Tasks: len(defs), Map: rankMetrics(defs), BM25: rankMetrics(bm25Defs)}
}

// TaskRow holds the figures at one budget.
type TaskRow struct {
	Budget int         `json:"budget"`
	Map    TaskMetrics `json:"map"`
	BM25   TaskMetrics `json:"bm25"`
	Random TaskMetrics `json:"random"`
	// Defs are the shares of the gold definitions shown.
	Defs DefMetrics `json:"defs"`
}

// TaskMetrics are means over the tasks evaluated.
type TaskMetrics struct {
	// Recall is the mean share of the gold files shown.
	Recall float64 `json:"recall"`
	// All is the share of tasks with every gold file shown, Any the share
	// with at least one.
	All float64 `json:"all"`
	Any float64 `json:"any"`
	// MRR is the mean of 1/First (0 when First is 0), and Top5 the share
	// of tasks with First in 1…5. Neither depends on the budget.
	MRR  float64 `json:"mrr"`
	Top5 float64 `json:"top5"`
	// Tokens is the mean length of the map (0 for the baselines), Files
	// the mean number of files shown.
	Tokens float64 `json:"tokens"`
	Files  float64 `json:"files"`
	// Seconds is the mean time a map took (0 for the baselines).
	Seconds float64 `json:"seconds"`
}

// aggregateTasks returns the rows of variant v.
func aggregateTasks(tasks []TaskRun, v int, budgets []int) []TaskRow {
	rows := make([]TaskRow, len(budgets))
	for j, b := range budgets {
		rows[j].Budget = b
		for _, m := range []struct {
			dst *TaskMetrics
			get func(*TaskResult) *Outcome
		}{
			{&rows[j].Map, func(r *TaskResult) *Outcome { return &r.Map }},
			{&rows[j].BM25, func(r *TaskResult) *Outcome { return &r.BM25 }},
			{&rows[j].Random, func(r *TaskResult) *Outcome { return &r.Random }},
		} {
			var s TaskMetrics
			for _, t := range tasks {
				o := m.get(&t.Results[v])
				s.Recall += float64(o.Found[j]) / float64(len(t.Gold))
				if o.Found[j] == len(t.Gold) {
					s.All++
				}
				if o.Found[j] > 0 {
					s.Any++
				}
				if o.First > 0 {
					s.MRR += 1 / float64(o.First)
				}
				if o.First > 0 && o.First <= 5 {
					s.Top5++
				}
				s.Tokens += float64(o.Tokens[j])
				s.Files += float64(o.Files[j])
				if o == &t.Results[v].Map {
					s.Seconds += t.Results[v].Seconds[j]
				}
			}
			if n := float64(len(tasks)); n > 0 {
				s.Recall /= n
				s.All /= n
				s.Any /= n
				s.MRR /= n
				s.Top5 /= n
				s.Tokens /= n
				s.Files /= n
				s.Seconds /= n
			}
			*m.dst = s
		}
		gold := 0
		for _, t := range tasks {
			if d := t.Results[v].Defs; d != nil {
				gold += d.Gold
				rows[j].Defs.Shown += float64(d.Shown[j])
				rows[j].Defs.InFile += float64(d.InFile[j])
			}
		}
		if gold > 0 {
			rows[j].Defs.Shown /= float64(gold)
			rows[j].Defs.InFile /= float64(gold)
		}
	}
	return rows
}

// WriteText writes the report as text: what was evaluated, then for each
// variant a table with a row per budget and the any-gold-file share per
// repository.
func (r *TaskReport) WriteText(w io.Writer) error {
	var b strings.Builder
	perRepo := make(map[string]int)
	var repos []string
	for _, t := range r.Tasks {
		if perRepo[t.Repo] == 0 {
			repos = append(repos, t.Repo)
		}
		perRepo[t.Repo]++
	}
	var parts []string
	for _, name := range repos {
		parts = append(parts, fmt.Sprintf("%s %d", name, perRepo[name]))
	}
	fmt.Fprintf(&b, "tasks       %d evaluated of %d selected", len(r.Tasks), r.Selected)
	writeSkipped(&b, r.Skipped)
	if len(parts) > 0 {
		fmt.Fprintf(&b, "repos       %s\n", strings.Join(parts, ", "))
	}
	gold := 0
	for _, t := range r.Tasks {
		gold += len(t.Gold)
	}
	if len(r.Tasks) > 0 {
		fmt.Fprintf(&b, "gold files  %.2f a task\n", float64(gold)/float64(len(r.Tasks)))
	}
	fmt.Fprintf(&b, "seed        %d\n", r.Seed)
	fmt.Fprintf(&b, "time        %.1fs\n", r.Seconds)
	if len(r.Tasks) == 0 {
		b.WriteString("\nno task to evaluate\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	for v, vr := range r.Variants {
		reused := 0.0
		if vr.Files > 0 {
			reused = 100 * float64(vr.Files-vr.Parsed) / float64(vr.Files)
		}
		fmt.Fprintf(&b, "\nvariant %s: %d maps in %.1fs; tags computed for %d of %d files (%.1f%% reused); BM25 in %.1fs\n",
			vr.Name, vr.Builds, vr.Seconds, vr.Parsed, vr.Files, reused, vr.BM25Seconds)
		b.WriteString("the statement is the text, no focus; BM25 and random show as many files as the map\n")
		var buf strings.Builder
		tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\tmap\t\t\t\t\t\t\t\t\tbm25\t\t\t\t\t\trandom\t\t\t\t\t\n")
		fmt.Fprint(tw, "budget\trecall\tall\tany\tMRR\ttop5\ttokens\tfiles\tsec\t\trecall\tall\tany\tMRR\ttop5\t\trecall\tall\tany\tMRR\ttop5\t\n")
		for _, row := range vr.Rows {
			fmt.Fprintf(tw, "%d\t%s\t%.0f\t%.1f\t%.2f\t\t%s\t\t%s\t\n", row.Budget,
				fiveCols(row.Map), row.Map.Tokens, row.Map.Files, row.Map.Seconds, fiveCols(row.BM25), fiveCols(row.Random))
		}
		tw.Flush()
		trimLines(&b, buf.String())
		b.WriteString("\n")
		writeRanking(&b, vr)

		// Any gold file shown, by repository.
		buf.Reset()
		tw = tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "any gold file shown\ttasks")
		for _, s := range []string{"map", "bm25"} {
			for _, row := range vr.Rows {
				fmt.Fprintf(tw, "\t%s@%d", s, row.Budget)
			}
		}
		fmt.Fprint(tw, "\t\n")
		for _, name := range repos {
			var ts []TaskRun
			for _, t := range r.Tasks {
				if t.Repo == name {
					ts = append(ts, t)
				}
			}
			fmt.Fprintf(tw, "%s\t%d", name, len(ts))
			rows := aggregateTasks(ts, v, r.Budgets)
			for _, row := range rows {
				fmt.Fprintf(tw, "\t%.3f", row.Map.Any)
			}
			for _, row := range rows {
				fmt.Fprintf(tw, "\t%.3f", row.BM25.Any)
			}
			fmt.Fprint(tw, "\t\n")
		}
		tw.Flush()
		b.WriteString("\n")
		trimLines(&b, buf.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fiveCols(m TaskMetrics) string {
	return fmt.Sprintf("%.3f\t%.3f\t%.3f\t%.3f\t%.3f", m.Recall, m.All, m.Any, m.MRR, m.Top5)
}

// trimLines writes the lines of s to b without their trailing spaces.
func trimLines(b *strings.Builder, s string) {
	for line := range strings.Lines(s) {
		b.WriteString(strings.TrimRight(line, " \n"))
		b.WriteByte('\n')
	}
}

// writeRanking writes the ranking figures of vr: a row per ranking, and,
// when tasks have gold definitions, the shares of them shown by budget.
func writeRanking(b *strings.Builder, vr TaskVariantReport) {
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "first wanted in the ranking\ttasks\tacc@1\tacc@5\tacc@10\tMRR\t\n")
	row := func(name string, tasks int, m RankMetrics) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, tasks, m.Acc1, m.Acc5, m.Acc10, m.MRR)
	}
	row("gold file: map (ranked files)", vr.FileRank.Tasks, vr.FileRank.Map)
	row("gold file: bm25 over files", vr.FileRank.Tasks, vr.FileRank.BM25)
	if vr.DefRank.Tasks > 0 {
		row("gold definition: map (ranked definitions)", vr.DefRank.Tasks, vr.DefRank.Map)
		row("gold definition: bm25 over definitions", vr.DefRank.Tasks, vr.DefRank.BM25)
	}
	tw.Flush()
	trimLines(b, buf.String())
	if vr.DefRank.Tasks == 0 {
		return
	}
	fmt.Fprintf(b, "\ngold definitions: %d in %d tasks; shown by name in the map, and in a file it shows\n", vr.GoldDefs, vr.DefRank.Tasks)
	buf.Reset()
	tw = tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "budget\tshown\tfile shown\t\n")
	for _, r := range vr.Rows {
		fmt.Fprintf(tw, "%d\t%.3f\t%.3f\t\n", r.Budget, r.Defs.Shown, r.Defs.InFile)
	}
	tw.Flush()
	trimLines(b, buf.String())
}
