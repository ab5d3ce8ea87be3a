package tags

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFenceLanguage checks which fences' info strings name a language
// whose blocks are read as code: by name or extension, with attributes,
// and not shells, data or unknown words.
func TestFenceLanguage(t *testing.T) {
	for info, want := range map[string]string{
		"go": "go", "golang": "go", "python": "python", "py": "python", "pycon": "python",
		"rust": "rust", "rs": "rust", "js": "javascript", "jsx": "javascript", "ts": "typescript",
		"tsx": "tsx", "kotlin": "kotlin", "c++": "cpp", "java": "java", "swift": "swift",
		"": "", "sh": "", "bash": "", "console": "", "json": "", "yaml": "", "toml": "",
		"text": "", "html": "", "diff": "", "makefile": "", "mermaid": "",
	} {
		if got := fenceLanguage(info); got != want {
			t.Errorf("fenceLanguage(%q) = %q, want %q", info, got, want)
		}
	}
	for info, want := range map[string]string{"{.python}": "python", "Go title=x": "go", "rust,ignore": "rust", "": ""} {
		if got := fenceInfo([]byte(info)); got != want {
			t.Errorf("fenceInfo(%q) = %q, want %q", info, got, want)
		}
	}
}

// TestCodeSpanName checks which inline code names something, and what.
func TestCodeSpanName(t *testing.T) {
	for code, want := range map[string]string{
		"Console":             "Console",
		"console.log":         "log <console>",
		"console.log()":       "log <console>",
		"r.GET(path, h)":      "GET <r>",
		"serde_json::to_vec":  "to_vec <serde_json>",
		"json!":               "json",
		"@pytest.fixture":     "fixture <pytest>",
		"Widget#render":       "render <Widget>",
		"$http.get":           "get <$http>",
		" Map ":               "Map",
		"response.json()":     "json <response>",
		"inventory.py":        "",
		"config.yaml":         "",
		"pip install rich":    "",
		"--verbose":           "",
		"v1.2.3":              "",
		"x":                   "",
		"a.b.":                "",
		"Vec<u8>":             "",
		"io::Read + io::Seek": "",
		"1024":                "",
		"":                    "",
	} {
		name, qual := codeSpanName([]byte(code))
		got := name
		if qual != "" {
			got += " <" + qual + ">"
		}
		if got != want {
			t.Errorf("codeSpanName(%q) = %q, want %q", code, got, want)
		}
	}
}

// TestCodeRefs checks the references of code blocks where a block's
// source needs mending to parse: Go statements outside a function, Go
// declarations without a package clause, Rust statements outside a
// function, a Python session, a block indented in a list item, and a
// fence left open to the end of the document. Each reference is on the
// document's line.
func TestCodeRefs(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string // "line name"
	}{
		{"go statements", "```go\nr := gin.Default()\nr.Run()\n```\n", []string{"1 Default", "2 Run"}},
		{"go declarations", "```go\nfunc main() {\n\tm := chi.NewRouter()\n}\n```\n", []string{"2 NewRouter"}},
		{"rust statements", "```rust\nlet v: Value = serde_json::from_str(data)?;\n```\n", []string{"1 Value", "1 from_str"}},
		{"python session", "```pycon\n>>> import httpx\n>>> r = httpx.get('https://x')\n>>> r\n<Response [200 OK]>\n```\n", []string{"2 get"}},
		{"python session in a python block", "```python\n>>> for x in items:\n...     show(x)\nShowing(x=1)\n```\n", []string{"2 show"}},
		{"indented in a list", "1. Step:\n\n   ```python\n   def f():\n       return helper()\n   ```\n", []string{"4 helper"}},
		{"open fence", "# Use\n\n```js\nky.post(url)\n", []string{"3 post"}},
	} {
		p := NewParser(nil)
		found, err := p.Parse(context.Background(), "README.md", []byte(tc.doc))
		p.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, tg := range found {
			if tg.Kind == Reference && tg.Sub != "code" && tg.Sub != "import" && tg.Name != "httpx" {
				got = append(got, fmt.Sprintf("%d %s", tg.Line, tg.Name))
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: references %q, want %q among them", tc.name, got, w)
			}
		}
		for _, g := range got {
			if strings.HasSuffix(g, " f") || strings.HasSuffix(g, " main") {
				t.Errorf("%s: reference %q to the block's own definition", tc.name, g)
			}
			if strings.HasSuffix(g, " Response") || strings.HasSuffix(g, " Showing") {
				t.Errorf("%s: reference %q in a session's output", tc.name, g)
			}
		}
	}
}

// TestCodeRefsBounded checks that a document of many code blocks is read
// up to maxDocBlocks of them.
func TestCodeRefsBounded(t *testing.T) {
	var b strings.Builder
	for i := range maxDocBlocks + 10 {
		fmt.Fprintf(&b, "```python\nf%d()\n```\n", i)
	}
	p := NewParser(nil)
	defer p.Close()
	found, err := p.Parse(context.Background(), "doc.md", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != maxDocBlocks {
		t.Errorf("%d references of %d blocks, want %d", len(found), maxDocBlocks+10, maxDocBlocks)
	}
}
