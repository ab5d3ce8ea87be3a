// Package cachetest keeps tests out of the user's cache directory: a
// test that makes a Map with the default Options would write its tag
// cache under os.UserCacheDir(), where it stays after the test, with the
// path of a temporary directory gone since.
package cachetest

import (
	"fmt"
	"os"
	"runtime"
	"testing"
)

// Main runs the tests of m with the user's cache directory, and the
// home directory it lies in on some systems, in a temporary directory
// of their own, removed when they end, and returns their exit code:
// call it from TestMain, as os.Exit(cachetest.Main(m)). Processes the
// tests start inherit it.
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "repomap-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cachetest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	// os.UserCacheDir reads $XDG_CACHE_HOME on Unix, $HOME/Library/Caches
	// on macOS, %LocalAppData% on Windows.
	for _, v := range []string{"XDG_CACHE_HOME", "LocalAppData"} {
		os.Setenv(v, dir)
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		os.Setenv("HOME", dir)
	}
	return m.Run()
}
