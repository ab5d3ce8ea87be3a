; Tags for Lua: the functions a file defines (global, local, "M.f", and
; "M.f = function" assignments), the methods ("M:f"), the top-level locals
; that hold a table (modules and classes) and the top-level globals; and
; the functions and methods it calls and the modules it requires.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(function_declaration
  name: (method_index_expression
    method: (identifier) @name.definition.method))

(function_declaration
  name: [
    (identifier) @name.definition.function
    (dot_index_expression
      field: (identifier) @name.definition.function)
  ])

; f = function() end, M.f = function() end, local f = function() end.
(assignment_statement
  (variable_list
    .
    name: [
      (identifier) @name.definition.function
      (dot_index_expression
        field: (identifier) @name.definition.function)
    ])
  (expression_list
    .
    value: (function_definition)))

; local M = {} at the top of the file: a module or a class.
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        .
        name: (identifier) @name.definition.variable)
      (expression_list
        .
        value: (table_constructor)))))

; Globals set at the top of the file.
(chunk
  (assignment_statement
    (variable_list
      name: (identifier) @name.definition.variable)))

; ---- References ----

((function_call
  name: (identifier) @_require
  arguments: (arguments
    .
    (string
      content: (string_content) @name.reference.import)))
  (#eq? @_require "require"))

((function_call
  name: (identifier) @name.reference.call)
  (#not-eq? @name.reference.call "require"))

(function_call
  name: [
    (dot_index_expression
      field: (identifier) @name.reference.call)
    (method_index_expression
      method: (identifier) @name.reference.call)
  ])
