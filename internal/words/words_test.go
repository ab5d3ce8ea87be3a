package words

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"QuerySet.update", []string{"query", "set", "queryset", "update"}},
		{"parseHTTPRequest2", []string{"parse", "http", "request2", "parsehttprequest2"}},
		{"snake_case_name x", []string{"snake", "case", "name"}},
		{"a b HTTP", []string{"http"}},
		{"ÜberDatei größe", []string{"über", "datei", "überdatei", "größe"}},
		{"", nil},
	} {
		if got := Split(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// bagOf returns the bag of the hashes hs, which it sorts.
func bagOf(hs []uint32) Bag {
	slices.Sort(hs)
	b := Bag{Total: uint32(len(hs))}
	for i := 0; i < len(hs); {
		j := i + 1
		for j < len(hs) && hs[j] == hs[i] {
			j++
		}
		b.Hashes = append(b.Hashes, hs[i])
		b.Counts = append(b.Counts, uint32(j-i))
		i = j
	}
	return b
}

// count returns how often the word of hash h appears in b.
func count(b Bag, h uint32) uint32 {
	if i, ok := slices.BinarySearch(b.Hashes, h); ok {
		return b.Counts[i]
	}
	return 0
}

// decodeBag sets b from its binary form, through Each.
func decodeBag(b *Bag, data []byte) error {
	*b = Bag{}
	return Each(data, func(h, c uint32) {
		b.Hashes = append(b.Hashes, h)
		b.Counts = append(b.Counts, c)
		b.Total += c
	})
}

// bagOfSplit is the bag that Count must give: the hashes of Split's words.
func bagOfSplit(s string) Bag { return bagOf(splitHashes(s)) }

// splitHashes returns the hashes of Split's words of s, in order.
func splitHashes(s string) []uint32 {
	var hs []uint32
	for _, w := range Split(s) {
		hs = append(hs, Hash(w))
	}
	return hs
}

func TestAppendHashes(t *testing.T) {
	for _, s := range []string{"QuerySet.update", "ÜberDatei größe_ist", "x", ""} {
		if got, want := AppendHashes([]uint32{7}, s), append([]uint32{7}, splitHashes(s)...); !slices.Equal(got, want) {
			t.Errorf("AppendHashes(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCountAgreesWithSplit(t *testing.T) {
	for _, s := range []string{
		"func (m *Map) Render(ctx context.Context) error { return nil }",
		"raise ValueError(\"the hooks argument must be callable\")",
		"ÜberDatei größe_ist x9Y",
		"HTTPServer HTTP aB AB ABc a1B __init__",
		"trailingWord",
	} {
		got, want := Count([]byte(s)), bagOfSplit(s)
		if !slices.Equal(got.Hashes, want.Hashes) || !slices.Equal(got.Counts, want.Counts) || got.Total != want.Total {
			t.Errorf("Count(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestCountReusesRoom checks Count on texts of very different sizes in
// turn, as a map counts one file after another with the lists of the
// last: each bag is the text's own, and a bag given out does not change
// when the next text is counted.
func TestCountReusesRoom(t *testing.T) {
	var big strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&big, "word%d ", i%7000)
	}
	texts := []string{big.String(), "tiny text", big.String()[:5000], "", big.String(), "update update QuerySet"}
	var bags []Bag
	for _, s := range texts {
		bags = append(bags, Count([]byte(s)))
	}
	for i, s := range texts {
		want := bagOfSplit(s)
		if got := bags[i]; !slices.Equal(got.Hashes, want.Hashes) || !slices.Equal(got.Counts, want.Counts) || got.Total != want.Total {
			t.Errorf("text %d (%d bytes): %d hashes, total %d; want %d, %d", i, len(s), len(got.Hashes), got.Total, len(want.Hashes), want.Total)
		}
	}
}

func TestCountCounts(t *testing.T) {
	b := Count([]byte("update update QuerySet"))
	if got := count(b, Hash("update")); got != 2 {
		t.Errorf("Count(update) = %d, want 2", got)
	}
	if got := count(b, Hash("QUERYSET")); got != 1 {
		t.Errorf("Count(queryset) = %d, want 1", got)
	}
	if got := count(b, Hash("missing")); got != 0 {
		t.Errorf("Count(missing) = %d, want 0", got)
	}
	if b.Total != 5 {
		t.Errorf("Total = %d, want 5 (update twice, queryset, query, set)", b.Total)
	}
}

func TestBinaryRoundTrip(t *testing.T) {
	src := []byte("the hooks argument, the Hooks, HookSpec")
	b := Count(src)
	prefix := []byte("kept")
	data := AppendCount(prefix, src)
	if string(data[:len(prefix)]) != "kept" {
		t.Fatalf("AppendCount overwrote dst: %q", data[:len(prefix)])
	}
	data = data[len(prefix):]
	var got Bag
	if err := decodeBag(&got, data); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Hashes, b.Hashes) || !slices.Equal(got.Counts, b.Counts) || got.Total != b.Total {
		t.Errorf("round trip = %v, want %v", got, b)
	}
	for i := range data {
		if err := decodeBag(new(Bag), data[:i]); err == nil {
			t.Errorf("Each(prefix %d of %d) succeeded", i, len(data))
		}
	}
}

func FuzzCount(f *testing.F) {
	f.Add("parseHTTPRequest2 ÜberDatei")
	f.Fuzz(func(t *testing.T, s string) {
		got, want := Count([]byte(s)), bagOfSplit(s)
		if !slices.Equal(got.Hashes, want.Hashes) || !slices.Equal(got.Counts, want.Counts) {
			t.Fatalf("Count(%q) = %v, Split gives %v", s, got, want)
		}
		if hs := AppendHashes(nil, s); !slices.Equal(hs, splitHashes(s)) {
			t.Fatalf("AppendHashes(%q) = %v, Split gives %v", s, hs, splitHashes(s))
		}
		var back Bag
		if err := decodeBag(&back, AppendCount(nil, []byte(s))); err != nil ||
			!slices.Equal(back.Hashes, got.Hashes) || !slices.Equal(back.Counts, got.Counts) {
			t.Fatalf("round trip of %q: %v", s, err)
		}
		_ = decodeBag(new(Bag), []byte(s)) // malformed input: an error, never a panic
	})
}
