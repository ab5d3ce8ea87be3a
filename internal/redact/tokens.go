package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// tokenRules returns the rules of the tokens whose form their issuer
// publishes, and of private keys.
func tokenRules() []rule {
	word := func(triggers []string, pattern string) rule {
		return rule{triggers: triggers, re: regexp.MustCompile(`\b(?:` + pattern + `)\b`)}
	}
	return []rule{
		word([]string{"AKIA", "ASIA", "ABIA", "ACCA"}, `(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`),
		word([]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, `gh[pousr]_[A-Za-z0-9]{36,255}`),
		word([]string{"github_pat_"}, `github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}`),
		word([]string{"glpat-", "gldt-", "glrt-", "glptt-"}, `gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}`),
		word([]string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"}, `xox[abposr]-[A-Za-z0-9-]{10,}`),
		word([]string{"xapp-"}, `xapp-\d-[A-Za-z0-9-]{10,}`),
		word([]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, `[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`),
		word([]string{"AIza"}, `AIza[A-Za-z0-9_-]{35}`),
		word([]string{"sk-"}, `sk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_-]{20,}`),
		word([]string{"npm_"}, `npm_[A-Za-z0-9]{36}`),
		word([]string{"pypi-AgEIcHlwaS5vcmc"}, `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`),
		word([]string{"hf_"}, `hf_[A-Za-z]{34}`),
		word([]string{"SG."}, `SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`),
		word([]string{"shpat_", "shpss_", "shpca_", "shppa_"}, `shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`),
		word([]string{"eyJ"}, `eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
		{triggers: []string{"hooks.slack.com"}, re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}`)},
		{triggers: []string{"-----BEGIN"}, find: pemSpans},
		// A PEM block in base64, as Kubernetes secrets and CI variables
		// hold them: "-----BEGIN " is LS0tLS1CRUdJTi.
		{triggers: []string{"LS0tLS1CRUdJTi"}, re: regexp.MustCompile(`LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}`), valid: privateBase64},
	}
}

// pemBegin and pemEnd match the first and last lines of a PEM block that
// holds a private key.
var (
	pemBegin = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
)

// pemSpans appends the span of the body of a private key block that line
// holds, as a string with "\n" escapes, to out.
func pemSpans(line string, out []span) []span {
	b := pemBegin.FindStringIndex(line)
	if b == nil {
		return out
	}
	end := len(line)
	e := pemEnd.FindStringIndex(line[b[1]:])
	if e != nil {
		end = b[1] + e[0]
	}
	// A block without its END line on this line is redacted as far as
	// the line holds only key material.
	if s, ok := trimEscapes(line, b[1], end); ok && (e != nil || keyText(line[s.start:s.end])) {
		out = append(out, s)
	}
	return out
}

// privateBase64 reports whether v, base64 text that starts a PEM block,
// starts that of a private key, or is too short to tell.
func privateBase64(v string) bool {
	n := min(len(strings.TrimRight(v, "=")), 96) / 4 * 4
	head, err := base64.StdEncoding.DecodeString(v[:n])
	if err != nil {
		return true
	}
	header, _, complete := strings.Cut(string(head[min(len(head), len("-----BEGIN ")):]), "-----")
	return !complete || strings.Contains(header, "PRIVATE KEY")
}
