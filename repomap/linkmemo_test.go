package repomap

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/memo"
	"github.com/repomap-dev/repomap/tags"
)

// TestLinkKept checks where the links of a map come from: made by the
// first map of a tree, read from the disk cache by the next process's,
// kept by a Map kept open for its next request, and made again once a
// file changed; and that the map is the same bytes whichever it is.
func TestLinkKept(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	ctx := context.Background()
	build := func(m *Map, req Request) *Result {
		t.Helper()
		r, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fresh := func(req Request) string {
		t.Helper()
		m, err := New(root, &Options{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		return build(m, req).Text
	}
	plain := Request{MaxTokens: 1000}
	asked := Request{MaxTokens: 1000, Text: "gamma is wrong", Focus: []string{"a.go"}}

	if r := buildAt(t, root, Options{CacheDir: dir}); r.Stats.Linked != "made" {
		t.Errorf("first map: links %q, want made", r.Stats.Linked)
	}
	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.memoOff = true // the links come from the disk cache, not the map
	for i, tc := range []struct {
		req    Request
		linked string
	}{{plain, "cached"}, {asked, "kept"}, {plain, "kept"}} {
		r := build(m, tc.req)
		if r.Stats.Linked != tc.linked {
			t.Errorf("map %d: links %q, want %q", i, r.Stats.Linked, tc.linked)
		}
		if want := fresh(tc.req); r.Text != want {
			t.Errorf("map %d (links %s) differs from a new Map's:\n%s\nwant:\n%s", i, r.Stats.Linked, r.Text, want)
		}
	}

	// A changed file: the links are made again, and the map sees it.
	later := time.Now().Add(time.Minute)
	b := filepath.Join(root, "b.go")
	if err := os.WriteFile(b, []byte("package p\n\nfunc Beta() int { return Gamma() }\n\nfunc Gamma() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(b, later, later)
	r := build(m, plain)
	if r.Stats.Linked != "made" {
		t.Errorf("after a change: links %q, want made", r.Stats.Linked)
	}
	if want := fresh(plain); r.Text != want {
		t.Errorf("after a change, the map differs from a new Map's:\n%s\nwant:\n%s", r.Text, want)
	}
	// Closing the Map writes the links it made, for the next process.
	m.Close()
	if r := buildAt(t, root, Options{CacheDir: dir}); r.Stats.Linked != "cached" || r.Text != fresh(plain) {
		t.Errorf("after Close, a new Map's links %q (want cached); same map %v", r.Stats.Linked, r.Text == fresh(plain))
	}
	// Another ranking links differently: its links are its own.
	if r := buildAt(t, root, Options{CacheDir: dir, Ranking: "aider"}); r.Stats.Linked != "made" {
		t.Errorf("with ranking aider: links %q, want made", r.Stats.Linked)
	}
}

// TestLinkKeptWithSkipped checks that the links a process made of a
// tree with files it could not parse (too large, binary) are those the
// next process reads: the disk cache keeps no reason for a file's having
// no tags, and the links must not depend on it.
func TestLinkKeptWithSkipped(t *testing.T) {
	tree := maps.Clone(smallTree)
	tree["big.go"] = "package p\n\n" + strings.Repeat("// padding\n", 200)
	tree["blob.js"] = "var a\x00b\n"
	root := writeTree(t, tree)
	dir := t.TempDir()
	opts := Options{CacheDir: dir, MaxFileSize: 1000}
	first := buildUnkept(t, root, opts)
	if first.Stats.Linked != "made" || first.Stats.Skipped != 2 {
		t.Fatalf("first map: links %q, %d skipped; want made, 2", first.Stats.Linked, first.Stats.Skipped)
	}
	next := buildUnkept(t, root, opts)
	if next.Stats.Linked != "cached" {
		t.Errorf("next process's map: links %q, want cached", next.Stats.Linked)
	}
	if next.Text != first.Text {
		t.Errorf("next process's map:\n%s\nwant:\n%s", next.Text, first.Text)
	}
}

// TestLinkCacheDamaged checks that a link stage's result in the disk
// cache that does not read is made again, for the same map.
func TestLinkCacheDamaged(t *testing.T) {
	root := writeTree(t, smallTree)
	want := buildAt(t, root, Options{NoCache: true}).Text
	for name, data := range map[string][]byte{
		"empty":       {},
		"other magic": []byte("rmlk\x09" + string(make([]byte, 40))),
		"cut":         nil, // the real one, cut short
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			buildAt(t, root, Options{CacheDir: dir})
			c, err := cache.New(dir, root, nil)
			if err != nil {
				t.Fatal(err)
			}
			if data == nil {
				real, err := c.LoadBlob(context.Background(), memo.Links.Blob(memo.Key{}))
				if err != nil || len(real) < 60 {
					t.Fatalf("no link stage's result in the cache: %d bytes, %v", len(real), err)
				}
				data = real[:len(real)-5]
			}
			if err := c.StoreBlob(context.Background(), memo.Links.Blob(memo.Key{}), data); err != nil {
				t.Fatal(err)
			}
			r := buildUnkept(t, root, Options{CacheDir: dir})
			if r.Stats.Linked != "made" || r.Text != want {
				t.Errorf("links %q (want made), map:\n%s\nwant:\n%s", r.Stats.Linked, r.Text, want)
			}
		})
	}
}

// TestTagsDecodedLazily checks that a map that finds the links it kept
// reads and decodes the tags of the files it shows alone, for the map a Map
// without a cache makes, and that the lookups after it, which read the
// tags of every file, find what a new Map finds.
func TestTagsDecodedLazily(t *testing.T) {
	tree := map[string]string{"z/small.go": "package z\n\nfunc Zeta() int { return 1 }\n"}
	for p, src := range smallTree {
		tree[p] = src
	}
	for i := range 6 {
		tree[fmt.Sprintf("e/e%d.go", i)] = fmt.Sprintf("package e\n\nfunc E%d() int { return 0 }\n", i)
	}
	root := writeTree(t, tree)
	dir := t.TempDir()
	buildAt(t, root, Options{CacheDir: dir})
	// A map for another budget is fitted from the ranking kept; one for a
	// mention is ranked from the links kept.
	for _, req := range []Request{{MaxTokens: 30}, {MaxTokens: 30, Mentions: []string{"Zeta"}}} {
		t.Run(fmt.Sprintf("%+v", req), func(t *testing.T) { lazyMap(t, root, dir, req) })
	}
}

// lazyMap checks, for TestTagsDecodedLazily, a warm map of the tree at
// root, whose disk cache is in dir, for req.
func lazyMap(t *testing.T, root, dir string, req Request) {
	ctx := context.Background()
	fresh, err := New(root, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	want, err := fresh.Build(ctx, req)
	if err != nil {
		t.Fatal(err)
	}

	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, err := m.Build(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got.Stats.Linked != "cached" || got.Stats.Refit != (len(req.Mentions) == 0) || got.Text != want.Text {
		t.Fatalf("warm map: links %q (want cached), refit %t, map:\n%s\nwant:\n%s", got.Stats.Linked, got.Stats.Refit, got.Text, want.Text)
	}
	shown := make(map[string]bool)
	for _, f := range got.Files {
		if len(f.Defs) > 0 {
			shown[f.Path] = true
		}
	}
	encoded := 0 // or not read at all
	for i, f := range m.last.snap.Files {
		st := m.last.snap.State(i)
		if shown[f.Path] && !st.Decoded {
			t.Errorf("%s is shown, but its tags were not decoded", f.Path)
		}
		if !st.Decoded {
			encoded++
		}
	}
	if len(shown) == 0 || encoded == 0 {
		t.Errorf("%d files shown, %d left encoded or not read; want some of both", len(shown), encoded)
	}
	for _, name := range []string{"Beta", "E3", "gamma"} {
		a, err1 := m.References(ctx, name)
		b, err2 := fresh.References(ctx, name)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("References(%s) after a lazy map = %v, %v; a new Map's: %v, %v", name, a, err1, b, err2)
		}
		c, err1 := m.Definitions(ctx, name)
		d, err2 := fresh.Definitions(ctx, name)
		if err1 != nil || err2 != nil || len(c) == 0 || !reflect.DeepEqual(c, d) {
			t.Errorf("Definitions(%s) after a lazy map = %v, %v; a new Map's: %v, %v", name, c, err1, d, err2)
		}
	}
}

// TestFillAfterCacheChanged checks that the entries a map read as stamps
// are read in full as the disk cache holds them, and that one the cache
// no longer holds as its stamp says (another process wrote it since, or
// dropped it) is made by parsing its file: the tags are a new Map's.
func TestFillAfterCacheChanged(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	ctx := context.Background()
	buildUnkept(t, root, Options{CacheDir: dir})

	_, _, snap := stampSnapshot(t, root, dir, nil)
	for i := range snap.Len() {
		if snap.State(i).Read {
			t.Fatalf("%s was read in full; want its stamp alone", snap.Files[i].Path)
		}
	}
	// Another process drops b.go's entry and writes a.go's for another
	// version of the file.
	c, err := cache.New(dir, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other := all["c/c.py"]
	other.ModTime++
	if err := c.Store(ctx, map[string]cache.Entry{"a.go": other}, func(p string) bool { return p != "b.go" }); err != nil {
		t.Fatal(err)
	}
	readAll(ctx, snap)

	want := freshSnapshot(t, root)
	checkFilled(t, snap, want, "after fillAll")
	if i, ok := snap.Lookup("a.go"); !ok || !snap.State(i).Unwritten {
		t.Errorf("a.go, parsed again, is not to be written to the cache")
	}
}

// TestFillCancelled checks that entries read as stamps stay unread when
// the context is done as they are filled, rather than being parsed with
// a done context into entries without tags that a later map would use
// and the next persist would write to the disk cache.
func TestFillCancelled(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	ctx := context.Background()
	buildUnkept(t, root, Options{CacheDir: dir})

	m, _, snap := stampSnapshot(t, root, dir, nil)
	done, cancel := context.WithCancel(ctx)
	cancel()
	readAll(done, snap)
	for i := range snap.Len() {
		if snap.State(i).Read {
			t.Errorf("%s was read or parsed with a done context", snap.Files[i].Path)
		}
	}
	readAll(ctx, snap)
	m.Close() // the index's last write: what it read since

	want := freshSnapshot(t, root)
	c, err := cache.New(dir, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	held, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkFilled(t, snap, want, "after a cancelled fill")
	for p, h := range held {
		var w tags.Set
		j, ok := want.Lookup(p)
		if ok {
			w = want.Tags(ctx, j)
		}
		if !ok || !reflect.DeepEqual(h.Encoded.Decode(), w) {
			t.Errorf("%s in the disk cache after a cancelled fill: tags %v; a new Map's: %v", p, h.Encoded.Decode(), w)
		}
	}
}

// TestOverviewRanksKept checks that the ranks of a map for no request are
// kept with the links, in memory and on disk, and that the maps that
// start from them are those a new Map makes: for no request, and for
// requests, which do not use them.
func TestOverviewRanksKept(t *testing.T) {
	root := writeTree(t, smallTree)
	dir := t.TempDir()
	ctx := context.Background()
	fresh := func(req Request) *Result {
		t.Helper()
		m, err := New(root, &Options{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		r, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain := Request{MaxTokens: 1000}
	asked := Request{MaxTokens: 1000, Focus: []string{"a.go"}}
	want := fresh(plain)
	buildAt(t, root, Options{CacheDir: dir}) // makes the links and the ranks
	c, err := cache.New(dir, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.LoadBlob(ctx, memo.Ranks.Blob(memo.Key{}))
	if err != nil || len(data) == 0 {
		t.Fatalf("no overview ranks kept: %d bytes, %v", len(data), err)
	}
	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.memoOff = true // the ranks come from the disk cache, not the map
	for i, req := range []Request{plain, asked, plain} {
		r, err := m.Build(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		w := fresh(req)
		if r.Text != w.Text || r.Stats.Iterations != w.Stats.Iterations || !reflect.DeepEqual(r.Files, w.Files) {
			t.Errorf("map %d (links %s) differs from a new Map's:\n%s\nwant:\n%s", i, r.Stats.Linked, r.Text, w.Text)
		}
		if kept, stored := m.links.OverviewKept(); !kept || !stored {
			t.Errorf("map %d: the overview ranks are not kept", i)
		}
	}
	if w := fresh(plain); w.Text != want.Text {
		t.Fatal("two new Maps differ")
	}
}

// TestOverviewRanksQuery checks that the overview ranks a cache keeps
// are used only for the query they are of: with other roles, a
// package's __init__.py is no front door, the teleport differs, and the
// map is the one a Map without a cache makes.
func TestOverviewRanksQuery(t *testing.T) {
	files := map[string]string{
		"pkg/__init__.py": "from pkg.core import Client\n\n__all__ = [\"Client\"]\n",
		"pkg/core.py":     "class Client:\n    pass\n",
		"pkg/util.py":     "def helper():\n    pass\n",
	}
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		files["pkg/"+f+".py"] = "from pkg.util import helper\n\n\ndef " + f + "():\n    helper()\n"
	}
	root := writeTree(t, files)
	dir := t.TempDir()
	asTest := []RoleRule{{Glob: "pkg/__init__.py", Role: RoleTest}}
	door := buildAt(t, root, Options{CacheDir: dir}) // keeps the ranks with the front door
	if none := buildAt(t, root, Options{NoCache: true, Roles: asTest}); reflect.DeepEqual(door.Files, none.Files) {
		t.Fatal("the front door does not change the ranks; the test needs it to")
	}
	for _, roles := range [][]RoleRule{asTest, nil} {
		m, err := New(root, &Options{CacheDir: dir, Roles: roles})
		if err != nil {
			t.Fatal(err)
		}
		m.memoOff = true // the ranks come from the disk cache, not the map
		got, err := m.Build(context.Background(), Request{MaxTokens: 1000})
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := buildAt(t, root, Options{NoCache: true, Roles: roles})
		if got.Text != want.Text || got.Stats.Iterations != want.Stats.Iterations || !reflect.DeepEqual(got.Files, want.Files) {
			t.Errorf("roles %v: the map from the cache differs from a new Map's:\n%s\nwant:\n%s", roles, got.Text, want.Text)
		}
	}
}

// TestSourceCancelled checks that an outline a done context cut short is
// made by the next map that shows the file, rather than the file being
// taken for one without an outline until it changes.
func TestSourceCancelled(t *testing.T) {
	root := writeTree(t, smallTree)
	m, err := New(root, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	snap, err := m.snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if src := snap.Source(done, "a.go"); src == nil {
		t.Fatal("a.go: no source with a done context")
	} else if src.Outline != nil {
		t.Fatal("a.go: an outline made with a done context")
	}
	src := snap.Source(ctx, "a.go")
	if src == nil || src.Outline == nil {
		t.Fatalf("a.go after a cancelled render: source %v, want one with its outline", src)
	}
}

// stampSnapshot opens a Map of root with the disk cache in dir and makes
// its snapshot as a map whose links are kept does: the cache's entries
// read as stamps, scored for the words of wq when it is not nil. The Map
// is closed when the test ends.
func stampSnapshot(t *testing.T, root, dir string, see *index.Seer) (*Map, []index.File, *index.Snapshot) {
	t.Helper()
	ctx := t.Context()
	m, err := New(root, &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	m.idx.StartPreload(ctx, index.ReadStamps, see)
	files, skipped, err := m.idx.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := m.idx.Update(ctx, files, skipped)
	if err != nil {
		t.Fatal(err)
	}
	return m, files, snap
}

// freshSnapshot returns the snapshot of root that a new Map without a
// disk cache makes: what a map's entries must equal.
func freshSnapshot(t *testing.T, root string) *index.Snapshot {
	t.Helper()
	fresh, err := New(root, &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fresh.Close() })
	want, err := fresh.snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// checkFilled checks that every entry of snap is read and has the tags,
// words, size and time of the same file's entry in want.
func checkFilled(t *testing.T, snap, want *index.Snapshot, when string) {
	t.Helper()
	ctx := context.Background()
	for i, f := range snap.Files {
		if !snap.State(i).Read {
			t.Errorf("%s is not read %s", f.Path, when)
			continue
		}
		j, ok := want.Lookup(f.Path)
		if !ok {
			t.Errorf("%s is not in a new Map's snapshot", f.Path)
			continue
		}
		got, wantTags := snap.Tags(ctx, i), want.Tags(ctx, j)
		words, _, _ := snap.Words(i)
		wantWords, _, _ := want.Words(j)
		if !reflect.DeepEqual(got, wantTags) || !bytes.Equal(words, wantWords) || f.Size != want.Files[j].Size || f.Mod != want.Files[j].Mod {
			t.Errorf("%s %s: tags %v, %d bytes of words; a new Map's: %v, %d bytes", f.Path, when, got, len(words), wantTags, len(wantWords))
		}
	}
}

// readAll reads every file of s that was read as a stamp.
func readAll(ctx context.Context, s *index.Snapshot) {
	all := make([]int, s.Len())
	for i := range all {
		all[i] = i
	}
	s.Read(ctx, all)
}
