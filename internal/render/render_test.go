package render

import "testing"

func TestPathText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a/b.go", "a/b.go"},
		{"dir with space/x.py", "dir with space/x.py"},
		{"new\nline.go", `"new\nline.go"`},
		{"tab\there.go", `"tab\there.go"`},
		{"bad\xffutf8.go", `"bad\xffutf8.go"`},
		{" lead.go", `" lead.go"`},
		{`"quoted".go`, `"\"quoted\".go"`},
		{"colon:", `"colon:"`},
		{"ünïcode/ファイル.go", "ünïcode/ファイル.go"},
	} {
		if got := PathText(tc.in); got != tc.want {
			t.Errorf("PathText(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
