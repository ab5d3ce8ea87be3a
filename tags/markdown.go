package tags

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"unicode"
)

// markdownTags returns the headings of the Markdown document src, at
// path, as definitions named by their text: ATX headings ("## Name", a
// closing run of "#" after a space dropped) and setext ones (a line of
// text underlined by a line of "=" or "-"). Lines inside fenced code
// blocks, HTML comments and a front matter block at the top are not
// headings, and neither is a list item or a quote above a rule.
func markdownTags(path string, src []byte) []Tag {
	found, _ := scanMarkdown(path, src)
	return slices.DeleteFunc(found, func(t Tag) bool { return t.Kind != Definition })
}

// codeBlock is a fenced code block of a Markdown document.
type codeBlock struct {
	info  string   // the first word of the fence's info string, lower-case: "go", "python"
	first int      // the 0-based line of its first line
	lines [][]byte // its lines, without the fences
}

// scanMarkdown returns the headings of the Markdown document src, at
// path (see markdownTags), with the references of its inline code
// (codeSpanName), in line order, and its fenced code blocks, in order. A
// fence left open runs to the end of the document.
//
// It reads the lines once. Lexing Markdown with a general lexer cost
// about 2 µs a byte, since it lexes the code blocks too: the changelogs
// of one repository, a megabyte, took several seconds of a cold map.
func scanMarkdown(path string, src []byte) ([]Tag, []codeBlock) {
	var (
		out    []Tag
		blocks []codeBlock
		lines  = bytes.Split(src, []byte{'\n'})
		fence  []byte // the fence of the open code block, or nil
		para   = -1   // the line that an underline makes a heading, or -1
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
				b := &blocks[len(blocks)-1]
				b.lines = lines[b.first:i]
			}
			continue
		}
		if indent > 3 {
			if para >= 0 {
				para = -1 // a paragraph's continuation; its first line is not underlined
			}
			continue
		}
		fenceLine := bytes.HasPrefix(text, []byte("```")) || bytes.HasPrefix(text, []byte("~~~"))
		if !bytes.HasPrefix(text, []byte("<!--")) {
			out = appendSpanRefs(out, path, text, i, fenceLine)
		}
		switch {
		case len(text) == 0:
			para = -1
		case fenceLine:
			n := len(text) - len(bytes.TrimLeft(text, string(text[:1])))
			if text[0] == '`' && bytes.IndexByte(text[n:], '`') >= 0 {
				para = i // inline code, not a fence
				continue
			}
			fence, para = text[:n], -1
			blocks = append(blocks, codeBlock{info: fenceInfo(text[n:]), first: i + 1})
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
	if fence != nil {
		b := &blocks[len(blocks)-1]
		b.lines = lines[min(b.first, len(lines)):]
	}
	// A setext heading comes after the inline code of its line.
	slices.SortStableFunc(out, func(a, b Tag) int { return a.Line - b.Line })
	return out, blocks
}

// appendSpanRefs appends to out the references of the inline code of a
// line of text (without its indentation), the line-th of the document
// at path: one for each code span that names something (codeSpanName).
// On a line that opens a fence, only spans closed on it count (the line
// is then inline code, not a fence).
func appendSpanRefs(out []Tag, path string, text []byte, line int, fenceLine bool) []Tag {
	for i := 0; i < len(text); {
		if text[i] != '`' || i > 0 && text[i-1] == '\\' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] == '`' {
			j++
		}
		// The span ends at the next run of as many backquotes.
		end, close := -1, j
		for k := j; k < len(text); {
			if text[k] != '`' {
				k++
				continue
			}
			m := k
			for m < len(text) && text[m] == '`' {
				m++
			}
			if m-k == j-i {
				end, close = k, m
				break
			}
			k = m
		}
		if end < 0 {
			if fenceLine && i == 0 {
				return out
			}
			i = j
			continue
		}
		if name, qual := codeSpanName(text[j:end]); name != "" {
			out = append(out, Tag{Path: path, Name: name, Kind: Reference, Sub: "code", Line: line, Qual: qual})
		}
		i = close
	}
	return out
}

// codeSpanName returns the name that the code of an inline code span
// refers to, and what qualifies it, when the code is a name or a path of
// names: "Console", "console.log", "serde_json::to_vec", "r.GET()",
// "json!", "Widget#render"; the name is the path's last. Other code (a
// command, an expression, a type with parameters, a file's name or path,
// a number) and names of one letter give "".
func codeSpanName(code []byte) (name, qual string) {
	s := strings.TrimSpace(string(code))
	call := false
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		s, call = s[:i], true // a call: "f()", "f(x)"
	}
	s = strings.TrimPrefix(strings.TrimSuffix(s, "!"), "@")
	start := 0 // where the last name starts
	for i := 0; i <= len(s); {
		n := identLen(s[i:])
		if n == 0 {
			return "", ""
		}
		start, i = i, i+n
		if i == len(s) {
			break
		}
		sep := 0
		switch {
		case strings.HasPrefix(s[i:], "::"), strings.HasPrefix(s[i:], "->"):
			sep = 2
		case s[i] == '.' || s[i] == '#':
			sep = 1
		default:
			return "", ""
		}
		i += sep
	}
	name = s[start:]
	if len(name) < 2 || !call && start > 0 && s[start-1] == '.' && Detect("file."+name, nil) != "" {
		return "", "" // "inventory.py" is a file
	}
	return name, strings.TrimRight(s[:start], ".:#->")
}

// identLen returns the length of the identifier that s starts with: a
// letter, "_" or "$", then letters, digits, "_" and "$"; 0 for none.
func identLen(s string) int {
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || unicode.IsLetter(r):
		case i > 0 && unicode.IsDigit(r):
		default:
			return i
		}
	}
	return len(s)
}

// fenceInfo returns the language a fence's info string names: its first
// word, lower-case, without the braces and dot of an attribute list
// ("{.python}").
func fenceInfo(info []byte) string {
	f := strings.Fields(strings.ToLower(string(info)))
	if len(f) == 0 {
		return ""
	}
	w := strings.TrimLeft(f[0], "{.")
	if i := strings.IndexAny(w, "{},"); i >= 0 {
		w = w[:i]
	}
	return w
}

// heading returns the definition of a heading named name on line of the
// document at path; the name is made valid UTF-8.
func heading(path, name string, line int) Tag {
	return Tag{Path: path, Name: strings.ToValidUTF8(name, "\uFFFD"), Kind: Definition, Sub: "heading", Line: line}
}

// trimIndent returns line without its leading spaces and tabs, and how
// many columns they took (a tab to the next multiple of 4).
func trimIndent(line []byte) ([]byte, int) { return trimIndentUpTo(line, math.MaxInt) }

// trimIndentUpTo returns line without its leading spaces and tabs, up to
// those that reach column n, and how many columns it took off.
func trimIndentUpTo(line []byte, n int) ([]byte, int) {
	col := 0
	for i, c := range line {
		if col >= n {
			return line[i:], col
		}
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
