; Tags for R: the functions a script assigns at its top level (with <-,
; <<- or =), the R6 and reference classes it makes with R6Class or
; setRefClass and their methods, and S4 classes made with setClass; and
; the functions it calls (pkg::f and obj$f too) and the packages it loads
; with library() or require().
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; Warehouse <- R6Class("Warehouse", public = list(f = function() ...)).
(program
  (binary_operator
    lhs: (identifier) @name.definition.class
    operator: ["<-" "<<-" "="]
    rhs: (call
      function: (identifier) @_maker))
  (#any-of? @_maker "R6Class" "setRefClass"))

((call
  function: (identifier) @_maker
  arguments: (arguments
    (argument
      name: (identifier) @_section
      value: (call
        function: (identifier) @_list
        arguments: (arguments
          (argument
            name: (identifier) @name.definition.method
            value: (function_definition)))))))
  (#any-of? @_maker "R6Class" "setRefClass")
  (#any-of? @_section "public" "private" "active" "methods")
  (#eq? @_list "list"))

; setClass("Person", ...) names an S4 class.
(program
  (call
    function: (identifier) @_maker
    arguments: (arguments
      .
      (argument
        value: (string
          content: (string_content) @name.definition.class))))
  (#eq? @_maker "setClass"))

(program
  (binary_operator
    lhs: [
      (identifier) @name.definition.function
      (string
        content: (string_content) @name.definition.function)
    ]
    operator: ["<-" "<<-" "="]
    rhs: (function_definition)))

; ---- References ----

((call
  function: (identifier) @_load
  arguments: (arguments
    .
    (argument
      value: [
        (identifier) @name.reference.import
        (string
          content: (string_content) @name.reference.import)
      ])))
  (#any-of? @_load "library" "require" "requireNamespace"))

((call
  function: (identifier) @name.reference.call)
  (#not-any-of? @name.reference.call "library" "require" "requireNamespace"))

(call
  function: [
    (namespace_operator
      rhs: (identifier) @name.reference.call)
    (extract_operator
      rhs: (identifier) @name.reference.call)
  ])
