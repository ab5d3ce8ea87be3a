package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	bolt "go.etcd.io/bbolt"

	"github.com/repomap-dev/repomap/tags"
)

func sampleEntry(path string, n int) Entry {
	e := Entry{Size: int64(100 + n), ModTime: time.Date(2026, 1, 2, 3, 4, 5, n, time.UTC).UnixNano()}
	var ts []tags.Tag
	for i := range n {
		kind := tags.Reference
		if i%3 == 0 {
			kind = tags.Definition
		}
		t := tags.Tag{Path: path, Name: fmt.Sprintf("name%d", i%7), Kind: kind, Sub: "function", Line: i * 2}
		if i%4 == 1 {
			t.Qual = fmt.Sprintf("pkg%d", i%5) // some references are qualified
		}
		ts = append(ts, t)
	}
	e.Tags = tags.Pack(ts)
	if n > 0 {
		e.Words = []byte{byte(n), 1, 2, 3} // opaque to the cache
	}
	return e
}

// sampleOutline parses a small Go file into an outline with scopes and
// declarations, nested and with doc comments.
func sampleOutline(tb testing.TB) *tags.Outline {
	tb.Helper()
	src := "package p\n\n// T is a type.\ntype T struct {\n\tA int\n}\n\n// M is a method.\nfunc (t T) M(\n\tx int,\n) int {\n\treturn x\n}\n"
	p := tags.NewParser(nil)
	defer p.Close()
	o, err := p.Outline(context.Background(), "p.go", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// newCache returns a cache in a temporary directory, and checks when the
// test ends that its database opens and reads cleanly.
func newCache(t *testing.T) *Cache {
	t.Helper()
	c, err := New(t.TempDir(), "/some/root", &Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := os.Stat(c.Path()); err != nil {
			return
		}
		db, err := bolt.Open(c.Path(), 0o644, &bolt.Options{ReadOnly: true, Timeout: time.Second})
		if err != nil {
			t.Errorf("cache left a database that does not open: %v", err)
			return
		}
		defer db.Close()
		if err := db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				return err
			}
			return nil
		}); err != nil {
			t.Errorf("cache left a database that fails its check: %v", err)
		}
	})
	return c
}

func TestRoundTrip(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	got, err := c.Load(ctx)
	if err != nil || len(got) != 0 {
		t.Fatalf("Load(new) = %v, %v; want empty", got, err)
	}
	put := map[string]Entry{"a.go": sampleEntry("a.go", 10), "dir/b.py": sampleEntry("dir/b.py", 0), "c.go": sampleEntry("c.go", 3)}
	gen := sampleEntry("gen.pb.go", 4)
	gen.Generated = true
	put["gen.pb.go"] = gen
	bare := sampleEntry("bare.go", 2)
	bare.Outline, bare.Generated = nil, true
	put["bare.go"] = bare
	outlined := sampleEntry("outlined.go", 3)
	outlined.Outline = sampleOutline(t)
	put["outlined.go"] = outlined
	put["slow.c"] = Entry{Size: 145000, ModTime: 7, TimedOut: 2, Timeout: 5 * time.Second, Skip: "parse took longer than 5s"}
	put["big.js"] = Entry{Size: 2 << 20, ModTime: 8, Skip: "larger than 1048576 bytes"}
	slowWords := sampleEntry("slow2.c", 0)
	slowWords.TimedOut, slowWords.Timeout, slowWords.Outline = 1, time.Minute, sampleOutline(t)
	put["slow2.c"] = slowWords
	if err := c.Store(ctx, put, nil); err != nil {
		t.Fatal(err)
	}
	got, err = c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(put, got, tagsInternals, decoded); diff != "" {
		t.Errorf("Load after Store mismatch (-want +got):\n%s", diff)
	}
	// Prune: keep only a.go.
	if err := c.Store(ctx, nil, func(p string) bool { return p == "a.go" }); err != nil {
		t.Fatal(err)
	}
	got, _ = c.Load(ctx)
	if len(got) != 1 || got["a.go"].Size != put["a.go"].Size {
		t.Errorf("after pruning, Load = %v entries, want only a.go", len(got))
	}
}

// TestEncoded checks that Load leaves each entry's tags encoded, that
// they decode to the tags stored, and that an entry as Load returned it,
// its tags still encoded, is stored again as it was, with what changed
// beside its tags.
func TestEncoded(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	put := map[string]Entry{"a.go": sampleEntry("a.go", 30), "b.go": sampleEntry("b.go", 0)}
	if err := c.Store(ctx, put, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for p, e := range got {
		if e.Tags.Len() != 0 || e.Tags.NumStrings() != 0 {
			t.Errorf("Load: %s has decoded tags; want them encoded", p)
		}
		want := put[p].Tags
		if n, m := e.Encoded.Len(); n != want.NumStrings() || m != want.Len() {
			t.Errorf("Load: %s Encoded.Len() = %d, %d, want %d, %d", p, n, m, want.NumStrings(), want.Len())
		}
		if diff := cmp.Diff(want, e.Encoded.Decode(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Decode of %s (-want +got):\n%s", p, diff)
		}
	}
	again := got["a.go"]
	again.Outline, again.Generated = sampleOutline(t), true
	if err := c.Store(ctx, map[string]Entry{"a.go": again}, nil); err != nil {
		t.Fatal(err)
	}
	want := put["a.go"]
	want.Outline, want.Generated = again.Outline, true
	got, err = c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got["a.go"], tagsInternals, decoded); diff != "" {
		t.Errorf("an entry stored with its tags encoded (-want +got):\n%s", diff)
	}
}

// TestStampsAndGet checks that LoadStamps reads of each entry what Load
// reads but for its tags, words and outline, with their counts, and that
// Get reads the entries of the paths asked for as Load does.
func TestStampsAndGet(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	a, b := sampleEntry("a.go", 30), sampleEntry("b.go", 0)
	a.Outline, a.Generated, a.Words = sampleOutline(t), true, []byte{1, 2, 3}
	put := map[string]Entry{"a.go": a, "b.go": b, "c.go": sampleEntry("c.go", 5)}
	if err := c.Store(ctx, put, nil); err != nil {
		t.Fatal(err)
	}
	all, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stamps, err := c.LoadStamps(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]Stamp)
	for p, e := range all {
		n, m := e.Encoded.Len()
		want[p] = Stamp{Size: e.Size, ModTime: e.ModTime, Generated: e.Generated, Outline: e.Outline != nil, Strings: n, Tags: m}
	}
	if diff := cmp.Diff(want, stamps); diff != "" || len(stamps) != 3 || !stamps["a.go"].Outline || stamps["a.go"].Tags != 30 {
		t.Errorf("LoadStamps (-want +got):\n%s", diff)
	}
	got, err := c.Get(ctx, []string{"c.go", "a.go", "gone.go"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]Entry{"a.go": all["a.go"], "c.go": all["c.go"]}, got, tagsInternals, decoded); diff != "" {
		t.Errorf("Get (-want +got):\n%s", diff)
	}
	// A database that is not there has no entries, and no error.
	none := newCache(t)
	if st, err := none.LoadStamps(ctx, nil); err != nil || len(st) != 0 {
		t.Errorf("LoadStamps of no database = %v, %v; want none, no error", st, err)
	}
	if es, err := none.Get(ctx, []string{"a.go"}); err != nil || len(es) != 0 {
		t.Errorf("Get of no database = %v, %v; want none, no error", es, err)
	}
}

// TestStampsKept checks that the stamps Store keeps beside the entries
// are what LoadStamps reads of the entries, after puts and deletes; that
// a database without them (one written before they were kept) is read
// from its entries and gets them on its next Store or StoreBlobs; and
// that damaged ones are not used.
func TestStampsKept(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	fromEntries := func() map[string]Stamp {
		t.Helper()
		// A function to see each entry makes LoadStamps read them.
		out, err := c.LoadStamps(ctx, func(Entry) any { return nil })
		if err != nil {
			t.Fatal(err)
		}
		for p, st := range out {
			st.Seen = nil
			out[p] = st
		}
		return out
	}
	check := func(step string, want int) {
		t.Helper()
		kept, ok, err := c.loadKeptStamps(ctx)
		if err != nil || !ok {
			t.Fatalf("%s: kept stamps not read: %v, %v", step, ok, err)
		}
		all := fromEntries()
		if diff := cmp.Diff(all, kept); diff != "" || len(kept) != want {
			t.Errorf("%s: %d kept stamps, want %d, as the entries give them (-entries +kept):\n%s", step, len(kept), want, diff)
		}
		if got, err := c.LoadStamps(ctx, nil); err != nil || !cmp.Equal(got, all) {
			t.Errorf("%s: LoadStamps = %v, %v; want the entries' stamps", step, got, err)
		}
	}
	outlined := sampleEntry("outlined.go", 3)
	outlined.Outline, outlined.Generated = sampleOutline(t), true
	put := map[string]Entry{
		"a.go": sampleEntry("a.go", 10), "dir/b.py": sampleEntry("dir/b.py", 0), "outlined.go": outlined,
		"slow.c": {Size: 145000, ModTime: -7, TimedOut: 2, Timeout: 5 * time.Second, Skip: "parse took longer than 5s"},
		"big.js": {Size: 2 << 20, ModTime: 8, Skip: "larger than 1048576 bytes"},
	}
	if err := c.Store(ctx, put, nil); err != nil {
		t.Fatal(err)
	}
	check("first store", 5)
	if err := c.Store(ctx, map[string]Entry{"a.go": sampleEntry("a.go", 4), "new.go": sampleEntry("new.go", 2)},
		func(p string) bool { return p != "big.js" && p != "dir/b.py" }); err != nil {
		t.Fatal(err)
	}
	check("puts and deletes", 4)

	edit := func(f func(tx *bolt.Tx) error) {
		t.Helper()
		db, err := bolt.Open(c.Path(), 0o644, &bolt.Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Update(f); err != nil {
			t.Fatal(err)
		}
	}
	edit(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketStamps) })
	if _, ok, err := c.loadKeptStamps(ctx); ok || err != nil {
		t.Errorf("kept stamps read from a database without them: %v", err)
	}
	if got, err := c.LoadStamps(ctx, nil); err != nil || len(got) != 4 {
		t.Errorf("LoadStamps of a database without kept stamps = %v, %v; want 4 from its entries", got, err)
	}
	if err := c.Store(ctx, map[string]Entry{"z.go": sampleEntry("z.go", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	check("a store after them", 5)
	edit(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketStamps) })
	if err := c.StoreBlob(ctx, "blob", []byte("data")); err != nil {
		t.Fatal(err)
	}
	check("a blob stored after them", 5)

	edit(func(tx *bolt.Tx) error { return tx.Bucket(bucketStamps).Put([]byte("a.go"), []byte{1, 2}) })
	if _, ok, err := c.loadKeptStamps(ctx); ok || err != nil {
		t.Errorf("damaged kept stamps read: %v", err)
	}
	if got, err := c.LoadStamps(ctx, nil); err != nil || !cmp.Equal(got, fromEntries()) {
		t.Errorf("LoadStamps with a damaged kept stamp = %v, %v; want the entries' stamps", got, err)
	}
}

// TestEncodedNames checks that Names, read in place, gives each string
// of an entry's tags with the counts of the definitions and references
// that name it, as the decoded tags give them.
func TestEncodedNames(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	put := map[string]Entry{"a.go": sampleEntry("a.go", 30), "b.go": sampleEntry("b.go", 0)}
	if err := c.Store(ctx, put, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type name struct {
		s          string
		defs, refs int
	}
	var buf []int32
	for p, e := range got {
		set := put[p].Tags
		var want []name
		for j, s := range set.Strings() {
			n := name{s: s}
			for _, tg := range set.Tags {
				switch {
				case int(tg.Name) != j:
				case tg.Kind == tags.Definition:
					n.defs++
				default:
					n.refs++
				}
			}
			want = append(want, n)
		}
		var names []name
		buf = e.Encoded.Names(buf, func(s []byte, defs, refs int) { names = append(names, name{string(s), defs, refs}) })
		if diff := cmp.Diff(want, names, cmp.AllowUnexported(name{})); diff != "" {
			t.Errorf("Names of %s (-want +got):\n%s", p, diff)
		}
	}
}

func TestFingerprintChange(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	if err := c.Store(ctx, map[string]Entry{"a.go": sampleEntry("a.go", 2)}, nil); err != nil {
		t.Fatal(err)
	}
	c2 := *c
	c2.fingerprint = []byte("other queries")
	got, err := c2.Load(ctx)
	if err != nil || len(got) != 0 {
		t.Errorf("Load with another fingerprint = %d entries, %v; want none", len(got), err)
	}
	if err := c2.Store(ctx, map[string]Entry{"b.go": sampleEntry("b.go", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = c2.Load(ctx)
	if _, ok := got["a.go"]; ok || len(got) != 1 {
		t.Errorf("after a store with a new fingerprint, old entries remain: %v", got)
	}
}

// TestBlobs checks that a blob reads back as stored, beside the entries,
// and goes with them when the fingerprint changes.
func TestBlobs(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	if b, err := c.LoadBlob(ctx, "graph"); b != nil || err != nil {
		t.Fatalf("LoadBlob(no database) = %q, %v; want nil, nil", b, err)
	}
	if err := c.Store(ctx, map[string]Entry{"a.go": sampleEntry("a.go", 2)}, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := c.LoadBlob(ctx, "graph"); b != nil || err != nil {
		t.Fatalf("LoadBlob(none stored) = %q, %v; want nil, nil", b, err)
	}
	for _, data := range [][]byte{[]byte("first"), bytes.Repeat([]byte("large "), 1<<18), {}} {
		if err := c.StoreBlob(ctx, "graph", data); err != nil {
			t.Fatal(err)
		}
		got, err := c.LoadBlob(ctx, "graph")
		if err != nil || !bytes.Equal(got, data) || got == nil {
			t.Fatalf("LoadBlob after StoreBlob of %d bytes = %d bytes, %v", len(data), len(got), err)
		}
	}
	if got, _ := c.Load(ctx); len(got) != 1 {
		t.Errorf("after StoreBlob, Load = %d entries, want the 1 stored", len(got))
	}
	if b, _ := c.LoadBlob(ctx, "other"); b != nil {
		t.Errorf("LoadBlob(other name) = %q, want nil", b)
	}
	if err := c.StoreBlob(ctx, "ranks", []byte("some ranks")); err != nil {
		t.Fatal(err)
	}
	var read []string
	err := c.ReadBlobs(ctx, []string{"ranks", "other", "graph"}, func(blobs [][]byte) error {
		for _, b := range blobs {
			read = append(read, fmt.Sprintf("%q %t", b, b == nil))
		}
		return nil
	})
	if want := []string{`"some ranks" false`, `"" true`, `"" false`}; err != nil || !slices.Equal(read, want) {
		t.Errorf("ReadBlobs = %q, %v; want %q", read, err, want)
	}
	// StoreBlobs stores several in one write, replacing one of them.
	if err := c.StoreBlobs(ctx, []string{"ranks", "more"}, [][]byte{[]byte("new ranks"), []byte("more")}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"ranks": "new ranks", "more": "more", "graph": ""} {
		if got, err := c.LoadBlob(ctx, name); err != nil || string(got) != want {
			t.Errorf("LoadBlob(%s) after StoreBlobs = %q, %v; want %q", name, got, err, want)
		}
	}
	if err := c.StoreBlobs(ctx, []string{"a", "b"}, [][]byte{nil}); err == nil {
		t.Error("StoreBlobs of two names and one blob: no error")
	}
	stop := errors.New("stop")
	if err := c.ReadBlobs(ctx, []string{"ranks"}, func([][]byte) error { return stop }); err != stop {
		t.Errorf("ReadBlobs whose function fails = %v, want its error", err)
	}
	c2 := *c
	c2.fingerprint = []byte("other queries")
	if b, err := c2.LoadBlob(ctx, "graph"); b != nil || err != nil {
		t.Errorf("LoadBlob with another fingerprint = %q, %v; want nil, nil", b, err)
	}
	if err := c2.Store(ctx, map[string]Entry{"b.go": sampleEntry("b.go", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := c.LoadBlob(ctx, "graph"); b != nil {
		t.Errorf("after a store with a new fingerprint, the blob remains for the old one: %q", b)
	}
}

func TestCorruptDatabase(t *testing.T) {
	for name, data := range map[string][]byte{
		"garbage":   []byte("this is not a bbolt database, not at all, and it is long enough to look like one maybe"),
		"empty":     {},
		"truncated": nil, // filled below from a real database
	} {
		t.Run(name, func(t *testing.T) {
			c := newCache(t)
			ctx := context.Background()
			if data == nil {
				if err := c.Store(ctx, map[string]Entry{"a.go": sampleEntry("a.go", 50)}, nil); err != nil {
					t.Fatal(err)
				}
				full, _ := os.ReadFile(c.Path())
				data = full[:len(full)/3]
			}
			if err := os.WriteFile(c.Path(), data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := c.Load(ctx)
			if err != nil || len(got) != 0 {
				t.Errorf("Load(%s) = %d entries, %v; want empty, no error", name, len(got), err)
			}
			if err := c.Store(ctx, map[string]Entry{"b.go": sampleEntry("b.go", 1)}, nil); err != nil {
				t.Fatalf("Store after %s: %v", name, err)
			}
			if got, _ := c.Load(ctx); len(got) != 1 {
				t.Errorf("after rebuilding, Load = %d entries, want 1", len(got))
			}
		})
	}
}

func TestLocked(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	if err := c.Store(ctx, map[string]Entry{"a.go": sampleEntry("a.go", 2)}, nil); err != nil {
		t.Fatal(err)
	}
	holder, err := bolt.Open(c.Path(), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := c.Load(ctx); !errors.Is(err, ErrLocked) {
		t.Errorf("Load while another holds the database: %v, want ErrLocked", err)
	}
	if err := c.Store(ctx, nil, nil); !errors.Is(err, ErrLocked) {
		t.Errorf("Store while another holds the database: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("waiting for the lock took %v", d)
	}
	holder.Close()
	if got, err := c.Load(ctx); err != nil || len(got) != 1 {
		t.Errorf("Load after the lock is released = %d entries, %v", len(got), err)
	}
}

func TestUnwritableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		// root writes anywhere: use a path under a regular file instead.
		f := filepath.Join(t.TempDir(), "file")
		os.WriteFile(f, nil, 0o644)
		if _, err := New(filepath.Join(f, "cache"), "/r", nil); err == nil {
			t.Error("New with a cache dir under a file succeeded")
		}
		return
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	c, err := New(dir, "/r", nil)
	if err != nil {
		return // refusing at once is fine too
	}
	if err := c.Store(context.Background(), map[string]Entry{"a": {}}, nil); err == nil {
		t.Error("Store into an unwritable directory succeeded")
	}
}

func TestCancelled(t *testing.T) {
	c := newCache(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Load(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Load(cancelled) = %v", err)
	}
	if err := c.Store(ctx, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Store(cancelled) = %v", err)
	}
}

// TestKilledWriter kills a process in the middle of its writes and checks
// that the database still opens with every entry committed before.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	if dir := os.Getenv("REPOMAP_CACHE_WRITER"); dir != "" {
		c, err := New(dir, "/some/root", nil)
		if err != nil {
			os.Exit(1)
		}
		for i := 0; ; i++ { // until killed
			put := map[string]Entry{}
			for j := range 200 {
				p := "f" + strconv.Itoa(i*200+j)
				put[p] = sampleEntry(p, 30)
			}
			if err := c.Store(context.Background(), put, nil); err != nil {
				os.Exit(1)
			}
			fmt.Println(i)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	cmd.Env = append(os.Environ(), "REPOMAP_CACHE_WRITER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	read := 0
	for read < 40 { // let a few batches commit
		n, err := out.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		read += n
	}
	cmd.Process.Kill()
	cmd.Wait()

	c, err := New(dir, "/some/root", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 200 || len(got)%200 != 0 {
		t.Errorf("after a killed writer, Load = %d entries, want a positive multiple of 200", len(got))
	}
	if err := c.Store(context.Background(), map[string]Entry{"x": sampleEntry("x", 1)}, nil); err != nil {
		t.Errorf("Store after a killed writer: %v", err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	good := encode(nil, sampleEntry("a.go", 20))
	for i := range len(good) {
		if _, err := decode(good[:i]); err == nil && i < len(good) {
			// A prefix may decode only if it ends exactly after the tags.
			e, _ := decode(good[:i])
			if _, n := e.Encoded.Len(); n != 20 {
				t.Errorf("decode(prefix %d of %d) succeeded with %d tags", i, len(good), n)
			}
		}
	}
}

// tagsInternals lets cmp compare the unexported fields of the tags
// package's types (an Outline and its declarations), which the cache
// encodes and decodes.
var tagsInternals = cmp.Exporter(func(t reflect.Type) bool {
	return t.PkgPath() == reflect.TypeFor[tags.Outline]().PkgPath()
})

// decoded compares entries by their decoded tags: Load leaves them
// encoded, Store takes them either way.
var decoded = cmp.Options{cmp.Transformer("decoded", func(e Entry) Entry {
	if len(e.Encoded.b) > 0 {
		e.Tags = e.Encoded.Decode()
	}
	e.Encoded = Encoded{}
	return e
}), cmp.AllowUnexported(Encoded{})}

func FuzzCacheDecode(f *testing.F) {
	f.Add(encode(nil, sampleEntry("a.go", 5)))
	f.Add(encode(nil, Entry{}))
	f.Add(encode(nil, Entry{Generated: true}))
	f.Add(encode(nil, Entry{TimedOut: 2, Timeout: time.Second, Skip: "parse took longer than 1s"}))
	f.Add(encode(nil, Entry{Outline: sampleOutline(f)}))
	f.Add([]byte{0xff, 0xff, 0xff})
	f.Add(appendStamp(nil, Stamp{Size: 9, ModTime: -3, Outline: true, Skip: "why", TimedOut: 1, Timeout: time.Second, Strings: 4, Tags: 7}))
	f.Fuzz(func(t *testing.T, b []byte) {
		// Most changed bytes fail the checksum: the input is tried as it
		// is, and as the body of a value with its checksum.
		if len(b) > 0 && b[0]&1 == 1 {
			b = appendSum(bytes.Clone(b[1:]), 0)
		}
		// A kept stamp reads back as it was written.
		if st, ok := readStamp(b); ok {
			if again, ok := readStamp(appendStamp(nil, st)); !ok || again != st {
				t.Fatalf("stamp %+v read back as %+v, %v", st, again, ok)
			}
		}
		e, err := decode(b)
		if err != nil {
			return
		}
		st := stampOf(e)
		if again, ok := readStamp(appendStamp(nil, st)); !ok || again != st {
			t.Fatalf("stamp of an entry %+v read back as %+v, %v", st, again, ok)
		}
		// The tags Load checked decode in full, to the same counts.
		if n, m := e.Encoded.Len(); n > 0 || m > 0 {
			r := reader{b: e.Encoded.b, ok: true}
			set, ns, nt, err := readTags(&r, true)
			if err != nil || r.i != len(r.b) || ns != n || nt != m || set.NumStrings() != n || set.Len() != m {
				t.Fatalf("checked tags decode to %d strings, %d tags (%v, %d of %d bytes), want %d, %d", ns, nt, err, r.i, len(r.b), n, m)
			}
		}
		// What decodes, encodes back to an entry that decodes the same.
		again, err := decode(encode(nil, e))
		if err != nil {
			t.Fatalf("re-decoding failed: %v", err)
		}
		if diff := cmp.Diff(e, again, tagsInternals, decoded); diff != "" {
			t.Fatalf("round trip mismatch (-first +second):\n%s", diff)
		}
	})
}

// BenchmarkDecode decodes an entry of the size of a large source file's:
// 2,000 tags over 400 names.
func BenchmarkDecode(b *testing.B) {
	var ts []tags.Tag
	for i := range 2000 {
		kind := tags.Reference
		if i%5 == 0 {
			kind = tags.Definition
		}
		ts = append(ts, tags.Tag{Path: "big.go", Name: fmt.Sprintf("identifier%d", i%400), Kind: kind, Sub: "call", Line: i})
	}
	data := encode(nil, Entry{Size: 1 << 16, ModTime: 1, Tags: tags.Pack(ts), Words: []byte{1, 2, 3}})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadMany checks that a cache of many entries, which Load decodes on
// several goroutines, reads back whole, but for its bad entries, which
// are dropped alone.
func TestLoadMany(t *testing.T) {
	c := newCache(t)
	ctx := context.Background()
	put := make(map[string]Entry)
	for i := range 3000 {
		p := fmt.Sprintf("dir%d/f%d.go", i%17, i)
		put[p] = sampleEntry(p, i%40)
	}
	if err := c.Store(ctx, put, nil); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(c.Path(), 0o644, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	bad := []string{"dir0/f0.go", "dir5/f1500.go", "dir16/f2999.go"}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, p := range bad {
			if err := tx.Bucket(bucketFiles).Put([]byte(p), []byte{0xff, 0xff}); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range bad {
		delete(put, p)
	}
	if diff := cmp.Diff(put, got, tagsInternals, decoded); diff != "" {
		t.Errorf("Load of %d entries, 3 bad (-want +got):\n%s", len(put)+3, diff)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Load(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context: %v", err)
	}
}

// BenchmarkStore writes a cold map's entries into an empty cache: 2,000
// of the size of a source file's (300 tags over 60 names, 2 KB of words),
// and 100,000 small ones (5 tags), where the order of the writes tells.
func BenchmarkStore(b *testing.B) {
	for _, bc := range []struct {
		name        string
		files, tags int
	}{{"2000", 2000, 300}, {"100000-small", 100000, 5}} {
		b.Run(bc.name, func(b *testing.B) {
			put := make(map[string]Entry)
			for i := range bc.files {
				p := fmt.Sprintf("dir%d/f%d.go", i%40, i)
				var ts []tags.Tag
				for j := range bc.tags {
					kind := tags.Reference
					if j%5 == 0 {
						kind = tags.Definition
					}
					ts = append(ts, tags.Tag{Path: p, Name: fmt.Sprintf("identifier%d", j%60), Kind: kind, Sub: "call", Line: j})
				}
				put[p] = Entry{Size: 1 << 14, ModTime: int64(i), Tags: tags.Pack(ts), Words: bytes.Repeat([]byte{byte(i)}, 2048*bc.tags/300)}
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				c, err := New(b.TempDir(), "/some/root", nil)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := c.Store(ctx, put, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
