package repomap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/cache"
	"github.com/repomap-dev/repomap/internal/cachetest"
)

func TestMain(m *testing.M) { os.Exit(cachetest.Main(m)) }

// TestCacheOfTests checks that a Map made with the default Options in a
// test writes its cache in a temporary directory, not in the user's.
func TestCacheOfTests(t *testing.T) {
	dir, err := cache.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	if tmp := filepath.Clean(os.TempDir()); !strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
		t.Errorf("the tests' cache directory is %s, not under %s", dir, tmp)
	}
}
