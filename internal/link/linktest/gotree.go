package linktest

import (
	"maps"
	"testing/fstest"
)

// GoTree returns a module, example.com/app, with two packages that define
// the same names, a vendored copy of a third-party package, and uses of
// each kind: the tree of the tests of Go's rules and of the lookups that
// follow them.
func GoTree() fstest.MapFS { return maps.Clone(goTree) }

// goTree is a module, example.com/app, with two packages that define the
// same names, a vendored copy of a third-party package, and uses of each
// kind.
var goTree = fstest.MapFS{
	"a/a.go": {Data: []byte(`package a

import (
	"fmt"
	"example.com/app/b"
	. "example.com/app/c"
	lib "github.com/other/lib"
)

type T struct{ N int }

func (t *T) Close() error { return nil }

func New() *T {
	fmt.Println(len("x"))
	var s string
	_ = s
	lib.Do()
	Dotted()
	return &T{}
}

func use(t *T, f *File, s fmt.Stringer) {
	t.Close()
	f.Close()
	s.String()
	x := New()
	x.Close()
	b.New()
	helper()
}
`)},
	"a/helper.go": {Data: []byte("package a\n\nfunc helper() {}\n")},
	"b/b.go": {Data: []byte(`package b

func New() int { return 1 }

func helper() {}

func Println() {}

func len(s string) int { return 0 }

type S struct{}

func (S) String() string { return "" }
`)},
	"c/c.go":                           {Data: []byte("package c\n\nfunc Dotted() {}\n\ntype File struct{}\n\nfunc (f *File) Close() error { return nil }\n")},
	"vendor/github.com/other/lib/l.go": {Data: []byte("package lib\n\nfunc Do() {}\n")},
}
