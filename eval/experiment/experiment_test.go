package experiment

import (
	"slices"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/golang"
	"github.com/repomap-dev/repomap/internal/link/jvm"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/python"
	"github.com/repomap-dev/repomap/internal/link/rust"
	"github.com/repomap-dev/repomap/internal/policy"
)

// TestDefaultSpelled: the default ranking is Aider's with these changes,
// so that a measurement can vary one of them (as in "…+mix=3"); a new
// default must keep the spelling true.
func TestDefaultSpelled(t *testing.T) {
	const spelled = "aider+reverse+roles+rel+overview=1+resolve+private=0.3+rows=3+fixtures+exports+front=0.2+spread=1+family+readme=0.1+doccode+docitems=1+byname+companions+variants+defs+leads=2+lineleads=1+history+mentioned=10+noenv+notemplates"
	got, err := Parse(spelled)
	if err != nil {
		t.Fatal(err)
	}
	if def := policy.Default(); got.Fingerprint() != def.Fingerprint() {
		t.Errorf("Parse(%q) = %+v\nwant the default %+v", spelled, got, def)
	}
	if mixed, _ := Parse(spelled + "+mix=3"); mixed.Items.Every != 3 {
		t.Errorf("mix=3 after rel: Items.Every = %d, want 3", mixed.Items.Every)
	}
}

// TestParse checks that each change sets its field, and only it.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		want func(c *policy.Config)
	}{
		{"aider", func(*policy.Config) {}},
		{"aider+reverse=0.1", func(c *policy.Config) { c.Reverse = 0.1 }},
		{"aider+resolve", func(c *policy.Config) {
			c.Link.Resolve, c.Link.Rules, c.Link.Fallback = true, langs.Default(), policy.Default().Link.Fallback
		}},
		{"aider+resolve=0.2+nokotlin", func(c *policy.Config) {
			c.Link.Resolve, c.Link.Rules, c.Link.Fallback = true, langs.With(langs.Default(), jvm.Java), 0.2
		}},
		{"aider+rel=10/1/1", func(c *policy.Config) { c.Rel.On, c.Rel.Top, c.Rel.Personal, c.Rel.Boost = true, 10, 1, 1 }},
		{"aider+lone=0.1", func(c *policy.Config) { c.Weights.Lone = 0.1 }},
		{"aider+rows=2", func(c *policy.Config) { c.Rows = 2 }},
		{"aider+readme=0.2", func(c *policy.Config) { c.Readme, c.Link.Readme = 0.2, true }},
		{"aider+docs", func(c *policy.Config) { c.Docs = policy.DocsFactor }},
	} {
		want := policy.Aider()
		want.Rel.Text = policy.Default().Rel.Text // every aider+… ranking counts the words of text
		if tc.name == "aider" {
			want.Rel.Text = 0
		}
		tc.want(&want)
		if got, err := Parse(tc.name); err != nil || got.Fingerprint() != want.Fingerprint() {
			t.Errorf("Parse(%q) = %+v, %v\nwant %+v", tc.name, got, err, want)
		}
	}
	def := policy.Default()
	def.Readme, def.Link.Readme = 0, false
	def.Link.Rules = langs.Without(def.Link.Rules, rust.Rules)
	if got, err := Parse("default+norust+readme=0"); err != nil || got.Fingerprint() != def.Fingerprint() {
		t.Errorf("Parse(default+norust+readme=0) = %+v, %v\nwant %+v", got, err, def)
	}
}

// TestParseErrors: a malformed name, an unknown change, a change with a
// value it does not take or without one it needs, are errors.
func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"best", "aider+", "aider+nope", "default+docs=0.2", "aider+docs=0", "aider+docs=2",
		"aider+rows=0", "aider+rows", "aider+rows=x", "aider+lone", "aider+lone=0", "aider+fixtures=1",
		"aider+exports=x", "aider+rel=1/2", "default+pages=101", "default+readme=1", "aider+front=1",
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = nil error, want one", bad)
		}
	}
	for _, good := range []string{"", "default", "aider+reverse=0.5+docs=0.2", "default+noscala", "default+norust+noscala", "default+nokotlin", "default+goreach", "default+pytyped+gonopkg", "default+goreach+goreach", "default+pytyped", "aider+resolve+nokotlin"} {
		if _, err := Parse(good); err != nil {
			t.Errorf("Parse(%q): %v", good, err)
		}
	}
}

// TestGoRules: the changes of the Go rules' options add up, in any
// order, and leave the other languages' rules as they are.
func TestGoRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		want golang.Options
	}{
		{"default+goreach", golang.Options{Reach: true}},
		{"default+goreach+gonopkg", golang.Options{Reach: true, NoPackages: true}},
		{"default+gonopkg+goreach", golang.Options{Reach: true, NoPackages: true}},
		{"default+pytyped+gofields+goreach+gonopkg", golang.Options{Reach: true, NoPackages: true, Fields: true}},
	} {
		c, err := Parse(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		var got []golang.Options
		for _, r := range c.Link.Rules {
			if o, ok := golang.OptionsOf(r); ok {
				got = append(got, o)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: the Go rules' options are %+v, want %+v", tc.name, got, tc.want)
		}
		if slices.Contains(c.Link.Rules, python.Typed) != strings.Contains(tc.name, "pytyped") {
			t.Errorf("%s: rules %v", tc.name, c.Link.Rules)
		}
	}
}

// TestRulesRefused: a change of a language's rules after another change
// chose other rules for that language is refused, not left to undo it.
func TestRulesRefused(t *testing.T) {
	a := &link.Rules{Name: "py.a", Languages: []string{"python"}}
	b := &link.Rules{Name: "py.b", Languages: []string{"python"}}
	c := policy.Default()
	if !rules(a).set(&c, "") {
		t.Fatal("the first change of the Python rules is refused")
	}
	if !rules(a).set(&c, "") {
		t.Error("the same change again is refused")
	}
	if rules(b).set(&c, "") {
		t.Error("a second change of the Python rules replaced the first")
	}
	if !slices.Contains(c.Link.Rules, a) || slices.Contains(c.Link.Rules, b) {
		t.Errorf("rules %v, want a and not b", c.Link.Rules)
	}
}
