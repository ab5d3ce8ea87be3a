package main

import "testing"

// TestRefsRanking: refs resolves references as the map of its --ranking
// does. The default ranking's rules know errors.New as the New of the
// standard library, not the tree's; Aider's links every New by name.
func TestRefsRanking(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"a/a.go": "package a\n\nfunc New() {}\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc G() { a.New() }\n",
		"c/c.go": "package c\n\nimport \"errors\"\n\nvar E = errors.New(\"e\")\n",
	})
	for _, tc := range []struct {
		ranking, want string
	}{
		{"default", "b/b.go: 5\n"},
		{"aider", "c/c.go: 5\nb/b.go: 5\n"},
	} {
		code, out, errs := runCmd(t, "refs", "--no-cache", "--root", dir, "--ranking", tc.ranking, "New")
		if code != 0 || out != tc.want {
			t.Errorf("refs --ranking %s New: exit %d, output\n%s\nwant\n%s\nstderr:\n%s", tc.ranking, code, out, tc.want, errs)
		}
	}
}
