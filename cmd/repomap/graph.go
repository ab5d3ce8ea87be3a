package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/repomap-dev/repomap/internal/render"
	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/repomap/output"
)

// The formats of repomap graph.
const (
	formatTSV = "tsv"
	formatDot = "dot"
)

// dotTop is how many files a dot graph shows when -top does not say.
const dotTop = 40

func graphCommand() *command {
	return &command{
		name:  "graph",
		usage: "repomap graph [flags] [ROOT...]",
		short: "print the file graph the map is ranked on",
		long: `
Graph prints the graph of files the map is ranked on, exactly as the
ranking weighs it: an edge from each file that uses an identifier to
each file that defines it, heavier for mentioned names and (with a
request) for long descriptive ones, lighter for names many files
define, 50 times heavier from a focus file, and growing with the square
root of the uses; an edge back from each definition to each file that
uses it, at half the weight (in the default ranking); and a self-edge
for each definition that nothing uses. The focus files and the mentions
change the weights and the ranks as they change the map's. ROOT is as
for repomap.

Output formats (--format):

	tsv   one line per (edge, identifier), by from, to and identifier:
	      from, to, identifier and weight, separated by tabs, the paths
	      as in the map. The weight of an edge back is summed into the
	      line of its pair. A tab, newline, carriage return or backslash
	      in a field is written \t, \n, \r or \\, another control
	      character \xHH or \uHHHH.
	json  the files, best ranked first, with their rank, their share
	      of the teleport and their role, and the edges, each with its
	      weight and the part of it that flows back; in the versioned
	      schema of the other documents (see the README)
	dot   a Graphviz graph of the best-ranked files (--top; 40 unless
	      set): a box per file, its size by rank, its colour by role,
	      focus files outlined; an arrow from a file to a file whose
	      definitions it uses, its width by the summed weight of those
	      uses, for the heaviest of each file (--arrows); the edges
	      back, which mirror them, and the self-edges are not drawn.
	      Render it with "dot -Tsvg".

-top N keeps the N best-ranked files and the edges between them, in
every format.

Examples:

	repomap graph | sort -t "$(printf '\t')" -k4,4gr | head
	repomap graph --format dot --top 30 | dot -Tsvg > graph.svg
	repomap graph --focus repomap/map.go --format json ~/src/project`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.treeFlags(fl)
			fl.StringVar(&c.ranking, "ranking", repomap.RankingDefault, "the ranking: default, or aider for Aider's (see repomap eval)")
			c.historyFlag(fl)
			c.formatFlag(fl, formatTSV, formatJSON, formatDot)
			c.outputFlag(fl)
			fl.Var(&c.focus, "focus", "a `file` being worked on, a path in the map or on disk; repeatable. Its edges weigh more and it gets the teleport, as in the map")
			fl.Var(&c.mentions, "mention", "an identifier or path the user mentioned, a `word`; repeatable")
			fl.StringVar(&c.mentionsFrom, "mentions-from", "", "read free text, such as the user's request, from `file` (\"-\": standard input), as repomap does")
			fl.IntVar(&c.top, "top", 0, "keep the `N` best-ranked files and the edges between them (default: every file in tsv and json, 40 in dot)")
			fl.IntVar(&c.arrows, "arrows", 4, "in dot, draw the `N` heaviest arrows from each file, 0 for all")
		},
		run: runGraph,
	}
}

func runGraph(ctx context.Context, e *env, c *config, args []string) int {
	if msg := c.check(formatTSV, formatJSON, formatDot); msg != "" {
		return e.usage(msg)
	}
	if c.top < 0 || c.arrows < 0 {
		return e.usage("--top and --arrows must not be negative")
	}
	dirs, msg := rootArgs(args)
	if msg != "" {
		return e.usage(msg)
	}
	m, err := c.open(e, dirs)
	if err != nil {
		return fail(e, err)
	}
	defer m.Close()
	req, err := c.request(e, m)
	if err != nil {
		return fail(e, err)
	}
	g, err := m.Graph(ctx, req)
	if err != nil {
		return fail(e, err)
	}
	e.progress.clear()
	if len(g.Files) == 0 {
		fmt.Fprintln(e.stderr, "repomap: the graph is empty: no file defines a name")
	}
	top := c.top
	if top == 0 && c.format == formatDot {
		top = dotTop
	}
	files := g.Files
	if top > 0 && top < len(files) {
		files = files[:top]
	}
	keep := make(map[string]bool, len(files))
	for _, f := range files {
		keep[f.Path] = true
	}
	edges := func(yield func(repomap.GraphEdge) bool) {
		for ed := range g.Edges() {
			if len(files) < len(g.Files) && (!keep[ed.From] || !keep[ed.To]) {
				continue
			}
			if !yield(ed) {
				return
			}
		}
	}
	switch c.format {
	case formatJSON:
		return emit(e, c, func(w io.Writer) error { return writeGraphJSON(w, output.NewGraphDoc(m.Roots(), files), edges) })
	case formatDot:
		return emit(e, c, func(w io.Writer) error {
			return writeDot(w, rootTitle(m.Roots()), len(g.Files), files, req.Focus, c.arrows, edges)
		})
	}
	return emit(e, c, func(w io.Writer) error { return writeTSV(w, edges) })
}

// writeTSV writes the edges to w, one line each.
func writeTSV(w io.Writer, edges iter.Seq[repomap.GraphEdge]) error {
	b := bufio.NewWriterSize(w, 64<<10)
	for ed := range edges {
		b.WriteString(tsvField(ed.From))
		b.WriteByte('\t')
		b.WriteString(tsvField(ed.To))
		b.WriteByte('\t')
		b.WriteString(tsvField(ed.Name))
		b.WriteByte('\t')
		b.WriteString(formatWeight(ed.Weight))
		if err := b.WriteByte('\n'); err != nil {
			return err
		}
	}
	return b.Flush()
}

// tsvField returns s with its tabs, newlines, carriage returns and
// backslashes escaped as \t, \n, \r and \\, and its other control
// characters (render.Control) as \xHH below 0x80 and \uHHHH above.
func tsvField(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '\\' || render.Control(r) }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case render.Control(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case render.Control(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n]) // as it is, valid UTF-8 or not
		}
		i += n
	}
	return b.String()
}

// formatWeight writes a weight to six significant digits, as the JSON
// documents round numbers.
func formatWeight(w float64) string { return strconv.FormatFloat(w, 'g', 6, 64) }

// writeGraphJSON writes doc with the edges to w, as encodeJSON would
// write doc with them in its Edges, without holding them all: a large
// tree's graph has millions.
func writeGraphJSON(w io.Writer, doc *output.GraphDoc, edges iter.Seq[repomap.GraphEdge]) error {
	var head bytes.Buffer
	if err := encodeJSON(&head, doc); err != nil {
		return err
	}
	const empty = "\"edges\": []\n}\n"
	start, ok := bytes.CutSuffix(head.Bytes(), []byte(empty))
	if !ok || len(doc.Edges) > 0 {
		return fmt.Errorf("graph document does not end with its edges")
	}
	b := bufio.NewWriterSize(w, 64<<10)
	b.Write(start)
	b.WriteString(`"edges": [`)
	n := 0
	for ed := range edges {
		data, err := json.MarshalIndent(output.NewGraphEdgeDoc(ed), "    ", "  ")
		if err != nil {
			return err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		if _, err := b.Write(escapeHTMLBack(data)); err != nil {
			return err
		}
		n++
	}
	if n > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Flush()
}

// escapeHTMLBack undoes json.Marshal's escaping of "<", ">" and "&", as
// encodeJSON leaves them.
func escapeHTMLBack(data []byte) []byte {
	if !bytes.Contains(data, []byte(`\u00`)) {
		return data
	}
	data = bytes.ReplaceAll(data, []byte(`\u003c`), []byte("<"))
	data = bytes.ReplaceAll(data, []byte(`\u003e`), []byte(">"))
	return bytes.ReplaceAll(data, []byte(`\u0026`), []byte("&"))
}

// roleColours are the fill colours of the files of each role in a dot
// graph.
var roleColours = map[repomap.Role]string{
	repomap.RoleSource: "#9ecae1", repomap.RoleTest: "#a1d99b", repomap.RoleExample: "#c7e9c0",
	repomap.RoleFixture: "#fdd0a2", repomap.RoleGenerated: "#d9d9d9", repomap.RoleVendored: "#bdbdbd",
	repomap.RoleDocs: "#fff7bc", repomap.RoleConfig: "#dadaeb", repomap.RoleCommunity: "#fcbba1", repomap.RoleAsset: "#f0f0f0",
}

// writeDot writes files, of a graph of all files, and the use edges
// between them summed per pair, at most arrows from each file (0: all),
// as a Graphviz digraph.
func writeDot(w io.Writer, title string, all int, files []repomap.GraphFile, focus []string, arrows int, edges iter.Seq[repomap.GraphEdge]) error {
	type pair struct{ from, to string }
	type use struct {
		w     float64
		names map[string]float64
	}
	uses := make(map[pair]*use)
	var order []pair
	for ed := range edges {
		u := ed.Weight - ed.Back
		if ed.From == ed.To || u <= 1e-9*ed.Weight {
			continue
		}
		p := pair{ed.From, ed.To}
		x := uses[p]
		if x == nil {
			x = &use{names: make(map[string]float64)}
			uses[p] = x
			order = append(order, p)
		}
		x.w += u
		x.names[ed.Name] += u
	}
	// Each file's heaviest arrows, in the order the edges came.
	if arrows > 0 {
		byFrom := make(map[string][]pair)
		for _, p := range order {
			byFrom[p.from] = append(byFrom[p.from], p)
		}
		drawn := make(map[pair]bool)
		for _, ps := range byFrom {
			slices.SortStableFunc(ps, func(a, b pair) int { return cmp.Compare(uses[b].w, uses[a].w) })
			for _, p := range ps[:min(len(ps), arrows)] {
				drawn[p] = true
			}
		}
		order = slices.DeleteFunc(order, func(p pair) bool { return !drawn[p] })
	}
	maxRank, maxUse := 0.0, 0.0
	for _, f := range files {
		maxRank = max(maxRank, f.Rank)
	}
	for _, p := range order {
		maxUse = max(maxUse, uses[p].w)
	}
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "digraph repomap {\n")
	var roles []repomap.Role
	for _, f := range files {
		if !slices.Contains(roles, f.Role) {
			roles = append(roles, f.Role)
		}
	}
	var legend strings.Builder
	fmt.Fprintf(&legend, `<table border="0" cellspacing="4"><tr><td colspan="%d">%s: the %d best-ranked of %d files; size: rank; arrow: uses</td></tr>`,
		max(len(roles), 1), html.EscapeString(title), len(files), all)
	if len(roles) > 0 {
		legend.WriteString("<tr>")
		for _, r := range roles {
			fmt.Fprintf(&legend, `<td bgcolor="%s">%s</td>`, roleColours[r], r)
		}
		legend.WriteString("</tr>")
	}
	legend.WriteString("</table>")
	fmt.Fprintf(b, "\tgraph [ranksep=1.2, nodesep=0.2, fontname=\"Helvetica\", fontsize=18, labelloc=t, label=<%s>];\n", legend.String())
	fmt.Fprintf(b, "\tnode [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", penwidth=0.5];\n")
	fmt.Fprintf(b, "\tedge [color=\"#00000066\", arrowsize=0.6];\n")
	for _, f := range files {
		size := 10.0
		if maxRank > 0 {
			size += 22 * math.Sqrt(f.Rank/maxRank)
		}
		attrs := fmt.Sprintf("fontsize=%.1f, fillcolor=%q, tooltip=%s", size, roleColours[f.Role],
			dotString(fmt.Sprintf("%s\nrank %s, %s", f.Path, formatWeight(f.Rank), f.Role)))
		if slices.Contains(focus, f.Path) {
			attrs += ", penwidth=3"
		}
		fmt.Fprintf(b, "\t%s [%s];\n", dotString(f.Path), attrs)
	}
	for _, p := range order {
		x := uses[p]
		names := make([]string, 0, len(x.names))
		for n := range x.names {
			names = append(names, n)
		}
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(cmp.Compare(x.names[b], x.names[a]), strings.Compare(a, b))
		})
		tip := p.from + " → " + p.to + ": "
		for i, n := range names {
			if i == 8 {
				tip += fmt.Sprintf(", and %d more", len(names)-i)
				break
			}
			if i > 0 {
				tip += ", "
			}
			tip += n
		}
		width := 0.4 + 5*math.Sqrt(x.w/maxUse)
		fmt.Fprintf(b, "\t%s -> %s [penwidth=%.2f, tooltip=%s];\n", dotString(p.from), dotString(p.to), width, dotString(tip))
	}
	b.WriteString("}\n")
	return b.Flush()
}

// dotString returns s as a double-quoted DOT string, its control
// characters but newlines (render.Control) replaced by U+FFFD.
func dotString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			if render.Control(r) {
				r = '\uFFFD'
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
