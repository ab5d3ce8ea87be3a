package policy

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/rank"
	"github.com/repomap-dev/repomap/tags"
)

// keyWeight returns the weight of the edges of each key for the ranking
// rk (see link.ClassOf): the fallback weight for name matches the rules
// could not place, and with rk.Private, for a map for no request, that
// weight for the names a package keeps to itself (Go's lower-case
// names), so that a repository's overview leads with the API its
// packages share; the names of documents' code weigh only in a map for
// no request, or with rk.DocMaps.
func keyWeight(rk Config, overview bool) func(string) float64 {
	docs := rk.Link.Readme || rk.Link.DocCode
	if !rk.Link.Resolve && !docs {
		return nil
	}
	return func(key string) float64 {
		switch c := link.ClassOf(key); {
		case c == link.Doc && docs:
			if overview || rk.DocMaps {
				return 1
			}
			return 0
		case !rk.Link.Resolve:
		case c == link.Fallback:
			return rk.Link.Fallback
		case c == link.Names:
			return rk.Link.Names
		case c == link.Private && overview && rk.Private > 0:
			return rk.Private
		}
		return 1
	}
}

// Edges returns the input of the ranking of files with rk, for no
// request (overview) or for one, as far as it weighs the edges of the
// file graph: the weights of names and of each class of key, and the
// edges back. Input adds the teleport and the scales of files.
func Edges(files []rank.File, rk Config, overview bool) rank.Input {
	in := rank.Input{Files: files, Reverse: rk.Reverse, Weights: rk.Weights}
	in.KeyWeight = keyWeight(rk, overview)
	if in.KeyWeight != nil {
		in.Split = link.Split
		// What keyWeight's weights depend on.
		in.KeyWeightName = fmt.Sprint(rk.Link.Readme, rk.Link.DocCode, rk.DocMaps, rk.Link.Resolve, rk.Link.Fallback, rk.Link.Names, rk.Private, overview)
	}
	if rk.OverviewLong > 0 && overview {
		in.Weights.LongIdent = rk.OverviewLong
	}
	if !overview {
		// A request's teleport goes to the files it points at, not to
		// every file: Weights.Lone is for a map for none. (In every map
		// it lowered focus recall on bubbletea's history.)
		in.Weights.Lone = 0
	}
	return in
}

// A Lead is a definition the ranked list moves up (items.New): the one
// named Name in the file at Path, or, when Name is "", the file's best
// shown definition by rank; with the lines of interest it shows below
// its own, 0-based.
type Lead struct {
	Path, Name string
	Lines      []int
}

// Input returns the input of the ranking of s for q, with rk and the
// links l (its Files are l.Files), and the definitions the ranked list
// moves up (items.New), with rk.Items.Every; nil else: the best of each
// file that changed with the focus files, then those of the files most
// relevant to q's words, best first (relevantLeads). Map.Graph shows the
// graph of the same input.
func Input(ctx context.Context, s *index.Snapshot, l link.Linked, rk Config, q Query) (in rank.Input, leads []Lead) {
	in, top, coChanged, defRel, defLines := input(ctx, s, l, rk, q)
	if rk.Items.Every > 0 {
		files := top
		if rk.Rel.MixCode || rk.Rel.CodeTop && !aboutDocs(q.Text) {
			files = codeFiles(s, top, in.MentionedFiles)
		}
		for _, p := range coChanged {
			leads = append(leads, Lead{Path: p})
		}
		relevant := relevantLeads(files, defRel, rk.Items.Leads, rk.Items.First)
		for i := range min(rk.Items.LineLeads, len(relevant)) {
			relevant[i].Lines = defLines[relevant[i].Path][relevant[i].Name]
		}
		if q.History != nil && rk.History.Messages() {
			relevant = messageLeads(relevant, s, q.History, q.Text, rk.History)
		}
		leads = append(leads, relevant...)
	}
	return in, leads
}

// relevantLeads returns the definitions to move up of the files ps, the
// most relevant to a request's words, best first: with n of 0, the best
// by rank of each; else, in n rounds, the next most relevant definition
// of each file by rel (defRelevance's), ties by name; in the first round
// a file none of whose definitions is relevant gives its best by rank.
// With first positive, the first files take all their rounds before
// the others take theirs.
func relevantLeads(ps []string, rel map[string]map[string]float64, n, first int) []Lead {
	first = min(max(first, 0), len(ps))
	out := make([]Lead, 0, len(ps))
	out = roundLeads(out, ps[:first], rel, n)
	return roundLeads(out, ps[first:], rel, n)
}

// roundLeads appends to out the leads of the files ps in n rounds, as
// relevantLeads gives them.
func roundLeads(out []Lead, ps []string, rel map[string]map[string]float64, n int) []Lead {
	byRel := make([][]string, len(ps))
	for i, p := range ps {
		byRel[i] = byRelevance(rel[p])
	}
	for r := range max(n, 1) {
		for i, p := range ps {
			switch {
			case n > 0 && r < len(byRel[i]):
				out = append(out, Lead{Path: p, Name: byRel[i][r]})
			case r == 0:
				out = append(out, Lead{Path: p})
			}
		}
	}
	return out
}

// input returns the input of the ranking of s for q, with rk and the
// links l, the files most relevant to q's words, best first (nil
// without words), the files that changed with the focus files to move
// up, best first (historyInput), and the relevance of the definitions of
// the files of top to q's words and their lines of interest
// (defRelevance), when the ranking lifts them or moves them up.
func input(ctx context.Context, s *index.Snapshot, l link.Linked, rk Config, q Query) (in rank.Input, top, coChanged []string, defRel map[string]map[string]float64, defLines map[string]map[string][]int) {
	focus := q.Focus
	mentions := q.Mentions
	overview := len(focus) == 0 && len(mentions) == 0 && q.Text == ""
	if rk.Rel.NoEnv {
		q.Text = withoutListings(q.Text)
	}
	in = Edges(l.Files, rk, overview)
	in.Focus = focus
	if overview && (rk.Front > 0 || rk.Readme > 0) {
		doors, readmes := Doors(ctx, s, rk)
		overviewTeleport(&in, s, doors, rk.Front, readmes, rk.Readme)
	}
	var rel map[string]float64
	switch {
	case q.Text == "":
	case !rk.Rel.On:
		mentions = slices.Concat(mentions, FindMentions(q.Text, s.Paths()).All())
	default:
		// The paths the words name, the names written as code, and the
		// files whose words the words are.
		named := namedFiles(q.Text, s.Paths())
		mentions = slices.Concat(mentions, named, CodeWords(q.Text), traceNames(q.Text))
		rel, idf := relevanceIDF(ctx, s, q.Text, rk.Rel.Text)
		if rk.Rel.DocRel > 0 {
			// The words of a page are prose: its relevance counts
			// docRel of a code file's.
			for p := range rel {
				if i, ok := s.Lookup(p); ok && roleTier[s.Roles[i]] == lastTier {
					rel[p] *= rk.Rel.DocRel
				}
			}
		}
		best := 0.0
		for _, v := range rel {
			best = max(best, v)
		}
		for p := range rel {
			rel[p] /= best
		}
		if rk.Rel.NoTemplates && !aboutTemplates(q.Text) {
			for p := range rel {
				if isTemplate(p) && !slices.Contains(named, p) {
					delete(rel, p)
				}
			}
		}
		if rk.Rel.Named > 0 && len(named) > 0 {
			if rel == nil {
				rel = make(map[string]float64)
			}
			for _, p := range named {
				rel[p] += rk.Rel.Named
			}
		}
		in.Personal = make(map[string]float64)
		if rk.Rel.PagesOn {
			top = topByTier(s, rel, rk.Rel.Top, rk.Rel.Pages)
		} else {
			top = topRelevant(rel, rk.Rel.Top)
		}
		for _, p := range top {
			in.Personal[p] = rk.Rel.Personal * rel[p]
		}
		if d := rk.Rel.Defs; d.Lift > 0 || rk.Items.Leads > 0 {
			defRel, defLines = defRelevance(ctx, s, top, idf, directNames(q.Text), d)
			in.Lift = liftDefs(defRel, d)
		}
		// Every definition's score grows by relBoost times its file's
		// relevance.
		if rk.Rel.Boost > 0 {
			in.Scale = make(map[string]float64, len(rel))
			for p, v := range rel {
				in.Scale[p] = 1 + rk.Rel.Boost*v
			}
		}
	}
	for _, w := range mentions {
		if p := path.Clean(strings.TrimPrefix(w, "./")); s.Has(p) {
			in.MentionedFiles = append(in.MentionedFiles, p)
		}
		in.MentionedIdents = append(in.MentionedIdents, w)
	}
	if q.History != nil && rk.History.On {
		coChanged = historyInput(&in, s, q.History, rk.History, focus, in.MentionedFiles, top, rel)
	}
	if rk.Companions {
		// The tests of a focus file, or a focus test's subject, count as
		// files the request names.
		in.MentionedFiles = append(in.MentionedFiles, companions(s, focus)...)
	}
	if rk.Docs > 0 {
		demoteDocs(&in, s, rk.Docs)
	}
	if rk.Roles {
		// Tests and examples go below the code only in a map for no
		// request: a request's files draw their tests with them, which
		// the history of changes says matters. A file the request names,
		// or one of the most relevant to its words, is never moved down.
		tests := 1.0
		if len(focus) == 0 && len(mentions) == 0 && q.Text == "" {
			tests = rk.Tests
		}
		lifted := top
		if rk.Rel.CodeTop && !aboutDocs(q.Text) {
			lifted = codeFiles(s, top, in.MentionedFiles)
		}
		byRole(&in, s, tests, rk.ByName, focus, slices.Concat(in.MentionedFiles, lifted))
	}
	return in, top, coChanged, defRel, defLines
}

// scaleFile multiplies the scores of the definitions of the file at p by
// f, in the ranking in.
func scaleFile(in *rank.Input, p string, f float64) {
	if in.Scale == nil {
		in.Scale = make(map[string]float64)
	}
	if v, ok := in.Scale[p]; ok {
		f *= v
	}
	in.Scale[p] = f
}

// codeFiles returns the files of ps, in order, that are code (of role
// tier 0) or named: the ones ranking change mixcode lets take turns at
// the head of the list.
func codeFiles(s *index.Snapshot, ps, named []string) []string {
	return slices.DeleteFunc(slices.Clone(ps), func(p string) bool {
		i, ok := s.Lookup(p)
		return ok && roleTier[s.Roles[i]] > 0 && !slices.Contains(named, p)
	})
}

// aboutDocs reports whether the words of a request are about documents,
// CI or community files rather than code: whether one of them is a word
// such as "docs", "readme", "changelog" or "workflow".
func aboutDocs(text string) bool {
	for w := range strings.FieldsFuncSeq(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r)
	}) {
		switch w {
		case "doc", "docs", "documentation", "readme", "changelog", "tutorial", "contributing", "ci", "workflow", "workflows":
			return true
		}
	}
	return false
}

// The tiers of roles in the ranked list: the code of the tree (its tests
// and examples with it, scaled), then fixtures, generated and vendored
// code, then documents, configuration, CI and community files.
var roleTier = [index.NumRoles]int{
	index.RoleSource: 0, index.RoleTest: 0, index.RoleExample: 0,
	index.RoleFixture: 1, index.RoleGenerated: 1, index.RoleVendored: 1,
	index.RoleDocs: 2, index.RoleConfig: 2, index.RoleCommunity: 2, index.RoleAsset: 2,
}

// Tier returns the tier of files of role r in the ranked list: 0 for
// the code of the tree (its tests and examples with it), 1 for fixtures,
// generated and vendored code, 2 for documents, configuration, CI and
// community files.
func Tier(r index.Role) int { return roleTier[r] }

// byRole orders the ranking in by the roles of the files of s: the
// definitions of tier 0 first, the tests' and examples' scaled by tests,
// then those of tier 1, then tier 2, each tier by score; then the files
// by name alone, by tier too. With byName, the files of the last tier
// (documents, configuration, CI and community files) show by name alone.
// A role of a focus file, and a pointed file, are never moved down: the
// request points at them.
func byRole(in *rank.Input, s *index.Snapshot, tests float64, byName bool, focus, pointed []string) {
	var liftedRoles [index.NumRoles]bool
	for _, p := range focus {
		if i, ok := s.Lookup(p); ok {
			liftedRoles[s.Roles[i]] = true
		}
	}
	isPointed := make(map[string]bool, len(pointed))
	for _, p := range pointed {
		isPointed[p] = true
	}
	in.Tier = make(map[string]int)
	for i, f := range s.Files {
		r := s.Roles[i]
		if isPointed[f.Path] || liftedRoles[r] {
			continue
		}
		if (r == index.RoleTest || r == index.RoleExample) && tests != 1 {
			scaleFile(in, f.Path, tests)
		}
		if t := roleTier[r]; t > 0 {
			in.Tier[f.Path] = t
		}
		if byName && roleTier[r] == lastTier {
			if in.ByName == nil {
				in.ByName = make(map[string]bool)
			}
			in.ByName[f.Path] = true
		}
	}
}

// lastTier is the tier of documents, configuration, CI and community
// files, and assets: in the default ranking they show by name alone
// (byName) unless the request points at them.
const lastTier = 2

// Query is what the rank stage takes of a request.
type Query struct {
	Focus    []string      // clean paths of the map
	Mentions []string      // identifiers and paths
	Text     string        // the user's words
	History  *history.View // the tree's history; nil for none
}

// DocLanguages are the languages of documents and data rather than code:
// their definitions (headings, keys, selectors, ids) are worth a line in
// a map when nothing better fits.
var DocLanguages = map[string]bool{
	"css": true, "html": true, "json": true, "markdown": true, "properties": true,
	"scss": true, "toml": true, "xml": true, "yaml": true,
}

// demoteDocs scales the definitions of the document and data files of s
// by factor, in the ranking in; file entries stay where they are.
func demoteDocs(in *rank.Input, s *index.Snapshot, factor float64) {
	for _, f := range s.Files {
		if DocLanguages[tags.Detect(f.Path, nil)] {
			scaleFile(in, f.Path, factor)
		}
	}
}

// Doors returns the files of s that take a share of the teleport
// of a map for no request in the ranking rk: the front doors (frontDoor)
// with rk.Front, and with rk.Readme the READMEs of the roots whose code
// uses names (readme), in map order.
func Doors(ctx context.Context, s *index.Snapshot, rk Config) (doors, readmes []string) {
	if rk.Front > 0 {
		doors = frontDoors(s)
	}
	if rk.Readme > 0 {
		for i, f := range s.Files {
			if !link.Readme(f.Rel) {
				continue
			}
			if slices.ContainsFunc(s.Tags(ctx, i).Tags, func(t tags.Packed) bool { return t.Kind == tags.Reference }) {
				readmes = append(readmes, f.Path)
			}
		}
	}
	return doors, readmes
}

// overviewTeleport gives, in the ranking in of s, the files doors the
// share f of the teleport and the files readmes the share g, and every
// other file an equal part of the rest; a file's part is never below
// that of the others.
func overviewTeleport(in *rank.Input, s *index.Snapshot, doors []string, f float64, readmes []string, g float64) {
	if len(readmes) == 0 || g == 0 {
		frontTeleport(in, s, doors, f)
		return
	}
	if len(doors) == 0 {
		f = 0
	}
	rest := len(s.Files) - len(doors) - len(readmes)
	if rest <= 0 || f+g >= 1 {
		return
	}
	// The weight of a file of the rest is 1.
	each := (1 - f - g) / float64(rest)
	in.Personal = make(map[string]float64, len(s.Files))
	for _, fl := range s.Files {
		in.Personal[fl.Path] = 1
	}
	for _, p := range doors {
		in.Personal[p] = max(1, f/float64(len(doors))/each)
	}
	for _, p := range readmes {
		in.Personal[p] = max(1, g/float64(len(readmes))/each)
	}
}

// frontTeleport gives doors, the front doors of s (frontDoor), the share
// f of the teleport of in, and every other file an equal part of the
// rest.
func frontTeleport(in *rank.Input, s *index.Snapshot, doors []string, f float64) {
	n := len(s.Files)
	if len(doors) == 0 || len(doors) == n {
		return
	}
	// A door weighs 1 + e against 1 for another file, with
	// doors·(1+e) / (n + doors·e) = f.
	d := float64(len(doors))
	e := (f*float64(n) - d) / (d * (1 - f))
	if e <= 0 {
		return
	}
	in.Personal = make(map[string]float64, n)
	for _, fl := range s.Files {
		in.Personal[fl.Path] = 1
	}
	for _, p := range doors {
		in.Personal[p] += e
	}
}

// frontDoors returns the paths of the files of s that are front doors,
// in map order: source files frontDoor names.
func frontDoors(s *index.Snapshot) []string {
	var doors []string
	for i, fl := range s.Files {
		if s.Roles[i] == index.RoleSource && frontDoor(fl.Path) {
			doors = append(doors, fl.Path)
		}
	}
	return doors
}

// frontDoor reports whether the file at p is, by its language's
// conventions, the front door of a package: what a user of the package
// imports, which re-exports its public API. A Python package's
// __init__.py at the top of the tree or of src/ or lib/ (not a private
// one, whose name starts with "_"); a Rust crate's src/lib.rs; a
// JavaScript or TypeScript package's index file at its top or in its
// src/, source/ or lib/.
func frontDoor(p string) bool {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case base == "__init__.py":
		parent, pkg := path.Split(dir)
		parent = strings.TrimSuffix(parent, "/")
		return pkg != "" && !strings.HasPrefix(pkg, "_") && (parent == "" || parent == "src" || parent == "lib")
	case base == "lib.rs":
		return dir == "src" || strings.HasSuffix(dir, "/src")
	}
	stem, ext, ok := strings.Cut(base, ".")
	if !ok || stem != "index" {
		return false
	}
	switch ext {
	case "js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx":
	default:
		return false
	}
	last := path.Base(dir)
	return dir == "" || last == "src" || last == "source" || last == "lib"
}

// topByTier returns the k files most relevant by rel among the files of
// code of s (tiers 0 and 1), and among them, in their order, the at most
// m most relevant files of the last tier (documents, configuration), best
// first: a page the words are about then takes no place of a file of
// code.
func topByTier(s *index.Snapshot, rel map[string]float64, k, m int) []string {
	var out []string
	code, last := 0, 0
	for _, p := range topRelevant(rel, len(rel)) {
		i, ok := s.Lookup(p)
		switch {
		case ok && roleTier[s.Roles[i]] == lastTier:
			if last == m {
				continue
			}
			last++
		case code == k:
			continue
		default:
			code++
		}
		out = append(out, p)
		if code == k && last == m {
			break
		}
	}
	return out
}

// withoutListings returns text without the runs of five lines or more
// that list installed versions, as issues paste them ("numpy: 1.22.1",
// "pandas==1.4.0", "LANG: None"): each line a name, a colon or "==", and
// a value that begins with a digit or is None, True or False.
func withoutListings(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && isListing(lines[j]) {
			j++
		}
		switch {
		case j-i >= 5: // a listing: left out
		case j == i: // a line that lists nothing
			j++
			fallthrough
		default:
			out = append(out, lines[i:j]...)
		}
		i = j
	}
	return strings.Join(out, "\n")
}

// isListing reports whether line lists a version, as withoutListings
// reads it.
func isListing(line string) bool {
	line = strings.TrimSpace(line)
	name, value, ok := strings.Cut(line, "==")
	if !ok {
		name, value, ok = strings.Cut(line, ":")
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" || len(name) > 40 || strings.ContainsAny(name, " \t()[]{}\"'") || value == "" {
		return false
	}
	switch v, _, _ := strings.Cut(value, " "); v {
	case "None", "True", "False":
		return true
	}
	return value[0] >= '0' && value[0] <= '9'
}

// isTemplate reports whether the file at p is an issue or pull request
// template: a form the words of a request may be written in.
func isTemplate(p string) bool {
	l := strings.ToLower(p)
	return strings.Contains(l, "issue_template") || strings.Contains(l, "pull_request_template") || strings.Contains(l, "merge_request_templates/")
}

// aboutTemplates reports whether the words of a request speak of
// templates: the word itself, not a part of a name, a path or a link
// (xarray's template links a notebook named blank_template.ipynb).
func aboutTemplates(text string) bool {
	for field := range strings.FieldsSeq(strings.ToLower(text)) {
		if strings.Contains(field, "/") {
			continue
		}
		for w := range strings.FieldsFuncSeq(field, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' && r != '.' }) {
			if w = strings.TrimRight(w, "."); w == "template" || w == "templates" {
				return true
			}
		}
	}
	return false
}
