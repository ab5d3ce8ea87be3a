package link

import (
	"slices"

	"github.com/repomap-dev/repomap/rank"
)

// The link stage resolves each reference to the keys of the definitions
// it can mean (rank.Key: a name in a scope), from what the tags, the
// imports and the layout of the tree say, and each definition publishes
// under its keys. A language with rules gives its own scopes; a reference
// its rules cannot place falls back to every definition of its name, at
// the fallback weight. Languages without rules link by name.

// A Ref is one key a reference resolves to, as its identifier and
// scope, so that the link stage makes each key's string once.
type Ref struct {
	Name, Scope string
	Fallback    bool // a name match the rules could not place
}

// Key returns the key of r.
func (r Ref) Key() string { return rank.Key(r.Name, r.Scope) }

// Resolver picks the rules of each file's language, among those of its
// Config.
type Resolver struct {
	files []File
	cfg   Config
	lang  []Lang // per file; nil: link by name
	// What made lang: the files of each group of languages, by its rules,
	// and each file's rules (nil for none).
	groups map[*Rules][]int
	group  []*Rules
}

// NewResolver returns the resolver of files with the settings c.
func NewResolver(files []File, c Config) *Resolver {
	r := &Resolver{files: files, cfg: c, lang: make([]Lang, len(files)), groups: make(map[*Rules][]int), group: make([]*Rules, len(files))}
	for i, f := range files {
		for _, rs := range c.Rules {
			if rs.claims(f.Lang) {
				r.groups[rs] = append(r.groups[rs], i)
				break
			}
		}
	}
	for rs := range r.groups {
		r.build(rs)
	}
	return r
}

// build makes the rules rs for their files.
func (r *Resolver) build(rs *Rules) {
	mine := r.groups[rs]
	lr := rs.New(r.files, mine)
	for _, i := range mine {
		r.lang[i], r.group[i] = lr, rs
	}
}

// rebased returns the resolver of files, the same files as r's after the
// files changed changed, and the files beside those whose references it
// may resolve otherwise than r, in order. The rules of each group that
// claims or reads a changed file are made again, but those that take the
// change in place (Updater: Go's, when what other files' references see
// of the changed files is as it was); the rules of the other groups are
// r's. r is not used again.
func (r *Resolver) rebased(files []File, changed []int) (*Resolver, []int) {
	n := *r
	n.files, n.lang, n.group = files, slices.Clone(r.lang), slices.Clone(r.group)
	again := make(map[*Rules]bool)
	inPlace := make(map[*Rules][]int)
	for _, i := range changed {
		if rs := r.group[i]; rs != nil {
			if _, ok := r.lang[i].(Updater); ok {
				inPlace[rs] = append(inPlace[rs], i)
			} else {
				again[rs] = true
			}
		}
		for _, rs := range r.cfg.Rules {
			if rs.Reads != nil && rs.Reads(files[i]) {
				again[rs] = true
			}
		}
	}
	for rs, ch := range inPlace {
		if !r.lang[ch[0]].(Updater).Update(files, ch) {
			again[rs] = true
		}
	}
	var more []int
	for _, rs := range r.cfg.Rules { // in the Config's order
		if again[rs] {
			if _, ok := n.groups[rs]; ok {
				n.build(rs)
				more = append(more, n.groups[rs]...)
			}
		}
	}
	slices.Sort(more)
	return &n, more
}

// ExtraKeys returns the keys file i publishes beyond its definitions:
// for a language whose rules link files as a whole, such as C's
// includes. They are never shown.
func (r *Resolver) ExtraKeys(i int) []string {
	if x, ok := r.lang[i].(ExtraKeyer); ok {
		return x.ExtraKeys(i)
	}
	return nil
}

// DefKey returns the key of definition j of file i.
func (r *Resolver) DefKey(i, j int) Ref {
	if l := r.lang[i]; l != nil {
		return l.DefKey(i, j)
	}
	set := r.files[i].Tags
	return Ref{Name: RankName(set.Sub(j), set.Str(set.Tags[j].Name))}
}

// MoreDefKeys appends to out the other keys definition j of file i
// publishes under.
func (r *Resolver) MoreDefKeys(out []string, i, j int) []string {
	if l, ok := r.lang[i].(MoreDefKeyer); ok {
		return l.MoreDefKeys(out, i, j)
	}
	return out
}

// isMore reports whether k, a key a reference of file i resolves to, is
// one that definitions publish under beside their own (MoreDefKeys): the
// link stage keeps the set of those references use, and a definition
// publishes only those.
func (r *Resolver) isMore(i int, k Ref) bool {
	l, ok := r.lang[i].(MoreDefKeyer)
	return ok && l.IsMore(k)
}

// RefKeys appends the keys of reference j of file i to out.
func (r *Resolver) RefKeys(out []Ref, i, j int) []Ref {
	if l := r.lang[i]; l != nil {
		return l.RefKeys(out, i, j)
	}
	set := r.files[i].Tags
	return append(out, Ref{Name: set.Str(set.Tags[j].Name)})
}

// useContext returns what reference j of file i resolves by beside its
// name, kind and qualifier: references of one file that agree on all
// four resolve alike.
func (r *Resolver) useContext(i, j int) int32 {
	if c, ok := r.lang[i].(Contexter); ok {
		return c.UseContext(i, j)
	}
	return 0
}

// Resolves reports whether file i has rules of its own.
func (r *Resolver) Resolves(i int) bool { return r.lang[i] != nil }
