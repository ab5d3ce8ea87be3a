package redact

import "strings"

// HoldsSecret reports whether name, a name that a file defines or uses
// (an identifier, a key of JSON, YAML or TOML, a Markdown heading, an HCL
// label, a CSS class), holds a credential: a part that Line would redact,
// read as a heading is ("Password: x" holds one, "Password: how to
// reset it" none), or the whole of it a random string of letters and
// digits, as the keys of a secrets file are. A credential is no useful
// name, and a name is shown whole wherever definitions are listed.
func HoldsSecret(name string) bool {
	line := name
	if hasOperator(name) {
		line = "# " + name
	}
	if _, changed := Line(line); changed {
		return true
	}
	return randomWord(name)
}

// Path returns the slash-separated path p with each segment that holds a
// credential redacted as Line redacts it (ghp_….py becomes
// <redacted>.py), and p itself when none does.
func Path(p string) string {
	if _, changed := Line(p); !changed {
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i], _ = Line(s)
	}
	return strings.Join(segs, "/")
}

// Bounds for a word to look random. A name of code is made of words:
// runs of lower-case letters, after a capital or not, three or more long
// with a vowel hold most of its letters (Test, Handshake, Client in
// TestHandshakeClientECDHERSAAES128CBCSHA256); a random string of letters
// and digits has few such runs, and seldom runs eight characters of a
// kind. Of random strings, four in five of 24 characters pass and nine
// in ten of 64; of the 11,057 names of 20 letters and digits or more that
// the Go standard library defines or uses, none.
const (
	minRandomLen       = 24
	maxRandomWordShare = 0.4 // of the letters
	maxRandomRun       = 8
	minRandomEntropy   = 3.8
)

// randomWord reports whether w is a random string of letters and digits,
// holding each of lower case, upper case and digits.
func randomWord(w string) bool {
	if len(w) < minRandomLen {
		return false
	}
	var n [4]int
	run := 0
	for i := 0; i < len(w); i++ {
		k := charKind(w[i])
		if k == 0 {
			return false
		}
		n[k]++
		if i > 0 && charKind(w[i-1]) != k {
			run = 0
		}
		if run++; run > maxRandomRun {
			return false
		}
	}
	return n[1] > 0 && n[2] > 0 && n[3] > 0 &&
		float64(wordLetters(w)) < maxRandomWordShare*float64(n[1]+n[2]) &&
		entropy(w) >= minRandomEntropy
}

// wordLetters returns how many letters of w are in words: runs of lower
// case, after a capital or not, of three letters or more that hold a
// vowel.
func wordLetters(w string) int {
	n := 0
	for i := 0; i < len(w); {
		start := i
		if isUpper(w[i]) && i+1 < len(w) && isLower(w[i+1]) {
			i++
		}
		if !isLower(w[i]) {
			i = start + 1
			continue
		}
		vowel := false
		for ; i < len(w) && isLower(w[i]); i++ {
			vowel = vowel || strings.IndexByte("aeiouy", w[i]) >= 0
		}
		if i-start >= 3 && (vowel || strings.IndexByte("AEIOUY", w[start]) >= 0) {
			n += i - start
		}
	}
	return n
}

// charKind returns 1 for a lower-case ASCII letter, 2 for an upper-case
// one, 3 for a digit, and 0 for any other byte.
func charKind(c byte) int {
	switch {
	case isLower(c):
		return 1
	case isUpper(c):
		return 2
	case '0' <= c && c <= '9':
		return 3
	}
	return 0
}
