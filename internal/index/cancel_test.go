package index

import (
	"context"
	"fmt"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"

	"github.com/repomap-dev/repomap/cache"
)

// blockingFS is a tree one of whose files blocks its reader until
// release is closed, as a hung file system does.
type blockingFS struct {
	fstest.MapFS
	block   string
	release chan struct{}
	reached chan struct{}
}

func (b *blockingFS) Open(name string) (fs.File, error) {
	if name == b.block {
		close(b.reached)
		<-b.release
	}
	return b.MapFS.Open(name)
}

func (b *blockingFS) ReadFile(name string) ([]byte, error) {
	if name == b.block {
		close(b.reached)
		<-b.release
	}
	return b.MapFS.ReadFile(name)
}

// TestCancelBounded checks that an update cancelled while a read blocks
// ends within a few seconds, and keeps in the disk cache the files
// parsed till then.
func TestCancelBounded(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 20 {
		tree[fmt.Sprintf("f%02d.py", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "def f%d():\n    return 1\n", i)}
	}
	b := &blockingFS{MapFS: tree, block: "f19.py", release: make(chan struct{}), reached: make(chan struct{})}
	defer close(b.release)
	c, err := cache.New(t.TempDir(), "/tree", &cache.Options{NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	x := New([]Root{{FS: b, Dir: "/tree", Cache: c}}, defaults(Options{Parallelism: 1}))
	ctx, cancel := context.WithCancel(context.Background())
	files, skipped, err := x.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-b.reached
		cancel()
	}()
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := x.Update(ctx, files, skipped)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("a cancelled update gave no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled update with a read that blocks did not end in 10 s")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the cancelled update took %v", took)
	}
	x.Settle()
	held, err := c.LoadStamps(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != 19 {
		t.Errorf("the disk cache holds %d files after the cancelled update, want the 19 parsed", len(held))
	}
}
