package redact

import (
	"strconv"
	"strings"
	"unicode"
)

// class is how secret a name says its value is.
type class int

const (
	notSecret    class = iota
	tokenName          // a token or a key: redacted when it looks random
	passwordName       // a password or a secret: always redacted
)

// Lower bounds for the value of a token or key name to be redacted.
const (
	minTokenLen     = 8
	minTokenEntropy = 3.0 // bits per character
)

// keyKinds are the words before "key" that make a key a credential:
// api_key and secret_key are, map_key and sort_key are not.
var keyKinds = map[string]bool{
	"api": true, "access": true, "secret": true, "private": true, "auth": true,
	"signing": true, "encryption": true, "client": true, "master": true,
	"license": true, "account": true, "service": true, "app": true,
}

// nameClass returns the class of the identifier or key name, from its
// last words: words are separated by "_", "-", "." and case changes.
func nameClass(name string) class {
	if !mayName(name) {
		return notSecret
	}
	words := splitWords(name)
	if len(words) == 0 {
		return notSecret
	}
	last := words[len(words)-1]
	prev := ""
	if len(words) > 1 {
		prev = words[len(words)-2]
	}
	switch {
	case name == "PWD" || name == "OLDPWD":
		return notSecret // the shell's working directory
	case last == "pwd" || strings.HasSuffix(last, "password") ||
		strings.HasSuffix(last, "passwd") || strings.HasSuffix(last, "passphrase") ||
		strings.HasSuffix(last, "secret"):
		return passwordName
	case strings.HasSuffix(last, "token"),
		last == "apikey", last == "accesskey", last == "secretkey", last == "privatekey",
		(last == "key" || last == "keys") && keyKinds[prev]:
		return tokenName
	}
	return notSecret
}

// mayName reports whether name holds, in any case, a word that a secret
// name ends with; most names do not, and need not be split.
func mayName(name string) bool {
	for i := 0; i+2 < len(name); i++ {
		switch name[i] | 0x20 {
		case 'p', 's', 't', 'k':
			for _, w := range [...]string{"pass", "pwd", "secret", "token", "key"} {
				if len(name)-i >= len(w) && strings.EqualFold(name[i:i+len(w)], w) {
					return true
				}
			}
		}
	}
	return false
}

// splitWords splits a name into lower-case words.
func splitWords(name string) []string {
	var words []string
	start := 0
	flush := func(end int) {
		if end > start {
			words = append(words, strings.ToLower(name[start:end]))
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			flush(i)
			start = i + 1
		case isUpper(c) && i > start && (isLower(name[i-1]) ||
			i+1 < len(name) && isUpper(name[i-1]) && isLower(name[i+1])):
			// fooBar, or the B of APIBar.
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return words
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || '0' <= c && c <= '9' || isUpper(c) || isLower(c)
}

// assignments returns the spans of the values that line gives to secret
// names.
func assignments(line string) []span {
	var out []span
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '=' && c != ':' {
			continue
		}
		a := assignment{line: line, op: i, end: i + 1}
		for a.end < len(line) && (line[a.end] == '=' || line[a.end] == '>') {
			a.end++
		}
		i = a.end - 1
		prev := byte(0)
		if a.op > 0 {
			prev = line[a.op-1]
		}
		switch {
		case c == ':' && a.end < len(line) && line[a.end] == ':', prev == ':',
			strings.HasPrefix(line[a.op:], "://"),
			c == '=' && strings.IndexByte("!<>+-*/%&|^~", prev) >= 0:
			// Paths, URLs and other operators.
			continue
		}
		typed := line[a.op:a.end] == "=" || line[a.op:a.end] == ":="
		if !a.findName(typed) {
			continue
		}
		if s, ok := a.value(); ok {
			out = append(out, s)
		}
	}
	return out
}

// assignment is an operator of a line that may give a value to a name.
type assignment struct {
	line      string
	op, end   int // the operator is line[op:end]
	name      string
	nameStart int  // where the name starts, after its opening quote
	quoted    bool // the name has quotes around it
	typed     bool // a type stands between the name and the operator
	class     class
}

// findName finds the name that the operator follows, and reports whether
// it is a secret one. The name may be quoted ("password": …) and, when
// typed allows, followed by a type (var token string = …, token: string
// = …).
func (a *assignment) findName(typed bool) bool {
	s := a.line[:a.op]
	end := len(s)
	for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	closing := end > 0 && (s[end-1] == '"' || s[end-1] == '\'')
	if closing {
		end--
	}
	for try := 0; try < 2; try++ {
		start := end
		for start > 0 && isNameByte(s[start-1]) {
			start--
		}
		if start == end {
			return false
		}
		if cl := nameClass(s[start:end]); cl != notSecret {
			opening := start > 0 && (s[start-1] == '"' || s[start-1] == '\'')
			if opening && !closing && a.end < len(a.line) && a.line[a.end] == s[start-1] {
				// "PWD=" + dir: the name and the operator end a string.
				return false
			}
			a.name, a.nameStart, a.class = s[start:end], start, cl
			a.quoted, a.typed = opening && closing, try > 0
			return true
		}
		// The word may be a type: look at the name before it.
		if !typed || closing || start == 0 || (s[start-1] != ' ' && s[start-1] != '\t' && s[start-1] != ':') {
			return false
		}
		end = start
		for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
			end--
		}
		if end > 0 && s[end-1] == ':' {
			end--
		}
	}
	return false
}

// codeValues are bare values that are types, as Python and TypeScript
// write them after a name (password: str).
var codeValues = map[string]bool{
	"str": true, "string": true, "bytes": true, "int": true, "bool": true,
	"float": true, "number": true, "any": true, "object": true, "SecretStr": true,
}

// value returns the span of the value that the assignment gives to its
// name, when it is to be redacted.
func (a *assignment) value() (span, bool) {
	line := a.line
	v := a.end
	for v < len(line) && (line[v] == ' ' || line[v] == '\t') {
		v++
	}
	// A string literal, with a prefix as Python writes them.
	q := v
	for q < len(line) && q < v+2 && strings.IndexByte("bBrRuUfF", line[q]) >= 0 {
		q++
	}
	if q < len(line) && strings.IndexByte("\"'`", line[q]) >= 0 {
		s, closed := literal(line, q)
		if !closed && line[q] != '`' {
			// Only raw strings span lines: this quote closes a string
			// that the name and the operator are part of ("password: ").
			return span{}, false
		}
		return s, a.secret(line[s.start:s.end])
	}
	op := line[a.op:a.end]
	if a.typed || (op != "=" && op != ":") {
		return span{}, false
	}
	compact := op == "=" && !a.quoted && a.op == a.nameStart+len(a.name) && v == a.end
	before := line[:a.nameStart]
	if a.quoted {
		before = before[:len(before)-1]
	}
	switch {
	case configLine(before):
		// name: value or name=value alone on its line, as configuration
		// formats write them; a comment may follow. An indented
		// "name = value" is code.
		if op == "=" && !compact && before != "" {
			return span{}, false
		}
		e := len(line)
		for _, comment := range []string{" #", " //", " ;"} {
			if i := strings.Index(line[v:e], comment); i >= 0 {
				e = v + i
			}
		}
		for e > v && (line[e-1] == ' ' || line[e-1] == '\t' || line[e-1] == '\r') {
			e--
		}
		val := line[v:e]
		if val == "" || codeValues[val] || strings.ContainsAny(val, "()[]{}=;") || strings.HasSuffix(val, ",") ||
			strings.IndexByte("|>&*!", val[0]) >= 0 {
			return span{}, false
		}
		return span{v, e}, a.secret(val)
	case compact:
		// name=value inside a longer line: the value runs to a space, a
		// quote or a separator.
		e := v
		for e < len(line) && strings.IndexByte(" \t\"'`;&,)", line[e]) < 0 {
			e++
		}
		return span{v, e}, a.secret(line[v:e])
	}
	return span{}, false
}

// configLine reports whether the text before a name is what a line of
// configuration has there: indentation, a YAML list's "- ", "export ".
func configLine(before string) bool {
	s := strings.TrimLeft(before, " \t")
	s = strings.TrimPrefix(s, "- ")
	s = strings.TrimPrefix(s, "export ")
	s = strings.TrimLeft(s, " \t")
	return s == ""
}

// literal returns the span of the contents of the string literal whose
// opening quote is at line[q], and whether it closes on the line; one
// that does not runs to its end.
func literal(line string, q int) (span, bool) {
	quote := line[q]
	for i := q + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			if quote != '`' {
				i++
			}
		case quote:
			return span{q + 1, i}, true
		}
	}
	return span{q + 1, len(line)}, false
}

// secret reports whether v, given to the assignment's name, is to be
// redacted.
func (a *assignment) secret(v string) bool {
	if placeholder(v) || sameWords(v, a.name) {
		return false
	}
	if a.class == passwordName {
		return true
	}
	return len(v) >= minTokenLen && !strings.ContainsFunc(v, unicode.IsSpace) &&
		strings.ContainsFunc(v, unicode.IsDigit) && strings.ContainsFunc(v, unicode.IsLetter) &&
		entropy(v) >= minTokenEntropy
}

// sameWords reports whether the value v is the name itself, as in an
// enumeration ("encodeUserPassword": "encodeUserPassword") or a label.
func sameWords(v, name string) bool {
	return strings.Join(splitWords(v), "") == strings.Join(splitWords(name), "")
}

// placeholder reports whether v stands for no secret: it is empty, a
// reference to a variable or a template, a format verb, masked, a
// number, a boolean or null, or already redacted.
func placeholder(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "null", "nil", "none", "~", "undefined":
		return true
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "#{") ||
		strings.HasPrefix(v, "%") || strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") ||
		strings.Contains(v, Marker) {
		return true
	}
	if strings.Trim(v, "*xX•.-_ ") == "" {
		return true
	}
	if _, err := strconv.ParseInt(v, 0, 64); err == nil {
		return true
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}
