package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/tags"
)

// defNames returns the names of the definitions the index of the tree at
// dir, with its disk cache in cacheDir, finds in the file at p, as a new
// process would.
func defNames(t *testing.T, dir, cacheDir, p string) []string {
	t.Helper()
	c, err := cache.New(cacheDir, dir, &cache.Options{NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	x := New([]Root{{FS: os.DirFS(dir), Dir: dir, OnDisk: true, Cache: c}}, defaults(Options{}))
	defer x.Close()
	ctx := context.Background()
	s := update(t, x)
	i, ok := s.Lookup(p)
	if !ok {
		t.Fatalf("%s is not in the map", p)
	}
	var names []string
	for _, tg := range s.Tags(ctx, i).Unpack(p) {
		if tg.Kind == tags.Definition {
			names = append(names, tg.Name)
		}
	}
	slices.Sort(names)
	return names
}

// TestStampTellsChange checks that a file edited in ways that keep its
// size and modification time is parsed again: the time set back as cp -p,
// tar and rsync -a set it, times normalised to the epoch as Nix and
// Bazel do, and a file replaced by a rename of another of the same size
// and time.
func TestStampTellsChange(t *testing.T) {
	old := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		when time.Time
		edit func(t *testing.T, p string, text string, when time.Time)
	}{
		{"time restored", old, func(t *testing.T, p, text string, when time.Time) {
			write(t, p, text, when)
		}},
		{"epoch", time.Unix(1, 0), func(t *testing.T, p, text string, when time.Time) {
			write(t, p, text, when)
		}},
		{"renamed over", old, func(t *testing.T, p, text string, when time.Time) {
			write(t, p+".new", text, when)
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, cacheDir := t.TempDir(), t.TempDir()
			p := filepath.Join(dir, "a.py")
			write(t, p, "def alpha_one():\n    return 1\n", tc.when)
			if got := defNames(t, dir, cacheDir, "a.py"); !slices.Equal(got, []string{"alpha_one"}) {
				t.Fatalf("first map: %q", got)
			}
			tc.edit(t, p, "def bravo_two():\n    return 1\n", tc.when)
			if got := defNames(t, dir, cacheDir, "a.py"); !slices.Equal(got, []string{"bravo_two"}) {
				t.Errorf("after the edit, %s: definitions %q, want [bravo_two]", tc.name, got)
			}
		})
	}
}

// update walks the trees of x and brings it up to date.
func update(t *testing.T, x *Index) *Snapshot {
	t.Helper()
	ctx := context.Background()
	files, skipped, err := x.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := x.Update(ctx, files, skipped)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// write writes text to the file at p, with its modification time when.
func write(t *testing.T, p, text string, when time.Time) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
}

// TestRacyAndVerified checks the entries whose stamp cannot decide: a
// file modified right before its read is checked again once the clock
// ticked past its stamp; a racy entry left by another process (a file
// system of whole seconds) is checked on the next update, though its
// stamp is the same (git's "racily clean" entries); and a file whose
// change time alone changed (a chmod) is read, not parsed, when its
// content is the same.
func TestRacyAndVerified(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "new.py"), "def fresh():\n    return 1\n", time.Now())
	write(t, filepath.Join(dir, "old.py"), "def stale():\n    return 1\n", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	x := diskIndex(t, dir, Options{})
	s := update(t, x)
	if s.Parsed != 2 || x.files["new.py"].racy || s.Retry() {
		t.Fatalf("first update: %d parsed, new.py racy %v, retry %v; want 2, settled, no retry", s.Parsed, x.files["new.py"].racy, s.Retry())
	}
	now := time.Now().UnixNano()
	for _, tc := range []struct {
		st   stamp
		racy bool
	}{
		{stamp{mod: now - int64(time.Hour), change: now - 5e6}, true},                           // changed 5 ms ago
		{stamp{mod: now - int64(time.Hour), change: now - int64(time.Second) + 7}, false},       // a second ago
		{stamp{mod: now - int64(time.Hour), change: now/1e9*1e9 - int64(time.Second)}, true},    // whole seconds
		{stamp{mod: now - int64(time.Hour), change: now/1e9*1e9 - 3*int64(time.Second)}, false}, // three of them
	} {
		if got := isRacy(tc.st, now); got != tc.racy {
			t.Errorf("isRacy(changed %v before) = %v, want %v", time.Duration(now-tc.st.change), got, tc.racy)
		}
	}
	// A racy entry, as a file system of whole seconds leaves, whose
	// content changed within its stamp's second: as if it held another
	// sum.
	x.files["new.py"].racy = true
	x.files["new.py"].sum++
	if s = update(t, x); s.Parsed != 1 {
		t.Errorf("a racy entry whose content changed: %d parsed, want 1", s.Parsed)
	}
	x.files["new.py"].racy = true
	if s = update(t, x); s.Parsed != 0 || x.files["new.py"].racy {
		t.Errorf("a racy entry whose content is the same: %d parsed, racy %v; want 0, false", s.Parsed, x.files["new.py"].racy)
	}
	if err := os.Chmod(filepath.Join(dir, "old.py"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := x.files["old.py"]
	if s = update(t, x); s.Parsed != 0 {
		t.Errorf("after a chmod: %d parsed, want 0", s.Parsed)
	}
	if e := x.files["old.py"]; e.change == before.change || e.id != before.id || e.sum != before.sum {
		t.Errorf("after a chmod, the entry has change time %d (was %d), id %d (was %d): want a new change time, the same id", e.change, before.change, e.id, before.id)
	}
}
