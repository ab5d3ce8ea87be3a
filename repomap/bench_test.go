package repomap

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/eval/experiment"

	"github.com/repomap-dev/repomap/internal/corpus"
	"github.com/repomap-dev/repomap/internal/policy"
)

// benchRoot returns a directory of the Go distribution's sources, or skips.
func benchRoot(b *testing.B, rel string) string {
	b.Helper()
	return corpus.GoSrc(b, rel)
}

func benchRender(b *testing.B, m *Map) *Result {
	b.Helper()
	r, err := m.Build(context.Background(), Request{MaxTokens: 1024})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// benchIssue is the text of a request, as an issue gives it.
const benchIssue = `Server hangs when a handler writes a large response after the client closed the connection

With HTTP/2 disabled, ResponseWriter.Write blocks forever once the peer resets the stream:

    goroutine 42 [select]:
    net/http.(*conn).serve(0xc000100000, {0x7a1b20, 0xc0000a2000})
    	/usr/local/go/src/net/http/server.go:2039 +0x1d8

I expected the write to fail with "http: connection has been hijacked" or a broken pipe error.`

// benchMap measures maps of the tree at root: cold (an empty tag cache),
// warm (a new Map over a filled disk cache, as a new process sees it),
// request (warm, for an issue's words),
// memory (the same Map again, its tags in memory, the map recomputed)
// and touched (the same Map after one file changed).
func benchMap(b *testing.B, root string) {
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			m, err := New(root, &Options{CacheDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			r := benchRender(b, m)
			m.Close()
			b.ReportMetric(float64(r.Stats.Files), "files")
		}
	})
	dir := b.TempDir()
	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	benchRender(b, m)
	m.Close()
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			m, err := New(root, &Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			if r := benchRender(b, m); r.Stats.Parsed != 0 {
				b.Fatalf("a warm map parsed %d files", r.Stats.Parsed)
			}
			m.Close()
		}
	})
	// request: as warm, with an issue's words as the request, so that the
	// relevance of every file is computed too.
	b.Run("request", func(b *testing.B) {
		for b.Loop() {
			m, err := New(root, &Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			r, err := m.Build(context.Background(), Request{MaxTokens: 1024, Text: benchIssue})
			if err != nil {
				b.Fatal(err)
			}
			if r.Stats.Parsed != 0 {
				b.Fatalf("a warm request parsed %d files", r.Stats.Parsed)
			}
			m.Close()
		}
	})
	// budgets: a Map kept open asked for maps of the same files, each
	// with another budget than the last.
	b.Run("budgets", func(b *testing.B) {
		m, err := New(root, &Options{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		benchRender(b, m)
		budget := 1024
		for b.Loop() {
			budget = 3072 - budget
			if _, err := m.Build(context.Background(), Request{MaxTokens: budget}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("memory", func(b *testing.B) {
		m, err := New(root, &Options{CacheDir: dir, Refresh: RefreshAlways})
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		benchRender(b, m)
		for b.Loop() {
			benchRender(b, m)
		}
	})
}

func BenchmarkMapNetHTTP(b *testing.B) { benchMap(b, benchRoot(b, "net/http")) }

func BenchmarkMapGoSrc(b *testing.B) {
	if testing.Short() {
		b.Skip("maps the whole Go standard library")
	}
	benchMap(b, benchRoot(b, ""))
}

// BenchmarkTouched measures a map after one file of net/http changed:
// its modification time, not its bytes.
func BenchmarkTouched(b *testing.B) { benchTouched(b, "net/http", "server.go", nil) }

// BenchmarkTouchedGoSrc measures a map after one file of the whole Go
// standard library changed: its modification time, not its bytes.
func BenchmarkTouchedGoSrc(b *testing.B) {
	if testing.Short() {
		b.Skip("maps the whole Go standard library")
	}
	benchTouched(b, "", "net/http/server.go", nil)
}

// BenchmarkEdited measures a map after an edit of one file of net/http:
// a line comes after its package clause, or goes, so that every tag of
// the file moves, and the files link as they did.
func BenchmarkEdited(b *testing.B) { benchTouched(b, "net/http", "server.go", commentEdit) }

// BenchmarkEditedGoSrc measures a map after an edit of one file of the
// whole Go standard library, as BenchmarkEdited edits it.
func BenchmarkEditedGoSrc(b *testing.B) {
	if testing.Short() {
		b.Skip("maps the whole Go standard library")
	}
	benchTouched(b, "", "net/http/server.go", commentEdit)
}

// BenchmarkCalled measures a map after an edit of one file of net/http
// that links it otherwise: a function body calls a method once more, or
// once less, so that the file's references count one more or one less.
func BenchmarkCalled(b *testing.B) { benchTouched(b, "net/http", "server.go", callEdit) }

// BenchmarkCalledGoSrc measures a map after an edit of one file of the
// whole Go standard library, as BenchmarkCalled edits it.
func BenchmarkCalledGoSrc(b *testing.B) {
	if testing.Short() {
		b.Skip("maps the whole Go standard library")
	}
	benchTouched(b, "", "net/http/server.go", callEdit)
}

// commentEdit adds a comment line after the package clause of source.
func commentEdit(source []byte) ([]byte, error) {
	clause := bytes.Index(source, []byte("\npackage "))
	if clause < 0 {
		return nil, errors.New("no package clause")
	}
	clause += bytes.IndexByte(source[clause+1:], '\n') + 2
	return slices.Concat(source[:clause], []byte("// An edit.\n"), source[clause:]), nil
}

// callEdit adds a call of a method to the first line of the body of
// net/http's Server.Close.
func callEdit(source []byte) ([]byte, error) {
	head := []byte("\nfunc (s *Server) Close() error {\n")
	at := bytes.Index(source, head)
	if at < 0 {
		return nil, errors.New("no Server.Close")
	}
	at += len(head)
	return slices.Concat(source[:at], []byte("\ts.logf(\"closing\")\n"), source[at:]), nil
}

// benchTouched measures a long-lived Map re-rendering a copy of the Go
// sources at rel after the file touched changed, with edit (when not
// nil) its bytes changing too, one render to the edited bytes and the
// next back: what a user of a Map kept open waits for after an edit.
func benchTouched(b *testing.B, rel, touched string, edit func([]byte) ([]byte, error)) {
	src := benchRoot(b, rel)
	root := b.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	m, err := New(root, &Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	benchRender(b, m)
	path := filepath.Join(root, filepath.FromSlash(touched))
	source, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var edited []byte
	if edit != nil {
		if edited, err = edit(source); err != nil {
			b.Fatalf("%s: %v", touched, err)
		}
	}
	t := time.Now()
	cpu := cpuTime()
	n := 0
	var stages [4]time.Duration
	for b.Loop() {
		if edit != nil {
			n++
			data := source
			if n%2 == 1 {
				data = edited
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		t = t.Add(time.Second)
		if err := os.Chtimes(path, t, t); err != nil {
			b.Fatal(err)
		}
		r := benchRender(b, m)
		if r.Stats.Parsed != 1 {
			b.Fatalf("after touching one file, %d were parsed", r.Stats.Parsed)
		}
		for i, d := range []time.Duration{r.Stats.Walk, r.Stats.Tags, r.Stats.Rank, r.Stats.Fit} {
			stages[i] += d
		}
	}
	for i, unit := range []string{"walk-ns/op", "tags-ns/op", "rank-ns/op", "fit-ns/op"} {
		b.ReportMetric(float64(stages[i])/float64(b.N), unit)
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTouchedPolyglot measures a long-lived Map re-rendering after one
// Scala file of a Scala, C++ and Go tree changed: the tags queries, which
// take seconds to compile for Scala and C++, are compiled once for the
// Map's life, so this costs what parsing one small file does.
func BenchmarkTouchedPolyglot(b *testing.B) {
	tree := polyglotTree()
	m, err := NewFS(tree, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	benchRender(b, m)
	for b.Loop() {
		f := tree["b.scala"]
		f.ModTime = f.ModTime.Add(time.Second)
		if r := benchRender(b, m); r.Stats.Parsed != 1 {
			b.Fatalf("after touching one file, %d were parsed", r.Stats.Parsed)
		}
	}
}

// BenchmarkGraphNetHTTP measures the graph of net/http, its tags in
// memory, with every edge enumerated.
func BenchmarkGraphNetHTTP(b *testing.B) {
	m, err := New(benchRoot(b, "net/http"), &Options{NoCache: true})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	if _, err := m.Graph(ctx, Request{}); err != nil { // parses the tree
		b.Fatal(err)
	}
	edges := 0
	for b.Loop() {
		g, err := m.Graph(ctx, Request{})
		if err != nil {
			b.Fatal(err)
		}
		edges = 0
		for range g.Edges() {
			edges++
		}
	}
	b.ReportMetric(float64(edges), "edges")
}

// benchLink measures the link stage alone, on a snapshot of the tree at
// root: it runs on the first map after any change.
func benchLink(b *testing.B, root string) {
	m, err := New(root, &Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	s, err := m.snapshot(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	rk, err := experiment.Parse(RankingDefault)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		linkedOf(b, s, rk)
	}
}

func BenchmarkLinkNetHTTP(b *testing.B) { benchLink(b, benchRoot(b, "net/http")) }

func BenchmarkLinkGoSrc(b *testing.B) {
	if testing.Short() {
		b.Skip("links the whole Go standard library")
	}
	benchLink(b, benchRoot(b, ""))
}

// BenchmarkRankGoSrc measures the ranking alone of the Go standard
// library's graph, for no request and without the ranks of an earlier
// map to start from: the power iteration each map after an edit runs.
func BenchmarkRankGoSrc(b *testing.B) {
	if testing.Short() {
		b.Skip("ranks the whole Go standard library")
	}
	m, err := New(benchRoot(b, ""), &Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	s, err := m.snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	rk, err := experiment.Parse(RankingDefault)
	if err != nil {
		b.Fatal(err)
	}
	l, err := linkSnapshot(ctx, s, rk)
	if err != nil {
		b.Fatal(err)
	}
	in, _ := policy.Input(context.Background(), s, l.Linked, rk, policy.Query{})
	b.ReportAllocs()
	for b.Loop() {
		l.Index.Ranking(in)
	}
	b.ReportMetric(float64(l.Index.Ranking(in).Result().Iterations), "iterations")
}
