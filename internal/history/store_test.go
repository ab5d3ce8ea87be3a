package history

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncodeDecode(t *testing.T) {
	h := sample()
	got, err := Decode(h.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(h, got, cmp.AllowUnexported(History{})); diff != "" {
		t.Errorf("Decode(Encode(h)) (-h +got):\n%s", diff)
	}
	v1 := append([]byte("rmhist\x01"), h.Encode()[len(magic):]...) // the form before messages
	for _, bad := range [][]byte{nil, []byte("rmhist\x02"), v1, h.Encode()[:len(h.Encode())-1], append(h.Encode(), 0)} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q): no error", bad)
		}
	}
}

// FuzzDecode checks that no bytes make Decode panic, and that what it
// reads is a well-formed history that encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add(sample().Encode())
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Decode(data)
		if err != nil {
			return
		}
		if err := h.check(); err != nil {
			t.Fatalf("Decode gave a history that does not check: %v", err)
		}
		_ = NewView(Part{History: h}).CoChanged(map[string]float64{"src/a.go": 1}, 1)
	})
}
