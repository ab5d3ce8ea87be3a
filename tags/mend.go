package tags

import (
	"bytes"
	"regexp"
)

// kotlinHeaderBreak matches a class header whose primary constructor,
// with its modifiers, starts on the next line, up to "constructor":
//
//	public class FileSpec
//	private constructor(builder: Builder) : Taggable {
//
// Kotlin allows the line break, but the grammar (tree-sitter-kotlin
// v1.1.0) ends the declaration at it: in a class body the rest then reads
// as a secondary constructor and fails, and so does a constructor with
// two modifiers ("internal actual constructor") anywhere. The error
// swallows the class and, from a nested one, the whole file. Group 1 is
// the line break with the blanks around it; only visibility and platform
// modifiers, which are all a primary constructor takes besides
// annotations, are looked for.
var kotlinHeaderBreak = regexp.MustCompile(`\bclass[ \t]+\w+(?:[ \t]*<[^\n{}()=;]*>)?([ \t]*\r?\n[ \t]*)(?:(?:public|protected|internal|private|actual|expect)[ \t]+)+$`)

// kotlinMend joins such a header's modifiers to the line of the class
// name and moves the line break in front of "constructor", which the
// grammar accepts:
//
//	public class FileSpec private
//	constructor(builder: Builder) : Taggable {
//
// Only the modifiers change rows; "constructor" and all after it keep
// theirs. A match inside a string or a comment changes only its blanks.
// The header is looked for only on the two lines that end at a word
// "constructor", which few lines have.
func kotlinMend(src []byte) []byte {
	const word = "constructor"
	var out []byte
	for at := 0; ; {
		i := bytes.Index(src[at:], []byte(word))
		if i < 0 {
			break
		}
		i += at
		at = i + len(word)
		if at < len(src) && isWordByte(src[at]) {
			continue
		}
		br := bytes.LastIndexByte(src[:i], '\n')
		if br < 0 {
			continue
		}
		from := bytes.LastIndexByte(src[:br], '\n') + 1 // the line before
		m := kotlinHeaderBreak.FindSubmatchIndex(src[from:i])
		if m == nil {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		for j := from + m[2]; j < from+m[3]; j++ {
			out[j] = ' '
		}
		out[i-1] = '\n' // the blank that ends the modifiers
	}
	if out == nil {
		return src
	}
	return out
}

// isWordByte reports whether c may be part of an ASCII word, as \w has it.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
