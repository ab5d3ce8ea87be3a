package tags

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func outline(t *testing.T, path, src string) *Outline {
	t.Helper()
	p := NewParser(nil)
	defer p.Close()
	o, err := p.Outline(context.Background(), path, []byte(src))
	if err != nil {
		t.Fatalf("Outline(%s): %v", path, err)
	}
	return o
}

func TestOutlineContext(t *testing.T) {
	const goSrc = `package p

type T struct {
	A int
	B int
}

func F() {
	x := 1
	_ = x
}

func (t *T) M(
	a int,
	b int,
) {
	if true {
		t.A = a
	}
}
`
	const pySrc = `class C:
    x = 1

    def m(self):
        return 1

    @staticmethod
    def s():
        pass
`
	for _, tc := range []struct {
		name, path, src string
		lois            []int
		want            []int
	}{
		// The struct and its field list start on row 2: the header is the
		// smaller, without its last row.
		{"struct", "p.go", goSrc, []int{2}, []int{2, 3, 4}},
		// A field shows with the struct's header around it.
		{"field", "p.go", goSrc, []int{3}, []int{2, 3, 4}},
		// A function and its block start on one row: a short body shows.
		{"short body", "p.go", goSrc, []int{7}, []int{7, 8, 9}},
		// A multi-line parameter list is the smallest scope of its row.
		{"signature", "p.go", goSrc, []int{12}, []int{12, 13, 14}},
		// A row inside nested scopes gets the header of each scope: the
		// signature of M, the row where its block starts, and the if
		// statement.
		{"nested", "p.go", goSrc, []int{17}, []int{12, 13, 14, 15, 16, 17}},
		// A scope that starts on row 0 shows no header: the module and the
		// class both start there.
		{"row 0", "c.py", pySrc, []int{3}, []int{1, 3}},
		// A decorated definition starts on the decorator's row.
		{"decorator", "c.py", pySrc, []int{7}, []int{1, 6, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := outline(t, tc.path, tc.src).Context(tc.lois)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Context(%v) mismatch (-want +got):\n%s", tc.lois, diff)
			}
		})
	}
}

func TestOutlineHeaderMax(t *testing.T) {
	// A function of 30 rows: its header stops after HeaderMax rows.
	src := "package p\n\nfunc Long() {\n" + strings.Repeat("\tprintln()\n", 30) + "}\n"
	got := outline(t, "p.go", src).Context([]int{2})
	if len(got) != HeaderMax || got[0] != 2 || got[len(got)-1] != 2+HeaderMax-1 {
		t.Errorf("Context(long function) = %v, want rows 2 to %d", got, 2+HeaderMax-1)
	}
}

func TestOutlineDeepNesting(t *testing.T) {
	// 100,000 nested brackets, one per line: no walk may recurse per level.
	const depth = 100000
	src := "x = " + strings.Repeat("[\n", depth) + strings.Repeat("]\n", depth)
	o := outline(t, "deep.py", src)
	got := o.Context([]int{depth / 2})
	if len(got) == 0 || got[len(got)-1] != depth/2 {
		t.Errorf("Context(deep) ends at %v, want it to end at row %d", got[len(got)-1:], depth/2)
	}
}

func TestOutlineCompact(t *testing.T) {
	const goSrc = `package p

// T is a type.
type T struct {
	A int
	B int
}

type I interface {
	M(
		a int,
	) error
}

func (t *T) M(
	a int,
	b int,
) error {
	if true {
		t.A = a
	}
	return nil
}
`
	const pySrc = `class C(
    Base,
):
    x = 1

    @staticmethod
    def s():
        # A comment first.
        pass

    def outer(self):
        def inner():
            pass
`
	const tsSrc = `@Component({
  selector: 'x',
})
export class W {
  f = (
    a: number,
  ) => {
    return a;
  };
}
`
	const cSrc = `typedef struct list {
	int len;
} list_t;

static int
count(const list_t *l)
{
	return l->len;
}
`
	const csSrc = `namespace N
{
    public class C
    {
        [Obsolete]
        public int F(int a,
                     int b)
        {
            return a;
        }
    }
}
`
	const swiftSrc = `final class Store {
    func add(
        item: String
    ) -> Int {
        return 1
    }
}
`
	const sqlSrc = `CREATE TABLE items (
    sku TEXT,
    qty INTEGER
);
`
	const erlSrc = `init([]) ->
    {ok,
     #{}}.
`
	for _, tc := range []struct {
		name, path, src string
		lois            []int
		want            []int
	}{
		// A struct is its header row; its doc comment is not shown.
		{"struct", "p.go", goSrc, []int{3}, []int{3}},
		// A field shows under its struct's header.
		{"field", "p.go", goSrc, []int{5}, []int{3, 5}},
		// An interface's method is all signature: shown whole.
		{"interface method", "p.go", goSrc, []int{9}, []int{8, 9, 10, 11}},
		// A multi-line signature shows whole, through the row where the
		// body opens; nothing of the body.
		{"signature", "p.go", goSrc, []int{14}, []int{14, 15, 16, 17}},
		// A row in a body shows with its function's signature alone: an
		// if statement is no declaration.
		{"in body", "p.go", goSrc, []int{19}, []int{14, 15, 16, 17, 19}},
		// A class header over several rows shows whole.
		{"class header", "c.py", pySrc, []int{0}, []int{0, 1, 2}},
		// A method shows its def row under the class header, without its
		// decorator or the comment that opens its body.
		{"method", "c.py", pySrc, []int{6}, []int{0, 1, 2, 6}},
		// A nested function shows under its function and its class.
		{"nested", "c.py", pySrc, []int{11}, []int{0, 1, 2, 10, 11}},
		// A multi-line class decorator is not the class's signature.
		{"decorator", "w.ts", tsSrc, []int{3}, []int{3}},
		// An arrow function field shows its parameters through the row
		// where its body opens, under its class.
		{"arrow", "w.ts", tsSrc, []int{4}, []int{3, 4, 5, 6}},
		// The name of a typedef struct is on its closing row: the struct's
		// header shows with it.
		{"typedef", "l.c", cSrc, []int{2}, []int{0, 2}},
		// A function's signature starts at its return type and ends before
		// a brace on its own row.
		{"allman", "l.c", cSrc, []int{5}, []int{4, 5}},
		// C#: an attribute is no part of the signature; the namespace and
		// the class are headers, without their brace rows.
		{"csharp", "c.cs", csSrc, []int{5}, []int{0, 2, 5, 6}},
		// The lexer tier: a Swift method's parameter list shows whole,
		// under its class, whose braces tell its body.
		{"swift", "s.swift", swiftSrc, []int{1}, []int{0, 1, 2, 3}},
		// An SQL table's parentheses hold its columns, not a signature.
		{"sql table", "s.sql", sqlSrc, []int{0}, []int{0}},
		// A brace that opens a value is no body.
		{"erlang", "e.erl", erlSrc, []int{0}, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := outline(t, tc.path, tc.src)
			if diff := cmp.Diff(tc.want, o.Compact(tc.lois)); diff != "" {
				t.Errorf("Compact(%v) mismatch (-want +got):\n%s", tc.lois, diff)
			}
			// The binary form gives the same rows back.
			b, err := o.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			var back Outline
			if err := back.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(o.Compact(tc.lois), back.Compact(tc.lois)); diff != "" {
				t.Errorf("decoded Compact(%v) mismatch (-want +got):\n%s", tc.lois, diff)
			}
		})
	}
}

func TestOutlineDocs(t *testing.T) {
	const goSrc = `package p

// T is a type.
// It has two lines.
type T struct {
	A int
}

type (
	// U is grouped.
	U int
)

// F does things.
func F() {
}
`
	const pySrc = `def f():
    """Does f.

    More.
    """
    return 1
`
	for _, tc := range []struct {
		name, path, src string
		lois            []int
		want            [][2]int
	}{
		{"go type", "p.go", goSrc, []int{4}, [][2]int{{2, 3}}},
		{"go group", "p.go", goSrc, []int{10}, [][2]int{{9, 9}}},
		{"go func", "p.go", goSrc, []int{14}, [][2]int{{13, 13}}},
		{"go field", "p.go", goSrc, []int{5}, nil},
		{"python docstring", "f.py", pySrc, []int{0}, [][2]int{{1, 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, outline(t, tc.path, tc.src).Docs(tc.lois)); diff != "" {
				t.Errorf("Docs(%v) mismatch (-want +got):\n%s", tc.lois, diff)
			}
		})
	}
}

// TestOutlineCompactCut checks that CompactCut shows a signature of more
// than cut+1 rows as its first rows and its last, and a shorter one
// whole, as Compact does.
func TestOutlineCompactCut(t *testing.T) {
	const src = `package p

func Long(
	a int,
	b int,
	c int,
	d int,
) error {
	return nil
}

func Short(
	a int,
) error {
	return nil
}
`
	o := outline(t, "p.go", src)
	for _, tc := range []struct {
		lois []int
		cut  int
		want []int
	}{
		{[]int{2}, 0, []int{2, 3, 4, 5, 6, 7}}, // no cut: whole
		{[]int{2}, 4, []int{2, 3, 4, 7}},       // six rows: three, then the last
		{[]int{2}, 5, []int{2, 3, 4, 5, 6, 7}}, // six rows, cut at five: whole, as a cut would hide one row
		{[]int{2}, 1, []int{2, 7}},             // the first row is the row of interest
		{[]int{11}, 4, []int{11, 12, 13}},      // three rows: whole
	} {
		if got := o.CompactCut(tc.lois, tc.cut); !slices.Equal(got, tc.want) {
			t.Errorf("CompactCut(%v, %d) = %v, want %v", tc.lois, tc.cut, got, tc.want)
		}
	}
	if got, want := o.CompactCut([]int{2, 11}, 0), o.Compact([]int{2, 11}); !slices.Equal(got, want) {
		t.Errorf("CompactCut(…, 0) = %v, Compact = %v", got, want)
	}
}
