package index

import (
	"os"
	"strings"
	"testing"

	"github.com/repomap-dev/repomap/cache"
)

// TestVendoredNotParsed checks that the files package managers install
// (node_modules) are listed without a parse, and not as skipped, unless
// ParseVendored is set, while committed vendored code (vendor/,
// third_party/) is parsed; and that the disk cache of one way serves the
// other right.
func TestVendoredNotParsed(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{
		"own.js":                      "function own() { return dep(); }\n",
		"node_modules/dep/index.js":   "function dep() { return 1; }\n",
		"third_party/lib/lib.py":      "def lib():\n    return 1\n",
		".repomaproles":               "source third_party/lib/**\n",
		"node_modules/dep/package.js": "function pkg() {}\n",
		"vendor/example.com/x/x.go":   "package x\n\nfunc X() {}\n",
		"web/bower_components/b/b.js": "function b() {}\n",
	})
	for _, parseVendored := range []bool{false, true, false} {
		c, err := cache.New(cacheDir, dir, &cache.Options{NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		x := New([]Root{{FS: os.DirFS(dir), Dir: dir, OnDisk: true, Cache: c}}, defaults(Options{ParseVendored: parseVendored}))
		s := update(t, x)
		for i, f := range s.Files {
			_, n := s.TagCounts(i)
			vendored := strings.HasPrefix(f.Path, "node_modules/") || strings.HasPrefix(f.Path, "web/bower_components/")
			if vendored && !parseVendored && n != 0 || (!vendored || parseVendored) && n == 0 && f.Path != ".repomaproles" {
				t.Errorf("ParseVendored %v: %s has %d tags", parseVendored, f.Path, n)
			}
		}
		if len(s.Skipped) != 0 {
			t.Errorf("ParseVendored %v: skipped %v, want none", parseVendored, s.Skipped)
		}
		x.Close()
	}
}
