// Package policy holds what shapes a map's ranking, and makes the rank
// stage's input by it.
//
// Config is every setting, stage by stage: the link stage's
// (link.Config), the shaping of the rank input, the order of the ranked
// list (Items) and the rows an item shows. Default is repomap's ranking
// and Aider is Aider's; package eval/experiment names others for
// experiments. Config.Fingerprint encodes all of it, for the keys of what
// a map keeps.
//
// Input turns a snapshot of the index, the link stage's result and a
// request (Query) into rank.Input: the teleport of PageRank (the focus
// files, the files the request names or whose words are its words, the
// front doors and READMEs of a map for no request), the weight of each
// kind of key (link.ClassOf), the scale of each file's definitions (by
// relevance, documents, tests) and the tiers of roles. The relevance of
// files to the request's words is BM25 over the words of their text,
// names and paths, counted when they were parsed and kept in the index.
// Within the most relevant files, each definition is scored against the
// words too (BM25F over its name, qualifier, references and lines), and
// Input returns the definitions that lead the ranked list (Lead).
package policy
