package tags

import (
	"context"
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
