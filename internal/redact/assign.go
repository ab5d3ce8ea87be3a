package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// class is how secret a name says its value is.
type class int

const (
	notSecret    class = iota
	tokenName          // a token, a key or credentials: redacted when it looks random
	passwordName       // a password or a secret: always redacted
)

// Lower bounds for the value of a token or key name to be redacted: one
// with letters and digits, or a longer one of letters alone, with few
// vowels (a word has two in five letters, a random string one in five).
const (
	minTokenLen       = 8
	minTokenEntropy   = 3.0 // bits per character
	minLettersLen     = 16
	minLettersEntropy = 3.5
	maxLettersVowels  = 0.25 // of the letters
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
	word := func(i int) string {
		if i < len(words) {
			return words[len(words)-1-i]
		}
		return ""
	}
	last, prev := word(0), word(1)
	switch {
	case name == "PWD" || name == "OLDPWD":
		return notSecret // the shell's working directory
	case last == "pwd" || last == "pw" || last == "pass" && passWord(name) ||
		strings.HasSuffix(last, "password") ||
		strings.HasSuffix(last, "passwd") || strings.HasSuffix(last, "passphrase") ||
		strings.HasSuffix(last, "secret"):
		return passwordName
	case strings.HasSuffix(last, "token"),
		last == "apikey", last == "accesskey", last == "secretkey", last == "privatekey",
		(last == "key" || last == "keys") && keyKinds[prev],
		last == "auth", last == "credential", last == "credentials", last == "creds", last == "sid",
		// Rails' secret_key_base, a service account's private_key_id.
		(last == "base" || last == "id") && prev == "key" && (word(2) == "secret" || word(2) == "private"):
		return tokenName
	}
	return notSecret
}

// passWord reports whether the name whose last word is "pass" names a
// password: DB_PASS, db-pass, pass_ (Python's keyword argument), and not
// PASS (as in test output) or renderPass.
func passWord(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "_pass") || strings.HasSuffix(n, "-pass") || strings.HasSuffix(n, "pass_")
}

// mayName reports whether name holds, in any case, a word that a secret
// name ends with; most names do not, and need not be split.
func mayName(name string) bool {
	for i := 0; i+1 < len(name); i++ {
		switch lower[name[i]] {
		case 'p', 's', 't', 'k', 'a', 'c':
			for _, w := range [...]string{"pass", "pw", "secret", "token", "key", "auth", "cred", "sid"} {
				if len(name)-i >= len(w) && equalFoldASCII(name[i:i+len(w)], w) {
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
	inString  bool // the name starts a string that holds the operator ("password: x")
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
			return typed && !closing && a.annotated()
		}
		if cl := nameClass(s[start:end]); cl != notSecret {
			opening := start > 0 && (s[start-1] == '"' || s[start-1] == '\'')
			if opening && !closing && a.end < len(a.line) && a.line[a.end] == s[start-1] {
				// "PWD=" + dir: the name and the operator end a string.
				return false
			}
			a.name, a.nameStart, a.class = s[start:end], start, cl
			a.quoted, a.inString, a.typed = opening && closing, opening && !closing, try > 0
			return true
		}
		// The word may be a type: look at the name before it.
		if !typed || closing || start == 0 || (s[start-1] != ' ' && s[start-1] != '\t' && s[start-1] != ':') {
			return typed && !closing && a.annotated()
		}
		end = start
		for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
			end--
		}
		if end > 0 && s[end-1] == ':' {
			end--
		}
	}
	return typed && a.annotated()
}

// annotated finds the name before a type annotation of any text, as
// Rust, TypeScript and Swift write them (SECRET: &str = …, password:
// string | undefined = …), and reports whether it is a secret one.
func (a *assignment) annotated() bool {
	s := a.line[:a.op]
	i := len(s) - 1
	for ; i > 0; i-- {
		c := s[i]
		if c == ':' {
			if s[i-1] != ':' {
				break
			}
			i-- // a path: std::string::String
			continue
		}
		if strings.IndexByte("=;\"`(){},", c) >= 0 {
			return false
		}
	}
	end := i
	for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	start := end
	for start > 0 && isNameByte(s[start-1]) {
		start--
	}
	if i <= 0 || start == end {
		return false
	}
	cl := nameClass(s[start:end])
	if cl == notSecret {
		return false
	}
	a.name, a.nameStart, a.class, a.typed = s[start:end], start, cl, true
	return true
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
	config, heading := configLine(before)
	switch {
	case config:
		// name: value or name=value alone on its line, as configuration
		// formats write them; a comment may follow. An indented
		// "name = value" is code.
		if op == "=" && !compact && before != "" && !heading {
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
		if val == "" || codeValues[val] || strings.ContainsAny(val, "()[]{};") || strings.HasSuffix(val, ",") ||
			strings.Contains(strings.TrimRight(val, "="), "=") || strings.IndexByte("|>&*!", val[0]) >= 0 ||
			heading && strings.ContainsAny(val, " \t") {
			// Code, or under a heading or in a comment, words.
			return span{}, false
		}
		return span{v, e}, a.secret(val)
	case compact:
		// name=value inside a longer line: the value runs to a space, a
		// quote or a separator.
		e := v
		for e < len(line) && strings.IndexByte(" \t\"'`;&,()", line[e]) < 0 {
			e++
		}
		if e < len(line) && line[e] == '(' || memberPath.MatchString(line[v:e]) {
			// A call or a field: code, as minified JavaScript writes it.
			return span{}, false
		}
		return span{v, e}, a.secret(line[v:e])
	case a.inString:
		// "password: value" inside a string: the value is the rest of
		// the string, one word.
		e := v
		for e < len(line) && line[e] != line[a.nameStart-1] && line[e] != '\\' {
			e++
		}
		if e == len(line) || strings.ContainsAny(line[v:e], " \t") {
			return span{}, false
		}
		return span{v, e}, a.secret(line[v:e])
	}
	return span{}, false
}

// memberPath matches a path of fields: a.b.c.
var memberPath = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$`)

// configLine reports whether the text before a name is what a line of
// configuration has there: indentation, a YAML list's "- ", "export ";
// and whether it is a Markdown heading's or a comment's "# ".
func configLine(before string) (config, heading bool) {
	s := strings.TrimLeft(before, " \t")
	if t := strings.TrimLeft(s, "#"); len(t) < len(s) && (t == "" || t[0] == ' ') {
		s, heading = t, true
	}
	s = strings.TrimPrefix(s, "- ")
	s = strings.TrimPrefix(s, "export ")
	s = strings.TrimLeft(s, " \t")
	return s == "", heading
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
func (a *assignment) secret(v string) bool { return secretValue(a.class, a.name, v) }

// secretValue reports whether v, given to the name of class c, is to be
// redacted.
func secretValue(c class, name, v string) bool {
	if c == notSecret || placeholder(v) || sameWords(v, name) {
		return false
	}
	if c == passwordName {
		return true
	}
	if len(v) < minTokenLen || strings.ContainsFunc(v, unicode.IsSpace) || !strings.ContainsFunc(v, unicode.IsLetter) {
		return false
	}
	if strings.ContainsFunc(v, unicode.IsDigit) {
		return entropy(v) >= minTokenEntropy
	}
	return len(v) >= minLettersLen && strings.Trim(v, asciiLetters) == "" &&
		float64(vowels(v)) < maxLettersVowels*float64(len(v)) && entropy(v) >= minLettersEntropy
}

const asciiLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// vowels returns the number of vowels in v, in either case.
func vowels(v string) int {
	n := 0
	for i := 0; i < len(v); i++ {
		switch lower[v[i]] {
		case 'a', 'e', 'i', 'o', 'u':
			n++
		}
	}
	return n
}

// sameWords reports whether the value v is the name itself, as in an
// enumeration ("encodeUserPassword": "encodeUserPassword") or a label.
func sameWords(v, name string) bool {
	return strings.Join(splitWords(v), "") == strings.Join(splitWords(name), "")
}

// placeholder reports whether v stands for no secret: it is empty, a
// reference to a variable ($VAR, ${VAR}, $(command), %VAR%), a template
// ({{ .Var }}, #{var}), a format verb (%s, %(name)s), a description in
// angle brackets (<your password>), masked (****), a boolean or null, or
// already redacted. A number is no placeholder: "927065379" is a
// password.
func placeholder(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "null", "nil", "none", "~", "undefined":
		return true
	}
	return strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "#{") || strings.Contains(v, Marker) ||
		strings.Trim(v, "*xX•.-_ ") == "" || placeholders.MatchString(v)
}

// placeholders matches values that stand for others.
var placeholders = regexp.MustCompile(`^(?:` +
	`\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*|\{[^{}]*\}|\([^()]*\))` + // $VAR, ${VAR:-x}, $(command)
	`|%[-+# 0-9.*]*[a-zA-Z]|%\([\w.-]+\)[a-zA-Z]|%[A-Za-z_]\w*%` + // %s, %(name)s, %VAR%
	`|<[A-Za-z][\w .-]*>` + // <your password>
	`)$`)
