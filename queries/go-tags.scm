; Tags for Go: what a Go file defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(package_clause
  (package_identifier) @name.definition.package)

; A function's result, when it is one named type (T, *T, q.T, *q.T),
; qualifies it: "T" or "q T".
(function_declaration
  name: (identifier) @name.definition.function
  result: [
    (type_identifier) @qual
    (pointer_type (type_identifier) @qual)
    (generic_type type: (type_identifier) @qual)
    (pointer_type (generic_type type: (type_identifier) @qual))
    (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual)
    (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual))
  ])

; Or the first of its results, as in (*T, error).
(function_declaration
  name: (identifier) @name.definition.function
  result: (parameter_list
    .
    (parameter_declaration
      type: [
        (type_identifier) @qual
        (pointer_type (type_identifier) @qual)
        (generic_type type: (type_identifier) @qual)
        (pointer_type (generic_type type: (type_identifier) @qual))
        (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual)
        (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual))
      ])))

(function_declaration
  name: (identifier) @name.definition.function)

; A method's receiver qualifies it: the receiver's name, when it has one,
; then the name of its type ("s Server" for "(s *Server)", "Set" for
; "(*Set[T])").
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      name: (identifier)? @qual
      type: [
        (type_identifier) @qual
        (pointer_type (type_identifier) @qual)
        (generic_type type: (type_identifier) @qual)
        (pointer_type (generic_type type: (type_identifier) @qual))
      ]))
  name: (field_identifier) @name.definition.method)

(method_declaration
  name: (field_identifier) @name.definition.method)

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name.definition.struct
      type: (struct_type))))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name.definition.interface
      type: (interface_type))))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name.definition.type)))

(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name.definition.type)))

(source_file
  (const_declaration
    (const_spec
      (identifier) @name.definition.constant)))

(source_file
  (var_declaration
    (var_spec
      (identifier) @name.definition.variable)))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        (identifier) @name.definition.variable))))

; The fields of a struct and the methods of an interface: the type's name
; qualifies them, then a field's type when it is one named type ("Cart
; Item", "Cart http Header").
(type_spec
  name: (type_identifier) @qual
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier) @name.definition.field
        type: [
          (type_identifier) @qual
          (pointer_type (type_identifier) @qual)
          (generic_type type: (type_identifier) @qual)
          (pointer_type (generic_type type: (type_identifier) @qual))
          (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual)
          (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual))
        ]))))

(type_spec
  name: (type_identifier) @qual
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier) @name.definition.field))))

(type_spec
  name: (type_identifier) @qual
  type: (interface_type
    (method_elem
      name: (field_identifier) @name.definition.method)))

; Types declared inside functions are neither definitions worth a map
; line nor references.
(type_spec
  name: (type_identifier) @ignore)

(type_alias
  name: (type_identifier) @ignore)

; ---- References ----
;
; A method's result, when it is one named type (or the first of its
; results is), is a "methodresult" reference to that type, qualified by
; the receiver's type and the method's name, then the result's package:
; "Server Handler" or "Server Handler http".

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @qual
        (pointer_type (type_identifier) @qual)
        (generic_type type: (type_identifier) @qual)
        (pointer_type (generic_type type: (type_identifier) @qual))
      ]))
  name: (field_identifier) @qual
  result: [
    (type_identifier) @name.reference.methodresult
    (pointer_type (type_identifier) @name.reference.methodresult)
    (generic_type type: (type_identifier) @name.reference.methodresult)
    (pointer_type (generic_type type: (type_identifier) @name.reference.methodresult))
    (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult)
    (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult))
    (parameter_list
      .
      (parameter_declaration
        type: [
          (type_identifier) @name.reference.methodresult
          (pointer_type (type_identifier) @name.reference.methodresult)
          (generic_type type: (type_identifier) @name.reference.methodresult)
          (pointer_type (generic_type type: (type_identifier) @name.reference.methodresult))
          (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult)
          (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult))
        ]))
  ])

(type_spec
  name: (type_identifier) @qual
  type: (interface_type
    (method_elem
      name: (field_identifier) @qual
      result: [
        (type_identifier) @name.reference.methodresult
        (pointer_type (type_identifier) @name.reference.methodresult)
        (generic_type type: (type_identifier) @name.reference.methodresult)
        (pointer_type (generic_type type: (type_identifier) @name.reference.methodresult))
        (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult)
        (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult))
        (parameter_list
          .
          (parameter_declaration
            type: [
              (type_identifier) @name.reference.methodresult
              (pointer_type (type_identifier) @name.reference.methodresult)
              (generic_type type: (type_identifier) @name.reference.methodresult)
              (pointer_type (generic_type type: (type_identifier) @name.reference.methodresult))
              (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult)
              (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.methodresult))
            ]))
      ])))
;
; What a variable holds, where the source says it: a parameter or a var of
; a named type, "x := T{}", "x := &T{}", "x := F()". The type (a "vartype"
; reference) or the function (a "varcall" reference) is referred to, and
; the variable's name qualifies it, before the package of a qualified
; name: "x" or "x q".

; The parameters of a function literal hold within it: a "closurevar"
; reference, and the literal's closing brace a "closureend" one.

(func_literal
  parameters: (parameter_list
    (parameter_declaration
      name: (identifier) @qual
      type: [
        (type_identifier) @name.reference.closurevar
        (pointer_type (type_identifier) @name.reference.closurevar)
        (generic_type type: (type_identifier) @name.reference.closurevar)
        (pointer_type (generic_type type: (type_identifier) @name.reference.closurevar))
      ])))

(func_literal
  parameters: (parameter_list
    (parameter_declaration
      name: (identifier) @qual
      type: [
        (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.closurevar)
        (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.closurevar))
      ])))

(func_literal
  body: (block "}" @name.reference.closureend .))

(parameter_declaration
  name: (identifier) @qual
  type: [
    (type_identifier) @name.reference.vartype
    (pointer_type (type_identifier) @name.reference.vartype)
    (generic_type type: (type_identifier) @name.reference.vartype)
    (pointer_type (generic_type type: (type_identifier) @name.reference.vartype))
  ])

(parameter_declaration
  name: (identifier) @qual
  type: [
    (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype)
    (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype))
  ])

(var_spec
  name: (identifier) @qual
  type: [
    (type_identifier) @name.reference.vartype
    (pointer_type (type_identifier) @name.reference.vartype)
    (generic_type type: (type_identifier) @name.reference.vartype)
    (pointer_type (generic_type type: (type_identifier) @name.reference.vartype))
  ])

(var_spec
  name: (identifier) @qual
  type: [
    (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype)
    (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype))
  ])

; x := new(T), x := new(q.T)
(short_var_declaration
  left: (expression_list . (identifier) @qual .)
  right: (expression_list . (call_expression
    function: (identifier) @_new
    arguments: (argument_list . [
      (type_identifier) @name.reference.vartype
      (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype)
    ] .)) .)
  (#eq? @_new "new"))

; x := y.(T) and x, ok := y.(T) bind x to T; to an interface literal,
; x := y.(interface{ M() }), to nothing of the tree: its keyword is a
; "varnone" reference.
(short_var_declaration
  left: (expression_list . (identifier) @qual)
  right: (expression_list . (type_assertion_expression type: [
    (type_identifier) @name.reference.vartype
    (pointer_type (type_identifier) @name.reference.vartype)
    (generic_type type: (type_identifier) @name.reference.vartype)
    (pointer_type (generic_type type: (type_identifier) @name.reference.vartype))
    (interface_type "interface" @name.reference.varnone)
  ]) .))

(short_var_declaration
  left: (expression_list . (identifier) @qual)
  right: (expression_list . (type_assertion_expression type: [
    (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype)
    (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype))
  ]) .))

; x := y.f binds x to the type of y's field f: a "varfield" reference.
(short_var_declaration
  left: (expression_list . (identifier) @qual .)
  right: (expression_list . (selector_expression
    operand: (identifier) @qual
    field: (field_identifier) @name.reference.varfield) .))

; x := F(…).f and x := q.F(…).f bind x to the type of the field f of what
; the call gives: a "varcallfield" reference, qualified "x F" or "x q F".
(short_var_declaration
  left: (expression_list . (identifier) @qual .)
  right: (expression_list . (selector_expression
    operand: (call_expression function: [
      (identifier) @qual
      (selector_expression operand: (identifier) @qual field: (field_identifier) @qual)
    ])
    field: (field_identifier) @name.reference.varcallfield) .))

; x := F() and x, err := F() bind x to the result of F.
(short_var_declaration
  left: (expression_list . (identifier) @qual)
  right: (expression_list . [
    (call_expression function: (identifier) @name.reference.varcall)
    (call_expression function: (selector_expression operand: (identifier) @qual field: (field_identifier) @name.reference.varcall))
  ] .))

; x := y.f.M() binds x to the result of the method M of the type of y's
; field f: the qualifier is "x y f".
(short_var_declaration
  left: (expression_list . (identifier) @qual)
  right: (expression_list . (call_expression function: (selector_expression
    operand: (selector_expression operand: (identifier) @qual field: (field_identifier) @qual)
    field: (field_identifier) @name.reference.varcall)) .))

(short_var_declaration
  left: (expression_list . (identifier) @qual .)
  right: (expression_list . [
    (composite_literal type: (type_identifier) @name.reference.vartype)
    (composite_literal type: (generic_type type: (type_identifier) @name.reference.vartype))
    (unary_expression operand: (composite_literal type: (type_identifier) @name.reference.vartype))
    (unary_expression operand: (composite_literal type: (generic_type type: (type_identifier) @name.reference.vartype)))
    (call_expression function: (identifier) @name.reference.varcall)
  ] .))

(short_var_declaration
  left: (expression_list . (identifier) @qual .)
  right: (expression_list . [
    (composite_literal type: (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype))
    (unary_expression operand: (composite_literal type: (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype)))
    (call_expression function: (selector_expression operand: (identifier) @qual field: (field_identifier) @name.reference.varcall))
  ] .))

(var_spec
  name: (identifier) @qual
  value: (expression_list . [
    (composite_literal type: (type_identifier) @name.reference.vartype)
    (unary_expression operand: (composite_literal type: (type_identifier) @name.reference.vartype))
    (call_expression function: (identifier) @name.reference.varcall)
  ] .))

(var_spec
  name: (identifier) @qual
  value: (expression_list . [
    (composite_literal type: (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype))
    (unary_expression operand: (composite_literal type: (qualified_type package: (package_identifier) @qual name: (type_identifier) @name.reference.vartype)))
    (call_expression function: (selector_expression operand: (identifier) @qual field: (field_identifier) @name.reference.varcall))
  ] .))
;
; A call of a plain name is a "call", of a selector ("x.F()") a "member"
; call: only the first can be a call of a builtin function. A selector's
; operand, when it is a plain name, qualifies the member: a package name
; or a value.

(call_expression
  function: (identifier) @name.reference.call)

(call_expression
  function: (selector_expression
    operand: (identifier) @qual
    field: (field_identifier) @name.reference.member))

; new(T).M(), x.(T).M(): the type qualifies a "typedmember".
(call_expression
  function: (selector_expression
    operand: (call_expression
      function: (identifier) @_new
      arguments: (argument_list . (type_identifier) @qual .))
    field: (field_identifier) @name.reference.typedmember)
  (#eq? @_new "new"))

(call_expression
  function: (selector_expression
    operand: (type_assertion_expression type: [
      (type_identifier) @qual
      (pointer_type (type_identifier) @qual)
      (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual)
      (pointer_type (qualified_type package: (package_identifier) @qual name: (type_identifier) @qual))
    ])
    field: (field_identifier) @name.reference.typedmember))

; F(…).M(), q.F(…).M(): the function (or the type converted to) qualifies
; a "resultmember".
(call_expression
  function: (selector_expression
    operand: (call_expression function: [
      (identifier) @qual
      (selector_expression operand: (identifier) @qual field: (field_identifier) @qual)
    ])
    field: (field_identifier) @name.reference.resultmember))

; x.f.g.M(), x.f.M(): the variable, then the fields, qualify the member.
(call_expression
  function: (selector_expression
    operand: (selector_expression
      operand: (selector_expression
        operand: (identifier) @qual
        field: (field_identifier) @qual)
      field: (field_identifier) @qual)
    field: (field_identifier) @name.reference.member))

(call_expression
  function: (selector_expression
    operand: (selector_expression
      operand: (identifier) @qual
      field: (field_identifier) @qual)
    field: (field_identifier) @name.reference.member))

(call_expression
  function: (selector_expression
    field: (field_identifier) @name.reference.member))

(call_expression
  function: (index_expression
    operand: (identifier) @name.reference.call))

(call_expression
  function: (index_expression
    operand: (selector_expression
      operand: (identifier) @qual
      field: (field_identifier) @name.reference.member)))

(call_expression
  function: (index_expression
    operand: (selector_expression
      field: (field_identifier) @name.reference.member)))

(composite_literal
  type: (type_identifier) @name.reference.literal)

(composite_literal
  type: (qualified_type
    package: (package_identifier) @qual
    name: (type_identifier) @name.reference.literal))

(composite_literal
  type: (generic_type
    type: (type_identifier) @name.reference.literal))

(qualified_type
  package: (package_identifier) @name.reference.package)

; An import refers to the package it names: the last element of its path
; (the tags package takes it from the quoted path). Its qualifier is the
; path, after the local name when the import gives one.
(import_spec
  name: (_) @qual
  path: (interpreted_string_literal) @qual @name.reference.package)

(import_spec
  path: (interpreted_string_literal) @qual @name.reference.package)

; A type from another package: the package qualifies it.
(qualified_type
  package: (package_identifier) @qual
  name: (type_identifier) @name.reference.type)

(type_identifier) @name.reference.type
