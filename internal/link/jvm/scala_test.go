package jvm_test

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
)

// scalaTree has chained package clauses, a package object, a case class
// and its companion, an aliased import, a relative one, two packages that
// define a class Order, one that defines ListBuffer as scala.collection
// does, and uses of each kind.
var scalaTree = fstest.MapFS{
	"src/main/scala/com/shop/model/Order.scala": {Data: []byte(`package com.shop.model

case class Order(n: Int) extends Entity {
  def total(): Int = n
}

object Order {
  def of(n: Int): Order = new Order(n)
}
`)},
	"src/main/scala/com/shop/model/Entity.scala": {Data: []byte("package com.shop.model\n\ntrait Entity {\n  def touch(): Unit = ()\n}\n")},
	"src/main/scala/com/shop/util/package.scala": {Data: []byte("package com.shop\n\npackage object util {\n  def join(s: String): String = s\n}\n")},
	"src/main/scala/com/shop/util/Helper.scala": {Data: []byte(`package com.shop.util

class Helper {
  def help(): Unit = ()
  def thing(): Unit = ()
  def add(x: Any): Unit = ()
}

object fmt {
  def apply(s: String): String = s
  def wide(s: String): String = s
}
`)},
	"src/main/scala/com/shop/Base.scala": {Data: []byte("package com.shop\n\nclass Base {\n  def base(): Unit = ()\n}\n")},
	"src/main/scala/com/shop/app/App.scala": {Data: []byte(`package com.shop
package app

import com.shop.model.{Order, Entity => E}
import util._
import scala.collection.mutable.ListBuffer

class App(helper: Helper) extends Base {
  val made = Order(1)
  val h = new Helper()

  def run(xs: ListBuffer[Order], e: E): String = {
    h.help()
    helper.help()
    this.base()
    super.base()
    join("a")
    Order.of(1)
    made.total()
    xs.add(1)
    unknown.thing()
    e.touch()
    made.toString()
    util.fmt("b")
    util.fmt.wide("c")
    ""
  }
}
`)},
	"src/main/scala/com/legacy/Order.scala": {Data: []byte(`package com.legacy

class Order {
  def total(): Int = 1
  override def toString(): String = ""
}

object Order {
  def of(n: Int): Order = null
}
`)},
	"src/main/scala/com/other/ListBuffer.scala": {Data: []byte("package com.other\n\nclass ListBuffer\n")},
	// Without a package clause, sbt's files share the empty package.
	"build.sbt":                  {Data: []byte("lazy val root = project.settings(libraryDependencies ++= Dependencies.all)\n")},
	"project/Dependencies.scala": {Data: []byte("object Dependencies {\n  val all = Seq()\n}\n")},
}

func TestResolveScala(t *testing.T) {
	got := linktest.Edges(t, scalaTree, defaultLinks)
	const (
		app    = "src/main/scala/com/shop/app/App.scala"
		order  = "src/main/scala/com/shop/model/Order.scala"
		entity = "src/main/scala/com/shop/model/Entity.scala"
		helper = "src/main/scala/com/shop/util/Helper.scala"
		pkgobj = "src/main/scala/com/shop/util/package.scala"
		base   = "src/main/scala/com/shop/Base.scala"
	)
	want := []string{
		app + " -> " + base + " Base",     // a type of the outer package of a chained clause
		app + " -> " + base + " base",     // this.base(), super.base(): a parent's method
		app + " -> " + entity + " Entity", // the renamed import
		app + " -> " + entity + " touch",  // e.touch(): the renamed type
		app + " -> " + helper + " Helper", // the relative import of a package
		app + " -> " + helper + " fmt",    // util.fmt(…): an object of the package
		app + " -> " + helper + " wide",   // util.fmt.wide(…): its method
		app + " -> " + helper + " help",   // h.help(), helper.help(): the declared types
		app + " -> " + helper + " thing",  // unknown.thing(): the fallback
		app + " -> " + helper + " util",   // the import of the package
		app + " -> " + order + " Order",   // an import; Order(1): the case class's apply
		app + " -> " + order + " of",      // Order.of(): the companion's method
		app + " -> " + order + " total",   // made.total(): made = Order(1)
		app + " -> " + pkgobj + " join",   // the package object's member
		app + " -> " + pkgobj + " util",   // and the package object
		order + " -> " + entity + " Entity",
		"build.sbt -> project/Dependencies.scala Dependencies", // the empty package
	}
	slices.Sort(want)
	linktest.Same(t, got, want)
	aider := linktest.Edges(t, scalaTree, link.Config{})
	linktest.AboveNames(t, "scalaTree", got, aider, want)
	for _, f := range link.Link(linktest.Files(t, scalaTree), defaultLinks).Files {
		if f.Path == app && (slices.Contains(f.Refs, link.NameKey("wide", link.FallbackScope, "jvm")) || !slices.Contains(f.Refs, link.NameKey("thing", link.FallbackScope, "jvm"))) {
			t.Errorf("%s refs %q, want util.fmt.wide placed and unknown.thing() the fallback", f.Path, f.Refs)
		}
	}
	// Never: App's Order and its members to com.legacy's, made.toString()
	// to com.legacy's override, ListBuffer to com.other's, xs.add() on a
	// ListBuffer to Helper's add. Name matching links them all.
	const legacy = "src/main/scala/com/legacy/Order.scala"
	for _, to := range []string{legacy + " Order", legacy + " of", legacy + " total", legacy + " toString",
		"src/main/scala/com/other/ListBuffer.scala ListBuffer", helper + " add"} {
		if e := app + " -> " + to; !slices.Contains(aider, e) || slices.Contains(got, e) {
			t.Errorf("edge %q: in aider's %v, in the resolved %v", e, slices.Contains(aider, e), slices.Contains(got, e))
		}
	}
	// Without its rules, Scala links by name.
	if byName := linktest.Edges(t, scalaTree, scalaOff); !slices.Contains(byName, app+" -> "+legacy+" Order") {
		t.Errorf("without Scala's rules: no edge %s -> %s Order by name", app, legacy)
	}
}
