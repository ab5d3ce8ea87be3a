package index

import (
	"testing"
	"time"
)

// TestSkipForm: every kind of reason reads back from the form the disk
// cache keeps as it was written, and the text forms of earlier versions,
// or bytes that are no reason, do not read: their files are parsed again.
func TestSkipForm(t *testing.T) {
	for _, s := range []Skip{
		{},
		{Kind: SkipVendored},
		{Kind: SkipLarge, Limit: 1 << 20},
		{Kind: SkipBinary},
		{Kind: SkipUnreadable, Err: "permission denied"},
		{Kind: SkipSymlink},
		{Kind: SkipIrregular},
		{Kind: SkipChanged},
		{Kind: SkipParse, Err: "tags: query: bad node"},
		{Kind: SkipTimedOut, Timeout: 5 * time.Second},
		{Kind: SkipClash},
	} {
		got, ok := decodeSkip(s.encode())
		if !ok || got != s {
			t.Errorf("decodeSkip(encode(%+v)) = %+v, %v", s, got, ok)
		}
		if s.Kind != NotSkipped && (s.String() == "" || s.Kind.String() == "") {
			t.Errorf("%+v: no words for it", s)
		}
	}
	for _, bad := range []string{"larger than 1048576 bytes", "binary", "parse: x", "\x00", "\x02", "\x02ten", "\x03x", "\x7f"} {
		if got, ok := decodeSkip(bad); ok {
			t.Errorf("decodeSkip(%q) = %+v, want no reason", bad, got)
		}
	}
	if got := (Skip{Kind: SkipLarge, Limit: 1000}).String(); got != "larger than 1000 bytes" {
		t.Errorf("the reason of a file too large = %q", got)
	}
}
