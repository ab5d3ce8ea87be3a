package redact

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// gitleaksData holds token patterns of gitleaks' default configuration,
// under the MIT licence; its header says which and how.
//
//go:embed gitleaks.tsv
var gitleaksData string

// gitleaksTriggers are the triggers of the rules whose keywords are
// shorter than three bytes, a rule's triggers being its keywords
// otherwise. Each holds a keyword, and narrows it by what the rule's
// pattern has beside it.
var gitleaksTriggers = map[string][]string{
	// ey[a-zA-Z0-9]{17,}\.ey…: the base64 of a JSON object, {"…, starts eyJ.
	"jwt": {"eyJ"},
	// SK[0-9a-fA-F]{32}
	"twilio-api-key": {"SK0", "SK1", "SK2", "SK3", "SK4", "SK5", "SK6", "SK7", "SK8", "SK9", "SKa", "SKb", "SKc", "SKd", "SKe", "SKf"},
	// hvs\.… or s\.…: the second, legacy form matches receivers' calls of
	// methods (s.someMethodName) where no hvs. token stands beside them.
	"vault-service-token": {"hvs."},
	// [a-zA-Z0-9_~.]{3}\dQ~…
	"azure-ad-client-secret": {"0Q~", "1Q~", "2Q~", "3Q~", "4Q~", "5Q~", "6Q~", "7Q~", "8Q~", "9Q~"},
}

// gitleaksRules returns the rules of gitleaksData. A rule applies to a
// line that holds one of its keywords, in any case, where gitleaks looks
// for them in the whole file.
func gitleaksRules() ([]rule, error) {
	var rules []rule
	for n, line := range strings.Split(gitleaksData, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("gitleaks.tsv:%d: %d fields, want 5", n+1, len(f))
		}
		group, err1 := strconv.Atoi(f[1])
		e, err2 := strconv.ParseFloat(f[2], 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("gitleaks.tsv:%d: rule %s: %w", n+1, f[0], err)
		}
		triggers, ok := gitleaksTriggers[f[0]]
		if !ok {
			triggers = strings.Split(f[3], ",")
		}
		// Compiled when a line first holds a trigger: most rules never
		// meet one, and compiling them all took a tenth of a warm map.
		// TestGitleaksRules compiles each, and checks its group.
		pattern := f[4]
		compile := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
		rules = append(rules, rule{triggers: triggers, compile: compile, group: group, entropy: e})
	}
	return rules, nil
}
