package redact

import "testing"

func TestHoldsSecret(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		// Names that tokens and secrets make: keys, headings, labels,
		// classes.
		{"sk_live_4eC39HqLyjWDarjtT1zdp7dc", true},
		{"ghp_0123456789abcdefghijklmnopqrstuvwxyZ", true},
		{"AKIAZ3EXAMPLE7QWERTY", true},
		{"Token ghp_0123456789abcdefghijklmnopqrstuvwxyZ", true},
		{"glpat-Xq7LmN3pR8sT2vW9yZ4b", true},
		{"btn-xoxb-1234567890-abcdefghijKLMN", true},
		{"Password: QmZx81VbnT", true},
		{"Zq7XbN2mKc9RwT4vLp8sYd3GhJ6fQ1nW", true},
		{"9ZPRvXKu0auV9ORl9IEcrc7mveOm3JWw", true},
		// Names of code and documents.
		{"Render", false},
		{"TestServerHijackGetsBackgroundByte_big", false},
		{"OpConcatPermuteUint32x16", false},
		{"testInt32x8ConvertLoToUint32x4", false},
		{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", false},
		{"sha256WithRSAEncryption", false},
		{"X509KeyPair", false},
		{"Password: how to reset it", false},
		{"api_key", false},
		{"password", false},
		{"Installation", false},
		// Go's names that look most random.
		{"TestMergePPC64SldiSrw", false},
		{"http2got1xxFuncForTests", false},
		{"TestX86ifAVX512BWhasAVX512F", false},
		{"TestPinnerCgoCheckPtr2UnknownPtr", false},
		{"testInt32x8ConvertLoToUint32x4", false},
		{"rsh64Ux64ConstOverflow8", false},
	} {
		if got := HoldsSecret(tc.name); got != tc.want {
			t.Errorf("HoldsSecret(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tokens/ghp_0123456789abcdefghijklmnopqrstuvwxyZ.py", "tokens/<redacted>.py"},
		{"keys/AKIAZ3EXAMPLE7QWERTY/config.json", "keys/<redacted>/config.json"},
		{"repomap/map.go", "repomap/map.go"},
		{"docs/password.md", "docs/password.md"},
		{"hooks.slack.com/services/T00000000/B00000000/x.txt", "hooks.slack.com/services/T00000000/B00000000/x.txt"},
	} {
		if got := Path(tc.in); got != tc.want {
			t.Errorf("Path(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
