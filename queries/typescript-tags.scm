; Tags for TypeScript: what a module defines and what it refers to.
; TSX uses this query followed by jsx-tags.scm.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(class_declaration
  name: (type_identifier) @name.definition.class)

(abstract_class_declaration
  name: (type_identifier) @name.definition.class)

(interface_declaration
  name: (type_identifier) @name.definition.interface)

(type_alias_declaration
  name: (type_identifier) @name.definition.type)

(enum_declaration
  name: (identifier) @name.definition.enum)

(internal_module
  name: [
    (identifier) @name.definition.module
    (nested_identifier
      property: (property_identifier) @name.definition.module)
  ])

(module
  name: [
    (identifier) @name.definition.module
    (nested_identifier
      property: (property_identifier) @name.definition.module)
  ])

(class_body
  [
    (method_definition
      name: (property_identifier) @name.definition.constructor)
    (method_signature
      name: (property_identifier) @name.definition.constructor)
  ]
  (#eq? @name.definition.constructor "constructor"))

; A method of a class declaration is qualified by the class.
([
  (class_declaration
    name: (type_identifier) @qual
    body: (class_body
      [
        (method_definition
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method)
        (method_signature
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method)
        (abstract_method_signature
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method)
        (public_field_definition
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method
          value: [
            (arrow_function)
            (function_expression)
          ])
      ]))
  (abstract_class_declaration
    name: (type_identifier) @qual
    body: (class_body
      [
        (method_definition
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method)
        (method_signature
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method)
        (abstract_method_signature
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method)
        (public_field_definition
          name: [
            (property_identifier)
            (private_property_identifier)
          ] @name.definition.method
          value: [
            (arrow_function)
            (function_expression)
          ])
      ]))
])

(class_body
  [
    (method_definition
      name: [
        (property_identifier)
        (private_property_identifier)
      ] @name.definition.method)
    (method_signature
      name: [
        (property_identifier)
        (private_property_identifier)
      ] @name.definition.method)
    (abstract_method_signature
      name: [
        (property_identifier)
        (private_property_identifier)
      ] @name.definition.method)
  ])

; A class field holding a function is a method (event handlers and the like).
(class_body
  (public_field_definition
    name: [
      (property_identifier)
      (private_property_identifier)
    ] @name.definition.method
    value: [
      (arrow_function)
      (function_expression)
    ]))

(class_body
  (public_field_definition
    name: [
      (property_identifier)
      (private_property_identifier)
    ] @name.definition.field))

; The members of an interface, and of an object type named by a type alias.
(interface_body
  (method_signature
    name: (property_identifier) @name.definition.method))

(interface_body
  (property_signature
    name: (property_identifier) @name.definition.field))

(type_alias_declaration
  value: (object_type
    [
      (method_signature
        name: (property_identifier) @name.definition.method)
      (property_signature
        name: (property_identifier) @name.definition.field)
    ]))

(function_declaration
  name: (identifier) @name.definition.function)

(generator_function_declaration
  name: (identifier) @name.definition.function)

; Overload signatures and "declare function".
(function_signature
  name: (identifier) @name.definition.function)

; Module-level bindings: at the top of the file, exported (from a module
; or a namespace) or declared.
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
  ])

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

(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name.definition.class
      value: (class))))

(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name.definition.class
      value: (class))))

; The methods of an object literal bound at module level: "const api = { get() {} }".
(program
  (lexical_declaration
    (variable_declarator
      value: (object
        (method_definition
          name: (property_identifier) @name.definition.method)))))

(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      value: (object
        (method_definition
          name: (property_identifier) @name.definition.method)))))

(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name.definition.constant)))

(export_statement
  declaration: (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name.definition.constant)))

(ambient_declaration
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name.definition.constant)))

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
  ])

(export_statement
  declaration: [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
  ])

(ambient_declaration
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name.definition.variable))
  ])

; A type parameter is local to its declaration.
(type_parameter
  name: (type_identifier) @ignore)

; ---- References ----

; A one-letter type name is almost always a type parameter ("T", "K").
((type_identifier) @ignore
  (#match? @ignore "^[A-Z]$"))

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

(extends_clause
  value: (identifier) @name.reference.class)

(extends_clause
  value: (member_expression
    property: (property_identifier) @name.reference.class))

(implements_clause
  [
    (type_identifier) @name.reference.implementation
    (nested_type_identifier
      name: (type_identifier) @name.reference.implementation)
    (generic_type
      name: [
        (type_identifier) @name.reference.implementation
        (nested_type_identifier
          name: (type_identifier) @name.reference.implementation)
      ])
  ])

(new_expression
  constructor: (identifier) @name.reference.class)

(new_expression
  constructor: (member_expression
    object: (identifier) @qual
    property: (property_identifier) @name.reference.class))

(new_expression
  constructor: (member_expression
    property: (property_identifier) @name.reference.class))

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

; A type of a namespace or module: "ns.T".
(nested_type_identifier
  module: (identifier) @qual
  name: (type_identifier) @name.reference.type)

; Every other use of a type name: annotations, type arguments, "extends"
; of an interface, "as" and "satisfies".
(type_identifier) @name.reference.type
