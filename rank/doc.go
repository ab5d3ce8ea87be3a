// Package rank ranks the definitions of a repository for a repo map.
//
// The input is, for each source file, the identifiers it defines and the
// identifiers it references (one entry per occurrence), plus what the user
// is working on: focus files, mentioned files and mentioned identifiers.
// Rank builds a weighted graph between files, runs personalized PageRank on
// it, and shares each file's rank among the definitions it points to. The
// result is a list of (file, identifier) definitions, best first, followed
// by the files that have no ranked definition. The scoring follows the
// get_ranked_tags function of Aider's repomap.py, with two of its quirks
// fixed (noted below).
//
// Rank is pure and deterministic: no I/O, and every floating point sum
// runs in a fixed order, so equal inputs give bit-identical results
// whatever the order of the files. On a large graph the power iteration
// runs on a few goroutines, each summing its own fixed part of the
// identifiers, which gives the same bits as one goroutine does, on any
// machine. Rank never builds the edge
// list; the tests check it against an explicit graph and its PageRank,
// which are checked against gonum.
//
// # Edges
//
// Every edge goes from a referencing file to a defining file and carries an
// identifier; edges between the same two files for different identifiers
// are summed for PageRank but kept apart when sharing out the rank.
//
//   - An identifier that some file references, and some file defines,
//     yields, for each referencing file R with n occurrences and each
//     defining file D, an edge R→D (R = D is allowed) of weight
//     mul·√n, and 50·mul·√n when R is a focus file. √n is applied once
//     per reference count, not once per definer, so an identifier with
//     three definers referenced four times gives three edges of weight
//     2·mul each. (Aider takes the square root again for every definer.)
//   - mul starts at 1 and is multiplied by every factor that applies:
//     10 if the identifier is a mentioned identifier; 10 if it has at least
//     8 characters and is snake_case (contains "_" and a letter),
//     kebab-case (contains "-" and a letter) or camelCase/PascalCase
//     (contains an upper-case and a lower-case letter), so "HTTP" and
//     "short_x" do not qualify; 0.1 if it starts with "_"; 0.1 if it is
//     defined in more than 5 files.
//   - An identifier that is defined but never referenced yields, for each
//     defining file D, a self-edge D→D of weight 0.1, with no multiplier
//     but Weights.MentionedUnused (1 unless set) for a mentioned one.
//     A lone file, one that references no definition and none of whose
//     definitions is referenced, has only these edges, so its definitions
//     share its whole rank; with Weights.Lone below 1 their scores are
//     multiplied by it (the ranks of files do not change).
//   - References to identifiers that no file defines are ignored.
//   - If no file references anything at all, every file is taken to
//     reference each identifier it defines once.
//
// A name defined twice in one file counts once, and empty names are
// ignored. Only files with at least one edge, in or out, are nodes of the
// graph.
//
// # Personalization and PageRank
//
// Each node starts with personalization 0; a focus file gets +1; a
// mentioned file is raised to at least 1; and a file gets +1 more when one
// of its path elements, its base name, or its base name without extension is
// a mentioned identifier. The vector is normalized to sum 1; when it is all
// zero, the uniform distribution is used instead. PageRank then runs with
// networkx's semantics (damping 0.85, tolerance 1e-6, at most 100
// iterations; see PageRank), and the rank of a node without out-edges is
// spread according to the personalization.
//
// # Scores and the ranked list
//
// A node S with rank r and total out-weight T gives each of its (edge,
// identifier) pairs S→D of weight w the score r·w/T, credited to the
// definition (D, identifier); a definition's score is the sum of what it is
// credited. Result.Entries lists:
//
//  1. every credited definition, by score descending, then path, then name,
//     except the definitions of focus files;
//  2. a file-only entry (Name == "") for each node not already listed and
//     not a focus file, by rank descending then path, scored with its rank;
//  3. a file-only entry with score 0 for every other file that is not a
//     focus file, by path.
//
// Focus files are thus left out (Aider lets them back in among the
// file-only entries), and every other file appears at least once.
// Result.Files holds the rank of every node.
//
// # Reverse edges
//
// With Input.Reverse = β > 0, every edge R→D for a referenced identifier
// gets a twin D→R of β times its weight, so that rank flows back from a
// definition to the files that use it: with a focus file, its tests and
// callers rise too. What flows back to R is shared evenly by R's
// definitions. β = 0 is Aider's ranking.
//
// # Computing it
//
// On a large tree the edges are many millions: an identifier referenced
// by R files and defined in D files stands for R·D edges. Rank never
// builds them. Each edge's weight depends only on its referencing file
// and identifier, so one power iteration gathers, per identifier, what its
// referencers send along one edge, and hands that sum to each of its
// definers (and, for reverse edges, the other way round). That is the
// same iteration as PageRank on the explicit graph, in time linear in
// the number of tags; the tests check it against the explicit graph.
// Result.Links counts the (edge, identifier) pairs all the same, and
// NewFileGraph enumerates them, with the weights and the teleport Rank
// uses, for showing the graph.
//
// [Index.Ranking] returns the ranked list to be read as far as needed:
// its definition entries are put in order only as far as they are asked
// for, in the order Result.Entries has them. [Input.Converged] hands Rank
// the end of an earlier iteration of the same query, which it then does
// not run again. [NewIndex] interns the keys of every file;
// [Index.Update] makes the index of the same files after a few changed
// from the index before, interning only theirs.
//
// # Example
//
// Take three files and no focus:
//
//	main.go    defines main                 references NewServer, NewServer, Config
//	server.go  defines NewServer, Server    references Config
//	config.go  defines Config               references nothing
//
// NewServer is referenced twice by main.go and is a long camelCase name, so
// mul = 10 and the edge main.go→server.go weighs 10·√2 ≈ 14.14. Config is
// short, so main.go→config.go and server.go→config.go weigh 1 each. main
// and Server are never referenced, so main.go→main.go and
// server.go→server.go weigh 0.1 each. The out-weights are 15.24 for main.go,
// 1.1 for server.go and 0 for config.go, whose rank is therefore spread
// uniformly, as there is no personalization. PageRank gives
//
//	config.go 0.464   server.go 0.353   main.go 0.183
//
// and the entries are
//
//	config.go  Config     0.183·1/15.24 + 0.353·1/1.1 ≈ 0.333
//	server.go  NewServer  0.183·14.14/15.24           ≈ 0.169
//	server.go  Server     0.353·0.1/1.1               ≈ 0.032
//	main.go    main       0.183·0.1/15.24             ≈ 0.001
//
// With main.go as the focus file its edges weigh 50 times more and it gets
// all the personalization: NewServer (≈ 0.362) overtakes Config (≈ 0.329),
// and main drops out of the list.
package rank
