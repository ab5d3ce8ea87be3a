package memo

import (
	"context"
	"fmt"

	"github.com/repomap-dev/repomap/cache"
)

// A Store keeps forms in the blobs of a disk cache: the forms of a kind
// in one blob, or, for a kind kept by request, in one of Slots blobs that
// the key chooses, so that the forms of a few requests are kept at once.
// A blob holds one form at a time; the frame tells whose (Kind.Open).
type Store struct{ c *cache.Cache }

// NewStore returns the Store of the disk cache c, nil when c is nil.
func NewStore(c *cache.Cache) *Store {
	if c == nil {
		return nil
	}
	return &Store{c}
}

// Slots is how many forms of a kind kept by request a Store keeps.
const Slots = 8

// blobs are where a Store keeps each kind: a blob's name, and for a kind
// kept by request, that it has Slots of them.
var blobs = map[Kind]struct {
	name      string
	byRequest bool
}{
	Map:     {"map", true},
	Ranking: {"ranking", true},
	Links:   {"link", false},
	Ranks:   {"overview-ranks", false},
}

// Blob returns the name of the blob that a form of kind k kept under key
// is in.
func (k Kind) Blob(key Key) string {
	b, ok := blobs[k]
	switch {
	case !ok:
		panic(fmt.Sprintf("memo: no blob for kind %q", string(k)))
	case b.byRequest:
		return fmt.Sprintf("%s/%d", b.name, key[0]%Slots)
	}
	return b.name
}

// A Want is a form to read: of kind Kind kept under Key.
type Want struct {
	Kind Kind
	Key  Key
}

// Get calls f with the blobs that hold the forms wanted, from one read of
// the disk cache, in their order, nil for a blob that holds nothing. A
// blob may hold the form of another key (Kind.Open tells); f must not
// keep them.
func (s *Store) Get(ctx context.Context, wants []Want, f func(blobs [][]byte) error) error {
	names := make([]string, len(wants))
	for i, w := range wants {
		names[i] = w.Kind.Blob(w.Key)
	}
	return s.c.ReadBlobs(ctx, names, f)
}

// A Form is a form to keep: Data, of kind Kind kept under Key, which
// starts with their frame (Kind.Frame).
type Form struct {
	Kind Kind
	Key  Key
	Data []byte
}

// Set keeps forms, in one write of the disk cache, each in place of what
// its blob held.
func (s *Store) Set(ctx context.Context, forms ...Form) error {
	names := make([]string, len(forms))
	data := make([][]byte, len(forms))
	for i, f := range forms {
		names[i], data[i] = f.Kind.Blob(f.Key), f.Data
	}
	return s.c.StoreBlobs(ctx, names, data)
}
