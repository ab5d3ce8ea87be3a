package rust_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/langs"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
	"github.com/repomap-dev/repomap/rank"
)

// rustTree is a small crate with modules in files (a.rs, a/mod.rs, a/b.rs),
// re-exports and renames in its root, a group import with a nested
// group and a rename, a trait with a provided method, inherent and trait
// impls, a macro, and a test that uses the crate by its package's name.
// Names collide on purpose: two functions open, a method total and a
// function total, two associated functions new.
var rustTree = fstest.MapFS{
	"Cargo.toml": {Data: []byte("[package]\nname = \"shop\"\nversion = \"0.1.0\"\n")},
	"src/lib.rs": {Data: []byte(`pub mod catalog;
mod store;
#[macro_use]
mod macros;

pub use crate::catalog::Item;
pub use store::{open as open_store, Store};

pub fn version() -> u32 {
    1
}
`)},
	"src/macros.rs": {Data: []byte(`macro_rules! log_line {
    ($e:expr) => {
        println!("{}", $e)
    };
}
`)},
	"src/catalog/mod.rs": {Data: []byte(`pub mod pricing;

pub struct Item {
    pub price: u32,
}

impl Item {
    pub fn new(price: u32) -> Self {
        Item { price }
    }

    pub fn total(&self) -> u32 {
        self.with_tax()
    }

    fn with_tax(&self) -> u32 {
        pricing::tax(self.price)
    }
}

pub fn open() -> Item {
    Item::new(0)
}
`)},
	"src/catalog/pricing.rs": {Data: []byte(`use super::Item;

pub fn tax(p: u32) -> u32 {
    p
}

pub fn price(item: &Item) -> u32 {
    item.total()
}

pub trait Priced {
    fn cost(&self) -> u32;

    fn doubled(&self) -> u32 {
        self.cost() * 2
    }
}

impl Priced for Item {
    fn cost(&self) -> u32 {
        self.price
    }
}
`)},
	"src/store.rs": {Data: []byte(`use std::collections::HashMap;
use crate::catalog::{self, pricing::{tax, Priced}, Item as Product};

pub struct Store {
    items: HashMap<u32, Product>,
}

impl Store {
    pub fn new() -> Self {
        Store { items: HashMap::new() }
    }

    pub fn add(&mut self, item: Product) {
        log_line!(tax(item.price));
        self.check();
        catalog::open();
        item.doubled();
    }

    fn check(&self) {
        let n = Self::new();
        n.items.len();
    }
}

pub fn open() -> Store {
    Store::new()
}

pub fn total() -> u32 {
    0
}
`)},
	"tests/api.rs": {Data: []byte(`use shop::{Item, Store, version};
use serde::Serialize;

#[test]
fn works() {
    let s: Store = shop::open_store();
    let i = Item::new(3);
    i.total();
    version();
    new_thing();
}
`)},
}

// rustWant are the cross-file edges of rustTree, checked by hand: what
// each name means by the language's rules.
var rustWant = []string{
	"src/catalog/mod.rs -> src/catalog/pricing.rs tax",   // pricing::tax(): a submodule in pricing.rs
	"src/catalog/pricing.rs -> src/catalog/mod.rs Item",  // use super::Item
	"src/catalog/pricing.rs -> src/catalog/mod.rs total", // item.total() on a value: the only method total
	"src/lib.rs -> src/catalog/mod.rs Item",              // pub use crate::catalog::Item
	"src/lib.rs -> src/store.rs Store",                   // a group import
	"src/lib.rs -> src/store.rs open",                    // open as open_store
	"src/store.rs -> src/catalog/mod.rs Item",            // Item as Product, and Product
	"src/store.rs -> src/catalog/mod.rs open",            // catalog::open(), not store.rs's own open
	"src/store.rs -> src/catalog/pricing.rs Priced",      // a nested group
	"src/store.rs -> src/catalog/pricing.rs doubled",     // item.doubled(): a trait's provided method
	"src/store.rs -> src/catalog/pricing.rs tax",         // the import and the call
	"src/store.rs -> src/macros.rs log_line",             // a macro_rules! of the tree
	"tests/api.rs -> src/catalog/mod.rs Item",            // shop::Item, re-exported by the root
	"tests/api.rs -> src/catalog/mod.rs new",             // Item::new(), not Store::new()
	"tests/api.rs -> src/catalog/mod.rs total",           // i.total(): the method, not the function total
	"tests/api.rs -> src/lib.rs version",                 // shop::version
	"tests/api.rs -> src/store.rs Store",                 // shop::Store
	"tests/api.rs -> src/store.rs open",                  // shop::open_store(), renamed in the root
}

// rustLinks resolve by the default rules, without the default ranking's
// families of languages.
var rustLinks = link.Config{Resolve: true, Rules: langs.Default(), Fallback: policy.Default().Link.Fallback}

func TestResolveRust(t *testing.T) {
	got := linktest.Edges(t, rustTree, rustLinks)
	want := slices.Sorted(slices.Values(rustWant))
	// x.total() on values falls back to the name, at the fallback weight:
	// the function total of store.rs too, the rules' only false edges.
	wantGot := slices.Sorted(slices.Values(append(slices.Clone(rustWant),
		"src/catalog/pricing.rs -> src/store.rs total", "tests/api.rs -> src/store.rs total")))
	if !slices.Equal(got, wantGot) {
		t.Errorf("resolved edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantGot, "\n"))
	}
	// Names alone link open, total and new to every definer.
	linktest.AboveNames(t, "rustTree", got, linktest.Edges(t, rustTree, link.Config{}), want)
	// A call on a value links at the fallback weight to the definitions
	// of its name, a name not in scope (new_thing) to every definition of it, a
	// path through a crate outside the tree (serde::Serialize) to nothing.
	for _, f := range link.Link(linktest.Files(t, rustTree), rustLinks).Files {
		if f.Path != "tests/api.rs" {
			continue
		}
		if !slices.Contains(f.Refs, link.NameKey("total", link.FallbackScope, "")) {
			t.Errorf("%s refs %q, want the fallback key of total", f.Path, f.Refs)
		}
		if !slices.Contains(f.Refs, link.NameKey("new_thing", link.FallbackScope, "")) {
			t.Errorf("%s refs %q, want the fallback key of new_thing", f.Path, f.Refs)
		}
		for _, k := range f.Refs {
			if rank.Ident(k) == "Serialize" {
				t.Errorf("%s refs %q: a path outside the tree links", f.Path, k)
			}
		}
	}
}

// TestRustLibsSameName: of two libraries in directories of the same name,
// the first by path is that name's, every time (it was whichever a map's
// order gave first).
func TestRustLibsSameName(t *testing.T) {
	tree := fstest.MapFS{
		"b/util/src/lib.rs": {Data: []byte("pub fn helper() -> i32 { 2 }\n")},
		"a/util/src/lib.rs": {Data: []byte("pub fn helper() -> i32 { 1 }\n")},
		"app/src/main.rs":   {Data: []byte("use util::helper;\n\nfn main() { helper(); }\n")},
		"app/src/other.rs":  {Data: []byte("pub fn other() {}\n")},
	}
	for range 20 {
		got := linktest.Edges(t, tree, rustLinks)
		if !slices.Contains(got, "app/src/main.rs -> a/util/src/lib.rs helper") || slices.Contains(got, "app/src/main.rs -> b/util/src/lib.rs helper") {
			t.Fatalf("edges:\n%s\nwant app/src/main.rs -> a/util/src/lib.rs helper alone", strings.Join(got, "\n"))
		}
	}
}
