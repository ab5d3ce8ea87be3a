package csharp_test

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
)

// defaultLinks are the link settings of the default ranking.
var defaultLinks = policy.Default().Link

// csharpTree has a partial class over two files, a namespace and its
// parent, a global using, a static using, an alias, extension methods,
// two namespaces that define a class Order, one that defines String and
// List as the BCL does, and uses of each kind.
var csharpTree = fstest.MapFS{
	"src/GlobalUsings.cs": {Data: []byte("global using Shop.Util;\n")},
	"src/Core/Order.cs": {Data: []byte(`namespace Shop.Core;

public partial class Order : Entity
{
    public static Order Of(int n) => new Order();

    public int Total() { return 0; }

    public class Line { }
}
`)},
	"src/Core/Order.Lines.cs": {Data: []byte(`namespace Shop.Core
{
    public partial class Order
    {
        public void AddLine() { Total(); }
    }
}
`)},
	"src/Core/Entity.cs": {Data: []byte("namespace Shop;\n\npublic abstract class Entity\n{\n    public void Touch() { }\n}\n")},
	"src/Core/Extensions.cs": {Data: []byte(`using System.Collections.Generic;

namespace Shop.Core;

public static class OrderExtensions
{
    public static int Count(this IEnumerable<Order> orders) => 0;

    public static void Register(this IServiceCollection services) { }
}
`)},
	"src/App/App.cs": {Data: []byte(`using System;
using System.Collections.Generic;
using Shop.Core;
using static Shop.Util.Strings;
using Legacy = Shop.Legacy.Order;

namespace Shop.App
{
    public class App : Base, IRunner
    {
        private Helper helper;

        public IRunner Runner { get; set; }

        [Audit]
        public string Run(List<Order> orders, Order.Line line, IServiceCollection services)
        {
            var o = Order.Of(1);
            var h = new Helper();
            h.Help();
            helper.Help();
            this.Base1();
            base.Base1();
            Join("a");
            orders.Count();
            services.Register();
            Runner.Go();
            unknown.Thing();
            orders.Add(null);
            Legacy l = null;
            Console.WriteLine(o.ToString());
            return String.Empty;
        }
    }
}
`)},
	"src/App/Base.cs":     {Data: []byte("namespace Shop.App;\n\npublic class Base\n{\n    public void Base1() { }\n}\n")},
	"src/App/IRunner.cs":  {Data: []byte("namespace Shop.App;\n\npublic interface IRunner\n{\n    void Go();\n}\n")},
	"src/App/Audit.cs":    {Data: []byte("namespace Shop.App;\n\npublic class AuditAttribute : Attribute { }\n")},
	"src/Util/Strings.cs": {Data: []byte("namespace Shop.Util;\n\npublic static class Strings\n{\n    public static string Join(string s) => s;\n}\n")},
	"src/Util/Helper.cs": {Data: []byte(`namespace Shop.Util;

public class Helper
{
    public void Help() { }

    public void Thing() { }

    public void Add(object o) { }

    public void Go() { }
}
`)},
	"src/Legacy/Order.cs": {Data: []byte(`namespace Shop.Legacy;

public class Order
{
    public static Order Of(int n) => null;

    public int Total() => 1;

    public override string ToString() => "";
}
`)},
	"src/Other/String.cs": {Data: []byte("namespace Shop.Other;\n\npublic class String { }\n")},
	"src/Other/List.cs":   {Data: []byte("namespace Shop.Other;\n\npublic class List { }\n")},
	// A project file's <Using> items count in the files below it.
	"src/Tool/Tool.csproj": {Data: []byte("<Project>\n  <ItemGroup>\n    <Using Include=\"Shop.Legacy\" />\n    <Using Include=\"Shop.Util.Strings\" Static=\"true\" />\n  </ItemGroup>\n</Project>\n")},
	"src/Tool/Tool.cs":     {Data: []byte("namespace Tool;\n\npublic class Tool\n{\n    public int Run() { Join(\"x\"); Order o = Order.Of(1); return o.Total(); }\n}\n")},
	"tests/OrderTests.cs": {Data: []byte(`namespace Shop.Core.Tests;

public class OrderTests
{
    public void Check()
    {
        Order o = Order.Of(1);
        o.Total();
        o.Touch();
    }
}
`)},
}

func TestResolveCSharp(t *testing.T) {
	got := linktest.Edges(t, csharpTree, defaultLinks)
	const (
		app    = "src/App/App.cs"
		order  = "src/Core/Order.cs"
		lines  = "src/Core/Order.Lines.cs"
		ext    = "src/Core/Extensions.cs"
		helper = "src/Util/Helper.cs"
		str    = "src/Util/Strings.cs"
		tests  = "tests/OrderTests.cs"
	)
	want := []string{
		"src/Tool/Tool.cs -> src/Legacy/Order.cs Order", // the project file's usings
		"src/Tool/Tool.cs -> src/Legacy/Order.cs Of",
		"src/Tool/Tool.cs -> src/Legacy/Order.cs Total",
		"src/Tool/Tool.cs -> " + str + " Join",
		"src/GlobalUsings.cs -> " + helper + " Util", // a global using of a namespace
		"src/GlobalUsings.cs -> " + str + " Util",
		app + " -> src/App/Audit.cs AuditAttribute", // [Audit]
		app + " -> src/App/Base.cs Base",            // own namespace
		app + " -> src/App/Base.cs Base1",           // this.Base1(), base.Base1()
		app + " -> src/App/IRunner.cs Go",           // Runner.Go(): the property's type
		app + " -> src/App/IRunner.cs IRunner",
		app + " -> src/Legacy/Order.cs Order", // the alias
		app + " -> " + ext + " Core",          // using Shop.Core
		app + " -> " + ext + " Count",         // orders.Count(): an extension method on a BCL type
		app + " -> " + ext + " Register",      // on a type outside the tree
		app + " -> " + helper + " Help",       // h.Help(), helper.Help(): the declared type
		app + " -> " + helper + " Helper",     // the global using
		app + " -> " + helper + " Thing",      // unknown.Thing(): the fallback
		app + " -> " + lines + " Core",
		app + " -> " + lines + " Order", // a partial class: both parts
		app + " -> " + order + " Core",
		app + " -> " + order + " Line", // Order.Line: a nested type
		app + " -> " + order + " Of",   // Order.Of(): a static method
		app + " -> " + order + " Order",
		app + " -> " + str + " Join",    // using static
		app + " -> " + str + " Strings", // the static using
		ext + " -> " + lines + " Order",
		ext + " -> " + order + " Order",
		order + " -> src/Core/Entity.cs Entity", // the parent namespace
		order + " -> " + lines + " Order",       // new Order(): the other part of the class
		lines + " -> " + order + " Total",       // Total(): the other part of the class
		tests + " -> src/Core/Entity.cs Touch",  // o.Touch(): a base's method
		tests + " -> " + lines + " Order",       // a parent namespace's type
		tests + " -> " + order + " Of",
		tests + " -> " + order + " Order",
		tests + " -> " + order + " Total",
	}
	slices.Sort(want)
	linktest.Same(t, got, want)
	aider := linktest.Edges(t, csharpTree, link.Config{})
	linktest.AboveNames(t, "csharpTree", got, aider, want)
	// Never: App's String and List to Shop.Other's, orders.Add() on a BCL
	// List to Helper.Add, Runner.Go() to Helper.Go, Order to Shop.Legacy's,
	// o.ToString() to Shop.Legacy's override. Name matching links them all.
	for _, to := range []string{"src/Other/String.cs String", "src/Other/List.cs List", helper + " Add", helper + " Go",
		"src/Legacy/Order.cs Of", "src/Legacy/Order.cs ToString"} {
		if e := app + " -> " + to; !slices.Contains(aider, e) || slices.Contains(got, e) {
			t.Errorf("edge %q: in aider's %v, in the resolved %v", e, slices.Contains(aider, e), slices.Contains(got, e))
		}
	}
	for _, f := range link.Link(linktest.Files(t, csharpTree), defaultLinks).Files {
		if f.Path == app && !slices.Contains(f.Refs, link.NameKey("Thing", link.FallbackScope, "dotnet")) {
			t.Errorf("%s refs %q, want the fallback key of Thing", f.Path, f.Refs)
		}
	}
}
