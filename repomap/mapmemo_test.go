package repomap

import (
	"log/slog"
	"reflect"
	"testing"
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
