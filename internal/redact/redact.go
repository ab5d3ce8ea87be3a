// Package redact takes credentials out of source lines before they are
// shown, and keeps what defines them.
//
// A map shows real lines of a repository, and a map is pasted into files
// that get committed and into prompts sent to model providers, so a key
// written into the source must not reach it. [Line] and [Lines] replace
// the secret part of a line with [Marker] and leave the rest as it was:
//
//	const githubToken = "ghp_…"        →  const githubToken = "<redacted>"
//	password: hunter2                  →  password: <redacted>
//	db := "postgres://app:pw@db/app"   →  db := "postgres://app:<redacted>@db/app"
//
// # What is redacted
//
// Tokens whose form their issuer publishes, wherever they stand (code,
// strings, comments): AWS access key IDs (AKIA…, ASIA…), GitHub tokens
// (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab tokens (glpat-,
// gldt-, glrt-, glptt-), Slack tokens (xoxa-, xoxb-, xoxp-, xoxr-,
// xoxs-, xapp-) and webhook URLs, Stripe secret and restricted keys
// (sk_live_, sk_test_, rk_live_, rk_test_), Google API keys (AIza…),
// OpenAI- and Anthropic-style keys (sk-…, sk-proj-…, sk-ant-…), npm
// (npm_), PyPI (pypi-AgEIcHlwaS5vcmc…), Hugging Face (hf_), SendGrid
// (SG.…), Shopify (shpat_, shpss_…) tokens, and JSON Web Tokens
// (eyJ….eyJ….…). Beside these, the token forms of gitleaks' default
// configuration, 116 rules of some 100 providers, kept as data in
// gitleaks.tsv under gitleaks' MIT licence (its header says which rules
// and how): each applies to a line that holds one of its keywords, and
// with its least entropy.
//
// The password of a URL (scheme://user:password@host, also with no user:
// redis://:password@host) and of a Go DSN (user:password@tcp(host)).
//
// Private keys: the body of a PEM block whose header names a private key
// (-----BEGIN RSA PRIVATE KEY-----, -----BEGIN OPENSSH PRIVATE KEY-----,
// -----BEGIN PGP PRIVATE KEY BLOCK-----…). The BEGIN and END lines stay,
// so that the reader knows a key was there, and the lines between them
// lose their key material: base64 text and the headers of an encrypted
// block, with the quotes, "\n" escapes and "+" that a string literal in
// code puts around them. [Lines] finds the rows of a block that spans
// lines: it starts after a header that ends its line and ends at the END
// line, or at the first line that holds anything but key material (so a
// comment that names a header hides nothing). [Line] redacts a block that
// one line holds. A PEM block of a private key in base64 (LS0tLS1CRUdJTi…,
// as Kubernetes secrets hold it) is redacted whole.
//
// Credentials that commands, headers and formats write: the value of an
// Authorization header (Bearer, Basic or Token, a value with letters and
// digits), curl -u user:password, mysql -ppassword, --password value,
// .netrc's password, a .pgpass line's password, SQL's PASSWORD 'x' and
// IDENTIFIED BY 'x' in a statement on a user, login or role, PowerShell's
// ConvertTo-SecureString "x", the text of an XML element named like a
// secret (<password>x</password>) and the value of a key="ApiKey"
// value="x" pair, C's #define NAME "x" for a secret name, and prose that
// says "the password is x" of a value with letters and digits.
//
// Values assigned to a secret name: a literal given to a name whose last
// word is password, passwd, passphrase, pwd, pw or secret (client_secret,
// DB_PASSWORD, adminPwd, db_pw; not PWD, the shell's working directory),
// or pass in snake or kebab case (DB_PASS, db-pass, Python's pass_; not
// renderPass), or whose last words are token or a kind of key
// (auth_token, api_key, apiKey, secret_access_key, private_key,
// signing_key), auth, credential(s), creds, sid, secret_key_base or
// private_key_id. The assignment may be written as in most languages and
// formats: name = "v", name := "v", name: "v", "name": "v", name => "v",
// name == "v", var name string = "v", and with a type of any text after a
// colon (SECRET: &str = "v", password: string | undefined = "v"); for
// formats without quotes, a line of its own that is name: v, name=v or,
// not indented, name = v (YAML, .env, INI, .properties; a value may end in
// the "=" of base64), the same after a Markdown heading's or a comment's
// "#" when the value is one word, a name=v pair with no spaces around "="
// inside a longer line (connection strings, query strings, command lines;
// not a call or a field, a.b.c, which is code), and a string that starts
// with the name and ends with the value, one word ("password: v"). For a
// password or secret name, every such value is redacted, however short:
// "password: hunter2" and "927065379" are leaks. For a token, key or
// credentials name, a value is redacted when it is at least 8 characters
// long, holds no white space, holds letters and digits, and has at least
// 3 bits of Shannon entropy per character, which a token has and a word,
// a name or a setting ("changeme", "X-Request-Token", "enabled") does
// not; or when it is 16 letters or more, fewer than one in four of them
// vowels, with at least 3.5 bits of entropy per character (a random
// string of letters; words have two vowels in five letters). Values that
// are no secret are left: empty ones, placeholders ($VAR and $var, ${…},
// $(…), %VAR%, {{ .Var }}, #{var}, <your password>, %s, %(name)s,
// ****), booleans and null, the name itself ("password": "password"),
// types (password: str), and expressions that are not literals
// (password = os.Getenv("PASSWORD"), and an indented password = value,
// which is code).
//
// # What is not
//
// A secret written in a form none of these rules knows: a bare random
// string assigned to an ordinary name, a key split over several string
// literals, a secret-named value spread over several lines, a password in
// prose other than "the password is x". The rules are
// chosen so that ordinary code is left alone; they are no substitute for
// keeping credentials out of a repository.
package redact

import (
	"math"
	"regexp"
	"strings"
)

// Marker replaces the secret part of a line.
const Marker = "<redacted>"

// userinfo matches the user and password of a URL; group 1 is the
// password.
var userinfo = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@"'` + "`" + `]*:([^\s/@"'` + "`" + `]+)@`)

// Line returns line with its secret parts replaced by Marker, and whether
// it replaced any. A private key block that line holds whole (as a string
// with "\n" escapes) loses its body; for a block that spans lines, use
// Lines.
func Line(line string) (string, bool) {
	rules := allRules()
	sc := rules.scan(line)
	spans := rules.spans(line, &sc, nil)
	if sc.url {
		for _, m := range userinfo.FindAllStringSubmatchIndex(line, -1) {
			if !placeholder(line[m[2]:m[3]]) {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	if sc.operator {
		spans = append(spans, assignments(line)...)
		spans = pgpassSpans(line, spans)
	}
	if len(spans) == 0 {
		return line, false
	}
	out := replace(line, spans)
	return out, out != line
}

// hasOperator reports whether s holds "=" or ":", which every assignment
// has (two searches of a byte are faster than one of either).
func hasOperator(s string) bool {
	return strings.IndexByte(s, '=') >= 0 || strings.IndexByte(s, ':') >= 0
}

// Lines redacts the lines of one file, in order, and returns the lines it
// changes, by index, with their redacted text. Beyond what Line does, it
// knows the rows of a private key block that spans lines: the rows after
// the BEGIN line, up to the END line (or up to the end of the file when
// there is none), lose their key material.
func Lines(lines []string) map[int]string {
	var out map[int]string
	set := func(i int, s string) {
		if out == nil {
			out = make(map[int]string)
		}
		out[i] = s
	}
	inBlock := false
	for i, line := range lines {
		if inBlock {
			if e := pemEnd.FindStringIndex(line); e != nil {
				inBlock = false
				s, _ := keyLine(line[:e[0]])
				rest, _ := Line(line[e[0]:])
				if s+rest != line {
					set(i, s+rest)
				}
				continue
			}
			if s, ok := keyLine(line); ok {
				if s != line {
					set(i, s)
				}
				continue
			}
			// Not a line of a key: the block has ended, or was none.
			inBlock = false
		}
		if s, ok := Line(line); ok {
			set(i, s)
		}
		if strings.Contains(line, "-----BEGIN ") {
			// A block starts where the header ends its line.
			if b := pemBegin.FindStringIndex(line); b != nil {
				_, more := trimEscapes(line, b[1], len(line))
				inBlock = !more
			}
		}
	}
	return out
}

// keyLine returns the line of a private key block with its key material
// replaced by Marker, and whether it is one: base64 text, a header of an
// encrypted block or nothing, with the quotes, escapes and operators
// around it that a string literal in code adds.
func keyLine(line string) (string, bool) {
	start, end := 0, len(line)
	for start < end && strings.IndexByte(" \t\"'`+(", line[start]) >= 0 {
		start++
	}
	for end > start {
		switch {
		case strings.HasSuffix(line[start:end], `\n`), strings.HasSuffix(line[start:end], `\r`):
			end -= 2
		case strings.IndexByte(" \t\r\"'`+,;)", line[end-1]) >= 0:
			end--
		default:
			goto trimmed
		}
	}
trimmed:
	core := line[start:end]
	switch {
	case core == "":
		return line, true
	case pemHeader.MatchString(core), strings.Trim(core, base64Chars) == "":
		return line[:start] + Marker + line[end:], true
	}
	return line, false
}

// keyText reports whether t is key material in a string literal: base64
// text and "\n" escapes.
func keyText(t string) bool {
	t = strings.ReplaceAll(strings.ReplaceAll(t, `\n`, ""), `\r`, "")
	return strings.Trim(t, base64Chars) == ""
}

// base64Chars are the characters of key material.
const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="

// pemHeader matches a header line of an encrypted PEM block.
var pemHeader = regexp.MustCompile(`^(?:Proc-Type|DEK-Info|Comment|Version|Hash): `)

// span is the byte range [start, end) of a secret in a line.
type span struct{ start, end int }

// replace returns line with every span, merged where they overlap,
// replaced by Marker.
func replace(line string, spans []span) string {
	// Sort by start; there are few spans, so insertion sort is enough.
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var b strings.Builder
	pos, open := 0, false
	for _, s := range spans {
		if open && s.start <= pos {
			pos = max(pos, s.end)
			continue
		}
		b.WriteString(line[pos:s.start])
		b.WriteString(Marker)
		pos, open = s.end, true
	}
	b.WriteString(line[pos:])
	return b.String()
}

// trimEscapes returns the span [start, end) of line without the "\n"
// escapes and quotes at its ends, and false when nothing is left.
func trimEscapes(line string, start, end int) (span, bool) {
	for start < end {
		switch {
		case strings.HasPrefix(line[start:end], `\n`), strings.HasPrefix(line[start:end], `\r`):
			start += 2
		case strings.ContainsRune(" \t\"'`+", rune(line[start])):
			start++
		default:
			goto right
		}
	}
right:
	for end > start {
		switch {
		case strings.HasSuffix(line[start:end], `\n`), strings.HasSuffix(line[start:end], `\r`):
			end -= 2
		case strings.ContainsRune(" \t\"'`+", rune(line[end-1])):
			end--
		default:
			return span{start, end}, true
		}
	}
	return span{}, false
}

// entropy returns the Shannon entropy of s, in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
