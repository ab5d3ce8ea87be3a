package tags

import (
	"bytes"
	"strings"
)

// markdownTags returns the headings of the Markdown document src, at
// path, as definitions named by their text: ATX headings ("## Name", a
// closing run of "#" after a space dropped) and setext ones (a line of
// text underlined by a line of "=" or "-"). Lines inside fenced code
// blocks, HTML comments and a front matter block at the top are not
// headings, and neither is a list item or a quote above a rule. A
// document makes no references.
//
// It reads the lines once. Lexing Markdown with a general lexer cost
// about 2 µs a byte, since it lexes the code blocks too: the changelogs
// of one repository, a megabyte, took several seconds of a cold map.
func markdownTags(path string, src []byte) []Tag {
	var (
		out   []Tag
		lines = bytes.Split(src, []byte{'\n'})
		fence []byte // the fence of the open code block, or nil
		para  = -1   // the line that an underline makes a heading, or -1
	)
	start := 0
	if len(lines) > 0 && string(bytes.TrimRight(lines[0], " \t\r")) == "---" {
		// Front matter: up to the next "---" or "...".
		for i := 1; i < len(lines); i++ {
			if l := string(bytes.TrimRight(lines[i], " \t\r")); l == "---" || l == "..." {
				start = i + 1
				break
			}
		}
	}
	for i := start; i < len(lines); i++ {
		line := bytes.TrimRight(lines[i], " \t\r")
		text, indent := trimIndent(line)
		if fence != nil {
			if indent <= 3 && bytes.HasPrefix(text, fence) && len(bytes.Trim(text, string(fence[:1]))) == 0 {
				fence = nil
			}
			continue
		}
		if indent > 3 {
			if para >= 0 {
				para = -1 // a paragraph's continuation; its first line is not underlined
			}
			continue
		}
		switch {
		case len(text) == 0:
			para = -1
		case bytes.HasPrefix(text, []byte("```")) || bytes.HasPrefix(text, []byte("~~~")):
			n := len(text) - len(bytes.TrimLeft(text, string(text[:1])))
			if text[0] == '`' && bytes.IndexByte(text[n:], '`') >= 0 {
				para = i // inline code, not a fence
				continue
			}
			fence, para = text[:n], -1
		case bytes.HasPrefix(text, []byte("<!--")):
			for ; i < len(lines) && !bytes.Contains(lines[i], []byte("-->")); i++ {
			}
			para = -1
		case text[0] == '#':
			if name, ok := atxHeading(text); ok {
				if name != "" {
					out = append(out, heading(path, name, i))
				}
				para = -1
				continue
			}
			para = i
		case para >= 0 && underline(text):
			name := strings.Join(strings.Fields(string(lines[para])), " ")
			out = append(out, heading(path, name, para))
			para = -1
		case underline(text):
			para = -1 // a rule, or a line of "=" that underlines nothing
		case orderedItem(text):
			para = -1
		case strings.IndexByte("-*+>|", text[0]) >= 0 && (len(text) == 1 || text[1] == ' ' || text[1] == '\t' || text[0] == '>' || text[0] == '|'):
			para = -1 // a list item, a quote or a table row is no heading's text
		default:
			para = i
		}
	}
	return out
}

// heading returns the definition of a heading named name on line of the
// document at path; the name is made valid UTF-8.
func heading(path, name string, line int) Tag {
	return Tag{Path: path, Name: strings.ToValidUTF8(name, "\uFFFD"), Kind: Definition, Sub: "heading", Line: line}
}

// trimIndent returns line without its leading spaces and tabs, and how
// many columns they took (a tab to the next multiple of 4).
func trimIndent(line []byte) ([]byte, int) {
	col := 0
	for i, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return line[i:], col
		}
	}
	return nil, col
}

// atxHeading returns the text of an ATX heading line (without its
// indentation), and whether it is one: one to six "#", then a space, a
// tab or the end of the line. A closing run of "#" is dropped when a space
// comes before it ("## C#" is "C#").
func atxHeading(text []byte) (string, bool) {
	n := 0
	for n < len(text) && text[n] == '#' {
		n++
	}
	if n > 6 || n < len(text) && text[n] != ' ' && text[n] != '\t' {
		return "", false
	}
	h := strings.TrimSpace(string(text[n:]))
	if end := strings.TrimRight(h, "#"); end == "" {
		h = ""
	} else if len(end) < len(h) && (end[len(end)-1] == ' ' || end[len(end)-1] == '\t') {
		h = strings.TrimSpace(end)
	}
	return strings.Join(strings.Fields(h), " "), true
}

// underline reports whether text (a line without its indentation) is a
// setext underline: "=" or "-" alone, repeated.
func underline(text []byte) bool {
	return len(bytes.Trim(text, "=")) == 0 || len(bytes.Trim(text, "-")) == 0
}

// orderedItem reports whether text (a line without its indentation)
// starts an ordered list's item: digits, then "." or ")", then a space.
func orderedItem(text []byte) bool {
	n := 0
	for n < len(text) && n < 10 && '0' <= text[n] && text[n] <= '9' {
		n++
	}
	return n > 0 && n+1 < len(text) && (text[n] == '.' || text[n] == ')') && (text[n+1] == ' ' || text[n+1] == '\t')
}
