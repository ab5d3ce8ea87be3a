package eval

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/repomap"
	"github.com/repomap-dev/repomap/tags"
)

// MaxDefiners is the most files of the parent tree, besides the file
// whose added line refers to a name, that may define the name for the
// overview question to count it.
//
// References are tied to definitions by name alone for now (the link
// stage does not resolve them), so a reference stands for every
// definition of its name, and a common name would fill the wanted set
// with definitions the line does not use: String, Error, New or get are
// defined in tens or hundreds of files of a large tree. Three lets in a
// name shared by an interface and an implementation or two, or by the
// copies of a type in sibling packages, while leaving such names out.
// Once the link stage resolves references, the wanted definitions can be
// the ones each reference resolves to, and this bound can go.
const MaxDefiners = 3

// OverviewWanted is what the overview question of a commit wants: the
// definitions in other files of the parent tree that the lines the
// commit adds use.
type OverviewWanted struct {
	// Names counts the names referred to on the added lines, by what
	// became of them.
	Names OverviewNames `json:"names"`
	// Defs are the definitions wanted, by path, line and name: every
	// definition of a Resolved name in the files other than the
	// referring file that define it.
	Defs []WantedDef `json:"defs,omitempty"`
}

// OverviewNames counts names referred to on added lines, once per
// changed file and name.
type OverviewNames struct {
	Referred int `json:"referred"` // names referred to on an added line of a changed file
	// Local are names the new version of the referring file defines
	// itself: the reference is taken to be to its own definition.
	Local int `json:"local"`
	// Undefined are names no other file of the parent tree defines (as
	// repomap.Map.Definitions finds them; a document's heading is no
	// definition a reference wants): builtins, what libraries from
	// outside the tree define, or what the commit adds.
	Undefined int `json:"undefined"`
	// Common are names more than MaxDefiners other files define.
	Common int `json:"common"`
	// Resolved are the rest: names 1 to MaxDefiners other files define,
	// whose definitions there are wanted.
	Resolved int `json:"resolved"`
}

func (n *OverviewNames) add(o OverviewNames) {
	n.Referred += o.Referred
	n.Local += o.Local
	n.Undefined += o.Undefined
	n.Common += o.Common
	n.Resolved += o.Resolved
}

// WantedDef is one definition the overview question wants.
type WantedDef struct {
	Path string `json:"path"`
	Line int    `json:"line"` // 1-based
	Name string `json:"name"`
}

// OverviewOutcomes are the outcomes of the overview map and its random
// baseline on one commit.
type OverviewOutcomes struct {
	Map    OverviewOutcome `json:"map"`
	Random OverviewOutcome `json:"random"`
}

// OverviewOutcome is what one map, or the random baseline, showed of the
// wanted definitions.
type OverviewOutcome struct {
	// First is the 1-based position, in the ranked list of files (the
	// random order for the random baseline), of the first file holding a
	// wanted definition; 0 when the list has none.
	First int `json:"first"`
	// Found, InFiles, Files, Defs and Tokens have one entry per budget:
	// the wanted definitions whose lines the map shows, the wanted
	// definitions in the files it shows, the files and the definitions
	// it shows, and its tokens. The random baseline shows files, not
	// lines: its Found, Defs and Tokens are 0.
	Found   []int `json:"found"`
	InFiles []int `json:"in_files"`
	Files   []int `json:"files"`
	Defs    []int `json:"defs"`
	Tokens  []int `json:"tokens"`
}

func newOverviewOutcome(n int) OverviewOutcome {
	return OverviewOutcome{Found: make([]int, n), InFiles: make([]int, n), Files: make([]int, n), Defs: make([]int, n), Tokens: make([]int, n)}
}

// record notes what the map r, made at the j-th budget, shows of wanted.
func (o *OverviewOutcome) record(j int, r *repomap.Result, wanted []WantedDef) {
	shownFiles := make(map[string]bool, len(r.Files))
	shownDefs := make(map[WantedDef]bool)
	for _, f := range r.Files {
		shownFiles[f.Path] = true
		for _, d := range f.Defs {
			shownDefs[WantedDef{Path: f.Path, Line: d.Line, Name: d.Name}] = true
		}
		o.Defs[j] += len(f.Defs)
	}
	for _, w := range wanted {
		if shownDefs[w] {
			o.Found[j]++
		}
		if shownFiles[w.Path] {
			o.InFiles[j]++
		}
	}
	o.Files[j] = len(r.Files)
	o.Tokens[j] = r.Tokens
}

// firstHolding returns the 1-based position in files of the first that
// holds a wanted definition, or 0.
func firstHolding(files []string, wanted []WantedDef) int {
	for i, f := range files {
		if slices.ContainsFunc(wanted, func(w WantedDef) bool { return w.Path == f }) {
			return i + 1
		}
	}
	return 0
}

// countHeld returns how many of wanted are in files.
func countHeld(files []string, wanted []WantedDef) int {
	in := make(map[string]bool, len(files))
	for _, f := range files {
		in[f] = true
	}
	n := 0
	for _, w := range wanted {
		if in[w.Path] {
			n++
		}
	}
	return n
}

// referrer is a changed file's new version and the names its added lines
// refer to.
type referrer struct {
	path  string
	names []string // referred to on added lines, not defined by the file itself
}

// overviewWanted returns the overview question's wanted definitions for
// p, whose source changes are touched, with m, a Map of the parent tree.
func (e *evaluator) overviewWanted(ctx context.Context, m *repomap.Map, p *Commit, touched []change) (OverviewWanted, error) {
	var ow OverviewWanted
	var refs []referrer
	var all []string
	for _, ch := range touched {
		if !regular(ch.newMode) {
			continue // deleted: no line added
		}
		names, local, err := e.addedNames(ctx, ch)
		if err != nil {
			return ow, err
		}
		ow.Names.Referred += len(names) + local
		ow.Names.Local += local
		if len(names) > 0 {
			refs = append(refs, referrer{ch.path, names})
			all = append(all, names...)
		}
	}
	if len(all) == 0 {
		return ow, nil
	}
	slices.Sort(all)
	defs, err := m.Definitions(ctx, slices.Compact(all)...)
	if err != nil {
		return ow, err
	}
	byName := make(map[string][]repomap.Definition)
	for _, d := range defs {
		if d.Kind != headingKind {
			byName[d.Name] = append(byName[d.Name], d)
		}
	}
	seen := make(map[WantedDef]bool)
	for _, r := range refs {
		for _, name := range r.names {
			var others []repomap.Definition
			definers := make(map[string]bool)
			for _, d := range byName[name] {
				if d.Path != r.path {
					others = append(others, d)
					definers[d.Path] = true
				}
			}
			switch {
			case len(definers) == 0:
				ow.Names.Undefined++
				continue
			case len(definers) > MaxDefiners:
				ow.Names.Common++
				continue
			}
			ow.Names.Resolved++
			for _, d := range others {
				w := WantedDef{Path: d.Path, Line: d.Line, Name: d.Name}
				if !seen[w] {
					seen[w] = true
					ow.Defs = append(ow.Defs, w)
				}
			}
		}
	}
	slices.SortFunc(ow.Defs, func(a, b WantedDef) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Name, b.Name)
	})
	return ow, nil
}

// headingKind is the kind of a document's headings, which no reference
// wants: as the link stage has it, a heading goes by a name no
// identifier has, so that code using the heading's words is not tied to
// the document.
const headingKind = "heading"

// maxParsed is the largest new version addedNames parses: the largest
// file a Map reads by default.
const maxParsed = repomap.DefaultMaxFileSize

// addedNames parses the new version of the changed file ch and returns
// the names its added lines refer to that it does not define itself,
// sorted, and how many names it does define among those referred to.
// A version too large, binary, or that does not parse refers to nothing.
func (e *evaluator) addedNames(ctx context.Context, ch change) ([]string, int, error) {
	src, err := e.blobs.read(ch.newOID)
	if err != nil {
		return nil, 0, err
	}
	if len(src) > maxParsed || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, 0, nil
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")) // as the map reads it; rows are the same
	var rows []int
	if regular(ch.oldMode) {
		if rows, err = e.repo.addedRows(ctx, ch.oldOID, ch.newOID); err != nil {
			return nil, 0, err
		}
	} else {
		n := bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			n++
		}
		for row := range n {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil, 0, nil
	}
	ts, err := e.parser.Parse(ctx, ch.path, src)
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		if errors.Is(err, tags.ErrUnsupportedLanguage) || errors.Is(err, tags.ErrTimeout) {
			return nil, 0, nil
		}
		e.cfg.Logger.Warn("eval: parse", "path", ch.path, "err", err)
		return nil, 0, nil
	}
	added := make(map[int]bool, len(rows))
	for _, r := range rows {
		added[r] = true
	}
	defined := make(map[string]bool)
	referred := make(map[string]bool)
	for _, t := range ts {
		switch {
		case t.Kind == tags.Definition:
			defined[t.Name] = true
		case t.Kind == tags.Reference && added[t.Line] && !declaredUse(t.Sub):
			referred[t.Name] = true
		}
	}
	var names []string
	local := 0
	for n := range referred {
		if defined[n] {
			local++
		} else {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, local, nil
}

// declaredUse reports whether references of kind sub are declarations
// that a name is used rather than uses in the code: the parameters that
// may name pytest fixtures (every parameter of a test, self too), the
// names of an __all__, Python's type annotations, and the bindings of
// Python's variables (what x = F(…), self.a = F(…), x: T, x = [] and
// self.a = {} bind x and a to). The first two would want definitions the
// line does not use, and the question is the one measured before they
// were tags.
func declaredUse(sub string) bool {
	switch sub {
	case "fixture", "export", "hint":
		return true
	}
	return link.IsBinding(sub)
}
