package memo

import (
	"math"
	"reflect"
	"testing"

	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
)

// TestRanksForm: the ranks of a map for no request read back for the
// digest and query they were kept for, to the last bit; for another
// ranking's query, or cut short anywhere, they read as none.
func TestRanksForm(t *testing.T) {
	key := Key{7}
	q := OverviewQuery(policy.Default(), []string{"pkg/__init__.py"})
	c := &rank.Converged{Iterations: 23, Files: map[string]float64{
		"a.go": 0.25, "b/c.go": math.Nextafter(0.5, 1), "d.py": 1e-300,
	}}
	data := encodeRanks(c, ranksKey(key, q))
	if got := decodeRanks(data, ranksKey(key, q)); !reflect.DeepEqual(got, c) {
		t.Errorf("decodeRanks = %+v, want %+v", got, c)
	}
	for name, other := range map[string]string{
		"another ranking":    OverviewQuery(policy.Aider(), []string{"pkg/__init__.py"}),
		"other front doors":  OverviewQuery(policy.Default(), nil),
		"another link state": "",
	} {
		k := ranksKey(key, other)
		if other == "" {
			k = ranksKey(Key{8}, q)
		}
		if got := decodeRanks(data, k); got != nil {
			t.Errorf("%s: decodeRanks = %+v, want nil", name, got)
		}
	}
	for i := range len(data) - 1 {
		if got := decodeRanks(data[:i], ranksKey(key, q)); got != nil {
			t.Errorf("decodeRanks of %d of %d bytes = %+v, want nil", i, len(data), got)
		}
	}
}
