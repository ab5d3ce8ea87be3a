package python_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/link/python"
	"github.com/repomap-dev/repomap/internal/policy"
)

// defaultLinks are the link settings of the default ranking.
var defaultLinks = policy.Default().Link

// pyTree is a src-layout package with a re-exporting __init__.py, a
// class hierarchy, tests that import a sibling helper, and a second
// module that defines the same names.
var pyTree = fstest.MapFS{
	"src/shop/__init__.py": {Data: []byte("from .models import Order\nfrom .util import *\n")},
	"src/shop/models.py": {Data: []byte(`from .base import Base


class Order(Base):
    def total(self):
        return self.price() + self.tax()

    def tax(self):
        return helper()

    def cancel(self):
        super().save()
        self.notify()


def helper():
    pass
`)},
	"src/shop/base.py": {Data: []byte(`class Base:
    def price(self):
        return 1

    def save(self):
        pass
`)},
	"src/shop/util.py": {Data: []byte("def fmt(x):\n    pass\n")},
	"src/shop/api.py": {Data: []byte(`import json
import shop.models as m
from shop import Order, fmt
from . import base


def run():
    o = Order()
    o.notify()
    m.helper()
    base.Base()
    fmt(json.dumps(1))
    len(o)
`)},
	"tests/helpers.py":  {Data: []byte("def make():\n    pass\n")},
	"tests/test_api.py": {Data: []byte("from shop.api import run\nfrom helpers import make\n\nrun()\nmake()\n")},
	"other/models.py": {Data: []byte(`class Order:
    def total(self):
        pass

    def price(self):
        pass

    def save(self):
        pass

    def notify(self):
        pass


def helper():
    pass


def len(x):
    pass


def dumps(x):
    pass
`)},
}

// pyWant are the cross-file edges of pyTree, checked by hand: what each
// name means when the code runs.
var pyWant = []string{
	"src/shop/__init__.py -> src/shop/models.py Order",
	"src/shop/api.py -> src/shop/base.py Base",
	"src/shop/api.py -> src/shop/models.py Order",
	"src/shop/api.py -> src/shop/models.py helper",
	"src/shop/api.py -> src/shop/util.py fmt",
	"src/shop/models.py -> src/shop/base.py Base",
	"src/shop/models.py -> src/shop/base.py price",
	"src/shop/models.py -> src/shop/base.py save",
	"tests/test_api.py -> src/shop/api.py run",
	"tests/test_api.py -> tests/helpers.py make",
}

func TestResolvePython(t *testing.T) {
	got := linktest.Edges(t, pyTree, defaultLinks)
	want := []string{
		"src/shop/__init__.py -> src/shop/models.py Order", // from .models import Order
		"src/shop/api.py -> other/models.py notify",        // o.notify(): a value's member falls back
		"src/shop/api.py -> src/shop/base.py Base",         // base.Base(): from . import base
		"src/shop/api.py -> src/shop/models.py Order",      // from shop import Order: re-exported by __init__
		"src/shop/api.py -> src/shop/models.py helper",     // m.helper(): import shop.models as m
		"src/shop/api.py -> src/shop/util.py fmt",          // fmt: a "*" import of __init__
		"src/shop/models.py -> other/models.py notify",     // self.notify(): no class of the tree defines it
		"src/shop/models.py -> src/shop/base.py Base",      // from .base import Base
		"src/shop/models.py -> src/shop/base.py price",     // self.price(): the base class
		"src/shop/models.py -> src/shop/base.py save",      // super().save()
		"tests/test_api.py -> src/shop/api.py run",         // the src root
		"tests/test_api.py -> tests/helpers.py make",       // a test's own directory
	}
	linktest.Same(t, got, want)
	// Never: self.price() or helper() to other/models.py, len or
	// json.dumps to the definitions of those names.
	aider := linktest.Edges(t, pyTree, link.Config{})
	for _, e := range []string{"src/shop/models.py -> other/models.py price", "src/shop/api.py -> other/models.py len"} {
		if !slices.Contains(aider, e) {
			t.Errorf("aider edges lack %q:\n%s", e, strings.Join(aider, "\n"))
		}
	}
	linktest.AboveNames(t, "pyTree", got, aider, pyWant)
}

// TestPytestFixtures checks ranking change fixtures: a test function's
// parameter links to the fixtures of its name, wherever they are, and to
// no other definition of the name; without the change, to nothing.
func TestPytestFixtures(t *testing.T) {
	tree := fstest.MapFS{
		"tests/conftest.py": {Data: []byte("import pytest\n\n\n@pytest.fixture\ndef db(tmp_path):\n    return tmp_path\n")},
		"tests/test_db.py":  {Data: []byte("def test_query(db):\n    pass\n\n\ndef helper(db):\n    pass\n")},
		"src/app/db.py":     {Data: []byte("def db():\n    pass\n")},
	}
	got := linktest.Edges(t, tree, resolveWith(func(c *link.Config) { c.Fixtures = true }))
	if want := []string{"tests/test_db.py -> tests/conftest.py db"}; !slices.Equal(got, want) {
		t.Errorf("edges with fixtures = %q, want %q", got, want)
	}
	if got := linktest.Edges(t, tree, resolveWith(nil)); len(got) != 0 {
		t.Errorf("edges without fixtures = %q, want none", got)
	}
}

// TestPythonExports checks ranking change exports: each name of a
// module's __all__ is a use of what the name means there (here, through
// a "*" import, which alone links nothing), and __all__ itself is not
// shown.
func TestPythonExports(t *testing.T) {
	tree := fstest.MapFS{
		"pkg/__init__.py": {Data: []byte("from .core import *\n\n__all__ = [\"run\", \"main\"]\n\n\ndef main():\n    pass\n")},
		"pkg/core.py":     {Data: []byte("def run():\n    pass\n\n\ndef stop():\n    pass\n")},
	}
	got := linktest.Edges(t, tree, resolveWith(func(c *link.Config) { c.Exports = true }))
	if want := []string{"pkg/__init__.py -> pkg/core.py run"}; !slices.Equal(got, want) {
		t.Errorf("edges with exports = %q, want %q", got, want)
	}
	if got := linktest.Edges(t, tree, resolveWith(nil)); len(got) != 0 {
		t.Errorf("edges without exports = %q, want none", got)
	}
	l := link.Link(linktest.Files(t, tree), resolveWith(func(c *link.Config) { c.Exports = true }))
	if h := l.Hidden["pkg/__init__.py"]; !slices.Contains(h, "__all__") {
		t.Errorf("hidden names of pkg/__init__.py with exports = %q, want __all__ among them", h)
	}
	if h := link.Link(linktest.Files(t, tree), resolveWith(nil)).Hidden["pkg/__init__.py"]; slices.Contains(h, "__all__") {
		t.Errorf("hidden names of pkg/__init__.py without exports = %q, want no __all__", h)
	}
}

// TestPythonHints checks ranking change hints: the names of a type
// annotation are uses of what they mean in the file (a class of a
// module imported from the tree; not typing's Optional, which is
// outside it), and so is a forward reference in a string; without the
// change, they link nothing (an import of a module alone links nothing).
func TestPythonHints(t *testing.T) {
	tree := fstest.MapFS{
		"app/__init__.py": {},
		"app/models.py":   {Data: []byte("class Request:\n    pass\n\n\nclass Response:\n    pass\n")},
		"app/client.py": {Data: []byte("from typing import Optional\n\nimport app.models as m\n\n\n" +
			"def send(request: Optional[m.Request]) -> \"Response\":\n    pass\n\n\nclass Response:\n    pass\n")},
		"app/server.py": {Data: []byte("from app.models import Response\n\n\ndef reply() -> \"Response\":\n    pass\n")},
	}
	want := []string{"app/client.py -> app/models.py Request", "app/server.py -> app/models.py Response"}
	if got := linktest.Edges(t, tree, resolveWith(func(c *link.Config) { c.Hints = true })); !slices.Equal(got, want) {
		t.Errorf("edges with hints = %q, want %q", got, want)
	}
	want = []string{"app/server.py -> app/models.py Response"} // the import
	if got := linktest.Edges(t, tree, resolveWith(nil)); !slices.Equal(got, want) {
		t.Errorf("edges without hints = %q, want %q", got, want)
	}
}

// resolveWith returns the link settings that resolve by the default
// rules, and nothing more, changed by change when it is not nil.
func resolveWith(change func(c *link.Config)) link.Config {
	c := link.Config{Resolve: true, Rules: langs.Default(), Fallback: policy.Default().Link.Fallback}
	if change != nil {
		change(&c)
	}
	return c
}

// typedTree defines get in two classes, and uses it on values of each:
// bound by a constructor call (plain and through a module), by an
// annotated parameter, and by self.a = F() in the class; on values of
// builtin and outside classes, literals too; and on values the bindings
// do not tell.
var typedTree = fstest.MapFS{
	"pkg/__init__.py": {},
	"pkg/models.py":   {Data: []byte("class Headers:\n    def get(self):\n        pass\n\n\nclass Cookies(Headers):\n    pass\n")},
	"pkg/urls.py":     {Data: []byte("class Params:\n    def get(self):\n        pass\n\n\ndef make():\n    pass\n")},
	// Each use in a file of its own, so that its edges tell it apart.
	"pkg/ctor.py":   {Data: []byte("from pkg.models import Headers\n\n\ndef run():\n    h = Headers()\n    h.get()\n")},
	"pkg/dotted.py": {Data: []byte("import pkg.urls as u\n\n\ndef run():\n    p = u.Params()\n    p.get()\n")},
	"pkg/base.py":   {Data: []byte("from pkg.models import Cookies\n\n\ndef run():\n    c = Cookies()\n    c.get()\n")},
	"pkg/param.py":  {Data: []byte("from pkg.urls import Params\n\n\ndef run(p: Params, q: \"Params\" = None):\n    p.get()\n")},
	"pkg/attr.py": {Data: []byte("from pkg.models import Headers\n\n\nclass Client:\n    def __init__(self):\n        self.h = Headers()\n\n" +
		"    def send(self):\n        self.h.get()\n")},
	"pkg/builtin.py": {Data: []byte("import json\n\n\ndef run(s: str):\n    d = dict()\n    d.get()\n    j = json.JSONDecoder()\n    j.get()\n    s.get()\n")},
	// Literals: a dict, and an attribute set to a dict in one method and
	// to None in another.
	"pkg/literal.py": {Data: []byte("class Cache:\n    def __init__(self):\n        self.d = {}\n\n    def clear(self):\n        self.d = None\n\n    def look(self):\n        self.d.get()\n\n\n" +
		"def run():\n    m = {}\n    m.get()\n")},
	"pkg/unknown.py": {Data: []byte("from pkg.urls import make\n\n\ndef run(f):\n    x = make()\n    x.get()\n    y = f()\n    y.get()\n")},
	// The binding of h in run holds in run alone.
	"pkg/scope.py": {Data: []byte("from pkg.urls import Params\n\n\ndef run():\n    h = Params()\n\n\ndef other(h):\n    h.get()\n")},
	// A module-level binding is not taken: the module defines P.
	"pkg/module.py": {Data: []byte("from pkg.urls import Params\n\nP = Params()\n\n\ndef run():\n    P.get()\n")},
	// x holds a Headers in a, a Params in b: each use resolves by its own.
	"pkg/two.py": {Data: []byte("from pkg.models import Headers\nfrom pkg.urls import Params\n\n\ndef a():\n    x = Headers()\n    x.get()\n\n\n" +
		"def b():\n    x = Params()\n    x.get()\n")},
	// A third get, which only the fallback links to.
	"pkg/other.py": {Data: []byte("class Other:\n    def get(self):\n        pass\n")},
}

// TestPythonTyped checks the rules Typed: x.m() means the method of the
// class the binding of x in effect names, and nothing when that class is
// outside the tree; where no binding tells, it falls back to every get
// as the default rules do everywhere.
func TestPythonTyped(t *testing.T) {
	typed := resolveWith(func(c *link.Config) { c.Rules = langs.With(c.Rules, python.Typed) })
	got := linktest.Edges(t, typedTree, typed)
	gets := func(edges []string) []string {
		var out []string
		for _, e := range edges {
			if strings.HasSuffix(e, " get") {
				out = append(out, e)
			}
		}
		return out
	}
	var want []string
	for _, f := range []string{"module", "scope", "unknown"} {
		// P at module level, h in other (not bound there), x = make()
		// and y = f(): not told, they fall back to every get.
		for _, to := range []string{"models", "other", "urls"} {
			want = append(want, "pkg/"+f+".py -> pkg/"+to+".py get")
		}
	}
	want = append(want,
		"pkg/attr.py -> pkg/models.py get", // self.h = Headers()
		"pkg/base.py -> pkg/models.py get", // Cookies inherits Headers' get
		"pkg/ctor.py -> pkg/models.py get", // h = Headers()
		"pkg/dotted.py -> pkg/urls.py get", // p = u.Params()
		"pkg/param.py -> pkg/urls.py get",  // p: Params
		"pkg/two.py -> pkg/models.py get",  // x = Headers() in a
		"pkg/two.py -> pkg/urls.py get")    // x = Params() in b
	slices.Sort(want)
	linktest.Same(t, gets(got), want)
	// The default rules fall back on every one of them (but the
	// builtins' and the literals', which Typed links to nothing).
	plain := gets(linktest.Edges(t, typedTree, resolveWith(nil)))
	for _, f := range []string{"attr", "base", "ctor", "dotted", "param", "builtin", "literal", "two"} {
		for _, to := range []string{"models", "other", "urls"} {
			if e := "pkg/" + f + ".py -> pkg/" + to + ".py get"; !slices.Contains(plain, e) {
				t.Errorf("default rules: no %s", e)
			}
		}
	}
}

// TestPythonSelfPerClass checks that self.m() means the method of the
// class around each use: two classes of one file call self.run(), each
// inherited from a base of its own.
func TestPythonSelfPerClass(t *testing.T) {
	tree := fstest.MapFS{
		"a.py": {Data: []byte("class BaseA:\n    def run(self):\n        pass\n")},
		"b.py": {Data: []byte("class BaseB:\n    def run(self):\n        pass\n")},
		"c.py": {Data: []byte("class Other:\n    def run(self):\n        pass\n")},
		"use.py": {Data: []byte("from a import BaseA\nfrom b import BaseB\n\n\nclass A(BaseA):\n    def go(self):\n        self.run()\n\n\n" +
			"class B(BaseB):\n    def go(self):\n        self.run()\n")},
	}
	want := []string{"use.py -> a.py BaseA", "use.py -> a.py run", "use.py -> b.py BaseB", "use.py -> b.py run"}
	for _, rules := range []*link.Rules{python.Rules, python.Typed} {
		got := linktest.Edges(t, tree, resolveWith(func(c *link.Config) { c.Rules = langs.With(c.Rules, rules) }))
		if !slices.Equal(got, want) {
			t.Errorf("%s: edges %q, want %q", rules.Name, got, want)
		}
	}
}

// TestBindingsLinkNothing: what a line binds a variable to is no use of
// the variable's name, by names as by the rules: x = [] and self.a = {}
// in one file link to no definition of x or a in another.
func TestBindingsLinkNothing(t *testing.T) {
	tree := fstest.MapFS{
		"use.py":  {Data: []byte("class C:\n    def __init__(self):\n        self.cache = {}\n\n\ndef run():\n    parts = []\n    return parts\n")},
		"defs.py": {Data: []byte("def parts():\n    pass\n\n\ndef cache():\n    pass\n")},
	}
	for _, c := range []link.Config{{}, resolveWith(nil)} {
		if got := linktest.Edges(t, tree, c); len(got) != 0 {
			t.Errorf("Resolve %v: edges %q, want none", c.Resolve, got)
		}
	}
}
