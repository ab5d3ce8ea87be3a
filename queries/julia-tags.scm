; Tags for Julia: the modules, structs and their fields, abstract and
; primitive types, functions (the "function f() end" and the "f() = ..."
; forms, methods of other modules' functions such as Base.show too),
; macros and constants a file defines, and the functions and macros it
; calls, the types it names and the names it imports with using or import.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(module_definition
  name: (identifier) @name.definition.module)

(struct_definition
  (type_head
    [
      (identifier) @name.definition.struct
      (parametrized_type_expression
        .
        (identifier) @name.definition.struct)
      (binary_expression
        .
        [
          (identifier) @name.definition.struct
          (parametrized_type_expression
            .
            (identifier) @name.definition.struct)
        ])
    ]))

(struct_definition
  (block
    [
      (identifier) @name.definition.field
      (typed_expression
        .
        (identifier) @name.definition.field)
    ]))

(abstract_definition
  (type_head
    [
      (identifier) @name.definition.type
      (parametrized_type_expression
        .
        (identifier) @name.definition.type)
      (binary_expression
        .
        [
          (identifier) @name.definition.type
          (parametrized_type_expression
            .
            (identifier) @name.definition.type)
        ])
    ]))

(primitive_definition
  (type_head
    [
      (identifier) @name.definition.type
      (binary_expression
        .
        (identifier) @name.definition.type)
    ]))

(macro_definition
  (signature
    (call_expression
      .
      (identifier) @name.definition.macro)))

; function f(x) ... end, with a return type or a where clause; "Base.show"
; defines show.
(function_definition
  (signature
    [
      (call_expression
        .
        [
          (identifier) @name.definition.function
          (field_expression
            (identifier) @name.definition.function .)
        ])
      (typed_expression
        .
        (call_expression
          .
          [
            (identifier) @name.definition.function
            (field_expression
              (identifier) @name.definition.function .)
          ]))
      (where_expression
        .
        [
          (call_expression
            .
            [
              (identifier) @name.definition.function
              (field_expression
                (identifier) @name.definition.function .)
            ])
          (typed_expression
            .
            (call_expression
              .
              [
                (identifier) @name.definition.function
                (field_expression
                  (identifier) @name.definition.function .)
              ]))
        ])
    ]))

; f(x) = ..., the short form.
(assignment
  .
  [
    (call_expression
      .
      [
        (identifier) @name.definition.function
        (field_expression
          (identifier) @name.definition.function .)
      ])
    (typed_expression
      .
      (call_expression
        .
        [
          (identifier) @name.definition.function
          (field_expression
            (identifier) @name.definition.function .)
        ]))
    (where_expression
      .
      [
        (call_expression
          .
          [
            (identifier) @name.definition.function
            (field_expression
              (identifier) @name.definition.function .)
          ])
        (typed_expression
          .
          (call_expression
            .
            [
              (identifier) @name.definition.function
              (field_expression
                (identifier) @name.definition.function .)
            ]))
      ])
  ])

(const_statement
  (assignment
    .
    (identifier) @name.definition.constant))

; ---- References ----

; using A, using A.B, import A: x, y, import A.B as C.
(import_alias
  (identifier) @ignore .)

(using_statement
  (identifier) @name.reference.import)

(import_statement
  (identifier) @name.reference.import)

(selected_import
  (identifier) @name.reference.import)

(import_alias
  .
  (identifier) @name.reference.import)

(import_path
  (identifier) @name.reference.import .)

(macrocall_expression
  (macro_identifier
    (identifier) @name.reference.macro))

(call_expression
  .
  [
    (identifier) @name.reference.call
    (field_expression
      (identifier) @name.reference.call .)
    (parametrized_type_expression
      .
      (identifier) @name.reference.call)
  ])

(broadcast_call_expression
  .
  [
    (identifier) @name.reference.call
    (field_expression
      (identifier) @name.reference.call .)
    (parametrized_type_expression
      .
      (identifier) @name.reference.call)
  ])

; Types: x::T, Dict{K,V}, A <: B. One-letter names are type parameters.
((typed_expression
  [
    (identifier) @name.reference.type
    (parametrized_type_expression
      .
      (identifier) @name.reference.type)
  ] .)
  (#not-match? @name.reference.type "^[A-Z]$"))

((parametrized_type_expression
  .
  (identifier) @name.reference.type)
  (#not-match? @name.reference.type "^[A-Z]$"))

((curly_expression
  (identifier) @name.reference.type)
  (#not-match? @name.reference.type "^[A-Z]$"))

((binary_expression
  (operator) @_subtype
  .
  [
    (identifier) @name.reference.type
    (parametrized_type_expression
      .
      (identifier) @name.reference.type)
  ])
  (#eq? @_subtype "<:")
  (#not-match? @name.reference.type "^[A-Z]$"))
