package langs

import (
	"slices"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/jvm"
	"github.com/repomap-dev/repomap/internal/link/rust"
)

// TestSuite checks that no two rules of a suite resolve one language.
func TestSuite(t *testing.T) {
	for name, rs := range map[string][]*link.Rules{"Default": Default(), "Java without Kotlin": With(Default(), jvm.Java)} {
		seen := make(map[string]string)
		for _, r := range rs {
			for _, l := range r.Languages {
				if o, ok := seen[l]; ok {
					t.Errorf("%s: %s resolved by %s and %s", name, l, o, r.Name)
				}
				seen[l] = r.Name
			}
		}
	}
}

func TestWith(t *testing.T) {
	names := func(rs []*link.Rules) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return out
	}
	for _, tc := range []struct {
		in   []*link.Rules
		with *link.Rules
		want []string
	}{
		{Default(), rust.Rules, []string{"go", "python", "javascript", "c", "jvm", "csharp", "rust", "scala"}},
		{Default(), jvm.Java, []string{"go", "python", "javascript", "c", "java", "csharp", "rust", "scala"}},
		{[]*link.Rules{jvm.Rules}, jvm.Java, []string{"java"}},
		{nil, jvm.Scala, []string{"scala"}},
	} {
		if got := names(With(tc.in, tc.with)); !slices.Equal(got, tc.want) {
			t.Errorf("With(%v, %s) = %v, want %v", names(tc.in), tc.with.Name, got, tc.want)
		}
	}
}

func TestWithout(t *testing.T) {
	got := Without(Default(), rust.Rules)
	if slices.Contains(got, rust.Rules) || len(got) != len(Default())-1 {
		t.Errorf("Without(Default(), rust.Rules) = %d rules, with rust's: %t", len(got), slices.Contains(got, rust.Rules))
	}
}
