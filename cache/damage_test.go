package cache

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/repomap-dev/repomap/tags"
)

// flipIn flips a byte of every place the database file of c holds
// marker, a string its values hold: damage inside a value, where bbolt
// checks nothing.
func flipIn(t *testing.T, c *Cache, marker string) {
	t.Helper()
	data, err := os.ReadFile(c.Path())
	if err != nil {
		t.Fatal(err)
	}
	n := bytes.Count(data, []byte(marker))
	if n == 0 {
		t.Fatalf("the database does not hold %q", marker)
	}
	data = bytes.ReplaceAll(data, []byte(marker), []byte(strings.ToUpper(marker)))
	if err := os.WriteFile(c.Path(), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedValues checks that a value of the database whose bytes were
// changed is not read as it is: an entry, a stamp or a blob so damaged is
// missing, the others are read, and the damage is logged once.
func TestDamagedValues(t *testing.T) {
	var log bytes.Buffer
	c, err := New(t.TempDir(), "/some/root", &Options{Timeout: 200 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	good := sampleEntry("good.go", 3)
	bad := Entry{Size: 10, ModTime: 1, Tags: tags.Pack([]tags.Tag{{Path: "bad.go", Name: "alpha_one", Kind: tags.Definition, Sub: "function"}})}
	if err := c.Store(ctx, map[string]Entry{"good.go": good, "bad.go": bad}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.StoreBlobs(ctx, []string{"map", "other"}, [][]byte{[]byte("the kept map: func ReadBlobs"), []byte("other blob")}); err != nil {
		t.Fatal(err)
	}
	flipIn(t, c, "alpha_one")
	flipIn(t, c, "ReadBlobs")

	for range 2 {
		all, err := c.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := all["bad.go"]; ok {
			t.Errorf("Load gave the damaged entry: %v", all["bad.go"].Encoded.Decode())
		}
		if _, ok := all["good.go"]; !ok {
			t.Errorf("Load left out the good entry")
		}
		got, err := c.Get(ctx, []string{"bad.go", "good.go"})
		if err != nil || len(got) != 1 {
			t.Errorf("Get = %d entries, %v; want the good one alone", len(got), err)
		}
		blob, err := c.LoadBlob(ctx, "map")
		if err != nil || blob != nil {
			t.Errorf("LoadBlob(damaged) = %q, %v; want none", blob, err)
		}
		if err := c.ReadBlobs(ctx, []string{"map", "other"}, func(blobs [][]byte) error {
			if blobs[0] != nil || string(blobs[1]) != "other blob" {
				t.Errorf("ReadBlobs = %q, want none and \"other blob\"", blobs)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(log.String(), "checksum mismatch"); n != 1 {
		t.Errorf("the damage was logged %d times, want once:\n%s", n, log.String())
	}
}
