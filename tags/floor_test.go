package tags

import (
	"context"
	"errors"
	"testing"
)

func TestFloor(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	src := []byte("package p\n\nimport \"fmt\"\n\n// T is a type.\ntype T struct{ n int }\n\nfunc (t T) Show() { fmt.Println(t.n) }\n")
	tags, err := p.Parse(context.Background(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	n, err := p.Floor(context.Background(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	// Every tag is a capture; a node several patterns capture is one tag.
	if n < len(tags) || len(tags) == 0 {
		t.Errorf("Floor(p.go) = %d captures, want at least the %d tags of Parse", n, len(tags))
	}
	if _, err := p.Floor(context.Background(), "lib.ex", []byte("defmodule A do\nend\n")); !errors.Is(err, ErrNoGrammar) {
		t.Errorf("Floor(lib.ex) error = %v, want ErrNoGrammar", err)
	}
	if _, err := p.Floor(context.Background(), "a.unknownext", []byte("x")); !errors.Is(err, ErrUnsupportedLanguage) {
		t.Errorf("Floor(a.unknownext) error = %v, want ErrUnsupportedLanguage", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Floor(ctx, "p.go", src); !errors.Is(err, context.Canceled) {
		t.Errorf("Floor(cancelled) error = %v, want context.Canceled", err)
	}
	p.Close()
	if _, err := p.Floor(context.Background(), "p.go", src); err == nil {
		t.Errorf("Floor on a closed parser: no error")
	}
}
