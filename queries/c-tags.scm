; Tags for C: the functions (definitions and prototypes), structs, unions,
; enums and their constants, typedefs, macros and file-scope variables a
; file defines, and the functions it calls and the types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; Functions, with up to two levels of pointer in the return type. A
; declaration with a function declarator is a prototype.
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @name.definition.function))

(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @name.definition.function)))

(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name.definition.function))))

(declaration
  declarator: (function_declarator
    declarator: (identifier) @name.definition.function))

(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @name.definition.function)))

(declaration
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name.definition.function))))

; Structs, unions and enums with a body; "struct item *p" is a use.
(struct_specifier
  name: (type_identifier) @name.definition.struct
  body: (field_declaration_list))

(union_specifier
  name: (type_identifier) @name.definition.union
  body: (field_declaration_list))

(enum_specifier
  name: (type_identifier) @name.definition.enum
  body: (enumerator_list))

(enumerator
  name: (identifier) @name.definition.constant)

; The fields of a struct or union.
(field_declaration_list
  (field_declaration
    declarator: [
      (field_identifier) @name.definition.field
      (pointer_declarator
        declarator: (field_identifier) @name.definition.field)
      (array_declarator
        declarator: (field_identifier) @name.definition.field)
      (pointer_declarator
        declarator: (array_declarator
          declarator: (field_identifier) @name.definition.field))
      (function_declarator
        declarator: (parenthesized_declarator
          (pointer_declarator
            declarator: (field_identifier) @name.definition.field)))
    ]))

; Typedefs: plain, pointer, array and function pointer.
(type_definition
  declarator: [
    (type_identifier) @name.definition.type
    (pointer_declarator
      declarator: (type_identifier) @name.definition.type)
    (array_declarator
      declarator: (type_identifier) @name.definition.type)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (type_identifier) @name.definition.type)))
    (function_declarator
      declarator: (type_identifier) @name.definition.type)
  ])

; Macros. An object-like macro without a value is an include guard or a
; flag, not worth a map line.
(preproc_def
  name: (identifier) @name.definition.macro
  value: (preproc_arg))

(preproc_function_def
  name: (identifier) @name.definition.macro)

; Variables declared in a function body are locals: no tags.
(compound_statement
  (declaration
    declarator: [
      (identifier) @ignore
      (pointer_declarator
        declarator: (identifier) @ignore)
      (array_declarator
        declarator: (identifier) @ignore)
      (init_declarator
        declarator: (identifier) @ignore)
      (init_declarator
        declarator: (pointer_declarator
          declarator: (identifier) @ignore))
      (init_declarator
        declarator: (array_declarator
          declarator: (identifier) @ignore))
    ]))

(case_statement
  (declaration
    declarator: [
      (identifier) @ignore
      (pointer_declarator
        declarator: (identifier) @ignore)
      (array_declarator
        declarator: (identifier) @ignore)
      (init_declarator
        declarator: (identifier) @ignore)
      (init_declarator
        declarator: (pointer_declarator
          declarator: (identifier) @ignore))
      (init_declarator
        declarator: (array_declarator
          declarator: (identifier) @ignore))
    ]))

; A conditional block in a function body holds locals too.
(compound_statement
  (preproc_if
    (declaration
      declarator: [
        (identifier) @ignore
        (pointer_declarator
          declarator: (identifier) @ignore)
        (init_declarator
          declarator: (identifier) @ignore)
        (init_declarator
          declarator: (pointer_declarator
            declarator: (identifier) @ignore))
      ])))

(compound_statement
  (preproc_ifdef
    (declaration
      declarator: [
        (identifier) @ignore
        (pointer_declarator
          declarator: (identifier) @ignore)
        (init_declarator
          declarator: (identifier) @ignore)
        (init_declarator
          declarator: (pointer_declarator
            declarator: (identifier) @ignore))
      ])))

(for_statement
  initializer: (declaration
    declarator: [
      (identifier) @ignore
      (init_declarator
        declarator: (identifier) @ignore)
      (init_declarator
        declarator: (pointer_declarator
          declarator: (identifier) @ignore))
    ]))

; The other declarations are at file scope: constants (const, not a
; pointer) and global variables.
(declaration
  (type_qualifier) @_const
  declarator: [
    (identifier) @name.definition.constant
    (init_declarator
      declarator: (identifier) @name.definition.constant)
  ]
  (#eq? @_const "const"))

(declaration
  declarator: [
    (identifier) @name.definition.variable
    (pointer_declarator
      declarator: (identifier) @name.definition.variable)
    (array_declarator
      declarator: (identifier) @name.definition.variable)
    (init_declarator
      declarator: (identifier) @name.definition.variable)
    (init_declarator
      declarator: (pointer_declarator
        declarator: (identifier) @name.definition.variable))
    (init_declarator
      declarator: (array_declarator
        declarator: (identifier) @name.definition.variable))
  ])

; ---- References ----

(call_expression
  function: (identifier) @name.reference.call)

(call_expression
  function: (field_expression
    field: (field_identifier) @name.reference.call))

(type_identifier) @name.reference.type

; An #include of a file in quotes refers to that file: its name is the
; file's base name, its path qualifies it. Includes in <> are the
; system's.
(preproc_include
  path: (string_literal) @qual @name.reference.include)
