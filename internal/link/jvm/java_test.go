package jvm_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
)

// javaTree has a package split over a main and a test source set, two
// packages that define a class Order, a package that defines String,
// List and Override as the JDK does, and uses of each kind.
var javaTree = fstest.MapFS{
	"src/main/java/com/shop/model/Order.java": {Data: []byte(`package com.shop.model;

public class Order {
    public static class Line {}

    public int total() { return 0; }

    public static Order of() { return new Order(); }
}
`)},
	"src/test/java/com/shop/model/OrderTest.java": {Data: []byte(`package com.shop.model;

class OrderTest {
    void check() {
        Order o = Order.of();
        o.total();
        o.toString();
    }
}
`)},
	"src/main/java/com/shop/app/App.java": {Data: []byte(`package com.shop.app;

import com.shop.model.Order;
import com.shop.util.*;
import static com.shop.util.Strings.join;
import java.util.List;

public class App extends Base {
    private Helper helper;

    @Override
    public String run(List<Order> orders, Order.Line line) {
        String s = join(orders);
        helper.help();
        orders.add(null);
        Order.of();
        this.base();
        super.base();
        unknown.thing();
        return s;
    }
}
`)},
	"src/main/java/com/shop/app/Base.java":     {Data: []byte("package com.shop.app;\n\nclass Base {\n    void base() {}\n}\n")},
	"src/main/java/com/shop/util/Strings.java": {Data: []byte("package com.shop.util;\n\npublic final class Strings {\n    public static String join(Object o) { return \"\"; }\n}\n")},
	"src/main/java/com/shop/util/Helper.java": {Data: []byte(`package com.shop.util;

public class Helper {
    public void help() {}

    public void thing() {}

    public void add(Object o) {}
}
`)},
	"src/main/java/com/legacy/Order.java":   {Data: []byte("package com.legacy;\n\npublic class Order {\n    public int total() { return 1; }\n\n    public static Order of() { return null; }\n\n    public String toString() { return \"\"; }\n}\n")},
	"src/main/java/com/other/String.java":   {Data: []byte("package com.other;\n\npublic class String {}\n")},
	"src/main/java/com/other/List.java":     {Data: []byte("package com.other;\n\npublic interface List {}\n")},
	"src/main/java/com/other/Override.java": {Data: []byte("package com.other;\n\npublic @interface Override {}\n")},
	"src/main/java/com/other/Use.java":      {Data: []byte("package com.other;\n\nclass Use {\n    String name;\n}\n")},
	// Without a package declaration, a file is in its directory's package.
	"scripts/Tool.java":   {Data: []byte("class Tool {\n    Util util = new Util();\n}\n")},
	"scripts/Util.java":   {Data: []byte("class Util {}\n")},
	"elsewhere/Util.java": {Data: []byte("class Util {}\n")},
}

func TestResolveJava(t *testing.T) {
	got := linktest.Edges(t, javaTree, defaultLinks)
	const (
		app    = "src/main/java/com/shop/app/App.java"
		base   = "src/main/java/com/shop/app/Base.java"
		order  = "src/main/java/com/shop/model/Order.java"
		helper = "src/main/java/com/shop/util/Helper.java"
		str    = "src/main/java/com/shop/util/Strings.java"
	)
	want := []string{
		"scripts/Tool.java -> scripts/Util.java Util", // the directory's package
		app + " -> " + base + " Base",                 // own package
		app + " -> " + base + " base",                 // this.base(), super.base(): a supertype's method
		app + " -> " + order + " Line",                // Order.Line: a nested type of an imported one
		app + " -> " + order + " Order",               // a single-type import
		app + " -> " + order + " of",                  // Order.of(): a static method of the imported class
		app + " -> " + helper + " Helper",             // an on-demand import
		app + " -> " + helper + " help",               // helper.help(): the field's declared type
		app + " -> " + helper + " thing",              // unknown.thing(): the fallback
		app + " -> " + helper + " util",               // the on-demand import of the package
		app + " -> " + str + " join",                  // a static import
		app + " -> " + str + " util",                  // the on-demand import of the package
		"src/main/java/com/other/Use.java -> src/main/java/com/other/String.java String", // own package before java.lang
		"src/test/java/com/shop/model/OrderTest.java -> " + order + " Order",             // one package in two directories
		"src/test/java/com/shop/model/OrderTest.java -> " + order + " of",
		"src/test/java/com/shop/model/OrderTest.java -> " + order + " total", // o.total(): the local's declared type
	}
	slices.Sort(want)
	linktest.Same(t, got, want)
	// Never: App's String, List and @Override to com.other's, orders.add()
	// on a java.util.List to Helper.add, Order to com.legacy's, o.toString()
	// on an Order that inherits Object's to com.legacy's, Tool's Util to
	// elsewhere's. Aider's ranking, by name, links them all.
	aider := linktest.Edges(t, javaTree, link.Config{})
	for _, to := range []string{"src/main/java/com/other/String.java String", "src/main/java/com/other/List.java List",
		"src/main/java/com/other/Override.java Override", helper + " add", "src/main/java/com/legacy/Order.java Order"} {
		if e := app + " -> " + to; !slices.Contains(aider, e) || slices.Contains(got, e) {
			t.Errorf("edge %q: in aider's %v, in the resolved %v", e, slices.Contains(aider, e), slices.Contains(got, e))
		}
	}

	for _, f := range link.Link(linktest.Files(t, javaTree), defaultLinks).Files {
		if f.Path == app && !slices.Contains(f.Refs, link.NameKey("thing", link.FallbackScope, "jvm")) {
			t.Errorf("%s refs %q, want the fallback key of thing", f.Path, f.Refs)
		}
	}
}

// TestResolveJavaStar: a static import on demand takes a class's members,
// an import on demand of a class its nested types; C.m() finds an m that
// C inherits from a supertype in the tree; a call on a value of a type
// imported from outside the tree links to nothing.
func TestResolveJavaStar(t *testing.T) {
	tree := fstest.MapFS{
		"a/Outer.java": {Data: []byte("package a;\n\npublic class Outer extends Root {\n    public static class Inner {}\n\n    public static int twice(int n) { return 2 * n; }\n}\n")},
		"a/Root.java":  {Data: []byte("package a;\n\npublic class Root {\n    public static Root make() { return null; }\n}\n")},
		"b/Use.java": {Data: []byte(`package b;

import static a.Outer.*;
import a.Outer.*;
import a.Outer;
import org.lib.Gadget;

class Use {
    Inner inner;

    int run(Gadget g) {
        Outer.make();
        g.make();
        return twice(1);
    }
}
`)},
	}
	got := linktest.Edges(t, tree, defaultLinks)
	want := []string{
		"a/Outer.java -> a/Root.java Root",
		"b/Use.java -> a/Outer.java Inner",
		"b/Use.java -> a/Outer.java Outer",
		"b/Use.java -> a/Outer.java twice",
		"b/Use.java -> a/Root.java make",
	}
	linktest.Same(t, got, want)
	// g.make() on an imported class outside the tree links to nothing
	// (Gadget is imported by name from a package the tree does not have).
	for _, f := range link.Link(linktest.Files(t, tree), defaultLinks).Files {
		if f.Path == "b/Use.java" && slices.Contains(f.Refs, link.NameKey("make", link.FallbackScope, "jvm")) {
			t.Errorf("%s refs %q: g.make() on an outside type falls back", f.Path, f.Refs)
		}
	}
}

// TestResolveJavaKotlin: a Java file that imports a class of a package
// only Kotlin files declare links to it by name, at the fallback weight,
// and with Kotlin's rules (jvm.Rules) as to a Java class, and a call
// on a value of it to the Kotlin class's method; one imported from a
// package nothing declares, to nothing.
func TestResolveJavaKotlin(t *testing.T) {
	tree := fstest.MapFS{
		"core/Adapter.kt": {Data: []byte("package com.shop.core\n\nclass Adapter {\n    fun read(): Int = 0\n}\n")},
		"core/Widget.kt":  {Data: []byte("package com.shop.core\n\nclass Widget\n")},
		"test/AdapterTest.java": {Data: []byte(`package com.shop.test;

import com.shop.core.Adapter;
import org.lib.Widget;

class AdapterTest {
    void check(Adapter a, Widget w) {
        a.read();
    }
}
`)},
	}
	want := []string{"test/AdapterTest.java -> core/Adapter.kt Adapter", "test/AdapterTest.java -> core/Adapter.kt read"}
	for _, rules := range []bool{false, true} {
		ranking := javaLinks
		if rules {
			ranking = defaultLinks
		}
		if got := linktest.Edges(t, tree, ranking); !slices.Equal(got, want) {
			t.Errorf("Kotlin's rules %t: resolved edges:\n%s\nwant:\n%s", rules, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, f := range link.Link(linktest.Files(t, tree), ranking).Files {
			if f.Path == "test/AdapterTest.java" && slices.Contains(f.Refs, link.NameKey("Adapter", link.FallbackScope, "jvm")) == rules {
				t.Errorf("Kotlin's rules %t: %s refs %q: the fallback key of Adapter is there: %t, want %t", rules, f.Path, f.Refs, !rules, rules)
			}
			if f.Path == "test/AdapterTest.java" && rules && slices.Contains(f.Refs, link.NameKey("read", link.FallbackScope, "jvm")) {
				t.Errorf("Kotlin's rules %t: %s refs %q: read falls back", rules, f.Path, f.Refs)
			}
		}
	}
}
