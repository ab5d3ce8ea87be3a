// Package langs is the suite of the link stage's rules: every group of
// languages whose references repomap resolves, each in a package of its
// own. Adding a language's rules is writing its package, which exports
// its link.Rules, and naming them here.
package langs

import (
	"slices"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/c"
	"github.com/repomap-dev/repomap/internal/link/csharp"
	"github.com/repomap-dev/repomap/internal/link/golang"
	"github.com/repomap-dev/repomap/internal/link/js"
	"github.com/repomap-dev/repomap/internal/link/jvm"
	"github.com/repomap-dev/repomap/internal/link/python"
	"github.com/repomap-dev/repomap/internal/link/rust"
)

// Default returns the rules the default ranking resolves by: those of
// every language that has them, one for each language.
func Default() []*link.Rules {
	return []*link.Rules{golang.Rules, python.Rules, js.Rules, c.Rules, jvm.Rules, csharp.Rules, rust.Rules, jvm.Scala}
}

// With returns rs with r in the place of the rules of rs that resolve a
// language r resolves, or after them.
func With(rs []*link.Rules, r *link.Rules) []*link.Rules {
	var out []*link.Rules
	placed := false
	for _, o := range rs {
		switch {
		case !slices.ContainsFunc(o.Languages, func(l string) bool { return slices.Contains(r.Languages, l) }):
			out = append(out, o)
		case !placed:
			out, placed = append(out, r), true
		}
	}
	if !placed {
		out = append(out, r)
	}
	return out
}

// Without returns rs without r.
func Without(rs []*link.Rules, r *link.Rules) []*link.Rules {
	return slices.DeleteFunc(slices.Clone(rs), func(o *link.Rules) bool { return o == r })
}
