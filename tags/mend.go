package tags

import (
	"bytes"
	"regexp"
)

// kotlinHeaderBreak finds a class header whose primary constructor,
// with its modifiers, starts on the next line:
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
var kotlinHeaderBreak = regexp.MustCompile(`\bclass[ \t]+\w+(?:[ \t]*<[^\n{}()=;]*>)?([ \t]*\r?\n[ \t]*)(?:(?:public|protected|internal|private|actual|expect)[ \t]+)+constructor\b`)

// kotlinMend joins such a header's modifiers to the line of the class
// name and moves the line break in front of "constructor", which the
// grammar accepts:
//
//	public class FileSpec private
//	constructor(builder: Builder) : Taggable {
//
// Only the modifiers change rows; "constructor" and all after it keep
// theirs. A match inside a string or a comment changes only its blanks.
func kotlinMend(src []byte) []byte {
	if !bytes.Contains(src, []byte("constructor")) {
		return src
	}
	ms := kotlinHeaderBreak.FindAllSubmatchIndex(src, -1)
	if ms == nil {
		return src
	}
	out := bytes.Clone(src)
	for _, m := range ms {
		for i := m[2]; i < m[3]; i++ {
			out[i] = ' '
		}
		// The blank that ends the modifiers, just before "constructor".
		out[m[1]-len("constructor")-1] = '\n'
	}
	return out
}
