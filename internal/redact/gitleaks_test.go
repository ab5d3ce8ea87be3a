package redact

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"testing"
)

// TestGitleaksRules checks that each rule of gitleaks.tsv redacts a token
// of its form, made from its pattern, on a line that holds one of its
// triggers.
func TestGitleaksRules(t *testing.T) {
	rules, err := gitleaksRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 100 {
		t.Fatalf("gitleaks.tsv has %d rules, want more than 100", len(rules))
	}
	for _, line := range strings.Split(gitleaksData, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		id, keyword, pattern := f[0], strings.Split(f[3], ",")[0], f[4]
		re, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		sample(&b, re.Simplify())
		token := b.String()
		compiled, err := regexp.Compile(pattern)
		if err != nil {
			t.Errorf("rule %s: %v", id, err)
			continue
		}
		if group, _ := strconv.Atoi(f[1]); group > compiled.NumSubexp() {
			t.Errorf("rule %s: group %d of %d", id, group, compiled.NumSubexp())
		}
		if !compiled.MatchString(`"` + token + `"`) {
			t.Errorf("rule %s: the sample %q does not match its pattern", id, token)
			continue
		}
		if tr, ok := gitleaksTriggers[id]; ok {
			keyword = tr[0]
		}
		in := "x = 1 // " + keyword + `: "` + token + `"`
		if got, ok := Line(in); !ok || !strings.Contains(got, Marker) {
			t.Errorf("rule %s: Line(%q) = %q, %v; want the token redacted", id, in, got, ok)
		}
	}
}

// sample writes to b a short string that re matches, its characters
// taken in turn from each class, so that it has the entropy of a token.
func sample(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		var runes []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1] && len(runes) < 256; r++ {
				// Word characters, for the patterns that end at a
				// boundary.
				if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
					runes = append(runes, r)
				}
			}
		}
		if len(runes) == 0 {
			runes = append(runes, re.Rune[0])
		}
		b.WriteRune(runes[(b.Len()*7+3)%len(runes)])
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[b.Len()%36])
	case syntax.OpCapture:
		sample(b, re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			sample(b, s)
		}
	case syntax.OpAlternate:
		sample(b, re.Sub[0])
	case syntax.OpPlus:
		sample(b, re.Sub[0])
	case syntax.OpRepeat:
		for range re.Min {
			sample(b, re.Sub[0])
		}
	}
}
