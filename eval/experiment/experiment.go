// Package experiment names rankings for experiments: repomap's default
// or Aider's, each followed by changes to its settings, as
// "default+norust" or "aider+reverse=0.1+roles". Parse turns a name into
// the policy.Config it stands for; repomap eval and the tests that
// compare rankings use it. The product itself has two rankings,
// policy.Default and policy.Aider.
package experiment

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/golang"
	"github.com/repomap-dev/repomap/internal/link/jvm"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/python"
	"github.com/repomap-dev/repomap/internal/link/rust"
	"github.com/repomap-dev/repomap/internal/policy"
)

// Parse returns the ranking that s names:
// "default" ("" too) or "aider"; "default" followed by changes joined
// with "+" ("default+norust+readme=0.2"); or "aider" followed by changes
// ("aider+reverse=0.1+roles"). Each change sets one field of
// policy.Config: the tables defaultChanges and aiderChanges list them.
func Parse(s string) (policy.Config, error) {
	if changes, ok := strings.CutPrefix(s, policy.NameDefault+"+"); ok {
		return parseChanges(s, policy.Default(), changes, withHistory(defaultChanges))
	}
	switch s {
	case "", policy.NameDefault:
		return policy.Default(), nil
	case policy.NameAider:
		return policy.Aider(), nil
	}
	changes, ok := strings.CutPrefix(s, policy.NameAider+"+")
	if !ok {
		return policy.Config{}, fmt.Errorf("unknown ranking %q (want %s, %s, or either followed by +CHANGE…)", s, policy.NameDefault, policy.NameAider)
	}
	c, err := parseChanges(s, policy.Aider(), changes, withHistory(aiderChanges))
	if err != nil {
		return c, err
	}
	// The relevance's defaults come with "rel" unless given.
	d := policy.Default()
	if !has(changes, "text") {
		c.Rel.Text = d.Rel.Text
	}
	if slices.Contains(strings.Split(changes, "+"), "rel") {
		if !has(changes, "mix") {
			c.Items.Every = d.Items.Every
		}
		if !has(changes, "named") {
			c.Rel.Named = d.Rel.Named
		}
	}
	return c, nil
}

// has reports whether the changes name the change name, with a value or
// without.
func has(changes, name string) bool {
	for _, c := range strings.Split(changes, "+") {
		if n, _, _ := strings.Cut(c, "="); n == name {
			return true
		}
	}
	return false
}

// change sets fields of a Config, from its value when it takes one.
type change struct {
	value bool   // it takes a value (name=V); else it takes none
	takes string // what the value is, for errors
	set   func(c *policy.Config, v string) bool
}

func parseChanges(s string, c policy.Config, changes string, table map[string]change) (policy.Config, error) {
	for _, p := range strings.Split(changes, "+") {
		name, val, hasVal := strings.Cut(p, "=")
		ch, ok := table[name]
		if alt, ok2 := table[name+"="]; ok2 && hasVal {
			ch, ok = alt, true
		}
		if !ok || ch.value != hasVal {
			return c, fmt.Errorf("ranking %q: unknown change %q (want one of %s)", s, p, changeNames(table))
		}
		if !ch.set(&c, val) {
			return c, fmt.Errorf("ranking %q: %s takes %s", s, name, ch.takes)
		}
	}
	return c, nil
}

// changeNames lists the changes of table, sorted.
func changeNames(table map[string]change) string {
	var names []string
	for n, ch := range table {
		n = strings.TrimSuffix(n, "=")
		if ch.value {
			n += "=" + strings.ToUpper(ch.takes[:1])
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// rules is a change that resolves the languages of r by r (after
// "resolve", in Aider's ranking). It refuses to replace rules that an
// earlier change chose for one of those languages, which would undo
// that change without a word: two such changes need rules that make
// both (as goRules makes the Go rules' options).
func rules(r *link.Rules) change {
	return change{takes: "no other change of the same language's rules before it", set: func(c *policy.Config, _ string) bool {
		def := policy.Default().Link.Rules
		for _, o := range c.Link.Rules {
			if o != r && !slices.Contains(def, o) && slices.ContainsFunc(o.Languages, func(l string) bool { return slices.Contains(r.Languages, l) }) {
				return false
			}
		}
		c.Link.Rules = langs.With(c.Link.Rules, r)
		return true
	}}
}

// goRules is a change that sets an option of the Go rules, beside those
// an earlier change set.
func goRules(set func(o *golang.Options)) change {
	return flag(func(c *policy.Config) {
		var o golang.Options
		for _, r := range c.Link.Rules {
			if x, ok := golang.OptionsOf(r); ok {
				o = x
			}
		}
		set(&o)
		c.Link.Rules = langs.With(c.Link.Rules, golang.With(o))
	})
}

// flag is a change without a value.
func flag(set func(c *policy.Config)) change {
	return change{set: func(c *policy.Config, _ string) bool { set(c); return true }}
}

// weight is a change whose value is a number in [lo, hi] (lo excluded
// unless loIn, hi excluded unless hiIn).
func weight(takes string, lo, hi float64, loIn, hiIn bool, set func(c *policy.Config, w float64)) change {
	return change{value: true, takes: takes, set: func(c *policy.Config, v string) bool {
		w, err := strconv.ParseFloat(v, 64)
		if err != nil || w < lo || w > hi || w == lo && !loIn || w == hi && !hiIn {
			return false
		}
		set(c, w)
		return true
	}}
}

// count is a change whose value is a whole number in [lo, hi].
func count(takes string, lo, hi int, set func(c *policy.Config, n int)) change {
	return change{value: true, takes: takes, set: func(c *policy.Config, v string) bool {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return false
		}
		set(c, n)
		return true
	}}
}

// defaultChanges are the changes the default ranking takes.
var defaultChanges = map[string]change{
	"norust":       flag(func(c *policy.Config) { c.Link.Rules = langs.Without(c.Link.Rules, rust.Rules) }),
	"noscala":      flag(func(c *policy.Config) { c.Link.Rules = langs.Without(c.Link.Rules, jvm.Scala) }),
	"nokotlin":     rules(jvm.Java),
	"goreach":      goRules(func(o *golang.Options) { o.Reach = true }),
	"gonopkg":      goRules(func(o *golang.Options) { o.NoPackages = true }),
	"gofields":     goRules(func(o *golang.Options) { o.Fields = true }),
	"defname":      weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Defs.Name = w }),
	"defqual":      weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Defs.Qual = w }),
	"defbody":      weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Defs.Body = w }),
	"defdirect":    weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Defs.Direct = w }),
	"defqualified": weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Defs.Qualified = w }),
	"listings":     flag(func(c *policy.Config) { c.Rel.NoEnv = false }),
	"templates":    flag(func(c *policy.Config) { c.Rel.NoTemplates = false }),
	"leadfirst":    count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.Items.First = n }),
	"defleads":     count("a whole number from 1 to 100", 1, 100, func(c *policy.Config, n int) { c.Items.Leads = n }),
	"pytyped":      rules(python.Typed),
	"doccode":      flag(func(c *policy.Config) { c.Link.DocCode = true }),
	"docmaps":      flag(func(c *policy.Config) { c.DocMaps = true }),
	"byname":       flag(func(c *policy.Config) { c.ByName = true }),
	"companions":   flag(func(c *policy.Config) { c.Companions = true }),
	"variants":     flag(func(c *policy.Config) { c.Items.Variants = true }),
	"pages": count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) {
		c.Rel.Pages, c.Rel.PagesOn = n, true
	}),
	"docrel":   weight("a factor in (0, 1]", 0, 1, false, true, func(c *policy.Config, w float64) { c.Rel.DocRel = w }),
	"docitems": count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.Items.DocItems = n }),
	"readme": weight("a share of the teleport in [0, 1)", 0, 1, true, false, func(c *policy.Config, w float64) {
		c.Readme, c.Link.Readme = w, w > 0
	}),
}

// historyChanges are the changes of the history's settings that both
// rankings take: "history" turns it on, with the default's settings
// when it has none; "nohistory" turns it off; the others set one setting
// and leave it on or off.
var historyChanges = map[string]change{
	"history": flag(func(c *policy.Config) {
		if c.History == (policy.History{}) {
			c.History = policy.Default().History
		}
		c.History.On = true
	}),
	"nohistory":  flag(func(c *policy.Config) { c.History.On = false }),
	"depth":      count("a whole number from 1 to 1000000", 1, 1000000, func(c *policy.Config, n int) { c.History.Depth = n }),
	"maxfiles":   count("a whole number from 2 to 10000", 2, 10000, func(c *policy.Config, n int) { c.History.MaxFiles = n }),
	"halflife":   weight("a number of days, 0 for no decay", 0, 1e6, true, true, func(c *policy.Config, w float64) { c.History.HalfLife = w }),
	"cotop":      count("a whole number from 1 to 1000", 1, 1000, func(c *policy.Config, n int) { c.History.Top = n }),
	"colift":     count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.History.Lift = n }),
	"cofocus":    weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.History.Focus = w }),
	"coboost":    weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.History.FocusBoost = w }),
	"coreq":      weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.History.Request = w }),
	"msglift":    count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.History.MessageLift = n }),
	"msgadd":     count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.History.MessageAdd = n }),
	"msgcommits": count("a whole number from 0 to 10000", 0, 10000, func(c *policy.Config, n int) { c.History.MessageCommits = n }),
	"coreqboost": weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.History.RequestBoost = w }),
	"reqtop":     count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.History.RequestTop = n }),
	"recency":    weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.History.Recency = w }),
}

// withHistory returns the changes of table and historyChanges.
func withHistory(table map[string]change) map[string]change {
	out := maps.Clone(table)
	maps.Copy(out, historyChanges)
	return out
}

// aiderChanges are the changes Aider's ranking takes.
var aiderChanges = map[string]change{
	"builtins": flag(func(c *policy.Config) { c.Link.Builtins = true }),
	"names":    weight("a weight in (0, 1]", 0, 1, false, true, func(c *policy.Config, w float64) { c.Link.Names = w }),
	"private":  weight("a weight in (0, 1]", 0, 1, false, true, func(c *policy.Config, w float64) { c.Private = w }),
	"norust":   flag(func(c *policy.Config) { c.Link.Rules = langs.Without(c.Link.Rules, rust.Rules) }),
	"noscala":  flag(func(c *policy.Config) { c.Link.Rules = langs.Without(c.Link.Rules, jvm.Scala) }),
	"nokotlin": rules(jvm.Java),
	"family":   flag(func(c *policy.Config) { c.Link.Family = true }),
	"resolve": flag(func(c *policy.Config) {
		d := policy.Default().Link
		c.Link.Resolve, c.Link.Rules, c.Link.Fallback = true, d.Rules, d.Fallback
	}),
	"resolve=": weight("the weight of unresolved name matches, in (0, 1]", 0, 1, false, true, func(c *policy.Config, w float64) {
		c.Link.Resolve, c.Link.Rules, c.Link.Fallback = true, policy.Default().Link.Rules, w
	}),
	"docs":     flag(func(c *policy.Config) { c.Docs = policy.DocsFactor }),
	"docs=":    weight("a factor in (0, 1]", 0, 1, false, true, func(c *policy.Config, w float64) { c.Docs = w }),
	"overview": weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.OverviewLong = w }),
	"roles":    flag(func(c *policy.Config) { c.Roles, c.Tests = true, policy.Default().Tests }),
	"roles=":   weight("a factor for tests in (0, 1]", 0, 1, false, true, func(c *policy.Config, w float64) { c.Roles, c.Tests = true, w }),
	"rel": flag(func(c *policy.Config) {
		d := policy.Default().Rel
		c.Rel.On, c.Rel.Top, c.Rel.Personal, c.Rel.Boost = true, d.Top, d.Personal, d.Boost
	}),
	"rel=":        {value: true, takes: "TOP/PERSONAL/BOOST, as rel=10/1/1", set: setRel},
	"named":       weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Named = w }),
	"noenv":       flag(func(c *policy.Config) { c.Rel.NoEnv = true }),
	"notemplates": flag(func(c *policy.Config) { c.Rel.NoTemplates = true }),
	"fixtures":    flag(func(c *policy.Config) { c.Link.Fixtures = true }),
	"exports":     flag(func(c *policy.Config) { c.Link.Exports = true }),
	"hints":       flag(func(c *policy.Config) { c.Link.Hints = true }),
	"spread":      count("a whole number from 1 to 100", 1, 100, func(c *policy.Config, n int) { c.Items.Spread = n }),
	"front":       weight("a share of the teleport in (0, 1)", 0, 1, false, false, func(c *policy.Config, w float64) { c.Front = w }),
	"docitems":    count("a whole number from 1 to 100", 1, 100, func(c *policy.Config, n int) { c.Items.DocItems = n }),
	"readme":      weight("a share of the teleport in (0, 1)", 0, 1, false, false, func(c *policy.Config, w float64) { c.Readme, c.Link.Readme = w, true }),
	"doccode":     flag(func(c *policy.Config) { c.Link.DocCode = true }),
	"docmaps":     flag(func(c *policy.Config) { c.DocMaps = true }),
	"byname":      flag(func(c *policy.Config) { c.ByName = true }),
	"companions":  flag(func(c *policy.Config) { c.Companions = true }),
	"variants":    flag(func(c *policy.Config) { c.Items.Variants = true }),
	"defs":        flag(func(c *policy.Config) { c.Rel.Defs = policy.Default().Rel.Defs }),
	"defs=": weight("a lift above 0", 0, 100, false, true, func(c *policy.Config, w float64) {
		c.Rel.Defs = policy.Default().Rel.Defs
		c.Rel.Defs.Lift = w
	}),
	"mixcode":   flag(func(c *policy.Config) { c.Rel.MixCode = true }),
	"codetop":   flag(func(c *policy.Config) { c.Rel.CodeTop = true }),
	"rows":      count("a whole number from 1 to 1000", 1, 1000, func(c *policy.Config, n int) { c.Rows = n }),
	"deftext":   weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Defs.Text = w }),
	"lineleads": count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.Items.LineLeads = n }),
	"leads":     count("a whole number from 1 to 100", 1, 100, func(c *policy.Config, n int) { c.Items.Leads = n }),
	"mix":       count("a whole number from 0 to 100", 0, 100, func(c *policy.Config, n int) { c.Items.Every = n }),
	"text":      weight("a weight of 0 or more", 0, 100, true, true, func(c *policy.Config, w float64) { c.Rel.Text = w }),
	"long":      weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.Weights.LongIdent = w }),
	"common":    weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.Weights.CommonIdent = w }),
	"self":      weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.Weights.Unreferenced = w }),
	"mentioned": weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.Weights.MentionedUnused = w }),
	"lone":      weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.Weights.Lone = w }),
	"reverse":   flag(func(c *policy.Config) { c.Reverse = policy.Default().Reverse }),
	"reverse=":  weight("a weight above 0", 0, 100, false, true, func(c *policy.Config, w float64) { c.Reverse = w }),
}

// setRel sets the relevance from TOP/PERSONAL/BOOST.
func setRel(c *policy.Config, v string) bool {
	var top int
	var pers, boost float64
	if n, err := fmt.Sscanf(v, "%d/%g/%g", &top, &pers, &boost); n != 3 || err != nil || top < 0 || pers < 0 || boost < 0 {
		return false
	}
	c.Rel.On, c.Rel.Top, c.Rel.Personal, c.Rel.Boost = true, top, pers, boost
	return true
}
