package policy

import (
	"github.com/repomap-dev/repomap/internal/history"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/rank"
)

// The settings of the default ranking. Each was kept because repomap
// eval measured it better on held-out history, tasks and canons; the
// figures are in docs/tuning.md.
const (
	// reverseWeight is the weight of an edge back from a definer to a
	// file that uses it: the files using a focus file (its tests, its
	// callers) rise with it.
	reverseWeight = 0.5
	// testFactor scales the definitions of tests and examples in a map
	// for no request, so that they come below the code they use.
	testFactor = 0.3
	// fallbackWeight is the weight of a name match the rules could not
	// place, relative to a resolved link.
	fallbackWeight = 0.3
	// privateWeight is, in a map for no request, the weight of the names
	// a package keeps to itself: an overview leads with the API its
	// packages share.
	privateWeight = 0.3
	// overviewLong is the multiplier of long descriptive names in a map
	// for no request: Aider's 10 lets a long private helper outrank the
	// short names a library's users call.
	overviewLong = 1
	// frontShare is the share of the teleport of a map for no request
	// that the front doors of packages take: a user meets a package
	// through them, and they hand their rank on to what they re-export.
	frontShare = 0.2
	// readmeShare is the share that the READMEs whose code uses names
	// take.
	readmeShare = 0.1
	// mentionedUnused multiplies the self-edge of a definition nothing
	// uses whose name the request mentions (as an edge of a mentioned
	// name is multiplied), so that a name asked for is shown though its
	// file's rank also flows to its users along the edges back.
	mentionedUnused = 10
	// itemRows is the most rows one item shows: a name defined a hundred
	// times in one file (a trait method each of its types implements)
	// does not fill a budget alone.
	itemRows = 3
	// spreadKeep and docItemsKeep are the definitions of a name, and of
	// a document, kept in their places at the head of the list: a map
	// shows a name on a few types, not on each of a dozen that implement
	// it, and a page by its first headings.
	spreadKeep   = 1
	docItemsKeep = 1
)

// DocsFactor is what Config.Docs scales the definitions of documents and
// data by in the experiments that demote them.
const DocsFactor = 0.01

// The relevance of files to a request's words.
const (
	relTop      = 20 // files given teleport weight
	relPersonal = 2  // their weight, times their relevance
	relBoost    = 3  // a definition's score grows by this times its file's relevance
	relText     = 1  // a word of a file's text weighs as one of its names
	relEvery    = 2  // every other place at the head goes to the next most relevant file
	relNamed    = 1  // a file the words name is as relevant as the best file
)

// The history of the tree (see History). Of its parts, only the lift
// of the files that changed with the focus files raised recall on every
// history measured, and the lift of the file that the commits whose
// messages match a request's words changed raised the tasks' figures;
// the teleport and boost from the focus, the parts from the request's
// files and the recency prior each lowered it on some
// (docs/history.md), and are off.
const (
	histDepth      = history.DefaultDepth // commits read
	histMaxFiles   = 30                   // the most files of a commit whose files count as changed together
	histHalfLife   = 90                   // days
	histTop        = 20                   // files that get weight
	histFocus      = 0                    // teleport to the files changed with the focus files
	histFocusBoost = 0                    // and their boost
	histLift       = 10                   // of them, those that take turns at the head of the list
	histRequest    = 0                    // teleport to the files changed with the request's files
	histReqBoost   = 0                    // and their boost
	histReqTop     = 5                    // the files most relevant to the words that count as the request's
	histRecency    = 0                    // the boost of a file changed lately
	histMsgLift    = 1                    // source files that the commits whose messages match the words changed, lifted
	histMsgCommits = 10                   // of the commits whose messages match them best
	histMsgAdd     = 12                   // the place among the relevant leads of the best such source file that does not lead
)

// The relevance of the definitions of the most relevant files to a
// request's words (BM25F over their tags' fields).
const (
	defLift   = 0.1 // the best definition's score grows by this times its file's best
	defName   = 3   // a word of a definition's name
	defQual   = 1   // a word of its qualifier (a method's receiver)
	defBody   = 1   // a word of a name its body refers to
	defDirect = 1   // a name the request writes as code adds the rarest word's weight
	defQualif = 1   // a method the request writes with its type's name (`Type.method`) adds it again
	defText   = 1   // a word of its lines: code, comments, docstrings, messages
	defLeads  = 2   // each of the most relevant files brings its most relevant definitions to the head, in turns
	defLines  = 2   // the most lines of interest a definition that leads shows
	lineLeads = 1   // the first definitions that lead show them
)

// Default returns repomap's ranking: Aider's, with each language's rules
// of resolution, edges back from definitions to their users, the files'
// roles, the relevance of files to the request's words, and the
// overview's front doors and READMEs.
func Default() Config {
	return Config{
		Link: link.Config{Resolve: true, Rules: langs.Default(), Fallback: fallbackWeight, Family: true, Fixtures: true, Exports: true,
			Readme: true, DocCode: true},
		Reverse: reverseWeight, Private: privateWeight, OverviewLong: overviewLong,
		Roles: true, Tests: testFactor, ByName: true, Companions: true,
		Front: frontShare, Readme: readmeShare,
		Rel: Relevance{On: true, Top: relTop, Personal: relPersonal, Boost: relBoost, Text: relText, Named: relNamed,
			NoEnv: true, NoTemplates: true,
			Defs: DefRel{Lift: defLift, Name: defName, Qual: defQual, Body: defBody, Direct: defDirect, Qualified: defQualif, Text: defText, Lines: defLines}},
		History: History{On: true, Depth: histDepth, MaxFiles: histMaxFiles, HalfLife: histHalfLife, Top: histTop,
			Focus: histFocus, FocusBoost: histFocusBoost, Lift: histLift, Request: histRequest, RequestBoost: histReqBoost,
			RequestTop: histReqTop, Recency: histRecency, MessageLift: histMsgLift, MessageCommits: histMsgCommits,
			MessageAdd: histMsgAdd},
		Items:   Items{Every: relEvery, Leads: defLeads, LineLeads: lineLeads, Spread: spreadKeep, DocItems: docItemsKeep, Variants: true},
		Rows:    itemRows,
		Weights: rank.Weights{MentionedUnused: mentionedUnused},
	}
}

// Aider returns Aider's ranking: every reference linked to every
// definition of its name, PageRank personalized to the focus files and
// the mentioned names, and nothing else.
func Aider() Config { return Config{} }

// The names of the rankings a Map can be asked for.
const (
	NameDefault = "default"
	NameAider   = "aider"
)
