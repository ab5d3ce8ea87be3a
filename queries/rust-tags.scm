; Tags for Rust: the modules, structs and their fields, enums and their
; variants, unions, traits, type aliases, functions, methods (in impl and
; trait blocks), constants, statics and macro_rules! macros a file
; defines, and the functions, methods and macros it calls, the traits it
; implements, the names it imports with use and the types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(mod_item
  name: (identifier) @name.definition.module)

(struct_item
  name: (type_identifier) @name.definition.struct)

(struct_item
  body: (field_declaration_list
    (field_declaration
      name: (field_identifier) @name.definition.field)))

(union_item
  name: (type_identifier) @name.definition.union)

(union_item
  body: (field_declaration_list
    (field_declaration
      name: (field_identifier) @name.definition.field)))

(enum_item
  name: (type_identifier) @name.definition.enum)

(enum_variant
  name: (identifier) @name.definition.variant)

(trait_item
  name: (type_identifier) @name.definition.trait)

; Functions of an extern block are functions; in an impl or trait block
; they are methods, signatures too.
(foreign_mod_item
  body: (declaration_list
    (function_signature_item
      name: (identifier) @name.definition.function)))

; Functions in an impl or trait block are methods, signatures too.
(declaration_list
  [
    (function_item
      name: (identifier) @name.definition.method)
    (function_signature_item
      name: (identifier) @name.definition.method)
  ])

(function_item
  name: (identifier) @name.definition.function)

; Items declared in a function body are local: no tags.
(block
  [
    (const_item
      name: (identifier) @ignore)
    (static_item
      name: (identifier) @ignore)
    (type_item
      name: (type_identifier) @ignore)
  ])

; An impl's associated type only fills in its trait's.
(impl_item
  body: (declaration_list
    (type_item
      name: (type_identifier) @ignore)))

(type_item
  name: (type_identifier) @name.definition.type)

(associated_type
  name: (type_identifier) @name.definition.type)

(const_item
  name: (identifier) @name.definition.constant)

(static_item
  name: (identifier) @name.definition.variable)

(macro_definition
  name: (identifier) @name.definition.macro)

; A generic's own parameters are no references.
(type_parameter
  name: (type_identifier) @ignore)

; ---- References ----

(impl_item
  trait: [
    (type_identifier) @name.reference.implementation
    (scoped_type_identifier
      name: (type_identifier) @name.reference.implementation)
    (generic_type
      type: [
        (type_identifier) @name.reference.implementation
        (scoped_type_identifier
          name: (type_identifier) @name.reference.implementation)
      ])
  ])

(call_expression
  function: [
    (identifier) @name.reference.call
    (scoped_identifier
      name: (identifier) @name.reference.call)
    (field_expression
      field: (field_identifier) @name.reference.call)
    (generic_function
      function: [
        (identifier) @name.reference.call
        (scoped_identifier
          name: (identifier) @name.reference.call)
        (field_expression
          field: (field_identifier) @name.reference.call)
      ])
  ])

(macro_invocation
  macro: [
    (identifier) @name.reference.macro
    (scoped_identifier
      name: (identifier) @name.reference.macro)
  ])

; use: the last segment of each path is the imported name; "Sku as
; ItemCode" imports Sku.
(use_declaration
  argument: [
    (identifier) @name.reference.import
    (scoped_identifier
      name: (identifier) @name.reference.import)
  ])

(use_list
  [
    (identifier) @name.reference.import
    (scoped_identifier
      name: (identifier) @name.reference.import)
  ])

(use_as_clause
  path: [
    (identifier) @name.reference.import
    (scoped_identifier
      name: (identifier) @name.reference.import)
  ])

; Self and one-letter generic parameters name no type of their own.
((type_identifier) @name.reference.type
  (#not-match? @name.reference.type "^([A-Z]|Self)$"))
