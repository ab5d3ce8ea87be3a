package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// formRules returns the rules of credentials that commands, headers,
// SQL, XML and other formats write without an assignment to a secret
// name.
func formRules() []rule {
	re := regexp.MustCompile
	notPlaceholder := func(v string) bool { return !placeholder(v) }
	return []rule{
		// Authorization: Bearer …, Basic …, Token …
		{
			triggers: []string{"bearer", "authorization"},
			re:       re(`(?i)\b(?:Bearer|Basic|Token)[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`),
			valid:    func(v string) bool { return notPlaceholder(v) && hasLetterAndDigit(v) },
		},
		// curl -u user:password, --user=user:password.
		{
			triggers: []string{"curl", "--user"},
			re:       re(`(?:^|[\s"'])(?:-u|--user)(?:=|[ \t]+)["']?[^\s:"']*:([^\s"']+)`),
			valid:    notPlaceholder,
		},
		// mysql -pPASSWORD (and mysqldump, mysqladmin).
		{triggers: []string{"mysql"}, re: re(`(?:^|\s)-p([^\s"']+)`), valid: notPlaceholder},
		// --password PASSWORD, --pass PASSWORD.
		{triggers: []string{"--pass"}, re: re(`--pass(?:word)?[ \t]+([^\s"'-][^\s"']*)`), valid: notPlaceholder},
		// .netrc: machine HOST login USER password PASSWORD, on one line.
		{
			triggers: []string{"password"},
			re:       re(`(?i)\b(?:machine[ \t]+\S+|default)[ \t]+login[ \t]+\S+[ \t]+password[ \t]+([^\s"'` + "`" + `]+)`),
			valid:    notPlaceholder,
		},
		// .netrc, a field on its own line: password PASSWORD.
		{
			triggers: []string{"password", "passwd"},
			re:       re(`^[ \t]*(?:password|passwd)[ \t]+([^\s\[\](){}<>*]+)[ \t]*$`),
			valid: func(v string) bool {
				return notPlaceholder(v) && strings.ContainsFunc(v, func(c rune) bool { return !unicode.IsLower(c) })
			},
		},
		// SQL: PASSWORD 'x', IDENTIFIED BY 'x'.
		{triggers: []string{"password", "identified"}, find: sqlSpans},
		// PowerShell: ConvertTo-SecureString "x".
		{
			triggers: []string{"ConvertTo-SecureString"},
			re:       re(`(?i)ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?:"([^"]*)"|'([^']*)')`),
			valid:    notPlaceholder,
		},
		// Go's database/sql DSN: user:password@tcp(host).
		{
			triggers: []string{"@tcp(", "@udp(", "@unix("},
			re:       re(`[^\s:@/"'` + "`" + `(]+:([^\s:@/"'` + "`" + `]+)@(?:tcp|udp|unix)\(`),
			valid:    notPlaceholder,
		},
		// Prose: the password is x.
		{
			triggers: []string{"password"},
			re:       re(`(?i)\bpassword[ \t]+is[ \t]+["']?([A-Za-z0-9!#$%&*+=?@^_~.-]*[A-Za-z0-9])`),
			valid:    func(v string) bool { return len(v) >= 6 && hasLetterAndDigit(v) && notPlaceholder(v) },
		},
		// C: #define NAME "value".
		{triggers: []string{"define"}, find: defineSpans},
		// XML: <password>x</password>.
		{triggers: []string{"pass", "pwd", "secret", "token", "key>", "auth", "cred"}, find: elementSpans},
		// XML: <add key="ApiKey" value="x" />.
		{triggers: []string{"value="}, find: keyValueSpans},
	}
}

var (
	sqlPassword = regexp.MustCompile(`(?i)\b(?:PASSWORD|IDENTIFIED[ \t]+BY)[ \t]+(?:'([^']*)'|"([^"]*)")`)
	sqlAccount  = regexp.MustCompile(`(?i)\b(?:USER|LOGIN|ROLE|GRANT)\b`)
)

// sqlSpans appends the spans of the passwords of a SQL statement that
// makes or changes an account.
func sqlSpans(line string, out []span) []span {
	if !sqlAccount.MatchString(line) {
		return out
	}
	for _, m := range sqlPassword.FindAllStringSubmatchIndex(line, -1) {
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 && !placeholder(line[m[g]:m[g+1]]) {
				out = append(out, span{m[g], m[g+1]})
			}
		}
	}
	return out
}

// hasLetterAndDigit reports whether v holds a letter and a digit.
func hasLetterAndDigit(v string) bool {
	return strings.ContainsFunc(v, unicode.IsLetter) && strings.ContainsFunc(v, unicode.IsDigit)
}

var (
	define   = regexp.MustCompile(`^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
	element  = regexp.MustCompile(`<([A-Za-z_][\w.:-]*)(?:[ \t][^<>]*)?>[ \t]*([^<\s]+)[ \t]*</([A-Za-z_][\w.:-]*)>`)
	keyValue = regexp.MustCompile(`(?i)\bkey[ \t]*=[ \t]*"([^"]*)"[ \t]+value[ \t]*=[ \t]*"([^"]*)"`)
)

// named appends to out the span of group value of each match of re in
// line whose group name is a secret name that the value is a secret of.
func named(re *regexp.Regexp, line string, name int, value []int, same int, out []span) []span {
	for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
		n := line[m[2*name]:m[2*name+1]]
		if same > 0 && line[m[2*same]:m[2*same+1]] != n {
			continue
		}
		c := nameClass(n)
		if c == notSecret {
			continue
		}
		for _, g := range value {
			if m[2*g] >= 0 {
				if v := line[m[2*g]:m[2*g+1]]; secretValue(c, n, v) {
					out = append(out, span{m[2*g], m[2*g+1]})
				}
			}
		}
	}
	return out
}

// defineSpans appends the spans of the strings that C's #define gives to
// secret names.
func defineSpans(line string, out []span) []span {
	return named(define, line, 1, []int{2, 3}, 0, out)
}

// elementSpans appends the spans of the text of XML elements named like
// secrets, one word.
func elementSpans(line string, out []span) []span {
	if !strings.Contains(line, "</") {
		return out
	}
	return named(element, line, 1, []int{2}, 3, out)
}

// keyValueSpans appends the spans of the values of key="…" value="…"
// pairs whose key names a secret.
func keyValueSpans(line string, out []span) []span {
	return named(keyValue, line, 1, []int{2}, 0, out)
}

// pgpass matches a line of a .pgpass file, host:port:database:user:password;
// group 1 is the password.
// The database and the user are names or "*".
var pgpass = regexp.MustCompile(`(?:^|[\s"'` + "`" + `])[\w.*-]+:(?:\d{1,5}|\*):(?:[\w.-]*[A-Za-z_][\w.-]*|\*):(?:[\w.-]*[A-Za-z_][\w.-]*|\*):([^\s:"'` + "`" + `]+)(?:$|[\s"'` + "`" + `])`)

// pgpassSpans appends the span of the password of a .pgpass line.
func pgpassSpans(line string, out []span) []span {
	if strings.Count(line, ":") < 4 {
		return out
	}
	for _, m := range pgpass.FindAllStringSubmatchIndex(line, -1) {
		if !placeholder(line[m[2]:m[3]]) {
			out = append(out, span{m[2], m[3]})
		}
	}
	return out
}
