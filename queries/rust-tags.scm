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

; A variant is qualified by its enum.
(enum_item
  name: (type_identifier) @qual
  body: (enum_variant_list
    (enum_variant
      name: (identifier) @name.definition.variant)))

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

; The methods and constants of an impl block are qualified by its type,
; "Trait for Type" in a trait's impl; those of a trait by "trait Trait",
; and so are its associated types.
(impl_item
  trait: (_) @qual
  "for" @qual
  type: (_) @qual
  body: (declaration_list
    [
      (function_item
        name: (identifier) @name.definition.method)
      (function_signature_item
        name: (identifier) @name.definition.method)
      (const_item
        name: (identifier) @name.definition.constant)
    ]))

(impl_item
  !trait
  type: (_) @qual
  body: (declaration_list
    [
      (function_item
        name: (identifier) @name.definition.method)
      (function_signature_item
        name: (identifier) @name.definition.method)
      (const_item
        name: (identifier) @name.definition.constant)
    ]))

(trait_item
  "trait" @qual
  name: (type_identifier) @qual
  body: (declaration_list
    [
      (function_item
        name: (identifier) @name.definition.method)
      (function_signature_item
        name: (identifier) @name.definition.method)
      (const_item
        name: (identifier) @name.definition.constant)
      (associated_type
        name: (type_identifier) @name.definition.type)
    ]))

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

; A path qualifies the name at its end by what comes before it: the
; trait "fmt::Display" of an impl by "fmt", the call "de::from_str()" by
; "de", "Self::new()" by "Self".
(impl_item
  trait: [
    (type_identifier) @name.reference.implementation
    (scoped_type_identifier
      path: (_) @qual
      name: (type_identifier) @name.reference.implementation)
    (generic_type
      type: [
        (type_identifier) @name.reference.implementation
        (scoped_type_identifier
          path: (_) @qual
          name: (type_identifier) @name.reference.implementation)
      ])
  ])

; A method call is qualified by "self" on self, by "." on another value.
(call_expression
  function: [
    (scoped_identifier
      path: (_) @qual
      name: (identifier) @name.reference.call)
    (field_expression
      value: (self) @qual
      field: (field_identifier) @name.reference.call)
    (generic_function
      function: [
        (scoped_identifier
          path: (_) @qual
          name: (identifier) @name.reference.call)
        (field_expression
          value: (self) @qual
          field: (field_identifier) @name.reference.call)
      ])
  ])

(call_expression
  function: [
    (field_expression
      "." @qual
      field: (field_identifier) @name.reference.call)
    (generic_function
      function: (field_expression
        "." @qual
        field: (field_identifier) @name.reference.call))
  ])

(call_expression
  function: [
    (identifier) @name.reference.call
    (generic_function
      function: (identifier) @name.reference.call)
  ])

(macro_invocation
  macro: [
    (identifier) @name.reference.macro
    (scoped_identifier
      path: (_) @qual
      name: (identifier) @name.reference.macro)
  ])

; use: the last segment of each path is the imported name; "Sku as
; ItemCode" imports Sku. The import is qualified by its path, "a::b::C";
; after a rename by the path, "as" and the new name; in a group by the
; group's path, "::" and the path in the group ("a::{b::C}" as
; "a :: b::C"). A glob import is named "*", qualified by its path.
(use_declaration
  argument: [
    (identifier) @name.reference.import
    (scoped_identifier
      name: (identifier) @name.reference.import)
  ] @qual)

(use_declaration
  argument: (use_as_clause
    path: [
      (identifier) @name.reference.import
      (scoped_identifier
        name: (identifier) @name.reference.import)
    ] @qual
    "as" @qual
    alias: (identifier) @qual))

(use_declaration
  argument: (use_wildcard
    (_) @qual
    "*" @name.reference.import))

(use_declaration
  argument: (scoped_use_list
    path: (_) @qual
    "::" @qual
    list: (use_list
      [
        (identifier) @name.reference.import
        (scoped_identifier
          name: (identifier) @name.reference.import)
      ] @qual)))

(use_declaration
  argument: (scoped_use_list
    path: (_) @qual
    "::" @qual
    list: (use_list
      (use_as_clause
        path: [
          (identifier) @name.reference.import
          (scoped_identifier
            name: (identifier) @name.reference.import)
        ] @qual
        "as" @qual
        alias: (identifier) @qual))))

(use_declaration
  argument: (scoped_use_list
    path: (_) @qual
    "::" @qual
    list: (use_list
      (use_wildcard
        (_) @qual
        "*" @name.reference.import))))

(use_declaration
  argument: (scoped_use_list
    path: (_) @qual
    "::" @qual
    list: (use_list
      (scoped_use_list
        path: (_) @qual
        "::" @qual
        list: (use_list
          [
            (identifier) @name.reference.import
            (scoped_identifier
              name: (identifier) @name.reference.import)
          ] @qual)))))

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

; A type named by a path: "fmt::Formatter", "Self::Item".
(scoped_type_identifier
  path: (_) @qual
  name: (type_identifier) @name.reference.type
  (#not-match? @name.reference.type "^([A-Z]|Self)$"))

; Self and one-letter generic parameters name no type of their own.
((type_identifier) @name.reference.type
  (#not-match? @name.reference.type "^([A-Z]|Self)$"))
