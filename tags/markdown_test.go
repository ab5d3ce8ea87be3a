package tags

import (
	"fmt"
	"slices"
	"testing"
)

// TestMarkdownTags checks the headings of Markdown documents where a
// line-by-line reading can go wrong: fences of either kind and length,
// inline code that looks like a fence, indented code, front matter,
// comments, empty and closed ATX headings, setext underlines under list
// items, quotes and rules, and names with runs of white space.
func TestMarkdownTags(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "line name"
	}{
		{"atx", "# One\n## Two ##\n### C#\n#### Sharp #\n####### seven\n#hashtag\n#\n##\n", []string{"0 One", "1 Two", "2 C#", "3 Sharp"}},
		{"closing run without a space", "# Version 2#\n", []string{"0 Version 2#"}},
		{"indented", "   # Three spaces\n    # Four: code\n", []string{"0 Three spaces"}},
		{"fences", "```go\n# no\n```\n# yes\n~~~~\n# no\n~~~\n# still no\n~~~~\n# after\n", []string{"3 yes", "9 after"}},
		{"longer fence closes", "````\n```\n# no\n`````\n# yes\n", []string{"4 yes"}},
		{"inline code is no fence", "```inline``` text\n# yes\n", []string{"1 yes"}},
		{"unclosed fence", "```\n# no\n", nil},
		{"front matter", "---\ntitle: Home\n---\n# Home\n", []string{"3 Home"}},
		{"comment", "<!--\n# no\nTitle\n===\n-->\n# yes\n", []string{"5 yes"}},
		{"setext", "Title\n=====\n\nSub  title  \n---\n", []string{"0 Title", "3 Sub title"}},
		{"setext under a paragraph's last line", "first line\nsecond line\n---\n", []string{"1 second line"}},
		{"rule after a blank line", "text\n\n---\n", nil},
		{"rule under a list item", "- item\n---\n* star\n---\n1. first\n---\n> quote\n===\n", nil},
		{"emphasis is a paragraph", "**Bold** words\n---\n", []string{"0 **Bold** words"}},
		{"underline under a heading", "# Head\n---\n", []string{"0 Head"}},
		{"tabs", "#\tTabbed\n", []string{"0 Tabbed"}},
		{"CRLF", "# One\r\nTwo\r\n---\r\n", []string{"0 One", "1 Two"}},
		{"invalid UTF-8", "# \xf0\x28\x8c\xbc\n", []string{"0 \uFFFD(\uFFFD"}},
	} {
		var got []string
		for _, tg := range markdownTags("doc.md", []byte(tc.src)) {
			if tg.Kind != Definition || tg.Sub != "heading" || tg.Path != "doc.md" {
				t.Errorf("%s: tag %+v, want a heading definition of doc.md", tc.name, tg)
			}
			got = append(got, fmt.Sprintf("%d %s", tg.Line, tg.Name))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: headings %q, want %q", tc.name, got, tc.want)
		}
	}
}
