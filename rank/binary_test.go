package rank

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sameIndex compares indexes field by field, an empty slice equal to a
// nil one, but for what the binary form does not keep: the references
// to keys no file defines, which only Update reads.
var sameIndex = []cmp.Option{cmp.AllowUnexported(Index{}), cmpopts.IgnoreFields(Index{}, "outside", "selfRefs", "kw"), cmpopts.EquateEmpty()}

// TestIndexRanksAsRank checks that an Index, made once and ranked for
// each query of the same files, gives what Rank gives for those queries,
// and that its binary form read back does too.
func TestIndexRanksAsRank(t *testing.T) {
	for name, in := range linkInputs() {
		t.Run(name, func(t *testing.T) {
			want := Rank(in)
			x := NewIndex(in.Files)
			if got := x.Rank(in); !reflect.DeepEqual(got, want) {
				t.Fatalf("Index.Rank differs from Rank:\n got %+v\nwant %+v", got, want)
			}
			data, err := x.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			var y Index
			if err := y.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(x, &y, sameIndex...); diff != "" {
				t.Fatalf("read back, the index differs (-want +got):\n%s", diff)
			}
			if got := y.Rank(in); !reflect.DeepEqual(got, want) {
				t.Fatalf("read back, the ranking differs:\n got %+v\nwant %+v", got, want)
			}
			// Another query of the same index: no focus, other weights.
			other := in
			other.Focus, other.MentionedIdents, other.Reverse = nil, []string{"Logger"}, 1
			other.Weights = Weights{LongIdent: 2}
			if got, want := y.Rank(other), Rank(other); !reflect.DeepEqual(got, want) {
				t.Fatalf("another query: got %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestIndexBinaryCompact checks that the binary form of a large index is
// smaller than its names and paths written out: numbers are differences
// and sorted strings share their prefixes.
func TestIndexBinaryCompact(t *testing.T) {
	in := synthetic(2000, 20000, 200000, 7)
	x := NewIndex(in.Files)
	data, err := x.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := 0
	for _, s := range x.names {
		raw += len(s)
	}
	for _, s := range x.paths {
		raw += len(s)
	}
	raw += 4 * (len(x.defFile) + 2*len(x.refIdent))
	if len(data) >= raw {
		t.Errorf("binary form %d bytes, not below the %d of its strings and numbers written out", len(data), raw)
	}
}

// TestIndexUnmarshalMalformed checks that data which is not an index, or
// an index cut short or changed, gives ErrMalformed and leaves the Index
// as it was.
func TestIndexUnmarshalMalformed(t *testing.T) {
	good, err := NewIndex(fixture().Files).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"empty":       nil,
		"other magic": []byte("rmix\x02"),
		"trailing":    append(bytes.Clone(good), 0),
	}
	for n := len(indexMagic); n < len(good); n++ {
		cases["cut at "+string(rune('0'+n%10))+"…"+string(rune('a'+n/10%26))] = good[:n]
	}
	// The second path shares no prefix and is empty: out of order.
	unordered := append([]byte(indexMagic), 2, 0, 1, 'b', 0, 1, 'a', 0, 0)
	cases["paths out of order"] = unordered
	for name, data := range cases {
		x := NewIndex(fixture().Files)
		before := *x
		err := x.UnmarshalBinary(data)
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		}
		if diff := cmp.Diff(&before, x, sameIndex...); diff != "" {
			t.Errorf("%s: the index changed", name)
		}
	}
}

// FuzzIndexUnmarshal checks that any data either reads as an index that
// ranks without panicking and writes back to the same bytes, or gives
// ErrMalformed.
func FuzzIndexUnmarshal(f *testing.F) {
	for _, in := range linkInputs() {
		data, _ := NewIndex(in.Files).AppendBinary(nil)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var x Index
		if err := x.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			return
		}
		again, err := x.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		var y Index
		if err := y.UnmarshalBinary(again); err != nil {
			t.Fatalf("written back, it does not read: %v", err)
		}
		if diff := cmp.Diff(&x, &y, sameIndex...); diff != "" {
			t.Fatalf("written back and read again, the index differs:\n%s", diff)
		}
		x.Rank(Input{Focus: x.paths, MentionedIdents: x.names, Reverse: 0.5})
	})
}
