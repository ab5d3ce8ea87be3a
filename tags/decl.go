package tags

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// The compact rendering shows a definition by its signature and the
// signatures of the declarations around it, nothing of their bodies. Its
// outline is the file's declarations: the nodes that a grammar's
// declSpec names (functions, methods, classes, structs, impls,
// namespaces…), each with the rows of its signature, from its first row
// that is not a decorator, an annotation or a comment to the row where
// its body opens (the last row with a character before the body node).
//
// A row of interest shows, in the compact style, with the signature of
// every declaration that covers it: the one it is the head of (a
// definition's own signature, a multi-line one whole) and those around
// it (its class, impl or namespace, the function a nested function is
// in). A struct or a class thus shows as its header line, and its
// members only when they are rows of interest too.

// decl is one declaration: it covers rows start to end, and its
// signature is rows sig to sigEnd.
type decl struct {
	start, sig, sigEnd, end int32
	parent                  int32 // the index of the innermost declaration around it; -1 for none
	doc, docEnd             int32 // the rows of its doc comment, or docstring; doc < 0 for none
}

// declSpec says which nodes of a grammar are declarations and where
// their bodies open.
type declSpec struct {
	// decls are the kinds of declaration nodes. The body of one is its
	// first child in the "body" field or of a kind in bodies, looked for
	// among its children and those of the children of a kind in
	// wrappers, two levels deep at most.
	decls []string
	// sigOnly are the kinds of declarations that are all signature when
	// they have no body (an interface's method, a prototype): shown whole
	// when they span HeaderMax rows at most. Another declaration without
	// a body shows its first row.
	sigOnly  []string
	bodies   []string
	wrappers []string
	// docstring: a body that opens with a string has it as its doc.
	docstring bool
}

// decorations are the kinds of node that a declaration's signature skips
// at its start, and that may stand between a doc comment and what it
// documents; modifiers are the kinds that hold them with other words.
var (
	decorations = []string{"decorator", "annotation", "marker_annotation", "attribute_item", "attribute_list",
		"inner_attribute_item", "comment", "line_comment", "block_comment", "doc_comment", "documentation_comment"}
	commentKinds  = []string{"comment", "line_comment", "block_comment", "doc_comment", "documentation_comment"}
	modifierKinds = []string{"modifiers"}
)

// declSpecs are the declaration specs of the tier-1 languages. Those of
// data (JSON, YAML, TOML, HCL, CSS) have the keys, tables, blocks and
// rules that hold others; markup (HTML, XML, Svelte) has none: an
// element is no namespace, and its rows of interest show alone.
var declSpecs = map[string]*declSpec{
	"bash": {decls: []string{"function_definition"}},
	"c":    cDecls,
	"cpp": {
		decls: slices.Concat(cDecls.decls, []string{"class_specifier", "namespace_definition", "concept_definition",
			"alias_declaration"}),
		sigOnly:  cDecls.sigOnly,
		bodies:   cDecls.bodies,
		wrappers: cDecls.wrappers,
	},
	"csharp": {
		decls: []string{"class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
			"record_declaration", "namespace_declaration", "file_scoped_namespace_declaration", "constructor_declaration",
			"destructor_declaration", "operator_declaration", "conversion_operator_declaration", "indexer_declaration",
			"property_declaration", "event_declaration", "local_function_statement"},
		sigOnly: []string{"method_declaration", "delegate_declaration"},
		bodies:  []string{"declaration_list", "accessor_list", "enum_member_declaration_list"},
	},
	"css": {decls: []string{"rule_set", "media_statement", "supports_statement", "keyframes_statement"}, bodies: []string{"block", "keyframe_block_list"}},
	"dart": {
		decls: []string{"class_definition", "mixin_declaration", "extension_declaration", "extension_type_declaration",
			"enum_declaration"},
		sigOnly: []string{"function_signature", "method_signature", "getter_signature", "setter_signature",
			"constructor_signature", "factory_constructor_signature", "constant_constructor_signature",
			"redirecting_factory_constructor_signature"},
		bodies: []string{"class_body", "extension_body", "enum_body"},
	},
	"go": {
		decls:    []string{"function_declaration", "method_declaration", "type_spec", "type_alias"},
		sigOnly:  []string{"method_elem"},
		bodies:   []string{"field_declaration_list", "{"},
		wrappers: []string{"struct_type", "interface_type"},
	},
	"groovy": {
		decls: []string{"class_declaration", "interface_declaration", "enum_declaration", "constructor_declaration",
			"function_definition", "function_declaration"},
		sigOnly: []string{"method_declaration"},
		bodies:  []string{"class_body", "block", "closure"},
	},
	"haskell": {
		decls:   []string{"class", "instance", "data_type", "newtype", "type_family", "data_family"},
		sigOnly: []string{"signature"},
		bodies:  []string{"class_declarations", "instance_declarations", "data_constructors", "gadt_constructors"},
	},
	"hcl":        {decls: []string{"block"}, bodies: []string{"body"}},
	"java":       javaDecls,
	"javascript": jsDecls,
	"json":       {decls: []string{"pair"}, bodies: []string{"object", "array"}},
	"julia": {
		decls: []string{"module_definition", "struct_definition", "function_definition", "macro_definition",
			"abstract_definition", "primitive_definition"},
		bodies: []string{"block"},
	},
	"kotlin": {
		decls: []string{"class_declaration", "object_declaration", "companion_object", "function_declaration",
			"secondary_constructor", "anonymous_initializer"},
		bodies: []string{"class_body", "enum_class_body", "function_body", "block"},
	},
	"lua":             {decls: []string{"function_declaration", "function_definition_statement", "local_function_definition_statement"}},
	"make":            {decls: []string{"rule", "define_directive"}, bodies: []string{"recipe"}},
	"ocaml":           ocamlDecls,
	"ocaml_interface": ocamlDecls,
	"php": {
		decls: []string{"class_declaration", "interface_declaration", "trait_declaration", "enum_declaration",
			"function_definition", "namespace_definition"},
		sigOnly: []string{"method_declaration"},
		bodies:  []string{"declaration_list", "enum_declaration_list", "compound_statement"},
	},
	"python": {
		decls:     []string{"function_definition", "class_definition"},
		docstring: true,
	},
	"r": {
		decls:    []string{"binary_operator", "argument"},
		wrappers: []string{"function_definition"},
	},
	"ruby": {
		decls:  []string{"class", "module", "method", "singleton_method", "singleton_class"},
		bodies: []string{"body_statement"},
	},
	"rust": {
		decls: []string{"function_item", "struct_item", "enum_item", "union_item", "trait_item", "impl_item",
			"mod_item", "foreign_mod_item", "macro_definition"},
		sigOnly: []string{"function_signature_item"},
		bodies:  []string{"declaration_list", "field_declaration_list", "enum_variant_list"},
	},
	"scala": {
		decls: []string{"class_definition", "object_definition", "trait_definition", "enum_definition",
			"function_definition", "given_definition", "extension_definition", "package_object"},
		sigOnly: []string{"function_declaration"},
		bodies:  []string{"template_body", "enum_body", "indented_block"},
	},
	"toml":       {decls: []string{"table", "table_array_element"}},
	"tsx":        jsDecls,
	"typescript": jsDecls,
	"yaml":       {decls: []string{"block_mapping_pair"}, bodies: []string{"block_node", "flow_node"}},
	"zig": {
		decls:    []string{"function_declaration", "variable_declaration", "test_declaration"},
		bodies:   []string{"block", "{"},
		wrappers: []string{"struct_declaration", "enum_declaration", "union_declaration", "opaque_declaration"},
	},
}

// cDecls are the declarations of C, and most of C++'s. A declaration
// with a value (an initialised table) has it as its body, so that it
// shows its first row.
var cDecls = &declSpec{
	decls:    []string{"function_definition", "struct_specifier", "union_specifier", "enum_specifier"},
	sigOnly:  []string{"declaration", "field_declaration"},
	bodies:   []string{"field_declaration_list", "enumerator_list", "compound_statement", "initializer_list"},
	wrappers: []string{"init_declarator"},
}

// ocamlDecls are the declarations of OCaml, in implementations and
// interfaces.
var ocamlDecls = &declSpec{
	decls: []string{"let_binding", "module_binding", "module_type_definition", "class_binding",
		"class_type_binding", "type_binding"},
	sigOnly: []string{"value_specification", "external"},
	bodies:  []string{"structure", "signature", "record_declaration", "variant_declaration", "object_expression"},
}

// javaDecls are the declarations of Java.
var javaDecls = &declSpec{
	decls: []string{"class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
		"annotation_type_declaration", "constructor_declaration", "compact_constructor_declaration"},
	sigOnly: []string{"method_declaration", "annotation_type_element_declaration"},
	bodies:  []string{"class_body", "interface_body", "enum_body", "annotation_type_body", "constructor_body", "block"},
}

// jsDecls are the declarations of JavaScript, TypeScript and TSX, whose
// grammars share their node kinds. A variable is a declaration whose
// body is that of the function or class it holds.
var jsDecls = &declSpec{
	decls: []string{"class_declaration", "abstract_class_declaration", "class", "interface_declaration",
		"enum_declaration", "internal_module", "module", "method_definition", "function_declaration",
		"generator_function_declaration", "variable_declarator", "public_field_definition", "field_definition",
		"type_alias_declaration"},
	sigOnly:  []string{"method_signature", "abstract_method_signature", "function_signature"},
	bodies:   []string{"class_body", "statement_block", "interface_body", "enum_body", "object_type"},
	wrappers: []string{"arrow_function", "function_expression", "function", "generator_function", "class"},
}

// compiledSpec is a declSpec as kind and field ids of one grammar.
type compiledSpec struct {
	decl, sigOnly, body, wrapper, decoration, comment, modifier []bool // by kind id
	bodyField                                                   uint16
	docstring                                                   bool
}

var compiledSpecs sync.Map // language name → *compiledSpec

// specFor returns the compiled declSpec of the language name in lang, or
// nil when it has none.
func specFor(name string, lang *ts.Language) *compiledSpec {
	if c, ok := compiledSpecs.Load(name); ok {
		return c.(*compiledSpec)
	}
	s := declSpecs[name]
	if s == nil || lang == nil {
		return nil
	}
	n := int(lang.NodeKindCount())
	kinds := func(names []string) []bool {
		set := make([]bool, n)
		for id := range n {
			k := lang.NodeKindForId(uint16(id))
			if !slices.Contains(names, k) {
				continue
			}
			// A word is a named node ("class"), punctuation a token ("{").
			wantNamed := k != "" && (k[0] >= 'a' && k[0] <= 'z' || k[0] == '_')
			if lang.NodeKindIsNamed(uint16(id)) == wantNamed {
				set[id] = true
			}
		}
		return set
	}
	c := &compiledSpec{
		decl: kinds(slices.Concat(s.decls, s.sigOnly)), sigOnly: kinds(s.sigOnly), body: kinds(s.bodies),
		wrapper: kinds(s.wrappers), decoration: kinds(decorations), comment: kinds(commentKinds),
		modifier: kinds(modifierKinds), docstring: s.docstring,
	}
	c.bodyField = lang.FieldIdForName("body")
	got, _ := compiledSpecs.LoadOrStore(name, c)
	return got.(*compiledSpec)
}

func is(set []bool, id uint16) bool { return int(id) < len(set) && set[id] }

// declWalk collects the declarations of a tree as outlineOf walks it.
type declWalk struct {
	spec   *compiledSpec
	cur    *ts.TreeCursor // looks at the children of a declaration
	decls  []decl
	ends   []uint // by decl: its end byte, while the walk is in it
	open   []int  // the declarations the walk is in, innermost last
	levels []level
}

// level is what the walk knows of the siblings at one depth of the tree,
// up to the node it visits there.
type level struct {
	docStart, docEnd int32 // the comments just before the node; docStart < 0 for none
	adjEnd           int32 // the last row of those comments and of the decorations after them
	named            bool  // a named sibling that is not a comment or decoration came before the node
	doc, docLast     int32 // the doc comment of the node itself; doc < 0 for none
	decl             bool  // the node is a declaration
}

// newDeclWalk returns the walk that collects the declarations of tree,
// of the language name; one that collects none for a language without
// a declSpec.
func newDeclWalk(tree *ts.Tree, name string) *declWalk {
	spec := specFor(name, tree.Language())
	if spec == nil {
		return &declWalk{}
	}
	return &declWalk{spec: spec, cur: tree.Walk()}
}

func (w *declWalk) close() {
	if w.cur != nil {
		w.cur.Close()
	}
}

// visit is called for every node the walk of outlineOf visits, in
// preorder, at its depth in the tree.
func (w *declWalk) visit(n *ts.Node, d int, start, end ts.Point) {
	if w.spec == nil {
		return
	}
	for len(w.levels) <= d {
		w.levels = append(w.levels, level{docStart: -1, doc: -1})
	}
	w.levels = w.levels[:d+1]
	lv := &w.levels[d]
	id := n.KindId()
	s, e := rows(start, end)
	if is(w.spec.comment, id) {
		if lv.docStart >= 0 && lv.adjEnd >= s-1 {
			lv.docEnd, lv.adjEnd = e, e
		} else {
			lv.docStart, lv.docEnd, lv.adjEnd = s, e, e
		}
		return
	}
	// The doc comment of n: the comments right before it, or those of
	// its parent when n is its first word (an export, a decorated
	// definition, Go's type declaration around its spec).
	lv.doc = -1
	if lv.docStart >= 0 && lv.adjEnd >= s-1 {
		lv.doc, lv.docLast = lv.docStart, lv.docEnd
	} else if !lv.named && d > 0 && !w.levels[d-1].decl {
		lv.doc, lv.docLast = w.levels[d-1].doc, w.levels[d-1].docLast
	}
	if is(w.spec.decoration, id) {
		if lv.docStart >= 0 {
			lv.adjEnd = max(lv.adjEnd, e)
		}
	} else {
		lv.docStart = -1
		if n.IsNamed() {
			defer func() { lv.named = true }()
		}
	}
	lv.decl = is(w.spec.decl, id)
	// A declaration on one row shows as the row alone: it matters for
	// its doc comment only.
	if !lv.decl || (s == e && lv.doc < 0) {
		return
	}
	w.add(n, id, s, e, lv.doc, lv.docLast)
}

// rowsOf returns the first and last rows of n; a node that ends at the
// start of a row ends on the row before.
func rowsOf(n *ts.Node) (int32, int32) { return rows(n.StartPosition(), n.EndPosition()) }

// rows returns the first and last rows of a node from start to end.
func rows(start, end ts.Point) (int32, int32) {
	s, e := int32(start.Row), int32(end.Row)
	if end.Column == 0 && e > s {
		e--
	}
	return s, e
}

// add adds the declaration n, of kind id, on rows s to e, with its doc
// comment.
func (w *declWalk) add(n *ts.Node, id uint16, s, e, doc, docEnd int32) {
	sb, eb := n.StartByte(), n.EndByte()
	for len(w.open) > 0 && w.ends[w.open[len(w.open)-1]] <= sb {
		w.open = w.open[:len(w.open)-1]
	}
	parent := int32(-1)
	if len(w.open) > 0 {
		parent = int32(w.open[len(w.open)-1])
	}
	c := w.cur
	c.Reset(*n)
	sig := int32(-1)
	var body *ts.Node
	before := int32(-1) // the last row of the last child before the body, comments aside
	// The first row of the signature: that of the first child that is
	// not a decoration, inside modifiers too.
	var look func(depth int) bool // reports whether the body was found
	look = func(depth int) bool {
		if !c.GotoFirstChild() {
			return false
		}
		defer c.GotoParent()
		for {
			ch := c.Node()
			cid := ch.KindId()
			if sig < 0 && !is(w.spec.decoration, cid) {
				if is(w.spec.modifier, cid) && ch.ChildCount() > 0 {
					look(depth + 1) // only for sig: modifiers hold no body
				}
				if sig < 0 && !is(w.spec.modifier, cid) {
					sig = int32(ch.StartPosition().Row)
				}
			}
			if (w.spec.bodyField != 0 && c.FieldId() == w.spec.bodyField) || is(w.spec.body, cid) {
				body = ch
				return true
			}
			if depth < 2 && is(w.spec.wrapper, cid) && look(depth+1) {
				return true
			}
			if !is(w.spec.comment, cid) {
				_, before = rowsOf(ch)
			}
			if !c.GotoNextSibling() {
				return false
			}
		}
	}
	look(0)
	if sig < 0 {
		sig = s
	}
	sigEnd := sig
	switch {
	case body != nil:
		sigEnd = max(sig, before)
		if w.spec.docstring && doc < 0 {
			if st := body.NamedChild(0); st != nil && st.Kind() == "expression_statement" {
				if str := st.NamedChild(0); str != nil && str.Kind() == "string" {
					doc, docEnd = rowsOf(str)
				}
			}
		}
	case is(w.spec.sigOnly, id) && e-sig < HeaderMax:
		sigEnd = e
	}
	if doc < 0 {
		docEnd = -1
	}
	w.decls = append(w.decls, decl{start: s, sig: sig, sigEnd: min(sigEnd, e), end: e, parent: parent, doc: doc, docEnd: docEnd})
	w.ends = append(w.ends, eb)
	w.open = append(w.open, len(w.decls)-1)
}

// Compact returns the rows to show for the given rows of interest in the
// compact style: the rows themselves and the signature of every
// declaration that covers them, sorted and without duplicates.
func (o *Outline) Compact(lois []int) []int { return o.CompactCut(lois, 0) }

// CompactCut is Compact with long signatures cut short, when cut is
// positive: one of more than cut+1 rows shows its first cut-1 rows and its
// last, so that a cut hides two rows at least.
func (o *Outline) CompactCut(lois []int, cut int) []int {
	show := make(map[int]bool, len(lois)*2)
	for _, i := range lois {
		if i < 0 {
			continue
		}
		show[i] = true
		for k := o.innermost(i); k >= 0; k = int(o.decls[k].parent) {
			d := o.decls[k]
			for r := d.sig; r <= d.sigEnd; r++ {
				if cut <= 0 || int(d.sigEnd-d.sig) <= cut || int(r-d.sig) < cut-1 || r == d.sigEnd {
					show[int(r)] = true
				}
			}
		}
	}
	return sortedRows(show)
}

// Docs returns, for each row of interest that is in the signature of a
// declaration with a doc comment, the first and last rows of the
// comment: a pair of rows each.
func (o *Outline) Docs(lois []int) [][2]int {
	var out [][2]int
	for _, i := range lois {
		if i < 0 {
			continue
		}
		if k := o.innermost(i); k >= 0 {
			if d := o.decls[k]; d.doc >= 0 && i <= int(d.sigEnd) {
				out = append(out, [2]int{int(d.doc), int(d.docEnd)})
			}
		}
	}
	return out
}

// innermost returns the index of the innermost declaration that covers
// row i, or -1.
func (o *Outline) innermost(i int) int {
	k, _ := slices.BinarySearchFunc(o.decls, int32(i)+1, func(d decl, r int32) int { return int(d.start - r) })
	k--
	for k >= 0 && int(o.decls[k].end) < i {
		k = int(o.decls[k].parent)
	}
	return k
}

func sortedRows(show map[int]bool) []int {
	out := make([]int, 0, len(show))
	for r := range show {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// appendDecls appends the declarations' binary form to b: their number,
// then for each, as unsigned varints, its start (delta-coded), sig, sigEnd
// and end (each from the one before), its distance to its parent (0 for
// none), and its doc comment: 0 for none, or 1 plus the zigzag-coded
// distance from start, then its length.
func appendDecls(b []byte, ds []decl) []byte {
	b = binary.AppendUvarint(b, uint64(len(ds)))
	prev := int32(0)
	for i, d := range ds {
		b = binary.AppendUvarint(b, uint64(d.start-prev))
		b = binary.AppendUvarint(b, uint64(d.sig-d.start))
		b = binary.AppendUvarint(b, uint64(d.sigEnd-d.sig))
		b = binary.AppendUvarint(b, uint64(d.end-d.sigEnd))
		p := uint64(0)
		if d.parent >= 0 {
			p = uint64(int32(i) - d.parent)
		}
		b = binary.AppendUvarint(b, p)
		if d.doc < 0 {
			b = binary.AppendUvarint(b, 0)
		} else {
			delta := int64(d.doc) - int64(d.start)
			b = binary.AppendUvarint(b, 1+uint64((delta<<1)^(delta>>63)))
			b = binary.AppendUvarint(b, uint64(d.docEnd-d.doc))
		}
		prev = d.start
	}
	return b
}

// readDecls reads what appendDecls writes from the start of b and
// returns the declarations and the rest of b; ok is false for malformed
// input.
func readDecls(b []byte) (ds []decl, rest []byte, ok bool) {
	next := func() (int64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > math.MaxInt32 {
			return 0, false
		}
		b = b[n:]
		return int64(v), true
	}
	count, ok := next()
	if !ok || int(count) > len(b)/6 { // each takes 6 bytes at least
		return nil, nil, false
	}
	ds = make([]decl, count)
	prev := int64(0)
	for i := range ds {
		var v [6]int64
		for j := range v {
			if v[j], ok = next(); !ok {
				return nil, nil, false
			}
		}
		start := prev + v[0]
		sig := start + v[1]
		sigEnd := sig + v[2]
		end := sigEnd + v[3]
		if end > math.MaxInt32 || v[4] > int64(i) {
			return nil, nil, false
		}
		d := decl{start: int32(start), sig: int32(sig), sigEnd: int32(sigEnd), end: int32(end), parent: int32(int64(i) - v[4]), doc: -1, docEnd: -1}
		if v[4] == 0 {
			d.parent = -1
		}
		if v[5] > 0 {
			z := v[5] - 1
			doc := start + (z>>1 ^ -(z & 1))
			l, ok := next()
			if !ok || doc < 0 || doc+l > math.MaxInt32 {
				return nil, nil, false
			}
			d.doc, d.docEnd = int32(doc), int32(doc+l)
		}
		ds[i] = d
		prev = start
	}
	return ds, b, true
}
