package policy

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/index/indextest"
)

// TestTestStem checks the stems of files with and without the marks of
// a test.
func TestTestStem(t *testing.T) {
	for p, want := range map[string]string{
		"store/store.go": "store", "store/store_test.go": "store*",
		"pkg/core.py": "core", "tests/test_core.py": "core*", "tests/core_test.py": "core*",
		"source/core/Ky.ts": "ky", "test/ky.ts": "ky", "src/button.test.tsx": "button*", "src/button.spec.js": "button*",
		"src/main/java/com/x/Util.java": "util", "src/test/java/com/x/UtilTest.java": "util*", "UtilTests.java": "util*",
		"lib/parser_spec.rb": "parser*", "test_.py": "test_", "Test.java": "test",
	} {
		stem, marked := testStem(p)
		got := stem
		if marked {
			got += "*"
		}
		if got != want {
			t.Errorf("testStem(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestCompanions checks the companions of focus files: a file's tests,
// by its language's conventions, where its tests live; a test's subject;
// the nearest of several files of one name; none for a file without tests.
func TestCompanions(t *testing.T) {
	tree := fstest.MapFS{}
	for _, p := range []string{
		"store/store.go", "store/store_test.go", "other/store_test.go",
		"pkg/core.py", "pkg/util.py", "tests/test_core.py", "tests/sub/test_core.py", "pkg/sub/core.py",
		"source/core/Ky.ts", "test/ky.ts",
		"src/main/java/com/x/Util.java", "src/test/java/com/x/UtilTest.java", "src/test/java/com/y/UtilTest.java",
		"docs/store.md",
	} {
		tree[p] = &fstest.MapFile{Data: []byte("x\n")}
	}
	s := indextest.Snapshot(t, tree)
	for _, tc := range []struct {
		focus []string
		want  []string
	}{
		{[]string{"store/store.go"}, []string{"store/store_test.go"}},
		{[]string{"store/store_test.go"}, []string{"store/store.go"}},
		{[]string{"pkg/core.py"}, []string{"tests/test_core.py"}},
		{[]string{"pkg/sub/core.py"}, []string{"tests/sub/test_core.py"}},
		{[]string{"source/core/Ky.ts"}, []string{"test/ky.ts"}},
		{[]string{"src/main/java/com/x/Util.java"}, []string{"src/test/java/com/x/UtilTest.java"}},
		{[]string{"pkg/util.py"}, nil},
		{[]string{"store/store.go", "store/store_test.go"}, nil},
	} {
		got := companions(s, tc.focus)
		if !slices.Equal(got, tc.want) {
			t.Errorf("companions(%q) = %q, want %q", tc.focus, got, tc.want)
		}
	}
}
