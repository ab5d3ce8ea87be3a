package repomap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/policy"
)

// TestLeadsShowRelevantDefinition: a request that quotes the message a
// little-used function raises, in a module whose other functions every
// caller uses, gets a small map that shows that function, the first of
// the ranked list, with the line of its body that holds the words (a
// line of interest, not a definition in Files or RankedDefs); without
// the definitions leading (policy.Items.Leads of 0), a function the
// graph favours comes first in that file.
func TestLeadsShowRelevantDefinition(t *testing.T) {
	var ops strings.Builder
	ops.WriteString("def _mask(a):\n    return a\n\n\n")
	ops.WriteString("def _null_out(result, axis, mask, min_count=1):\n    if hasattr(axis, \"__len__\"):\n        raise ValueError(\"min_count is not available for reduction with more than one dimensions\")\n    return result\n\n\n")
	for i := range 8 {
		fmt.Fprintf(&ops, "def reduce%d(a, axis=None):\n    return _mask(a)\n\n\n", i)
	}
	tree := fstest.MapFS{"core/nanops.py": {Data: []byte(ops.String())}}
	for i := range 6 {
		var b strings.Builder
		b.WriteString("from core.nanops import reduce0, reduce1, reduce2, reduce3, reduce4, reduce5, reduce6, reduce7\n\n\n")
		for j := range 8 {
			fmt.Fprintf(&b, "def use%d_%d(x):\n    return reduce%d(x) + reduce%d(x)\n\n\n", i, j, j, (j+1)%8)
		}
		tree[fmt.Sprintf("core/user%d.py", i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	req := Request{Text: "sum: min_count is not available for reduction with more than one dimensions", MaxTokens: 80}
	build := func(p policy.Config) *Result {
		t.Helper()
		m, err := NewFS(tree, &Options{Policy: &p})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		r, err := m.Build(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	firstOf := func(r *Result) string {
		for _, d := range r.RankedDefs {
			if d.Path == "core/nanops.py" {
				return d.Name
			}
		}
		return ""
	}
	shows := func(r *Result) bool {
		i := slices.IndexFunc(r.Files, func(f FileResult) bool { return f.Path == "core/nanops.py" })
		return i >= 0 && slices.ContainsFunc(r.Files[i].Defs, func(d Def) bool { return d.Name == "_null_out" })
	}
	r := build(policy.Default())
	if got := r.RankedDefs[0]; got.Name != "_null_out" || !shows(r) {
		t.Errorf("by default, the first ranked definition is %s's %s (shown: %v), want nanops.py's _null_out, shown; map:\n%s", got.Path, got.Name, shows(r), r.Text)
	}
	const message = `raise ValueError("min_count is not available`
	if !strings.Contains(r.Text, "│        "+message) {
		t.Errorf("the map does not show the line that raises the message:\n%s", r.Text)
	}
	for _, f := range r.Files {
		for _, d := range f.Defs {
			if d.Kind == fit.LineOfInterest || d.Name == "" {
				t.Errorf("%s: Defs holds a line of interest: %+v", f.Path, d)
			}
		}
	}
	for _, d := range r.RankedDefs {
		if d.Kind == fit.LineOfInterest || d.Name == "" {
			t.Errorf("RankedDefs holds a line of interest: %+v", d)
		}
	}
	noLines := policy.Default()
	noLines.Items.LineLeads = 0
	if r := build(noLines); strings.Contains(r.Text, message) {
		t.Errorf("with no lines of interest, the map shows the message:\n%s", r.Text)
	}
	off := policy.Default()
	off.Items.Leads = 0
	if r := build(off); firstOf(r) == "_null_out" {
		t.Errorf("without leads, nanops.py's first ranked definition is %q (shown: %v); the test needs the graph to prefer the others:\n%s", firstOf(r), shows(r), r.Text)
	}
}
