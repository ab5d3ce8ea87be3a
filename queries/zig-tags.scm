; Tags for Zig: the functions a file defines (methods when they belong to
; a container), the structs, enums, unions, opaque types and error sets it
; assigns to a constant, the fields of its containers, its other constants
; and variables at file or container level, and its tests; and the
; functions and methods it calls, the files it imports with @import and
; the types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(source_file
  (function_declaration
    name: (identifier) @name.definition.function))

(function_declaration
  name: (identifier) @name.definition.method)

(test_declaration
  [
    (string
      (string_content) @name.definition.test)
    (identifier) @name.definition.test
  ])

; Declarations in a block are locals; an alias of an import, of another
; declaration (const Allocator = std.mem.Allocator) or of a builtin's
; result (const Self = @This()) defines nothing new.
(block
  (variable_declaration
    .
    (identifier) @ignore))

(variable_declaration
  .
  (identifier) @ignore
  .
  [(builtin_function) (field_expression) (identifier)]
  .)

(variable_declaration
  .
  (identifier) @name.definition.struct
  (struct_declaration))

(variable_declaration
  .
  (identifier) @name.definition.enum
  (enum_declaration))

(variable_declaration
  .
  (identifier) @name.definition.union
  (union_declaration))

(variable_declaration
  .
  (identifier) @name.definition.type
  [(opaque_declaration) (error_set_declaration)])

(variable_declaration
  "var"
  .
  (identifier) @name.definition.variable)

(variable_declaration
  .
  (identifier) @name.definition.constant)

(enum_declaration
  (container_field
    name: (identifier) @name.definition.constant))

(container_field
  name: (identifier) @name.definition.field)

; ---- References ----

((builtin_function
  (builtin_identifier) @_import
  (arguments
    (string
      (string_content) @name.reference.import)))
  (#eq? @_import "@import"))

(call_expression
  function: [
    (identifier) @name.reference.call
    (field_expression
      member: (identifier) @name.reference.call)
  ])

; Types where a type goes, and the type whose declarations a call reaches
; (Warehouse.init): type names are capitalised.
((_
  type: [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((pointer_type
  [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((nullable_type
  [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((slice_type
  [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((array_type
  [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((error_union_type
  [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((struct_initializer
  [
    (identifier) @name.reference.type
    (field_expression
      member: (identifier) @name.reference.type)
  ])
  (#not-eq? @name.reference.type "Self"))

((field_expression
  object: (identifier) @name.reference.type)
  (#match? @name.reference.type "^[A-Z]")
  (#not-eq? @name.reference.type "Self"))
