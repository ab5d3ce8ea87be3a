package cache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fillDir writes a database for each root into dir, each last used the
// given number of days before now, and returns their paths. With base,
// each root is a directory of that name under base, made: Prune removes
// the databases of roots that are gone.
func fillDir(t *testing.T, dir, base string, now time.Time, days map[string]int) map[string]string {
	t.Helper()
	paths := make(map[string]string)
	for root, d := range days {
		if base != "" {
			if err := os.MkdirAll(filepath.Join(base, root), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		c, err := New(dir, filepath.Join(base, root), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Store(context.Background(), map[string]Entry{"a.go": sampleEntry("a.go", 3)}, nil); err != nil {
			t.Fatal(err)
		}
		use := now.Add(-time.Duration(d) * 24 * time.Hour)
		if err := os.Chtimes(c.Path(), use, use); err != nil {
			t.Fatal(err)
		}
		paths[root] = c.Path()
	}
	return paths
}

// roots returns the roots of the databases, in their order.
func roots(dbs []DB, byPath map[string]string) []string {
	var out []string
	for _, db := range dbs {
		for r, p := range byPath {
			if p == db.Path {
				out = append(out, r)
			}
		}
	}
	return out
}

func TestPrune(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	days := map[string]int{"/src/old": 200, "/src/stale": 91, "/src/recent": 30, "/src/today": 0}

	t.Run("by age", func(t *testing.T) {
		dir := t.TempDir()
		paths := fillDir(t, dir, t.TempDir(), now, days)
		removed, err := Prune(dir, &PruneOptions{Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := roots(removed, paths), []string{"/src/old", "/src/stale"}; !slices.Equal(got, want) {
			t.Errorf("Prune removed %q, want %q", got, want)
		}
		left, _ := List(dir)
		if got, want := roots(left, paths), []string{"/src/recent", "/src/today"}; !slices.Equal(got, want) {
			t.Errorf("after Prune, List = %q, want %q", got, want)
		}
	})
	t.Run("by size, least recently used first", func(t *testing.T) {
		dir := t.TempDir()
		paths := fillDir(t, dir, t.TempDir(), now, days)
		info, err := os.Stat(paths["/src/today"])
		if err != nil {
			t.Fatal(err)
		}
		// Room for two databases (all have the same size).
		removed, err := Prune(dir, &PruneOptions{Now: clock, MaxAge: -1, MaxSize: 2 * info.Size()})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := roots(removed, paths), []string{"/src/old", "/src/stale"}; !slices.Equal(got, want) {
			t.Errorf("Prune removed %q, want %q", got, want)
		}
	})
	t.Run("kept and held databases stay", func(t *testing.T) {
		dir := t.TempDir()
		paths := fillDir(t, dir, t.TempDir(), now, days)
		held, err := bolt.Open(paths["/src/stale"], 0o644, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer held.Close()
		removed, err := Prune(dir, &PruneOptions{Now: clock, Keep: []string{paths["/src/old"]}})
		if err != nil {
			t.Fatal(err)
		}
		if len(removed) != 0 {
			t.Errorf("Prune removed %q, want none: one is kept, the other held", roots(removed, paths))
		}
	})
	t.Run("a missing directory", func(t *testing.T) {
		removed, err := Prune(filepath.Join(t.TempDir(), "none"), nil)
		if err != nil || len(removed) != 0 {
			t.Errorf("Prune(a missing directory) = %v, %v; want nothing", removed, err)
		}
	})
}

func TestListAndRemove(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	paths := fillDir(t, dir, "", now, map[string]int{"/src/a": 2, "/src/b": 1})
	if err := os.WriteFile(paths["/src/b"]+".corrupt", []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	dbs, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, db := range dbs {
		got = append(got, filepath.Base(db.Path)+" "+db.Root)
		if info, err := os.Stat(db.Path); err != nil || info.Size() != db.Size || !info.ModTime().Equal(db.LastUse) {
			t.Errorf("List: %s has size %d and last use %v, want the file's", db.Path, db.Size, db.LastUse)
		}
	}
	want := []string{filepath.Base(paths["/src/a"]) + " /src/a", filepath.Base(paths["/src/b"]) + " /src/b", filepath.Base(paths["/src/b"]) + ".corrupt "}
	// The damaged copy was written last.
	if !slices.Equal(got, want) {
		t.Errorf("List = %q, want %q", got, want)
	}

	if ok, err := Remove(dir, "/src/b"); !ok || err != nil {
		t.Errorf("Remove(/src/b) = %v, %v; want true, nil", ok, err)
	}
	for _, p := range []string{paths["/src/b"], paths["/src/b"] + ".corrupt"} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("after Remove, %s is still there", p)
		}
	}
	if ok, err := Remove(dir, "/src/b"); ok || err != nil {
		t.Errorf("Remove(/src/b) again = %v, %v; want false, nil", ok, err)
	}
	held, err := bolt.Open(paths["/src/a"], 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if _, err := Remove(dir, "/src/a"); !errors.Is(err, ErrLocked) {
		t.Errorf("Remove(a database another process holds) error %v, want ErrLocked", err)
	}
}

func TestLoadRecordsUse(t *testing.T) {
	c := newCache(t)
	if err := c.Store(context.Background(), map[string]Entry{"a.go": sampleEntry("a.go", 2)}, nil); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-30 * 24 * time.Hour)
	if err := os.Chtimes(c.Path(), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(c.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().After(old.Add(24 * time.Hour)) {
		t.Errorf("after Load, the database's modification time is %v, want now", info.ModTime())
	}
}

func TestRemoveAll(t *testing.T) {
	dir := t.TempDir()
	paths := fillDir(t, dir, t.TempDir(), time.Now(), map[string]int{"/src/a": 1, "/src/b": 0})
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := roots(removed, paths), []string{"/src/a", "/src/b"}; !slices.Equal(got, want) {
		t.Errorf("RemoveAll removed %q, want %q", got, want)
	}
	// Files that are no database stay.
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("RemoveAll removed a file that is no database: %v", err)
	}
}

func TestStorePrunes(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	paths := fillDir(t, dir, t.TempDir(), now, map[string]int{"/src/old": 200}) // the first Store pruned an empty directory
	c, err := New(dir, "/src/new", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The stamp of the first Store is fresh: no pruning within a day.
	if err := c.Store(context.Background(), map[string]Entry{"a.go": sampleEntry("a.go", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(paths["/src/old"]); err != nil {
		t.Errorf("Store pruned twice in a day: %v", err)
	}
	old := now.Add(-25 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, pruneStamp), old, old); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(context.Background(), map[string]Entry{"b.go": sampleEntry("b.go", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(paths["/src/old"]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Store a day after the last pruning left a database unused for 200 days: %v", err)
	}
	if _, err := os.Stat(c.Path()); err != nil {
		t.Errorf("Store pruned its own database: %v", err)
	}

	// With NoPrune, nothing else is removed.
	paths = fillDir(t, dir, t.TempDir(), now, map[string]int{"/src/older": 300})
	if err := os.Chtimes(filepath.Join(dir, pruneStamp), old, old); err != nil {
		t.Fatal(err)
	}
	c, err = New(dir, "/src/new", &Options{NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Store(context.Background(), map[string]Entry{"c.go": sampleEntry("c.go", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(paths["/src/older"]); err != nil {
		t.Errorf("Store with NoPrune removed a database: %v", err)
	}
}
