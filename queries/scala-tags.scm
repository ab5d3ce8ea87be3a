; Tags for Scala (2 and 3): what a file defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; The last segment of the package name ties the files of a package to the
; files that import all of it ("import com.shop.model._"); it is not shown.
; The package's whole name qualifies it: "package a.b", or "package a"
; and "package b" as two clauses.
(package_clause
  name: (package_identifier
    (identifier) @name.definition.package .) @qual)

(class_definition
  name: (identifier) @name.definition.class)

(object_definition
  name: (identifier) @name.definition.object)

; "package object p": qualified by "package".
(package_object
  "package" @qual
  name: (identifier) @name.definition.object)

(trait_definition
  name: (identifier) @name.definition.trait)

(enum_definition
  name: (identifier) @name.definition.enum)

(simple_enum_case
  name: (identifier) @name.definition.constant)

(full_enum_case
  name: (identifier) @name.definition.constant)

(type_definition
  name: (type_identifier) @name.definition.type)

; "def this(…)": an auxiliary constructor.
(template_body
  (function_definition
    name: (identifier) @name.definition.constructor
    (#eq? @name.definition.constructor "this")))

(template_body
  [
    (function_definition
      name: (identifier) @name.definition.method)
    (function_declaration
      name: (identifier) @name.definition.method)
  ])

(enum_body
  (function_definition
    name: (identifier) @name.definition.method))

(function_definition
  name: (identifier) @name.definition.function)

(function_declaration
  name: (identifier) @name.definition.function)

; Values: at the top level and in an object or a package object (whose
; members are static) a "val" or a named "given" is a constant and a "var"
; a variable. Values of classes and traits are instance state and left out.
(compilation_unit
  [
    (val_definition
      pattern: (identifier) @name.definition.constant)
    (given_definition
      name: (identifier) @name.definition.constant)
    (var_definition
      pattern: (identifier) @name.definition.variable)
  ])

(object_definition
  body: (template_body
    [
      (val_definition
        pattern: (identifier) @name.definition.constant)
      (given_definition
        name: (identifier) @name.definition.constant)
      (var_definition
        pattern: (identifier) @name.definition.variable)
    ]))

(package_object
  body: (template_body
    [
      (val_definition
        pattern: (identifier) @name.definition.constant)
      (given_definition
        name: (identifier) @name.definition.constant)
      (var_definition
        pattern: (identifier) @name.definition.variable)
    ]))

; ---- References ----

(annotation
  name: [
    (type_identifier) @name.reference.annotation
    (stable_type_identifier
      (type_identifier) @name.reference.annotation)
  ])

; A one-letter type name is almost always a type parameter ("T", "F");
; "?" is a wildcard.
((type_identifier) @ignore
  (#match? @ignore "^([A-Z]|\\?)$"))

; The first parent of a class is its superclass (or a trait); the ones
; after "with" or "," are mixed-in traits. (The parents share the field
; "type", which a query matches on the first one only: no field here.)
(extends_clause
  "extends" @qual
  .
  [
    (type_identifier) @name.reference.class
    (stable_type_identifier
      (type_identifier) @name.reference.class)
    (generic_type
      type: [
        (type_identifier) @name.reference.class
        (stable_type_identifier
          (type_identifier) @name.reference.class)
      ])
  ])

(extends_clause
  [
    (type_identifier) @name.reference.implementation
    (stable_type_identifier
      (type_identifier) @name.reference.implementation)
    (generic_type
      type: [
        (type_identifier) @name.reference.implementation
        (stable_type_identifier
          (type_identifier) @name.reference.implementation)
      ])
  ])

; "new T(…) { … }": an anonymous subclass of T, whose body calls T's
; members; "new" qualifies T as a parent, as "extends" does.
(instance_expression
  "new" @qual
  [
    (type_identifier) @name.reference.class
    (stable_type_identifier
      (type_identifier) @name.reference.class)
    (generic_type
      type: [
        (type_identifier) @name.reference.class
        (stable_type_identifier
          (type_identifier) @name.reference.class)
      ])
  ]
  (template_body))

; The type of a val, a var or a parameter is qualified by the name it
; declares: "val x: T", "val x = new T(…)", "(x: T)"; "val x = T(…)" (a
; case class's or a companion's apply) qualifies the call by "x =".
([
  (val_definition
    pattern: (identifier) @qual
    type: [
      (type_identifier) @name.reference.type
      (generic_type
        type: (type_identifier) @name.reference.type)
    ])
  (var_definition
    pattern: (identifier) @qual
    type: [
      (type_identifier) @name.reference.type
      (generic_type
        type: (type_identifier) @name.reference.type)
    ])
  (parameter
    name: (identifier) @qual
    type: [
      (type_identifier) @name.reference.type
      (generic_type
        type: (type_identifier) @name.reference.type)
    ])
  (class_parameter
    name: (identifier) @qual
    type: [
      (type_identifier) @name.reference.type
      (generic_type
        type: (type_identifier) @name.reference.type)
    ])
])

([
  (val_definition
    pattern: (identifier) @qual
    value: (instance_expression
      [
        (type_identifier) @name.reference.class
        (generic_type
          type: (type_identifier) @name.reference.class)
      ]))
  (var_definition
    pattern: (identifier) @qual
    value: (instance_expression
      [
        (type_identifier) @name.reference.class
        (generic_type
          type: (type_identifier) @name.reference.class)
      ]))
])

([
  (val_definition
    pattern: (identifier) @qual
    "=" @qual
    value: (call_expression
      function: (identifier) @name.reference.call))
  (var_definition
    pattern: (identifier) @qual
    "=" @qual
    value: (call_expression
      function: (identifier) @name.reference.call))
]
  (#match? @name.reference.call "^[A-Z]"))

; "new Order(…)".
(instance_expression
  [
    (type_identifier) @name.reference.class
    (stable_type_identifier
      (type_identifier) @name.reference.class)
    (generic_type
      type: [
        (type_identifier) @name.reference.class
        (stable_type_identifier
          (type_identifier) @name.reference.class)
      ])
  ])

; "this(…)" in an auxiliary constructor calls the primary one.
(call_expression
  function: (identifier) @ignore
  (#eq? @ignore "this"))

; A call is qualified by its object when that is a name ("this" and
; "super" are names here), by "." when it is another expression; a plain
; call has no qualifier.
(call_expression
  function: [
    (field_expression
      value: (identifier) @qual
      field: (identifier) @name.reference.call)
    (generic_function
      function: (field_expression
        value: (identifier) @qual
        field: (identifier) @name.reference.call))
  ])

; "a.b.m()": qualified by the path "a.b" (a package's object, an
; object's nested one).
(call_expression
  function: [
    (field_expression
      value: (field_expression
        value: (identifier)
        field: (identifier)) @qual
      field: (identifier) @name.reference.call)
    (generic_function
      function: (field_expression
        value: (field_expression
          value: (identifier)
          field: (identifier)) @qual
        field: (identifier) @name.reference.call))
  ])

(call_expression
  function: [
    (field_expression
      "." @qual
      field: (identifier) @name.reference.call)
    (generic_function
      function: (field_expression
        "." @qual
        field: (identifier) @name.reference.call))
  ])

(infix_expression
  left: (identifier) @qual
  operator: (identifier) @name.reference.call)

(infix_expression
  left: (_) @qual
  operator: (identifier) @name.reference.call)

; Calls: "f(x)", "Order(…)" (apply), "o.f(x)", "f[T](x)", "xs map f".
(call_expression
  function: [
    (identifier) @name.reference.call
    (field_expression
      field: (identifier) @name.reference.call)
    (generic_function
      function: [
        (identifier) @name.reference.call
        (field_expression
          field: (identifier) @name.reference.call)
      ])
  ])

(infix_expression
  operator: (identifier) @name.reference.call)

; A capitalized receiver is an object: "Instant.now()", "Status.Open".
(field_expression
  value: (identifier) @name.reference.type
  "." @qual
  (#match? @name.reference.type "^[A-Z]"))

; Imports: "import a.b.C", "import a.b.{C, D => E}", "import a.b._". The
; path segments share the field "path", which a query matches on the first
; one only: no field here.
; An import on one line is qualified by its text; a selector by the names
; of its path, and a renamed one by "=>" or "as" and its new name too.
(import_declaration
  (identifier) @name.reference.package
  .
  (namespace_wildcard)) @qual

(import_declaration
  (identifier) @name.reference.import .) @qual

(import_declaration
  .
  ((identifier) @qual
    ".")+
  .
  (namespace_selectors
    [
      (identifier) @name.reference.import
      (arrow_renamed_identifier
        name: (identifier) @name.reference.import
        "=>" @qual
        alias: (identifier) @qual)
      (as_renamed_identifier
        name: (identifier) @name.reference.import
        "as" @qual
        alias: (identifier) @qual)
    ]))

(type_identifier) @name.reference.type
