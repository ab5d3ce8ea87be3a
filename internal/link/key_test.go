package link

import "testing"

// TestKeyOf checks that the bytes the link stage looks keys up by are
// the keys NameKey makes.
func TestKeyOf(t *testing.T) {
	var lk Linker
	for _, name := range []string{"Run", "", "a.b"} {
		for _, scope := range []string{"", FallbackScope, DocScope, "go:pkg"} {
			for _, fam := range []string{"", "js", "jvm"} {
				if got, want := string(lk.keyOf(name, scope, fam)), NameKey(name, scope, fam); got != want {
					t.Errorf("keyOf(%q, %q, %q) = %q, want %q", name, scope, fam, got, want)
				}
			}
		}
	}
}

// TestClassOf checks the class of a key of each form of the grammar.
func TestClassOf(t *testing.T) {
	for key, want := range map[string]Class{
		"Run":                       Resolved,
		"Run\x00go:example.com/p":   Resolved,
		"run\x00go:example.com/p":   Private,
		"run\x00py:a/b.py":          Resolved,
		"Run\x00~":                  Fallback,
		"Run\x00~|web":              Fallback,
		"Run\x00~names":             Names,
		"Run\x00~doc":               Doc,
		"Run\x00~doc|jvm":           Doc,
		"Run\x00|web":               Resolved,
		"Close\x00go.member:3":      Candidates,
		"close\x00go.member:3":      Candidates,
		"ünicode\x00go:example.com": Resolved,
	} {
		if got := ClassOf(key); got != want {
			t.Errorf("ClassOf(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestQualIdent(t *testing.T) {
	for in, want := range map[string]string{"Point": "Point", "p Point": "Point", "*Point": "Point", "p *Point": "Point", "A.B": "B", "": "", "Vec float64": "float64", "x)": "x"} {
		if got := QualIdent(in); got != want {
			t.Errorf("QualIdent(%q) = %q, want %q", in, got, want)
		}
	}
}
