package policy

import (
	"encoding/json"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/rank"
)

// Config is every setting that shapes a map's ranking, stage by stage.
// Default is repomap's; Aider is Aider's ranking, kept for comparison;
// package eval builds others for experiments. A Config is a plain value:
// Fingerprint encodes all of it, so that no setting can be left out of
// the key a result is kept under.
type Config struct {
	// Link says how references are tied to definitions.
	Link link.Config

	// Reverse is the weight of an edge back from a definer to a file that
	// references it, relative to the forward edge; 0 for none.
	Reverse float64
	// Weights replaces Aider's weights of identifiers.
	Weights rank.Weights
	// Private, with Link.Resolve and in a map for no request, is the
	// weight of the names a package keeps to itself (Go's lower-case
	// names); 0 leaves them as they are.
	Private float64
	// OverviewLong, when positive, is the multiplier of long descriptive
	// names in a map for no request, in place of Aider's 10.
	OverviewLong float64
	// Docs, when positive, scales the definitions of documents and data
	// files.
	Docs float64
	// Roles orders the list by the files' roles (tiers: code, then
	// fixtures, generated and vendored code, then documents and
	// configuration); Tests scales the definitions of tests and examples
	// in a map for no request. ByName shows the files of the last tier by
	// name alone unless the request points at them.
	Roles  bool
	Tests  float64
	ByName bool
	// Companions makes the tests of a focus file, and a focus test's
	// subject, count as files the request names.
	Companions bool
	// Front and Readme are the shares of the teleport of a map for no
	// request that go to the front doors of the packages and to the
	// READMEs whose code uses names; 0 for none. DocMaps links
	// documents' names in maps with a request too.
	Front   float64
	Readme  float64
	DocMaps bool

	// Rel says how the relevance of files to the user's words steers
	// the ranking.
	Rel Relevance

	// History says how the history of the tree steers the ranking.
	History History

	// Items says how the ranked list is put in order.
	Items Items
	// Rows is the most rows an item shows: its first definitions of the
	// name in its file; 0 for all.
	Rows int
}

// Relevance says how the relevance of files to a request's words (BM25
// over the words of their text, names and paths) steers the ranking: the
// Top most relevant files get a teleport weight of Personal times their
// relevance (the best file's is 1), and every definition's score grows by
// Boost times its file's.
type Relevance struct {
	On       bool
	Top      int
	Personal float64
	Boost    float64
	// Text is the weight of the words of a file's text in its relevance;
	// 0 counts its names alone.
	Text float64
	// Named is what a file the words name adds to its relevance.
	Named float64
	// With PagesOn, the Top most relevant files of code, and at most Pages
	// of the last tier, make the most relevant files.
	PagesOn bool
	Pages   int
	// DocRel, when positive, is what the relevance of a file of the last
	// tier counts before the files the words name are added.
	DocRel float64
	// MixCode lets only files of code, and those the words name, take
	// turns at the head of the list (Items.Every); CodeTop keeps the
	// relevant files that are not code in their tier, unless named or
	// the words are about documents.
	MixCode bool
	CodeTop bool
	// NoEnv leaves out of the words the listings of installed versions
	// that issues paste (withoutListings).
	NoEnv bool
	// NoTemplates keeps the issue and pull request templates out of the
	// most relevant files, unless the words name them or speak of
	// templates.
	NoTemplates bool
	// Defs says how the relevance of each definition of the most
	// relevant files steers the ranking.
	Defs DefRel
}

// DefRel says how the relevance of the definitions of the files most
// relevant to a request's words (BM25F over fields of their tags) steers
// the ranking: Name, Qual and Body weigh the words of a definition's
// name, of its qualifier and of the names its body refers to; Direct,
// times the rarest word's weight, is what a name the request writes as
// code adds. A definition's score then grows by Lift times its relevance
// (the best definition's is 1) times the best score of its file's
// definitions. Lift 0 leaves the ranking as it is.
type DefRel struct {
	Lift   float64
	Name   float64
	Qual   float64
	Body   float64
	Direct float64
	// Qualified adds, as Direct does, to a method or field whose type's
	// name and own the request writes dotted (`Variable.__setitem__`).
	Qualified float64
	// Text weighs the words of a definition's lines: from its own to the
	// next definition's, comments, docstrings and messages with its code.
	Text float64
	// Lines, with Text, is the most lines of interest a definition that
	// leads shows below its own (interestLines); 0 for none.
	Lines int
	// PerFile, when positive, is the most definitions of a file lifted:
	// its most relevant ones.
	PerFile int
}

// History says how the history of the tree (package history) steers
// the ranking: the files that changed together with the files a request
// points at, and the files that changed lately. A file's co-change
// weight, from a set of files, is history.View.CoChanged's, divided by
// the best file's (so the best is 1), among the Top best.
type History struct {
	On bool
	// Depth and MaxFiles say how the history is read: the most commits,
	// newest first, and the most files a commit may change for them to
	// count as changed together (history.Options).
	Depth    int
	MaxFiles int
	// HalfLife is the age, in days before the newest commit, at which a
	// commit counts half; 0 for no decay.
	HalfLife float64
	// Top is how many of the files that changed with others get weight.
	Top int
	// Focus is the teleport weight of the files that changed with the
	// focus files, times their co-change weight; FocusBoost grows their
	// definitions' scores by that times their weight.
	Focus      float64
	FocusBoost float64
	// Lift is how many of the files that changed with the focus files
	// take turns at the head of the list (Items.Every), best first.
	Lift int
	// Request and RequestBoost are the same for the files that changed
	// with the files the request's words name, and with the RequestTop
	// files most relevant to them (each weighing its relevance).
	Request      float64
	RequestBoost float64
	RequestTop   int
	// Recency grows the scores of the definitions of each file by
	// Recency times how lately it changed (history.View.Recency).
	Recency float64
	// MessageLift is how many of the files most relevant to a request's
	// words, source files, that the MessageCommits commits whose messages
	// best match the words changed the most (history.View.Messages; 0 for
	// every commit that matches) take the places right after the most
	// relevant file's at the head of the list, best first.
	MessageLift    int
	MessageCommits int
	// MessageAdd, when positive, is the place among those leads that
	// the best such source file that does not lead takes (a file the
	// words alone do not find).
	MessageAdd int
}

// Messages reports whether c reads the commits' messages for a
// request's words.
func (c History) Messages() bool { return c.On && (c.MessageLift > 0 || c.MessageAdd > 0) }

// Items says how the head of the ranked list is reordered.
type Items struct {
	// Every, when positive, puts the best definition of the k-th most
	// relevant file at place k·Every at the latest.
	Every int
	// Leads, when positive, makes each of those files bring its Leads
	// most relevant definitions to the head in turns, one a file a turn,
	// in place of its best by rank. The first LineLeads of them show
	// their lines of interest (DefRel.Lines).
	Leads     int
	LineLeads int
	// First, when positive, is how many of the files take all their
	// turns before the others take theirs.
	First int
	// Spread keeps a name's first Spread definitions in their places and
	// halves the score of each next one; 0 for no change.
	Spread int
	// DocItems keeps a document's first DocItems definitions in their
	// places, and moves its others after every other definition of its
	// tier; 0 for no change.
	DocItems int
	// Variants moves another build's copy of a Go definition (a file for
	// another GOOS, GOARCH or build tag) after every other definition of
	// its tier.
	Variants bool
}

// Fingerprint returns the whole of c in a stable form, for the keys of
// what a map keeps.
func (c Config) Fingerprint() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic("policy: config does not encode: " + err.Error()) // plain values always do
	}
	return string(b)
}

// LinkFingerprint returns the part of c that the link stage reads, in a
// stable form.
func (c Config) LinkFingerprint() string {
	b, err := json.Marshal(c.Link)
	if err != nil {
		panic("policy: config does not encode: " + err.Error())
	}
	return string(b)
}
