package redact

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A rule finds secrets in a line that holds one of its triggers: words
// that every match of the rule starts with or holds, at least three
// bytes long, found in any case. Most lines of code hold no trigger, and
// they cost one pass over their bytes.
type rule struct {
	triggers []string
	// re matches a secret; the secret is its group number group, or
	// when group is 0 its first group that took part in the match, or the
	// whole match when it has no group.
	re *regexp.Regexp
	// compile, when re is nil, returns it, made on first use.
	compile func() *regexp.Regexp
	group   int
	// entropy is the least Shannon entropy of a secret, in bits per
	// byte; 0 for any.
	entropy float64
	// valid, when not nil, tells a secret from what only looks like one.
	valid func(v string) bool
	// find, when not nil, is used instead of re: it appends the spans of
	// the secrets of line to out.
	find func(line string, out []span) []span
}

// spans appends the spans of the secrets r finds in line to out.
func (r *rule) spans(line string, out []span) []span {
	if r.find != nil {
		return r.find(line, out)
	}
	re := r.re
	if re == nil {
		re = r.compile()
	}
	for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
		s := span{m[0], m[1]}
		if r.group > 0 {
			s = span{m[2*r.group], m[2*r.group+1]}
		} else {
			for g := 2; g < len(m); g += 2 {
				if m[g] >= 0 && m[g+1] > m[g] {
					s = span{m[g], m[g+1]}
					break
				}
			}
		}
		if s.start < 0 || s.end <= s.start {
			continue
		}
		v := line[s.start:s.end]
		if (r.entropy == 0 || entropy(v) >= r.entropy) && (r.valid == nil || r.valid(v)) {
			out = append(out, s)
		}
	}
	return out
}

// ruleSet is a list of rules with an index of their triggers.
type ruleSet struct {
	rules []rule
	// seen has bit hash3(t) set for the first three bytes of each trigger
	// t, and byHash lists the triggers of each such hash.
	seen   [1 << 16 / 64]uint64
	byHash map[uint16][]trigger
}

// trigger is a trigger of rule number rule, in lower case.
type trigger struct {
	text string
	rule int
}

// maxRules is how many rules a ruleSet may hold: a line marks the rules
// it triggers in an array of this many bits.
const maxRules = 256

// newRuleSet returns the set of rules; it panics on a trigger shorter
// than three bytes or not ASCII, or on too many rules, which are errors
// of the program.
func newRuleSet(rules []rule) *ruleSet {
	if len(rules) > maxRules {
		panic(fmt.Sprintf("redact: %d rules, at most %d", len(rules), maxRules))
	}
	s := &ruleSet{rules: rules, byHash: make(map[uint16][]trigger)}
	for i, r := range rules {
		for _, t := range r.triggers {
			if len(t) < 3 || strings.ContainsFunc(t, func(c rune) bool { return c >= 0x80 }) {
				panic(fmt.Sprintf("redact: trigger %q is not three ASCII bytes or more", t))
			}
			t = strings.ToLower(t)
			h := hash3(t[0], t[1], t[2])
			s.seen[h/64] |= 1 << (h % 64)
			s.byHash[h] = append(s.byHash[h], trigger{t, i})
		}
	}
	return s
}

// scanned is what one pass over a line found.
type scanned struct {
	fired    [maxRules / 64]uint64 // the rules whose triggers it holds
	any      bool                  // whether it holds any
	operator bool                  // whether it holds "=" or ":", as assignments do
	url      bool                  // whether it holds "://"
}

// scan reads line once, for the rules it triggers and the operators it
// holds.
func (s *ruleSet) scan(line string) scanned {
	var sc scanned
	for i := 0; i < len(line); i++ {
		if c := line[i]; c == '=' || c == ':' {
			sc.operator = true
			sc.url = sc.url || c == ':' && strings.HasPrefix(line[i+1:], "//")
		}
		if i+3 > len(line) {
			continue
		}
		h := hash3(line[i], line[i+1], line[i+2])
		if s.seen[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, t := range s.byHash[h] {
			if len(line)-i >= len(t.text) && equalFoldASCII(line[i:i+len(t.text)], t.text) {
				sc.fired[t.rule/64] |= 1 << (t.rule % 64)
				sc.any = true
			}
		}
	}
	return sc
}

// spans appends to out the spans of the secrets that the rules sc says
// line triggers find in it.
func (s *ruleSet) spans(line string, sc *scanned, out []span) []span {
	if !sc.any {
		return out
	}
	for i := range s.rules {
		if sc.fired[i/64]&(1<<(i%64)) != 0 {
			out = s.rules[i].spans(line, out)
		}
	}
	return out
}

// lower maps each byte to its ASCII lower case.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// hash3 hashes three bytes, in any case, to 16 bits.
func hash3(a, b, c byte) uint16 {
	return uint16((uint32(lower[a])<<16 | uint32(lower[b])<<8 | uint32(lower[c])) * 0x9E3779B1 >> 16)
}

// equalFoldASCII reports whether s, in any case, is t, in lower case.
func equalFoldASCII(s, t string) bool {
	for i := 0; i < len(t); i++ {
		if lower[s[i]] != t[i] {
			return false
		}
	}
	return true
}

// allRules is the set of every rule, made on first use.
var allRules = sync.OnceValue(func() *ruleSet {
	gl, err := gitleaksRules()
	if err != nil {
		panic(err) // the data is part of the program, and its test reads it
	}
	return newRuleSet(slices.Concat(tokenRules(), gl, formRules()))
})
