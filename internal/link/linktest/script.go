package linktest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/eval/experiment"
	"github.com/repomap-dev/repomap/internal/index/indextest"
	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/tags"
)

// Script oracles. An analyser of another language (Jedi, the TypeScript
// checker) runs as one process that a script of ours drives: it reads
// requests on stdin, one a line,
//
//	file<TAB>line<TAB>name
//
// (a slash path under the tree's root, a 1-based line, a name the file
// uses there), and answers each, in order, with one line on stdout:
//
//	file<TAB>line<TAB>name[<TAB>defining file<TAB>defined name]...
//
// each pair a definition, in another file of the tree, that the name
// there means.

// Request is what a script oracle is asked: a name used on a line
// (1-based) of a file.
type Request struct {
	File string
	Line int
	Name string
}

// Requests returns the uses that the reference tags mark in the files
// of which ask holds, each place once, in the files' order. A path or
// name holding a tab or a line break is left out: the requests could not
// say it.
func Requests(files []link.File, ask func(link.File) bool) []Request {
	var out []Request
	for _, f := range files {
		if !ask(f) || strings.ContainsAny(f.Path, "\t\r\n") {
			continue
		}
		seen := make(map[Request]bool)
		set := f.Tags
		for _, tg := range set.Tags {
			r := Request{f.Path, int(tg.Line) + 1, set.Str(tg.Name)}
			if tg.Kind != tags.Reference || seen[r] || strings.ContainsAny(r.Name, "\t\r\n") || r.Name == "" {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// Ask runs cmd, a script oracle, on the requests, and returns what it
// answers as a Truth whose Files are files: edges to other files are
// kept but not scored.
func Ask(t testing.TB, cmd *exec.Cmd, reqs []Request, files map[string]bool) Truth {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	written := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(in)
		for _, r := range reqs {
			fmt.Fprintf(w, "%s\t%d\t%s\n", r.File, r.Line, r.Name)
		}
		err := w.Flush()
		if cerr := in.Close(); err == nil {
			err = cerr
		}
		written <- err
	}()
	tr, readErr := readAnswers(out, reqs, files)
	if readErr != nil {
		_, _ = io.Copy(io.Discard, out)
	}
	waitErr := cmd.Wait()
	if err := <-written; err != nil && readErr == nil && waitErr == nil {
		t.Fatalf("%s: writing the requests: %v", cmd.Path, err)
	}
	if waitErr != nil || readErr != nil {
		t.Fatalf("%s: %v %v\n%s", strings.Join(cmd.Args, " "), waitErr, readErr, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Logf("%s: %s", strings.Join(cmd.Args, " "), stderr.Bytes())
	}
	return tr
}

// readAnswers reads a script oracle's answers to reqs, each of which
// must say its request again.
func readAnswers(r io.Reader, reqs []Request, files map[string]bool) (Truth, error) {
	tr := Truth{Pairs: make(map[[2]string]bool), Files: files}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for k, req := range reqs {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return tr, err
			}
			return tr, fmt.Errorf("%d answers to %d requests", k, len(reqs))
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 || len(f)%2 != 1 || f[0] != req.File || f[1] != strconv.Itoa(req.Line) || f[2] != req.Name {
			return tr, fmt.Errorf("answer %d is %q, to %s:%d %s", k+1, sc.Text(), req.File, req.Line, req.Name)
		}
		for j := 3; j < len(f); j += 2 {
			tr.Add(req.File, f[j], f[j+1], int32(req.Line-1))
		}
	}
	if sc.Scan() {
		return tr, fmt.Errorf("more answers than the %d requests: %q", len(reqs), sc.Text())
	}
	return tr, sc.Err()
}

// CheckTrees scores the rules against a script oracle on each tree of
// spec (directories, as in PATH), as Oracle.Check does: the ranking that
// REPOMAP_ORACLE_RANKING names (the default when empty), against the
// truth that the process command starts for a tree answers (Ask) for the
// uses in the files isLang holds, kept under kind (Cached);
// REPOMAP_ORACLE_DETAIL=1 lists the misses and the heaviest false edges.
// A tree with no such files (what names them) is skipped.
func CheckTrees(t *testing.T, spec, kind, what string, isLang func(link.File) bool, command func(ctx context.Context, dir string) *exec.Cmd) {
	rk, err := experiment.Parse(os.Getenv("REPOMAP_ORACLE_RANKING"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range filepath.SplitList(spec) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files, err := link.Files(context.Background(), indextest.Snapshot(t, os.DirFS(dir)))
			if err != nil {
				t.Fatal(err)
			}
			asked := make(map[string]bool)
			for _, f := range files {
				if isLang(f) {
					asked[f.Path] = true
				}
			}
			if len(asked) == 0 {
				t.Skipf("%s has no %s files", dir, what)
			}
			o := Oracle{
				Truth: Cached(t, dir, kind, func() Truth {
					return Ask(t, command(t.Context(), dir), Requests(files, isLang), asked)
				}),
				Detail: os.Getenv("REPOMAP_ORACLE_DETAIL") != "",
			}
			o.Check(t, files, rk, 0.95)
		})
	}
}
