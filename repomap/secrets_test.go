package repomap_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/repomap"
)

// TestSecretNamesAndPaths checks that credentials in names (keys,
// labels, classes) and in file names come out of no part of a map, its
// graph, definitions and references: names that hold one are no
// definitions, and a path segment that holds one is shown redacted.
func TestSecretNamesAndPaths(t *testing.T) {
	const ghp = "ghp_0123456789abcdefghijklmnopqrstuvwxy"
	tree := fstest.MapFS{
		"tokens/" + ghp + "A.py": {Data: []byte("def from_token_file():\n    return 1\n")},
		"tokens/" + ghp + "B.py": {Data: []byte("def other_token_file():\n    return 2\n")},
		"use.py":                 {Data: []byte("from tokens import from_token_file\n\ndef main():\n    return from_token_file()\n")},
		"main.tf":                {Data: []byte("resource \"github_token\" \"glpat-Xq7LmN3pR8sT2vW9yZ4b\" {\n  x = 1\n}\n")},
		"a.css":                  {Data: []byte(".btn-xoxb-1234567890-abcdefghijKLMN { color: red }\n.btn-ok { color: blue }\n")},
		"keys.json":              {Data: []byte("{\n  \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\": {\"name\": \"stripe\"},\n  \"region\": \"eu\"\n}\n")},
	}
	m, err := repomap.NewFS(tree, &repomap.Options{MaxTokens: 4000})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	res, err := m.Build(ctx, repomap.Request{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.Graph(ctx, repomap.Request{})
	if err != nil {
		t.Fatal(err)
	}
	defs, err := m.Definitions(ctx, "from_token_file", "other_token_file", "region", "btn-ok")
	if err != nil {
		t.Fatal(err)
	}
	refs, err := m.References(ctx, "from_token_file")
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal([]any{res, res.Skipped, g.Files, slices.Collect(g.Edges()), defs, refs})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ghp_", "glpat-", "xoxb-", "sk_live_"} {
		if strings.Contains(string(out), secret) {
			t.Errorf("the map, graph, definitions or references hold %q:\n%s", secret, out)
		}
	}
	var paths []string
	for _, d := range defs {
		paths = append(paths, d.Path+" "+d.Name)
	}
	if want := []string{"tokens/<redacted>.py from_token_file", "a.css btn-ok", "keys.json region"}; !sameSet(paths, want) {
		t.Errorf("Definitions = %q, want %q", paths, want)
	}
	// The second file whose path is the same once redacted, in path
	// order, is left out, with a reason.
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "tokens/<redacted>.py" || !strings.Contains(res.Skipped[0].Reason, "another file's") {
		t.Errorf("Skipped = %v, want the second tokens/<redacted>.py", res.Skipped)
	}
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}
