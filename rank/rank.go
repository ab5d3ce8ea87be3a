package rank

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Weights and multipliers used to build the file graph; see the package
// documentation for how they combine.
const (
	// unreferencedWeight is the weight of the self-edge added for each file
	// defining an identifier that no file references.
	unreferencedWeight = 0.1
	// mentionedIdentMul multiplies the weight of edges for an identifier
	// listed in Input.MentionedIdents.
	mentionedIdentMul = 10.0
	// longIdentMul multiplies the weight of edges for an identifier of at
	// least longIdentLen characters written in snake_case, kebab-case,
	// camelCase or PascalCase.
	longIdentMul = 10.0
	// longIdentLen is the length, in characters, from which longIdentMul
	// applies.
	longIdentLen = 8
	// privateIdentMul multiplies the weight of edges for an identifier
	// starting with "_".
	privateIdentMul = 0.1
	// commonIdentMul multiplies the weight of edges for an identifier
	// defined in more than commonIdentFiles files.
	commonIdentMul = 0.1
	// commonIdentFiles is the number of defining files above which
	// commonIdentMul applies.
	commonIdentFiles = 5
	// focusMul multiplies the weight of every edge leaving a Focus file.
	focusMul = 50.0
)

// File is one source file's tags as rank sees them.
type File struct {
	// Path is the file's slash-separated path, unique within Input.Files.
	// (Should two Files share a path anyway, Rank merges them into one.)
	Path string
	// Defs lists the identifiers the file defines, as keys (see Key).
	// Duplicates are allowed: a name defined twice counts once. Empty
	// names are ignored.
	Defs []string
	// Refs lists the identifiers the file references, one entry per
	// occurrence. Empty names are ignored.
	Refs []string
	// RefCounts, when not nil, has one entry per entry of Refs: the number
	// of occurrences that entry stands for, so that a file can list each
	// name once. Counts below 1 count as 1.
	RefCounts []int
}

// Input is everything Rank needs.
type Input struct {
	// Files holds the tags of every file, in any order.
	Files []File
	// Focus lists the paths of the focus files: the files the user is
	// working on (Aider's "chat files"). Their out-edges weigh 50
	// times more, they get personalization, and their definitions are left
	// out of Result.Entries.
	Focus []string
	// MentionedFiles lists paths mentioned by the user; they get
	// personalization.
	MentionedFiles []string
	// MentionedIdents lists identifiers mentioned by the user: their edges
	// weigh 10 times more, and files whose path contains one
	// of them as a path element, base name, or base name without extension
	// get personalization.
	MentionedIdents []string
	// Personal gives files a personalization of their own, by path, on top
	// of what Focus and the mentions give: a file's weight of the teleport
	// is the sum. Weights that are not positive and finite are ignored.
	Personal map[string]float64
	// Weights, when its fields are set, replace some of Aider's weights.
	Weights Weights
	// KeyWeight, when set, multiplies the weight of the edges of each key
	// by what it returns for the key: how sure the caller is of the links
	// the key makes, say. It is called once per key; negative counts as 0.
	KeyWeight func(key string) float64
	// KeyWeightName, when not empty, names KeyWeight: the Index keeps
	// the weights under the name, and so does the Index Update makes of
	// it for the keys it keeps, so that rankings with the same name call
	// KeyWeight only for keys new to it. Inputs with the same name must
	// have KeyWeights that weigh every key the same.
	KeyWeightName string
	// Split, when set with KeyWeight, reports whether the files that
	// define a key share its weight: each of its edges weighs 1/n of
	// what it would, n the number of files that define it (the
	// candidates of a reference its caller could not tell apart). It is
	// kept with the weights under KeyWeightName: Inputs of the same name
	// must split the same keys.
	Split func(key string) bool
	// Reverse, when positive, adds an edge back from each definer to each
	// file that references its identifier, weighing Reverse times the
	// forward edge. The rank that flows back is credited to the
	// referencing file's definitions, split evenly, so that the files that
	// use a focus file rise with it (Aider has no such edges: 0).
	Reverse float64
	// Scale, when not nil, multiplies the scores of the definitions of
	// files, by path, before Result.Entries is sorted: the caller's own
	// evidence for some files (their relevance to a request, say). A file
	// it lacks keeps its scores; factors that are not positive and finite
	// are ignored. It changes neither the ranks of files nor the graph.
	Scale map[string]float64
	// Lift, when not nil, raises the scores of some definitions, by path
	// then name: a definition's score grows by its factor times the best
	// score of its file's definitions, after Scale, so that a definition
	// with a factor of 1 comes level with its file's best. The caller's
	// own evidence for a definition (its relevance to a request, say);
	// factors that are not positive and finite are ignored. It changes
	// neither the ranks of files nor the graph.
	Lift map[string]map[string]float64
	// Tier, when not nil, puts files in tiers, by path: the entries of a
	// file of a lower tier come before those of every file of a higher
	// one, definition entries first, then file-only entries, each part
	// tier by tier and in its own order within a tier. A file it lacks,
	// or whose tier is negative, is in tier 0.
	Tier map[string]int
	// ByName, when not nil, lists the files shown by name alone, by
	// path: their definitions make no entries, and they are among the
	// file-only entries. It changes neither the ranks of files nor the
	// graph.
	ByName map[string]bool
	// Start, when not nil, is where the power iteration starts instead of
	// the uniform vector: the rank of each file, as an earlier Result's
	// Files gives it. After a change to a few files, the ranks from before
	// are close to the new ones, so the iteration needs fewer steps to
	// meet the same tolerance; the result is the same as a cold start's up
	// to that tolerance (see the package documentation), and as
	// deterministic: the same Input, Start included, gives identical
	// results. A node that Start lacks starts at 1/N, and one whose entry
	// is not positive and finite too; the start is then scaled to sum 1.
	Start map[string]float64
	// Converged, when not nil, is where an earlier ranking of the same
	// Index for the same query ended its power iteration: its Result's
	// Files and Iterations. Rank then does not iterate, for the same
	// result: the ranks are those it would compute again. The caller
	// vouches that the query is the same (the fields above but Scale, Lift,
	// Tier and ByName, which do not change the ranks); ranks of other nodes than
	// the graph's are not used, and Rank iterates.
	Converged *Converged
}

// Converged is the end of a power iteration: see Input.Converged.
type Converged struct {
	Files      map[string]float64
	Iterations int
}

// Weights replaces some of the weights and multipliers of the graph; a
// zero field keeps Aider's value. They are for measuring changes to the
// ranking.
type Weights struct {
	LongIdent    float64 // multiplies the edges of long descriptive names; Aider: 10
	CommonIdent  float64 // multiplies the edges of names defined in more than five files; Aider: 0.1
	Unreferenced float64 // the self-edge of a definition nothing references; Aider: 0.1
	// MentionedUnused multiplies the self-edge of a definition nothing
	// references whose name is a mentioned identifier, so that a name the
	// user asked for is shown though nothing uses it. Aider: 1.
	MentionedUnused float64
	// Lone multiplies the scores of the definitions of a lone file: one
	// that references no definition and none of whose definitions is
	// referenced, so that only its own self-edges hold it in the graph
	// and its definitions keep its whole teleport share. Aider: 1.
	Lone float64
}

// or returns w's fields, Aider's where they are zero.
func (w Weights) or() Weights {
	if w.LongIdent == 0 {
		w.LongIdent = longIdentMul
	}
	if w.CommonIdent == 0 {
		w.CommonIdent = commonIdentMul
	}
	if w.Unreferenced == 0 {
		w.Unreferenced = unreferencedWeight
	}
	if w.Lone == 0 {
		w.Lone = 1
	}
	if w.MentionedUnused == 0 {
		w.MentionedUnused = 1
	}
	return w
}

// Entry is one item of the ranked list: a definition (Name != "") or a
// file-only entry (Name == "").
type Entry struct {
	// Path is the file's path, as given in File.Path.
	Path string
	// Name is the defined identifier, or "" for a file-only entry.
	Name string
	// Score is the definition's share of PageRank for a definition, the
	// file's PageRank for a file-only entry of a graph node, and 0 for a
	// file-only entry of a file outside the graph.
	Score float64
}

// Result is what Rank returns.
type Result struct {
	// Entries is the ranked list: definition entries by descending score,
	// then file-only entries for the remaining graph nodes by descending
	// PageRank, then file-only entries for all other files by path. Focus
	// files never appear; every other input file appears at least once.
	// Entries is never nil.
	Entries []Entry
	// Files maps the path of each file that is a node of the file graph to
	// its PageRank. A file absent from Files is not a node. Files is never
	// nil.
	Files map[string]float64
	// Links is the number of (edge, identifier) pairs of the file graph:
	// one for each identifier a file references, times the files that
	// define it, plus the self-edges of unreferenced definitions.
	Links int
	// Iterations is the number of power iterations PageRank ran.
	Iterations int
}

// Rank ranks the definitions of in.Files as described in the package
// documentation. It is deterministic: the same files, given in any order,
// and the same Focus and Mentioned* sets yield identical results. Paths in
// Focus and MentionedFiles that are not in Files are ignored. Rank never
// panics.
func Rank(in Input) *Result { return NewIndex(in.Files).Rank(in) }

// Rank ranks the files of x for in, as the package function Rank ranks
// them for an Input of the same files: in.Files is not read. An Index
// can rank its files for any number of queries, concurrently too.
func (x *Index) Rank(in Input) *Result { return x.Ranking(in).Result() }

// rank runs personalized PageRank over the file graph without building
// it. An identifier referenced by R files and defined in D files stands
// for R·D edges, each from a referencer to a definer with a weight that
// depends only on the referencer; so one iteration can gather, per
// identifier, the rank its referencers send (a sum over references) and
// hand that sum to each definer (a sum over definitions). That is the same
// power iteration as PageRank on the explicit graph, in time linear in
// tags rather than in edges, which on a large tree are millions.
//
// It returns the rank of each node (files with at least one edge, in path
// order), the node's file, each slot's score (the rank that flows to that
// definition along its edges) and the number of iterations.
func (s *state) rank() (pr []float64, nodeFile []int32, score []float64, scored []bool, iters int) {
	nf := len(s.paths)
	ni := len(s.names)
	// Out-weight of each file, and which files are nodes.
	out := make([]float64, nf)
	isNode := make([]bool, nf)
	w := make([]float64, len(s.refIdent)) // weight of each reference's edges
	for f := range int32(nf) {
		for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
			k := s.refIdent[r]
			w[r] = clampWeight(s.refWeight(f, r))
			nd := s.defStart[k+1] - s.defStart[k]
			out[f] += w[r] * float64(nd)
			isNode[f] = true
		}
		for _, slot := range s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]] {
			if s.selfEdge[slot] {
				out[f] += s.selfW[s.slotIdent[slot]]
				isNode[f] = true
			}
		}
	}
	// The definers of a referenced identifier are nodes: each once, not
	// once per reference.
	for k := range ni {
		if s.referenced[k] {
			for slot := s.defStart[k]; slot < s.defStart[k+1]; slot++ {
				isNode[s.defFile[slot]] = true
			}
		}
	}
	// Reverse edges: each definer of k sends back to every referencer of
	// k, so its out-weight grows by Reverse times k's forward weight.
	fwd := make([]float64, ni) // per identifier: the sum of its references' weights
	beta := s.beta()
	if beta > 0 {
		for f := range int32(nf) {
			for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
				fwd[s.refIdent[r]] += w[r]
			}
		}
		for k := range ni {
			if fwd[k] == 0 {
				continue
			}
			for slot := s.defStart[k]; slot < s.defStart[k+1]; slot++ {
				out[s.defFile[slot]] += beta * fwd[k]
			}
		}
	}
	for f := range out {
		out[f] = clampWeight(out[f])
	}
	for f := range nf {
		if isNode[f] {
			nodeFile = append(nodeFile, int32(f))
		}
	}
	n := len(nodeFile)
	score = make([]float64, len(s.defFile))
	scored = make([]bool, len(s.defFile))
	if n == 0 {
		return []float64{}, nodeFile, score, scored, 0
	}
	pers := make([]float64, n)
	for i, f := range nodeFile {
		pers[i] = s.personalization(f)
	}
	p := normalizePersonalization(pers, n)

	g := newFlow(s, beta, out, w, nodeFile)

	x, iters, done := s.converged(nodeFile)
	if !done {
		x = s.startVector(nodeFile)
	}
	next := make([]float64, n)
	limit := float64(n) * defaultTol
	for !done && iters < defaultMaxIter {
		iters++
		var dsum float64
		for i, f := range nodeFile {
			if out[f] == 0 {
				dsum += x[i]
			}
		}
		g.step(x, next)
		diff := teleport(next, x, p, dsum, defaultAlpha)
		x, next = next, x
		if diff < limit {
			break
		}
	}

	// Each definition's score: what flows to it along its edges.
	g.spread(x, false)
	send := g.send
	for k := range ni {
		for slot := s.defStart[k]; slot < s.defStart[k+1]; slot++ {
			if s.referenced[k] {
				score[slot] = send[k]
				scored[slot] = send[k] > 0 || scored[slot]
			}
		}
	}
	for i, f := range nodeFile {
		if out[f] == 0 {
			continue
		}
		slots := s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]]
		lone := 1.0
		if s.fileRefStart[f] == s.fileRefStart[f+1] && !slices.ContainsFunc(slots, func(slot int32) bool { return s.referenced[s.slotIdent[slot]] }) {
			lone = s.weights.Lone
		}
		for _, slot := range slots {
			if s.selfEdge[slot] {
				score[slot] = x[i] / out[f] * s.selfW[s.slotIdent[slot]] * lone
				scored[slot] = true
			}
		}
	}
	if beta > 0 {
		// What flows back to a file is shared by its definitions.
		for _, f := range nodeFile {
			slots := s.fileDefSlot[s.fileDefStart[f]:s.fileDefStart[f+1]]
			n := len(slots)
			if s.dropped {
				// A key that weighs nothing is not there.
				n -= countFunc(slots, func(slot int32) bool { return s.mul[s.slotIdent[slot]] == 0 })
			}
			if n == 0 {
				continue
			}
			v := g.gather(f) / float64(n)
			if v == 0 {
				continue
			}
			for _, slot := range slots {
				if !s.dropped || s.mul[s.slotIdent[slot]] != 0 {
					score[slot] += v
					scored[slot] = true
				}
			}
		}
	}
	return x, nodeFile, score, scored, iters
}

// converged returns the ranks of the nodes and the iterations of
// Input.Converged, when it has the ranks of those nodes and no other.
func (s *state) converged(nodeFile []int32) ([]float64, int, bool) {
	c := s.done
	if c == nil || len(c.Files) != len(nodeFile) || c.Iterations < 1 {
		return nil, 0, false
	}
	x := make([]float64, len(nodeFile))
	for i, f := range nodeFile {
		v, ok := c.Files[s.paths[f]]
		if !ok {
			return nil, 0, false
		}
		x[i] = v
	}
	return x, c.Iterations, true
}

// startVector returns the iterate PageRank starts from: the uniform
// vector, or s.start's ranks of the nodes, each missing or unusable one
// at 1/N, scaled to sum 1 (uniform when their sum overflows).
func (s *state) startVector(nodeFile []int32) []float64 {
	n := len(nodeFile)
	x := make([]float64, n)
	sum := 0.0
	for i, f := range nodeFile {
		x[i] = 1 / float64(n)
		if v, ok := s.start[s.paths[f]]; ok && v > 0 && !math.IsInf(v, 1) {
			x[i] = v
		}
		sum += x[i]
	}
	if s.start == nil {
		return x
	}
	for i := range x {
		if math.IsInf(sum, 1) {
			x[i] = 1 / float64(n) // the start overflows: unusable
		} else {
			x[i] /= sum
		}
	}
	return x
}

// Index is the interned, indexed form of a set of files: what the
// rankings of the same files share, whatever the focus, the mentions and
// the weights. NewIndex makes it, in time linear in tags; Index.Rank
// ranks it for one query. An Index is never changed once made.
//
// Files are numbered 0..F-1 in path order and identifiers (keys) 0..I-1
// in name order (only defined identifiers are interned). A "slot" is one
// distinct (defining file, identifier) pair; slots are numbered by
// identifier, then file.
type Index struct {
	paths []string // unique file paths, sorted
	names []string // identifier names, sorted

	defStart  []int32 // per identifier k: its slots are [defStart[k], defStart[k+1])
	defFile   []int32 // per slot: the defining file
	slotIdent []int32 // per slot: the identifier

	fileDefStart []int32 // per file f: its slots are fileDefSlot[fileDefStart[f]:fileDefStart[f+1]]
	fileDefSlot  []int32 // slots grouped by file, identifiers ascending

	fileRefStart []int32 // per file f: its references are [fileRefStart[f], fileRefStart[f+1])
	refIdent     []int32 // referenced identifier, ascending within a file
	refCount     []int32 // number of occurrences

	referenced []bool  // per identifier: referenced by some file?
	cont       []bool  // per entry of fileDefSlot: its identifier is that of the entry before, in the same file
	selfEdge   []bool  // per slot: the self-edge of a definition nothing references
	style      []uint8 // per identifier: the styleLong and stylePrivate of its name

	// selfRefs: no file references anything, and the references above
	// are each definer's own identifiers (see the package documentation).
	selfRefs bool
	// outside is what the files reference that none defines, which
	// Update needs when a file comes to define it; nil in an index read
	// from its binary form.
	outside *outsideRefs
	// kw keeps the weights of the keys by Input.KeyWeightName; nil
	// keeps none.
	kw *keyWeights
}

// keyWeights keeps, per name of an Input.KeyWeight, the weight of each
// key of an Index (NaN until known), negative for a key whose weight its
// definers share (Input.Split).
type keyWeights struct {
	mu sync.Mutex
	by map[string][]float64
}

// maxKeyWeights bounds the names an Index keeps weights under.
const maxKeyWeights = 4

// keyWeights returns the weight f gives each key of x, at least 0, kept
// under name when it is not empty; the weight of a key split reports is
// negated. The slice is not to be changed.
func (x *Index) keyWeights(name string, f func(string) float64, split func(string) bool) []float64 {
	weigh := func(key string) float64 {
		w := max(f(key), 0)
		if split != nil && split(key) {
			return -w
		}
		return w
	}
	if name == "" || x.kw == nil {
		w := make([]float64, len(x.names))
		for k, key := range x.names {
			w[k] = weigh(key)
		}
		return w
	}
	x.kw.mu.Lock()
	defer x.kw.mu.Unlock()
	w, ok := x.kw.by[name]
	if !ok {
		if len(x.kw.by) >= maxKeyWeights || x.kw.by == nil {
			x.kw.by = make(map[string][]float64)
		}
		w = make([]float64, len(x.names))
		for k := range w {
			w[k] = math.NaN()
		}
	}
	for k, v := range w {
		if math.IsNaN(v) {
			w[k] = weigh(x.names[k])
		}
	}
	x.kw.by[name] = w
	return w
}

// keepKeyWeights gives y the weights x keeps of the keys they share:
// to[k] is the number in y of x's key k, or -1; to is nil when y's
// keys are x's.
func (x *Index) keepKeyWeights(y *Index, to []int32) {
	if x.kw == nil || y.kw == nil {
		return
	}
	x.kw.mu.Lock()
	defer x.kw.mu.Unlock()
	if len(x.kw.by) == 0 {
		return
	}
	y.kw.by = make(map[string][]float64, len(x.kw.by))
	for name, w := range x.kw.by {
		if to == nil { // the same keys
			y.kw.by[name] = slices.Clone(w)
			continue
		}
		v := make([]float64, len(y.names))
		for k := range v {
			v[k] = math.NaN()
		}
		for k, t := range to {
			if t >= 0 {
				v[t] = w[k]
			}
		}
		y.kw.by[name] = v
	}
}

// Styles of an identifier's name, as the weights of its edges see them.
const (
	styleLong    = 1 << iota // long and descriptive: isLongStyled
	stylePrivate             // starts with "_"
)

// styleOf returns the style bits of ident.
func styleOf(ident string) uint8 {
	var st uint8
	if isLongStyled(ident) {
		st |= styleLong
	}
	if strings.HasPrefix(ident, "_") {
		st |= stylePrivate
	}
	return st
}

// state is an Index with one query: what Rank ranks.
type state struct {
	*Index
	focus []bool    // per file: is it a Focus file?
	mul   []float64 // per identifier: edge weight multiplier

	// The references of the query: the Index's, but for those whose
	// identifier weighs nothing in it (see dropUnweighed), and what
	// follows from them.
	fileRefStart []int32
	refIdent     []int32
	refCount     []int32
	referenced   []bool
	selfEdge     []bool
	dropped      bool // some identifiers weigh nothing
	// selfW is the weight of each identifier's self-edges, where it has
	// them: Weights.Unreferenced, more for a mentioned identifier.
	selfW []float64

	mentionedFiles  map[string]bool
	mentionedIdents map[string]bool
	personal        map[string]float64 // Input.Personal
	start           map[string]float64 // Input.Start
	done            *Converged         // Input.Converged
	weights         Weights            // Input.Weights, with Aider's for zeros
	reverse         float64
}

// refWeight returns the weight of each edge of reference r of file f:
// the identifier's multiplier, 50 times more from a focus file, times the
// square root of the number of occurrences.
func (s *state) refWeight(f, r int32) float64 {
	w := s.mul[s.refIdent[r]]
	if s.focus[f] {
		w *= focusMul
	}
	return w * math.Sqrt(float64(s.refCount[r]))
}

// mergeKeys makes the slots of a file whose keys share an identifier one
// entry: the first slot of each run (a file's slots are in key order, and
// the keys of an identifier sort together) takes the scores of the rest.
func (s *state) mergeKeys(score []float64, scored []bool) {
	head := int32(-1)
	for p, slot := range s.fileDefSlot {
		if !s.cont[p] {
			head = slot
			continue
		}
		score[head] += score[slot]
		scored[head] = scored[head] || scored[slot]
		scored[slot] = false
	}
}

// beta returns the weight of reverse edges relative to forward ones, 0
// for none.
func (s *state) beta() float64 {
	if s.reverse > 0 && !math.IsInf(s.reverse, 1) {
		return s.reverse
	}
	return 0
}

// countPairs returns the number of (edge, identifier) pairs of the file
// graph: one per reference and definer, one per unreferenced definition.
func (s *state) countPairs() int {
	n := 0
	for _, k := range s.refIdent {
		n += int(s.defStart[k+1] - s.defStart[k])
	}
	for _, slot := range s.fileDefSlot {
		if s.selfEdge[slot] {
			n++
		}
	}
	return n
}

// personalization returns the unnormalized personalization of file f.
func (s *state) personalization(f int32) float64 {
	var v float64
	p := s.paths[f]
	if s.focus[f] {
		v++
	}
	if s.mentionedFiles[p] {
		v = max(v, 1)
	}
	if len(s.mentionedIdents) > 0 && pathMentioned(p, s.mentionedIdents) {
		v++
	}
	if w := s.personal[p]; w > 0 && !math.IsInf(w, 1) {
		v += w
	}
	return v
}

// pathMentioned reports whether a path element of p, its base name, or its
// base name without extension is in idents.
func pathMentioned(p string, idents map[string]bool) bool {
	base := ""
	for part := range strings.SplitSeq(p, "/") {
		if part == "" || part == "." {
			continue
		}
		if idents[part] {
			return true
		}
		base = part
	}
	return base != "" && idents[stripExt(base)]
}

// stripExt removes the extension of a base name the way Python's
// os.path.splitext does: leading dots do not start an extension.
func stripExt(base string) string {
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || strings.Trim(base[:i], ".") == "" {
		return base
	}
	return base[:i]
}

// identMul returns the edge weight multiplier of an identifier defined in
// nDefiners files, with the weights w.
func identMul(w Weights, ident string, nDefiners int, mentioned bool) float64 {
	return styleMul(w, styleOf(ident), nDefiners, mentioned)
}

// styleMul is identMul for an identifier whose name has the style bits st.
func styleMul(w Weights, st uint8, nDefiners int, mentioned bool) float64 {
	mul := 1.0
	if mentioned {
		mul *= mentionedIdentMul
	}
	if st&styleLong != 0 {
		mul *= w.LongIdent
	}
	if st&stylePrivate != 0 {
		mul *= privateIdentMul
	}
	if nDefiners > commonIdentFiles {
		mul *= w.CommonIdent
	}
	return mul
}

// isLongStyled reports whether ident has at least longIdentLen characters
// and is snake_case (has "_" and a letter), kebab-case (has "-" and a
// letter) or camelCase/PascalCase (has an upper- and a lower-case letter).
func isLongStyled(ident string) bool {
	if utf8.RuneCountInString(ident) < longIdentLen {
		return false
	}
	var letter, upper, lower, sep bool
	for _, r := range ident {
		switch {
		case r == '_' || r == '-':
			sep = true
		case unicode.IsUpper(r):
			upper, letter = true, true
		case unicode.IsLower(r):
			lower, letter = true, true
		case unicode.IsLetter(r):
			letter = true
		}
	}
	return (sep && letter) || (upper && lower)
}

// ownRefs returns the references of a graph without any: every definer
// references each of its own identifiers once (those of weigh, when it is
// not nil).
func (x *Index) ownRefs(weigh []float64) (fileRefStart, refIdent, refCount []int32) {
	fileRefStart = make([]int32, len(x.paths)+1)
	for f := range len(x.paths) {
		for _, slot := range x.fileDefSlot[x.fileDefStart[f]:x.fileDefStart[f+1]] {
			if weigh != nil && weigh[x.slotIdent[slot]] == 0 {
				continue
			}
			refIdent = append(refIdent, x.slotIdent[slot])
			refCount = append(refCount, 1)
		}
		fileRefStart[f+1] = int32(len(refIdent))
	}
	return fileRefStart, refIdent, refCount
}

// countFunc returns how many elements of xs satisfy f.
func countFunc[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

// selfEdges returns, per slot, whether the definition has a self-edge
// when the identifiers referenced are those of referenced: one per file
// and identifier, whatever keys it is published under, and none when
// one of them is referenced.
func (x *Index) selfEdges(referenced []bool) []bool {
	self := make([]bool, len(x.defFile))
	for p := 0; p < len(x.fileDefSlot); {
		used := false
		q := p
		for ; q == p || q < len(x.fileDefSlot) && x.cont[q]; q++ {
			used = used || referenced[x.slotIdent[x.fileDefSlot[q]]]
		}
		self[x.fileDefSlot[p]] = !used
		p = q
	}
	return self
}

// prepare interns and indexes in.
func prepare(in Input) *state { return NewIndex(in.Files).query(in) }

// query returns x with the query of in: its focus, mentions, weights and
// personalization.
func (x *Index) query(in Input) *state {
	s := &state{
		Index:           x,
		reverse:         in.Reverse,
		personal:        in.Personal,
		start:           in.Start,
		done:            in.Converged,
		weights:         in.Weights.or(),
		mentionedFiles:  make(map[string]bool, len(in.MentionedFiles)),
		mentionedIdents: make(map[string]bool, len(in.MentionedIdents)),
	}
	for _, p := range in.MentionedFiles {
		s.mentionedFiles[p] = true
	}
	for _, id := range in.MentionedIdents {
		if id != "" {
			s.mentionedIdents[id] = true
		}
	}
	s.focus = make([]bool, len(x.paths))
	for _, p := range in.Focus {
		if f, ok := slices.BinarySearch(x.paths, p); ok {
			s.focus[f] = true
		}
	}
	s.mul = make([]float64, len(x.names))
	s.selfW = make([]float64, len(x.names))
	var kw []float64
	if in.KeyWeight != nil {
		kw = x.keyWeights(in.KeyWeightName, in.KeyWeight, in.Split)
	}
	for k := range x.names {
		mentioned := len(s.mentionedIdents) > 0 && s.mentionedIdents[Ident(x.names[k])]
		n := int(x.defStart[k+1] - x.defStart[k])
		s.mul[k] = styleMul(s.weights, x.style[k], n, mentioned)
		switch {
		case kw == nil:
		case kw[k] < 0: // split among its definers
			s.mul[k] *= -kw[k] / float64(max(n, 1))
		default:
			s.mul[k] *= kw[k]
		}
		s.selfW[k] = s.weights.Unreferenced
		if mentioned {
			s.selfW[k] *= s.weights.MentionedUnused
		}
	}
	s.fileRefStart, s.refIdent, s.refCount = x.fileRefStart, x.refIdent, x.refCount
	s.referenced, s.selfEdge = x.referenced, x.selfEdge
	s.dropUnweighed()
	return s
}

// dropUnweighed leaves out of s the references to identifiers whose
// edges weigh nothing in its query (Input.KeyWeight 0): they are no
// edges, so a file is no node by them, and a definition only they
// reference has the self-edge of one nothing references, as if they were
// not there; without any other reference, the graph is one without
// references (ownRefs).
func (s *state) dropUnweighed() {
	if !slices.Contains(s.mul, 0) {
		return
	}
	s.dropped = true
	if !slices.ContainsFunc(s.refIdent, func(k int32) bool { return s.mul[k] == 0 }) {
		return
	}
	start := make([]int32, len(s.fileRefStart))
	kept := 0 // the references kept, to size their lists once
	for _, k := range s.refIdent {
		if s.mul[k] != 0 {
			kept++
		}
	}
	idents, counts := make([]int32, 0, kept), make([]int32, 0, kept)
	for f := range len(s.fileRefStart) - 1 {
		for r := s.fileRefStart[f]; r < s.fileRefStart[f+1]; r++ {
			if k := s.refIdent[r]; s.mul[k] != 0 {
				idents, counts = append(idents, k), append(counts, s.refCount[r])
			}
		}
		start[f+1] = int32(len(idents))
	}
	s.fileRefStart, s.refIdent, s.refCount = start, idents, counts
	if len(idents) == 0 {
		s.fileRefStart, s.refIdent, s.refCount = s.ownRefs(s.mul)
		idents = s.refIdent
	}
	s.referenced = make([]bool, len(s.names))
	for _, k := range idents {
		s.referenced[k] = true
	}
	s.selfEdge = s.selfEdges(s.referenced)
}

// Key returns the key of an identifier in a scope: what a definition is
// published under and what a reference resolves to. A reference links to
// the files that define its key. The empty scope gives the identifier
// itself, so plain names are keys too. The weights of an edge look at its
// identifier only, as do mentioned identifiers and Entry.Name.
func Key(ident, scope string) string {
	if scope == "" {
		return ident
	}
	return ident + "\x00" + scope
}

// Ident returns the identifier of a key.
func Ident(key string) string {
	if i := strings.IndexByte(key, 0); i >= 0 {
		return key[:i]
	}
	return key
}

// Weight returns the multiplier of the edges for an identifier defined in
// definers files, as Rank weighs them: see the package documentation.
func Weight(ident string, definers int, mentioned bool) float64 {
	return identMul(Weights{}.or(), ident, definers, mentioned)
}
