package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/repomap-dev/repomap/internal/tokens"
	"github.com/repomap-dev/repomap/repomap"
)

// The output formats.
const (
	formatText     = "text"
	formatMarkdown = "markdown"
	formatJSON     = "json"
)

// encodeJSON writes v to w as indented JSON, with "<", ">" and "&" as
// they are.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// rootTitle names the roots for a heading: the base name of a single
// root's directory, or the names of several.
func rootTitle(roots []repomap.Root) string {
	var names []string
	for _, r := range roots {
		n := r.Name
		if n == "" && r.Dir != "" {
			if abs, err := filepath.Abs(r.Dir); err == nil {
				n = filepath.Base(abs)
			}
		}
		if n == "" {
			n = "the tree"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// markdownMap returns the map r under a heading, in a fenced code block.
// budget is the document's budget, which r.Budget may be less than.
func markdownMap(title string, r *repomap.Result, budget int) string {
	text := r.Text
	fence := "```"
	for line := range strings.Lines(text) {
		if n := len(line) - len(strings.TrimLeft(line, "`")); n >= len(fence) {
			fence = strings.Repeat("`", n+1)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "A map of %d tokens (%s) in a budget of %d for this whole file, made by repomap: source lines under their file's path, \"⋮\" for lines left out.\n\n", r.Tokens, r.Encoding, budget)
	fmt.Fprintf(&b, "%stext\n%s%s\n", fence, text, fence)
	return b.String()
}

// printStats writes how the map was made.
func printStats(w io.Writer, r *repomap.Result) {
	s := r.Stats
	fmt.Fprintf(w, "files      %d seen, %d parsed, %d from cache, %d skipped\n", s.Files, s.Parsed, s.Cached, s.Skipped)
	reasons := map[string]int{}
	for _, sk := range r.Skipped {
		reasons[sk.Kind]++
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  skipped  %d %s\n", reasons[k], k)
	}
	var roles []string
	for r := repomap.RoleSource; r <= repomap.RoleAsset; r++ {
		if n := s.Roles[r.String()]; n > 0 {
			roles = append(roles, fmt.Sprintf("%d %s", n, r))
		}
	}
	if len(roles) > 0 {
		fmt.Fprintf(w, "roles      %s\n", strings.Join(roles, ", "))
	}
	fmt.Fprintf(w, "tags       %d definitions, %d references\n", s.Defs, s.Refs)
	fmt.Fprintf(w, "graph      %d files, %d links (%s)\n", s.Nodes, s.Links, s.Linked)
	reused := ""
	switch {
	case s.Reused:
		reused = ", the last map of these files for this request"
	case s.Refit:
		reused = ", fitted from the last ranking of these files for this request"
	}
	fmt.Fprintf(w, "map        %d of %d tokens (%s), %d files shown%s\n", r.Tokens, r.Budget, r.Encoding, len(r.Files), reused)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0fms", d.Seconds()*1000) }
	fmt.Fprintf(w, "time       walk %s, tags %s, rank %s, fit %s, cache %s, total %s\n",
		ms(s.Walk), ms(s.Tags), ms(s.Rank), ms(s.Fit), ms(s.Store), ms(s.Total))
}

// markdownWithin returns the markdown document of a map under title, the
// whole document within the map's budget: build makes the map with at
// most maxTokens tokens (0: the budget of the flags), and is called again
// with less room for the map while the heading and the fence do not fit.
// A budget too small for the heading and the fence alone is an error.
func markdownWithin(title string, build func(maxTokens int) (*repomap.Result, error)) (string, error) {
	r, err := build(0)
	if err != nil {
		return "", err
	}
	budget := r.Budget
	count, err := tokenCounter(r.Encoding)
	if err != nil {
		return "", err
	}
	for {
		doc := markdownMap(title, r, budget)
		n := count(doc)
		over := n - budget
		if over <= 0 {
			return doc, nil
		}
		if r.Tokens == 0 {
			return "", fmt.Errorf("a budget of %s is too small for a markdown map: its heading and fence alone take %s (--format text has none)", plural(budget, "token"), plural(n, "token"))
		}
		if r, err = build(max(r.Tokens-over, 1)); err != nil {
			return "", err
		}
	}
}

// tokenCounter returns a function that counts tokens of the encoding
// named, from the tables built into the binary.
func tokenCounter(name string) (func(string) int, error) {
	enc, err := tokens.Get(name)
	if err != nil {
		return nil, err
	}
	return enc.Count, nil
}
