package linktest

import (
	"math"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/policy"
)

// TestOracleScore scores a small Go tree, linked by name, against a
// hand-written truth: a.go calls b.Open (true), calls Close on a value of
// an interface a.go declares, which links to the Close methods of b.go
// and c.go (false), and names b's package, which links to b.go's package
// clause (false by name, true by file pair). The truth's use of T in a.go
// is on a line where a.go tags no reference to T: found by no link, it
// counts in the recall of all true edges, not in that of the tagged ones.
// The default ranking's edges back are scored apart, as its uses are.
func TestOracleScore(t *testing.T) {
	files := Files(t, fstest.MapFS{
		"go.mod": {Data: []byte("module m\n")},
		"a/a.go": {Data: []byte("package a\n\nimport \"m/b\"\n\nfunc F(x interface{ Close() }) {\n\tb.Open()\n\tx.Close()\n}\n")},
		"b/b.go": {Data: []byte("package b\n\nfunc Open() {}\n\ntype T struct{}\n\nfunc (T) Close() {}\n")},
		"c/c.go": {Data: []byte("package c\n\ntype U struct{}\n\nfunc (U) Close() {}\n")},
	})
	var tr Truth
	tr.Add("a/a.go", "b/b.go", "Open", 5)
	tr.Add("a/a.go", "b/b.go", "T", 4)
	tr.Pairs = map[[2]string]bool{{"a/a.go", "b/b.go"}: true}
	tr.Files = map[string]bool{"a/a.go": true, "b/b.go": true, "c/c.go": true}
	o := Oracle{Truth: tr}
	sc := o.Score(files, policy.Aider())
	t.Logf("uses %v\nback %v\npairs %v\nby kind of key: %s", sc.Uses, sc.Back, sc.Pairs, sc.ByScope)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	// a -> b: Open, b, Close; a -> c: Close.
	if sc.Uses.Edges != 4 || !near(sc.Uses.Precision, 0.25) {
		t.Errorf("uses: %v, want 4 edges, one true", sc.Uses)
	}
	if sc.Uses.Weighted <= 0 || sc.Uses.Weighted >= 1 {
		t.Errorf("uses weighted %g, want between 0 and 1", sc.Uses.Weighted)
	}
	if sc.Pairs.Edges != 2 || !near(sc.Pairs.Precision, 0.5) || sc.Pairs.Weighted <= sc.Uses.Weighted {
		t.Errorf("pairs: %v, want 2, a -> b true and weighing more than the uses' true share", sc.Pairs)
	}
	if !near(sc.Recall, 1) || !near(sc.RecallAll, 0.5) {
		t.Errorf("recall %g of the tagged, %g of all; want 1 and 0.5", sc.Recall, sc.RecallAll)
	}
	if sc.Back.Edges != 0 {
		t.Errorf("name matching: %d edges back, want none", sc.Back.Edges)
	}
	d := o.Score(files, policy.Default())
	if d.Back.Edges == 0 || d.Back.Edges != d.Uses.Edges || !near(d.Back.Precision, d.Uses.Precision) {
		t.Errorf("default: back %v, uses %v; want an edge back for each use", d.Back, d.Uses)
	}
}
