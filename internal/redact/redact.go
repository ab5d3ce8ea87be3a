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
// (eyJ….eyJ….…).
//
// The password of a URL (scheme://user:password@host).
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
// one line holds.
//
// Values assigned to a secret name: a literal given to a name whose last
// word is password, passwd, passphrase, pwd or secret (client_secret,
// DB_PASSWORD, adminPwd; not PWD, the shell's working directory), or
// whose last words are token or a kind of key (auth_token, api_key,
// apiKey, secret_access_key, private_key, signing_key). The assignment
// may be written as in most languages and formats: name = "v",
// name := "v", name: "v", "name": "v", name => "v", name == "v",
// var name string = "v"; for formats without quotes, a line of its own
// that is name: v, name=v or, not indented, name = v (YAML, .env, INI,
// .properties), or a name=v pair with no spaces around "=" inside a
// longer line (connection strings, query strings, command lines). For a
// password or secret name, every such value is redacted, however short:
// "password: hunter2" is a leak. For a token or key name, a value is
// redacted when it is at least 8 characters long, holds no white space,
// holds letters and digits, and has at least 3 bits of Shannon entropy
// per character, which a token has and a word, a name or a setting
// ("changeme", "X-Request-Token", "enabled") does not. Values that are
// no secret are left: empty ones, placeholders ($VAR, ${VAR},
// {{ .Var }}, <value>, %s, ****), numbers and booleans, the name itself
// ("password": "password"), types (password: str), and expressions
// that are not literals (password = os.Getenv("PASSWORD"), and an
// indented password = value, which is code).
//
// # What is not
//
// A secret written in a form none of these rules knows: a bare random
// string assigned to an ordinary name, a key split over several string
// literals, a secret-named value spread over several lines. The rules are
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

// tokens matches the known token forms, each as a whole word.
var tokens = regexp.MustCompile(`\b(?:` + strings.Join([]string{
	`(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`,
	`gh[pousr]_[A-Za-z0-9]{36,255}`,
	`github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}`,
	`gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}`,
	`xox[abposr]-[A-Za-z0-9-]{10,}`,
	`xapp-\d-[A-Za-z0-9-]{10,}`,
	`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`,
	`AIza[A-Za-z0-9_-]{35}`,
	`sk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_-]{20,}`,
	`npm_[A-Za-z0-9]{36}`,
	`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`,
	`hf_[A-Za-z]{34}`,
	`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
	`shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`,
	`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
}, "|") + `)\b` +
	`|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}`)

// userinfo matches the user and password of a URL; group 1 is the
// password.
var userinfo = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@"'` + "`" + `]+:([^\s/@"'` + "`" + `]+)@`)

// pemBegin and pemEnd match the first and last lines of a PEM block that
// holds a private key.
var (
	pemBegin = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
)

// Line returns line with its secret parts replaced by Marker, and whether
// it replaced any. A private key block that line holds whole (as a string
// with "\n" escapes) loses its body; for a block that spans lines, use
// Lines.
func Line(line string) (string, bool) {
	var spans []span
	if hasTrigger(line) {
		for _, m := range tokens.FindAllStringIndex(line, -1) {
			spans = append(spans, span{m[0], m[1]})
		}
		if b := pemBegin.FindStringIndex(line); b != nil {
			end := len(line)
			e := pemEnd.FindStringIndex(line[b[1]:])
			if e != nil {
				end = b[1] + e[0]
			}
			// A block without its END line on this line is redacted as far
			// as the line holds only key material.
			if s, ok := trimEscapes(line, b[1], end); ok && (e != nil || keyText(line[s.start:s.end])) {
				spans = append(spans, s)
			}
		}
	}
	if strings.Contains(line, "://") {
		for _, m := range userinfo.FindAllStringSubmatchIndex(line, -1) {
			if !placeholder(line[m[2]:m[3]]) {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	if strings.ContainsAny(line, "=:") {
		spans = append(spans, assignments(line)...)
	}
	if len(spans) == 0 {
		return line, false
	}
	out := replace(line, spans)
	return out, out != line
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

// triggers are the beginnings of the token forms and of a private key
// block, by their first byte: most lines of code hold none and need no
// regular expression.
var triggers = [256][]string{
	'A': {"AKIA", "ASIA", "ABIA", "ACCA", "AIza"},
	'S': {"SG."},
	'g': {"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glptt-"},
	'x': {"xox", "xapp-"},
	's': {"sk_", "sk-", "shp"},
	'r': {"rk_"},
	'n': {"npm_"},
	'p': {"pypi-"},
	'h': {"hf_", "hooks.slack.com"},
	'e': {"eyJ"},
	'-': {"-----BEGIN"},
}

// hasTrigger reports whether line holds one of the triggers.
func hasTrigger(line string) bool {
	for i := 0; i < len(line); i++ {
		for _, t := range triggers[line[i]] {
			if strings.HasPrefix(line[i:], t) {
				return true
			}
		}
	}
	return false
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
