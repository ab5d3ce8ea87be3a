package tags

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
)

func TestKotlinMend(t *testing.T) {
	tests := []struct{ in, want string }{
		{
			"class A\nprivate constructor(b: Int)",
			"class A private\nconstructor(b: Int)",
		},
		{
			"  public class Builder\n  internal constructor(\n",
			"  public class Builder   internal\nconstructor(\n",
		},
		{
			"actual open class ByteString\r\ninternal actual constructor(",
			"actual open class ByteString  internal actual\nconstructor(",
		},
		{
			"class Holder<T : Comparable<T>>\n  private constructor(v: T)",
			"class Holder<T : Comparable<T>>   private\nconstructor(v: T)",
		},
		{
			"class A private\nconstructor()\nclass B\nprotected constructor()",
			"class A private\nconstructor()\nclass B protected\nconstructor()",
		},
		// Nothing to mend: on one line, no modifier, an annotation, a
		// secondary constructor, a comment's "*", another word, a blank
		// line between, no line before.
		{"class A private constructor(b: Int)", ""},
		{"class A\nconstructor(b: Int)", ""},
		{"class A\n@Inject constructor(b: Int)", ""},
		{"class A {\n  private constructor(b: Int)\n}", ""},
		{"/* the class A\n * private constructor */", ""},
		{"val klass = A::class\nprivate fun constructor()", ""},
		{"class A\nprivate constructors()", ""},
		{"class A\n\nprivate constructor()", ""},
		{"private constructor()", ""},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		in := []byte(tt.in)
		got := kotlinMend(in)
		if string(got) != want {
			t.Errorf("kotlinMend(%q) = %q, want %q", tt.in, got, want)
		}
		if tt.want == "" && &got[0] != &in[0] {
			t.Errorf("kotlinMend(%q) copied a source with nothing to mend", tt.in)
		}
		if string(in) != tt.in {
			t.Errorf("kotlinMend(%q) wrote to its input", tt.in)
		}
		checkMend(t, tt.in, got)
	}
}

// checkMend checks the promise of a mend: the same length, the same
// number of newlines, and the same bytes but for whitespace.
func checkMend(t *testing.T, in string, got []byte) {
	t.Helper()
	if len(got) != len(in) || bytes.Count(got, []byte("\n")) != strings.Count(in, "\n") {
		t.Errorf("mend(%q) = %q: length or newlines changed", in, got)
		return
	}
	for i := range got {
		if got[i] != in[i] && !(unicode.IsSpace(rune(got[i])) && unicode.IsSpace(rune(in[i]))) {
			t.Errorf("mend(%q) = %q: byte %d changed from %q to %q", in, got, i, in[i], got[i])
			return
		}
	}
}

// The mend keeps its promise on the Kotlin fixtures too, and leaves a
// file with nothing to mend as it is, not a copy.
func TestKotlinMendFixtures(t *testing.T) {
	for _, name := range []string{"testdata/lang/kotlin/FileSpec.kt", "testdata/lang/kotlin/OrderRepository.kt"} {
		src := []byte(mustRead(name))
		got := kotlinMend(src)
		checkMend(t, string(src), got)
		if changed := !bytes.Equal(got, src); changed != strings.HasSuffix(name, "FileSpec.kt") {
			t.Errorf("kotlinMend(%s) changed it: %v", name, changed)
		}
		if bytes.Equal(got, src) && &got[0] != &src[0] {
			t.Errorf("kotlinMend(%s) copied a file with nothing to mend", name)
		}
	}
}
