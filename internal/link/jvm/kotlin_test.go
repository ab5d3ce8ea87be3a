package jvm_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/jvm"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
)

// defaultLinks are the link settings of the default ranking; javaLinks
// resolve Java without Kotlin (which links by name), scalaOff leave Scala
// to names.
var (
	defaultLinks = policy.Default().Link
	javaLinks    = withRules(langs.With(defaultLinks.Rules, jvm.Java))
	scalaOff     = withRules(langs.Without(defaultLinks.Rules, jvm.Scala))
)

// withRules returns the default link settings with the rules rs.
func withRules(rs []*link.Rules) link.Config {
	c := policy.Default().Link
	c.Rules = rs
	return c
}

// kotlinTree has a package split over a main and a test source set, two
// packages that define a class Order, top-level and extension functions,
// a companion object, an import of each kind, a package that defines
// names of the standard library again, and a Java file that uses Kotlin
// classes and is used by a Kotlin file.
var kotlinTree = fstest.MapFS{
	"src/main/kotlin/com/shop/model/Order.kt": {Data: []byte(`package com.shop.model

open class Entity(val id: String) {
    fun describe(): String = id
}

class Order(id: String, val lines: List<Line>) : Entity(id), Priced {
    override fun total(): Int = lines.sumOf { it.price }

    class Line(val price: Int)

    companion object {
        const val PREFIX = "ord-"

        fun of(id: String): Order = Order(PREFIX + id, emptyList())
    }
}

interface Priced {
    fun total(): Int
}
`)},
	"src/main/kotlin/com/shop/model/Money.kt": {Data: []byte(`package com.shop.model

const val CURRENCY = "EUR"

fun format(cents: Int): String = cents.toString() + CURRENCY

fun Order.label(): String = format(total())
`)},
	"src/test/kotlin/com/shop/model/OrderTest.kt": {Data: []byte(`package com.shop.model

class OrderTest {
    fun check() {
        val o = Order.of("x")
        format(o.total())
        o.label()
    }
}
`)},
	"src/main/kotlin/com/shop/app/App.kt": {Data: []byte(`package com.shop.app

import com.shop.model.Order
import com.shop.model.label
import com.shop.util.*
import com.shop.legacy.Order as LegacyOrder
import kotlinx.coroutines.launch

class App(private val helper: Helper) : Base() {
    val repo = Repository()

    fun run(order: Order, old: LegacyOrder): String {
        val first = Order.of("1")
        helper.help()
        repo.save(order)
        base()
        super.base()
        old.total()
        launch()
        listOf(first).map { it.total() }
        join(order.label())
        order.describe()
        return Order.Line(2).toString()
    }
}
`)},
	"src/main/kotlin/com/shop/app/Base.kt":       {Data: []byte("package com.shop.app\n\nopen class Base {\n    fun base() {}\n}\n")},
	"src/main/kotlin/com/shop/app/Repository.kt": {Data: []byte("package com.shop.app\n\nclass Repository {\n    fun save(o: Any) {}\n}\n")},
	"src/main/kotlin/com/shop/app/Web.kt": {Data: []byte(`package com.shop.app

import com.shop.web.Controller

fun serve(c: Controller) = c.handle(null)
`)},
	"src/main/kotlin/com/shop/util/Helper.kt": {Data: []byte(`package com.shop.util

class Helper {
    fun help() {}

    fun save(x: Any) {}
}

fun join(s: String): String = s
`)},
	"src/main/kotlin/com/shop/legacy/Order.kt": {Data: []byte(`package com.shop.legacy

class Order {
    fun total(): Int = 1

    fun label(): String = ""

    fun describe(): String = ""
}
`)},
	// Names of the standard library and of an outside package, defined
	// again where no file imports them.
	"src/main/kotlin/com/other/Names.kt": {Data: []byte("package com.other\n\nclass Pair\n\nfun listOf() {}\n\nfun launch() {}\n\nfun map() {}\n")},
	"src/main/java/com/shop/web/Controller.java": {Data: []byte(`package com.shop.web;

import com.shop.model.Order;
import com.shop.app.App;

public class Controller {
    private App app;

    public String handle(Order order) {
        order.total();
        return app.run(order, null);
    }
}
`)},
}

// kotlinTruth are the cross-file edges of kotlinTree, checked by hand:
// each use to the file that defines what it means.
var kotlinTruth = []string{
	"src/main/java/com/shop/web/Controller.java -> src/main/kotlin/com/shop/app/App.kt App",
	"src/main/java/com/shop/web/Controller.java -> src/main/kotlin/com/shop/app/App.kt run",
	"src/main/java/com/shop/web/Controller.java -> src/main/kotlin/com/shop/model/Order.kt Order",
	"src/main/java/com/shop/web/Controller.java -> src/main/kotlin/com/shop/model/Order.kt total",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/app/Base.kt Base",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/app/Base.kt base",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/app/Repository.kt Repository",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/app/Repository.kt save",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/legacy/Order.kt Order",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/legacy/Order.kt total",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/model/Money.kt label",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/model/Order.kt Line",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/model/Order.kt Order",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/model/Order.kt describe",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/model/Order.kt of",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/model/Order.kt total",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/util/Helper.kt Helper",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/util/Helper.kt help",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/util/Helper.kt join",
	"src/main/kotlin/com/shop/app/App.kt -> src/main/kotlin/com/shop/util/Helper.kt util",
	"src/main/kotlin/com/shop/app/Web.kt -> src/main/java/com/shop/web/Controller.java Controller",
	"src/main/kotlin/com/shop/app/Web.kt -> src/main/java/com/shop/web/Controller.java handle",
	"src/main/kotlin/com/shop/model/Money.kt -> src/main/kotlin/com/shop/model/Order.kt Order",
	"src/main/kotlin/com/shop/model/Money.kt -> src/main/kotlin/com/shop/model/Order.kt total",
	"src/test/kotlin/com/shop/model/OrderTest.kt -> src/main/kotlin/com/shop/model/Money.kt format",
	"src/test/kotlin/com/shop/model/OrderTest.kt -> src/main/kotlin/com/shop/model/Money.kt label",
	"src/test/kotlin/com/shop/model/OrderTest.kt -> src/main/kotlin/com/shop/model/Order.kt Order",
	"src/test/kotlin/com/shop/model/OrderTest.kt -> src/main/kotlin/com/shop/model/Order.kt of",
	"src/test/kotlin/com/shop/model/OrderTest.kt -> src/main/kotlin/com/shop/model/Order.kt total",
}

func TestResolveKotlin(t *testing.T) {
	got := linktest.Edges(t, kotlinTree, defaultLinks)
	t.Logf("resolved edges:\n%s", strings.Join(got, "\n"))
	linktest.AboveNames(t, "kotlinTree", got, linktest.Edges(t, kotlinTree, link.Config{}), kotlinTruth)
	for _, e := range kotlinTruth {
		if !slices.Contains(got, e) {
			t.Errorf("missing edge %q", e)
		}
	}
	// Never: listOf and map (the standard library's), launch (imported
	// from outside the tree) to com.other's; Order to com.legacy's from
	// the files of com.shop.model. Name matching links them all.
	const app = "src/main/kotlin/com/shop/app/App.kt"
	aider := linktest.Edges(t, kotlinTree, link.Config{})
	for _, e := range []string{app + " -> src/main/kotlin/com/other/Names.kt listOf", app + " -> src/main/kotlin/com/other/Names.kt launch",
		app + " -> src/main/kotlin/com/other/Names.kt map", "src/test/kotlin/com/shop/model/OrderTest.kt -> src/main/kotlin/com/shop/legacy/Order.kt Order"} {
		if !slices.Contains(aider, e) || slices.Contains(got, e) {
			t.Errorf("edge %q: in aider's %v, in the resolved %v", e, slices.Contains(aider, e), slices.Contains(got, e))
		}
	}
	// it.total() on a lambda's parameter means any type's member total;
	// order.describe() on a declared Order means Entity's alone.
	members := func(name string) string { return rank.Key(name, "jvm.members") }
	for _, f := range link.Link(linktest.Files(t, kotlinTree), defaultLinks).Files {
		if f.Path == app && (!slices.Contains(f.Refs, members("total")) || slices.Contains(f.Refs, members("describe"))) {
			t.Errorf("%s refs %q, want the members key of total and not of describe", f.Path, f.Refs)
		}
		if f.Path == app && slices.ContainsFunc(f.Refs, func(k string) bool { return strings.HasSuffix(k, link.FallbackScope) }) {
			t.Errorf("%s refs %q: a reference falls back", f.Path, f.Refs)
		}
	}
}

// TestResolveKotlinMembers: an import of an object's member and of a
// companion object's, a call on this.property and on a local made by a
// constructor call, a top-level function that a file of the package in
// another directory calls, and a Java class's static method.
func TestResolveKotlinMembers(t *testing.T) {
	tree := fstest.MapFS{
		"a/Registry.kt":  {Data: []byte("package a\n\nobject Registry {\n    fun register() {}\n}\n")},
		"a/Box.kt":       {Data: []byte("package a\n\nclass Box {\n    companion object {\n        fun make() = Box()\n    }\n\n    fun open() {}\n}\n\nfun pack() {}\n")},
		"c/Other.kt":     {Data: []byte("package c\n\nclass Other {\n    fun open() {}\n\n    fun make() {}\n}\n\nfun pack() {}\n")},
		"j/Util.java":    {Data: []byte("package j;\n\npublic class Util {\n    public static int twice(int n) { return 2 * n; }\n}\n")},
		"more/a/Late.kt": {Data: []byte("package a\n\nfun late() = pack()\n")},
		"b/Use.kt": {Data: []byte(`package b

import a.Registry.register
import a.Box.Companion.make
import a.Box
import j.Util

class Use(private val box: Box) {
    fun run() {
        register()
        make()
        this.box.open()
        val other = Box()
        other.open()
        Util.twice(1)
    }
}
`)},
	}
	got := linktest.Edges(t, tree, defaultLinks)
	want := []string{
		"b/Use.kt -> a/Box.kt Box",
		"b/Use.kt -> a/Box.kt make",
		"b/Use.kt -> a/Box.kt open",
		"b/Use.kt -> a/Registry.kt register",
		"b/Use.kt -> j/Util.java Util",
		"b/Use.kt -> j/Util.java twice",
		"more/a/Late.kt -> a/Box.kt pack",
	}
	linktest.Same(t, got, want)
}
