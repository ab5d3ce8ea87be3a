package memo

import (
	"context"
	"slices"
	"testing"

	"github.com/repomap-dev/repomap/cache"
)

// TestStore: a form of a kind kept by request goes to the slot its key
// chooses, so that another key's form in another slot stays; a kind kept
// once has one blob whatever the key; Get reads each wanted blob in
// order, nil where nothing is kept.
func TestStore(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		key  Key
		want string
	}{
		{Map, Key{3}, "map/3"},
		{Map, Key{11}, "map/3"},
		{Ranking, Key{7}, "ranking/7"},
		{Links, Key{9}, "link"},
		{Ranks, Key{}, "overview-ranks"},
	} {
		if got := c.kind.Blob(c.key); got != c.want {
			t.Errorf("%q.Blob(%d) = %q, want %q", string(c.kind), c.key[0], got, c.want)
		}
	}
	if NewStore(nil) != nil {
		t.Error("NewStore(nil) is not nil")
	}
	c, err := cache.New(t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(c)
	ctx := context.Background()
	a, b, other := Key{1}, Key{2}, Key{9} // a and other share slot 1
	form := func(k Kind, key Key, s string) Form { return Form{k, key, append(k.Frame(key), s...)} }
	if err := st.Set(ctx, form(Map, a, "map a"), form(Map, b, "map b"), form(Links, a, "links")); err != nil {
		t.Fatal(err)
	}
	if err := st.Set(ctx, form(Map, other, "map other")); err != nil {
		t.Fatal(err)
	}
	var got []string
	err = st.Get(ctx, []Want{{Map, a}, {Map, b}, {Links, other}, {Ranking, a}}, func(blobs [][]byte) error {
		for i, w := range []Want{{Map, a}, {Map, b}, {Links, a}, {Ranking, a}} {
			rest, _, ok := w.Kind.Open(blobs[i], w.Key, 0)
			got = append(got, map[bool]string{true: string(rest), false: "-"}[ok])
		}
		return nil
	})
	if want := []string{"-", "map b", "links", "-"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Get: %q, %v; want %q (a's map gave its slot to other's)", got, err, want)
	}
}
