package tags

import (
	"slices"
	"strings"
	"testing"
)

// TestSecretNames checks that a name holding a credential leaves the
// parser with no tag, and the other names of its file with theirs.
func TestSecretNames(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		secret    string // in no tag's name
		kept      string // a tag's name
	}{
		{"keys.json", "{\n  \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\": {\"name\": \"stripe\"},\n  \"region\": \"eu\"\n}\n", "sk_live_", "region"},
		{"keys.yaml", "Zq7XbN2mKc9RwT4vLp8sYd3GhJ6fQ1nW:\n  owner: ops\nregion: eu\n", "Zq7XbN2mKc9RwT4vLp8sYd3GhJ6fQ1nW", "region"},
		{"keys.yaml", "ghp_0123456789abcdefghijklmnopqrstuvwxyZ:\n  owner: ci\nregion: eu\n", "ghp_", "region"},
		{"keys.toml", "[AKIAZ3EXAMPLE7QWERTY]\nowner = \"ops\"\n\n[region]\nname = \"eu\"\n", "AKIA", "region"},
		{"NOTES.md", "# Notes\n\n## Token ghp_0123456789abcdefghijklmnopqrstuvwxyZ\n\ntext\n\n## Password: QmZx81VbnT\n", "ghp_", "Notes"},
		{"NOTES.md", "# Notes\n\n## Password: QmZx81VbnT\n", "QmZx81VbnT", "Notes"},
		{"main.tf", "resource \"github_token\" \"glpat-Xq7LmN3pR8sT2vW9yZ4b\" {\n  x = 1\n}\nvariable \"region\" {}\n", "glpat-", "region"},
		{"a.css", ".btn-xoxb-1234567890-abcdefghijKLMN { color: red }\n.btn-primary { color: blue }\n", "xoxb-", "btn-primary"},
	} {
		got := parse(t, tc.path, tc.src)
		var names []string
		for _, g := range got {
			names = append(names, g.Name)
			if strings.Contains(g.Name, tc.secret) {
				t.Errorf("Parse(%s) gave the tag %q, which holds a credential", tc.path, g.Name)
			}
		}
		if !slices.Contains(names, tc.kept) {
			t.Errorf("Parse(%s) gave the names %q, want %q among them", tc.path, names, tc.kept)
		}
	}
}
