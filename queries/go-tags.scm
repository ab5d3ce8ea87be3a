; Tags for Go: what a Go file defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(package_clause
  (package_identifier) @name.definition.package)

(function_declaration
  name: (identifier) @name.definition.function)

; A method's receiver type qualifies it.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: (_) @qual))
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

(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier) @name.definition.field))))

(type_spec
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
