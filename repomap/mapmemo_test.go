package repomap

import (
	"crypto/sha256"
	"log/slog"
	"reflect"
	"testing"

	"github.com/repomap-dev/repomap/internal/fit"
	"github.com/repomap-dev/repomap/internal/index"
	"github.com/repomap-dev/repomap/internal/items"
)

// TestMemoKeyOptions checks that every field of Options that is not
// tagged json:"-" changes the key of a kept map, and that the others do
// not: an option added later is in the key unless it says it cannot
// change a map. The ranking's key leaves out the budget alone.
func TestMemoKeyOptions(t *testing.T) {
	m, err := New(t.TempDir(), &Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	req := Request{Text: "x"}
	base, baseRank := m.memoKey(req), m.rankMemoKey(req)
	def := m.opts
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		m.opts = def
		v := reflect.ValueOf(&m.opts).Elem().Field(i)
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 7)
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		case reflect.Pointer:
			if f.Type == reflect.TypeFor[*slog.Logger]() {
				v.Set(reflect.ValueOf(slog.Default()))
			} else {
				v.Set(reflect.New(f.Type.Elem())) // a zero policy, not the default one
			}
		case reflect.Func:
			v.Set(reflect.MakeFunc(f.Type, func([]reflect.Value) []reflect.Value { return nil }))
		default:
			t.Fatalf("Options.%s: a field of kind %s the test cannot change", f.Name, v.Kind())
		}
		key, rank := m.memoKey(req), m.rankMemoKey(req)
		inKey := f.Tag.Get("json") != "-"
		budget := f.Name == "MaxTokens" || f.Name == "ContextWindow"
		if (key != base) != inKey {
			t.Errorf("Options.%s changed: the map's key changed %t, want %t", f.Name, key != base, inKey)
		}
		if want := inKey && !budget; (rank != baseRank) != want {
			t.Errorf("Options.%s changed: the ranking's key changed %t, want %t", f.Name, rank != baseRank, want)
		}
	}
}

// TestKeptRankingRoundTrip: a ranking kept in the disk cache reads back
// as it was written: its items, their scores, their files' ranks, the
// order of the files, and the lines of interest of the items that have
// them.
func TestKeptRankingRoundTrip(t *testing.T) {
	files := []index.File{{Path: "a.py"}, {Path: "b.py"}, {Path: "c.py"}}
	place := map[string]int{"a.py": 0, "b.py": 1, "c.py": 2}
	made := []fit.Item{{Path: "b.py", Name: "Point.distance", Score: 2.5, Lines: []int{4, 19}}, {Path: "a.py", Name: "f", Score: 1}, {Path: "b.py", Score: 0.5}}
	rk := &ranked{list: items.Fixed(made), ranks: map[string]float64{"a.py": 0.25, "b.py": 0.5}, size: graphSize{nodes: 3, links: 2, defs: 4, refs: 5}, iters: 7}
	key, tree := sha256.Sum256([]byte("key")), sha256.Sum256([]byte("tree"))
	b, err := encodeRanking(key, tree, []string{"b.py", "a.py", "c.py"}, rk, place)
	if err != nil {
		t.Fatal(err)
	}
	k := readRanking(b, key)
	if k == nil {
		t.Fatal("the kept ranking does not read back")
	}
	got := k.ranked(nil, files, 3, nil)
	if got == nil {
		t.Fatal("the kept ranking is not one of the tree")
	}
	if !reflect.DeepEqual(got.list.Made(), made) || !reflect.DeepEqual(got.ranks, rk.ranks) || got.size != rk.size || got.iters != rk.iters ||
		!reflect.DeepEqual(got.order, []string{"b.py", "a.py", "c.py"}) {
		t.Errorf("read back %+v (ranks %v, size %+v, iters %d, order %v), want %+v (ranks %v)", got.list.Made(), got.ranks, got.size, got.iters, got.order, made, rk.ranks)
	}
	if readRanking(b[:len(b)-1], key) != nil {
		t.Error("a kept ranking cut short reads back")
	}
}
