; Tags for JavaScript (and JSX): what a module defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(class_declaration
  name: (identifier) @name.definition.class)

(class_body
  (method_definition
    name: (property_identifier) @name.definition.constructor
    (#eq? @name.definition.constructor "constructor")))

; A method of a class declaration is qualified by the class.
(class_declaration
  name: (identifier) @qual
  body: (class_body
    (method_definition
      name: [
        (property_identifier)
        (private_property_identifier)
      ] @name.definition.method)))

(class_declaration
  name: (identifier) @qual
  body: (class_body
    (field_definition
      property: [
        (property_identifier)
        (private_property_identifier)
      ] @name.definition.method
      value: [
        (arrow_function)
        (function_expression)
      ])))

(class_body
  (method_definition
    name: [
      (property_identifier)
      (private_property_identifier)
    ] @name.definition.method))

; A class field holding a function is a method (React handlers and the like).
(class_body
  (field_definition
    property: [
      (property_identifier)
      (private_property_identifier)
    ] @name.definition.method
    value: [
      (arrow_function)
      (function_expression)
    ]))

(class_body
  (field_definition
    property: [
      (property_identifier)
      (private_property_identifier)
    ] @name.definition.field))

(function_declaration
  name: (identifier) @name.definition.function)

(generator_function_declaration
  name: (identifier) @name.definition.function)

; Module-level bindings, with or without "export". A binding of a
; require() call is an import, not a definition: a "require" reference
; qualified by the module.
(variable_declarator
  name: (identifier) @name.reference.require
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments
      (string) @qual)
    (#eq? @_require "require")))

(variable_declarator
  name: (identifier) @ignore
  value: (call_expression
    function: (identifier) @_require
    (#eq? @_require "require")))

(variable_declarator
  name: (identifier) @ignore
  value: (member_expression
    object: (call_expression
      function: (identifier) @_require
      (#eq? @_require "require"))))

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name.definition.function
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ]))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name.definition.function
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ]))
    (export_statement
      declaration: [
        (lexical_declaration
          (variable_declarator
            name: (identifier) @name.definition.function
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ]))
        (variable_declaration
          (variable_declarator
            name: (identifier) @name.definition.function
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ]))
      ])
  ])

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name.definition.class
        value: (class)))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name.definition.class
        value: (class)))
    (export_statement
      declaration: [
        (lexical_declaration
          (variable_declarator
            name: (identifier) @name.definition.class
            value: (class)))
        (variable_declaration
          (variable_declarator
            name: (identifier) @name.definition.class
            value: (class)))
      ])
  ])

; The methods of an object literal bound at module level: "const api = { get() {} }".
(program
  [
    (lexical_declaration
      (variable_declarator
        value: (object
          (method_definition
            name: (property_identifier) @name.definition.method))))
    (export_statement
      declaration: (lexical_declaration
        (variable_declarator
          value: (object
            (method_definition
              name: (property_identifier) @name.definition.method)))))
  ])

(program
  [
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name.definition.constant))
    (export_statement
      declaration: (lexical_declaration
        kind: "const"
        (variable_declarator
          name: (identifier) @name.definition.constant)))
  ])

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
    (export_statement
      declaration: [
        (lexical_declaration
          (variable_declarator
            name: (identifier) @name.definition.variable))
        (variable_declaration
          (variable_declarator
            name: (identifier) @name.definition.variable))
      ])
  ])

; CommonJS: "exports.name = function () {}", "module.exports.name = …" and
; "Klass.prototype.name = function () {}".
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_exports
        property: (property_identifier) @name.definition.function)
      right: [
        (arrow_function)
        (function_expression)
      ])
    (#eq? @_exports "exports")))

(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        property: (property_identifier) @name.definition.function)
      right: [
        (arrow_function)
        (function_expression)
      ])
    (#eq? @_module "module")
    (#eq? @_exports "exports")))

(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          property: (property_identifier) @_prototype)
        property: (property_identifier) @name.definition.method)
      right: [
        (arrow_function)
        (function_expression)
      ])
    (#eq? @_prototype "prototype")))

; ---- References ----

(decorator
  (identifier) @name.reference.decorator)

(decorator
  (member_expression
    property: (property_identifier) @name.reference.decorator))

(decorator
  (call_expression
    function: (identifier) @name.reference.decorator))

(decorator
  (call_expression
    function: (member_expression
      property: (property_identifier) @name.reference.decorator)))

(class_heritage
  (identifier) @name.reference.class)

(class_heritage
  (member_expression
    property: (property_identifier) @name.reference.class))

(new_expression
  constructor: (identifier) @name.reference.class)

(new_expression
  constructor: (member_expression
    object: (identifier) @qual
    property: (property_identifier) @name.reference.class))

(new_expression
  constructor: (member_expression
    property: (property_identifier) @name.reference.class))

; require() names a path, not a definition.
(call_expression
  function: (identifier) @ignore
  (#eq? @ignore "require"))

(call_expression
  function: (identifier) @name.reference.call)

; A call of a plain name is a "call", of a member ("x.f()") a "member"
; call, qualified by its object when that is a name, "this", "super" or a
; member of one.
(call_expression
  function: (member_expression
    object: [
      (identifier)
      (this)
      (super)
      (member_expression)
    ] @qual
    property: [
      (property_identifier)
      (private_property_identifier)
    ] @name.reference.member))

(call_expression
  function: (member_expression
    property: [
      (property_identifier)
      (private_property_identifier)
    ] @name.reference.member))

; JSX: a capitalized tag is a component; lower-case tags are HTML.
(jsx_opening_element
  name: (identifier) @name.reference.component
  (#match? @name.reference.component "^[A-Z]"))

(jsx_self_closing_element
  name: (identifier) @name.reference.component
  (#match? @name.reference.component "^[A-Z]"))

(jsx_opening_element
  name: (member_expression
    property: (property_identifier) @name.reference.component))

(jsx_self_closing_element
  name: (member_expression
    property: (property_identifier) @name.reference.component))

; Imports: the imported name, not a local alias (a default import's is
; its local name). The qualifier is the alias, or "* as name" for a
; namespace, then the module as written.
(import_statement
  (import_clause
    (identifier) @name.reference.import)
  source: (string) @qual)

(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (identifier) @name.reference.import
        alias: (identifier) @qual)))
  source: (string) @qual)

(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (identifier) @name.reference.import)))
  source: (string) @qual)

(import_statement
  (import_clause
    (namespace_import
      (identifier) @name.reference.import) @qual)
  source: (string) @qual)

; Re-exports: "export {x as y} from", "export * as ns from" and
; "export * from" (whose name is "*").
(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @name.reference.import
      alias: (identifier) @qual))
  source: (string) @qual)

(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @name.reference.import))
  source: (string) @qual)

(export_statement
  (namespace_export
    (identifier) @name.reference.import) @qual
  source: (string) @qual)

(export_statement
  "*" @name.reference.import
  source: (string) @qual)

(variable_declarator
  name: (object_pattern
    (pair_pattern
      key: (property_identifier) @name.reference.import
      value: (identifier) @qual))
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments
      (string) @qual)
    (#eq? @_require "require")))

(variable_declarator
  name: (object_pattern
    (shorthand_property_identifier_pattern) @name.reference.import)
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments
      (string) @qual)
    (#eq? @_require "require")))

(variable_declarator
  name: (object_pattern
    [
      (shorthand_property_identifier_pattern) @name.reference.import
      (pair_pattern
        key: (property_identifier) @name.reference.import)
    ])
  value: (call_expression
    function: (identifier) @_require
    (#eq? @_require "require")))
