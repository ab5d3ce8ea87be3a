package eval

import "testing"

func TestWithoutTrailers(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"co-author", "Clarified error when header value is None (#3312)\n\nCo-authored-by: Zanie Blue <contact@zanie.dev>\n",
			"Clarified error when header value is None (#3312)\n"},
		{"several", "Fix the parser\n\nIt read past the end.\n\nSigned-off-by: A <a@example.com>\nReviewed-by: B <b@example.com>\n",
			"Fix the parser\n\nIt read past the end.\n"},
		{"continued", "Fix it\n\nCo-authored-by: A\n  <a@example.com>\n", "Fix it\n"},
		// A subject alone is never taken for a trailer.
		{"subject", "Fixes: the parser\n", "Fixes: the parser\n"},
		// A last paragraph of prose stays, as does one with a line that is not a trailer.
		{"prose", "Fix it\n\nThe reader stops at EOF now.\n", "Fix it\n\nThe reader stops at EOF now.\n"},
		{"mixed", "Fix it\n\nSee the issue for why.\nCloses: #12\n", "Fix it\n\nSee the issue for why.\nCloses: #12\n"},
		{"spaced token", "Fix it\n\nNote that: it works\n", "Fix it\n\nNote that: it works\n"},
	} {
		if got := withoutTrailers(tc.in); got != tc.want {
			t.Errorf("%s: withoutTrailers(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
