package rank

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// synthetic returns a reproducible input of nFiles files defining nIdents
// identifiers between them and referencing them nRefs times in all, with
// a Zipf-like skew of references and a few identifiers defined in several
// files (some in more than five).
func synthetic(nFiles, nIdents, nRefs int, seed uint64) Input {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	names := make([]string, nIdents)
	for i := range names {
		switch i % 4 {
		case 0:
			names[i] = fmt.Sprintf("Ident_%d", i) // long snake with capital
		case 1:
			names[i] = fmt.Sprintf("ident%d", i) // plain
		case 2:
			names[i] = fmt.Sprintf("doSomething%d", i) // long camelCase
		default:
			names[i] = fmt.Sprintf("_p%d", i) // private
		}
	}
	files := make([]File, nFiles)
	for i := range files {
		files[i].Path = fmt.Sprintf("pkg%d/sub%d/f%d.go", i%37, i%11, i)
	}
	for i, name := range names {
		f := i % nFiles
		files[f].Defs = append(files[f].Defs, name)
		switch {
		case i%50 == 0: // common name: defined in 7 more files
			for range 7 {
				g := rng.IntN(nFiles)
				files[g].Defs = append(files[g].Defs, name)
			}
		case i%10 == 0: // defined twice
			g := rng.IntN(nFiles)
			files[g].Defs = append(files[g].Defs, name)
		}
	}
	zipf := rand.NewZipf(rng, 1.1, 4, uint64(nIdents-1))
	perFile := nRefs / nFiles
	for i := range files {
		refs := make([]string, 0, perFile)
		for range perFile {
			if rng.IntN(20) == 0 {
				refs = append(refs, fmt.Sprintf("undefined%d", rng.IntN(1000)))
				continue
			}
			refs = append(refs, names[zipf.Uint64()])
		}
		files[i].Refs = refs
	}
	return Input{
		Files:           files,
		Focus:           []string{files[1].Path, files[2].Path},
		MentionedFiles:  []string{files[3].Path},
		MentionedIdents: []string{names[5], names[6], "pkg7"},
	}
}

func BenchmarkRank(b *testing.B) {
	in := synthetic(5000, 50000, 1000000, 1)
	s := prepare(in)
	var pairs int
	var buf []contrib
	for f := range int32(len(s.paths)) {
		buf = s.edgesFrom(f, buf)
		pairs += len(buf)
	}
	r := Rank(in)
	b.Logf("%d files, %d idents, %d (edge, ident) pairs, %d nodes, %d entries",
		len(in.Files), len(s.names), pairs, len(r.Files), len(r.Entries))
	b.ReportAllocs()
	for b.Loop() {
		Rank(in)
	}
}

func BenchmarkPageRank(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	edges := make([]Edge, 0, 500000)
	for range cap(edges) {
		edges = append(edges, Edge{From: rng.IntN(8000), To: rng.IntN(8000), Weight: rng.Float64() + 0.01})
	}
	g := NewGraph(8000, edges)
	b.ReportAllocs()
	for b.Loop() {
		PageRank(g, nil, nil)
	}
}

// BenchmarkRanking ranks the graph of BenchmarkRank with an Index made
// once, as a warm map does: the whole list sorted (all), only the first
// 500 definition entries and the files' order (prefix), and the same
// from the ranks of an earlier iteration (converged).
func BenchmarkRanking(b *testing.B) {
	in := synthetic(5000, 50000, 1000000, 1)
	x := NewIndex(in.Files)
	res := x.Rank(in)
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			x.Ranking(in).Result()
		}
	})
	prefix := func(in Input) {
		r := x.Ranking(in)
		for i := range min(500, r.Len()) {
			r.At(i)
		}
		r.Leaders(nil)
	}
	b.Run("prefix", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			prefix(in)
		}
	})
	b.Run("converged", func(b *testing.B) {
		in := in
		in.Converged = &Converged{Files: res.Files, Iterations: res.Iterations}
		b.ReportAllocs()
		for b.Loop() {
			prefix(in)
		}
	})
}

// BenchmarkIndex measures making the index of a synthetic tree of 5,000
// files (new), and the index of the same tree after one file changed,
// made from the index before (update).
func BenchmarkIndex(b *testing.B) {
	in := synthetic(5000, 50000, 1000000, 1)
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NewIndex(in.Files)
		}
	})
	b.Run("update", func(b *testing.B) {
		x := NewIndex(in.Files)
		changed := in.Files[123]
		changed.Defs = append(slices.Clone(changed.Defs), "aNewName")
		changed.Refs = append(slices.Clone(changed.Refs), "undefined7", "aNewName")
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := x.Update([]File{changed}, nil); !ok {
				b.Fatal("Update refused")
			}
		}
	})
}
