package js_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repomap-dev/repomap/internal/link"
	"github.com/repomap-dev/repomap/internal/link/linktest"
	"github.com/repomap-dev/repomap/internal/policy"
)

// defaultLinks are the link settings of the default ranking.
var defaultLinks = policy.Default().Link

// jsTree mixes TypeScript, JavaScript and JSX modules that import each
// other with and without extensions, through an index file and
// re-exports, CommonJS, and a script that defines the same names.
var jsTree = fstest.MapFS{
	"src/index.ts": {Data: []byte("export {Client} from './client.js';\nexport * from './util';\n")},
	"src/base.ts":  {Data: []byte("export class Base {\n  send() {}\n  close() {}\n}\n")},
	"src/client.ts": {Data: []byte(`import {Base} from './base.js';
import {fmt as format} from './util';

export class Client extends Base {
  get() {
    this.send();
    format();
    this.close();
    this.extra();
  }

  send() {}
}
`)},
	"src/util/index.js": {Data: []byte("export function fmt() {}\n\nexport function parse() {}\n")},
	"src/helpers.cjs":   {Data: []byte("exports.slug = function () {};\n")},
	"src/lib.mjs":       {Data: []byte("export function run() {}\n")},
	"src/app.jsx": {Data: []byte(`import {Client} from './index';
import helpers from './helpers.cjs';
import React from 'react';
const lib = require('./lib.mjs');

new Client();
helpers.slug();
lib.run();
parse();
React.createElement();
`)},
	"other.js": {Data: []byte(`function parse() {}
function extra() {}
function run() {}
function slug() {}
function createElement() {}
class Client {}
send();
`)},
}

// jsWant are the cross-file edges of jsTree, checked by hand: what each
// name means when the code runs.
var jsWant = []string{
	"src/app.jsx -> src/client.ts Client",
	"src/app.jsx -> src/helpers.cjs slug",
	"src/app.jsx -> src/lib.mjs run",
	"src/client.ts -> src/base.ts Base",
	"src/client.ts -> src/base.ts close",
	"src/client.ts -> src/util/index.js fmt",
	"src/index.ts -> src/client.ts Client",
}

func TestResolveJS(t *testing.T) {
	got := linktest.Edges(t, jsTree, defaultLinks)
	want := []string{
		"other.js -> src/base.ts send",           // a script's unresolved name falls back
		"other.js -> src/client.ts send",         // to every definition of it
		"src/app.jsx -> src/client.ts Client",    // through the index file's re-export
		"src/app.jsx -> src/helpers.cjs slug",    // a member of a default import: the module's
		"src/app.jsx -> src/lib.mjs run",         // require()
		"src/client.ts -> other.js extra",        // this.extra(): no class of the tree defines it
		"src/client.ts -> src/base.ts Base",      // ./base.js is base.ts
		"src/client.ts -> src/base.ts close",     // this.close(): the base class
		"src/client.ts -> src/util/index.js fmt", // an alias, a directory's index file
		"src/index.ts -> src/client.ts Client",   // export {Client} from
	}
	linktest.Same(t, got, want)
	// Never: the module app.jsx's parse() or React.createElement() to
	// other.js, client.ts's this.send() to base.ts.
	aider := linktest.Edges(t, jsTree, link.Config{})
	for _, e := range []string{"src/app.jsx -> other.js parse", "src/client.ts -> src/base.ts send"} {
		if !slices.Contains(aider, e) {
			t.Errorf("aider edges lack %q:\n%s", e, strings.Join(aider, "\n"))
		}
	}
	linktest.AboveNames(t, "jsTree", got, aider, jsWant)
}

// TestResolveCycles: modules that re-export each other in a cycle still
// resolve a name one of them defines, and a name none defines links
// nowhere.
func TestResolveCycles(t *testing.T) {
	tree := fstest.MapFS{
		"js/a.js":         {Data: []byte("export * from './b.js';\nexport * from './c.js';\n")},
		"js/b.js":         {Data: []byte("export * from './a.js';\nexport * from './c.js';\n")},
		"js/c.js":         {Data: []byte("export * from './a.js';\nexport * from './b.js';\n\nexport function found() {}\n")},
		"js/use.js":       {Data: []byte("import {found, missing} from './a.js';\n\nfound();\nmissing();\n")},
		"pkg/__init__.py": {Data: []byte("")},
		"pkg/a.py":        {Data: []byte("from .b import *\nfrom .c import *\n")},
		"pkg/b.py":        {Data: []byte("from .a import *\nfrom .c import *\n")},
		"pkg/c.py":        {Data: []byte("from .a import *\nfrom .b import *\n\n\ndef found():\n    pass\n")},
		"use.py":          {Data: []byte("from pkg.a import found, missing\n\nfound()\nmissing()\n")},
	}
	got := linktest.Edges(t, tree, defaultLinks)
	want := []string{"js/use.js -> js/c.js found", "use.py -> pkg/c.py found"}
	linktest.Same(t, got, want)
}

// TestThisPerClass checks that this.m() means the method of the class
// around each use: two classes of one file call this.run(), each
// inherited from a base of its own.
func TestThisPerClass(t *testing.T) {
	tree := fstest.MapFS{
		"a.ts": {Data: []byte("export class BaseA {\n  run() {}\n}\n")},
		"b.ts": {Data: []byte("export class BaseB {\n  run() {}\n}\n")},
		"use.ts": {Data: []byte("import {BaseA} from './a';\nimport {BaseB} from './b';\n\n" +
			"class A extends BaseA {\n  go() {\n    this.run();\n  }\n}\n\nclass B extends BaseB {\n  go() {\n    this.run();\n  }\n}\n")},
	}
	want := []string{"use.ts -> a.ts BaseA", "use.ts -> a.ts run", "use.ts -> b.ts BaseB", "use.ts -> b.ts run"}
	linktest.Same(t, linktest.Edges(t, tree, defaultLinks), want)
}
