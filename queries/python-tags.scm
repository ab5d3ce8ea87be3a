; Tags for Python: what a module defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(class_definition
  name: (identifier) @name.definition.class)

(class_definition
  body: (block
    (function_definition
      name: (identifier) @name.definition.method)))

(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition
        name: (identifier) @name.definition.method))))

(function_definition
  name: (identifier) @name.definition.function)

(module
  (expression_statement
    (assignment
      left: (identifier) @name.definition.variable)))

(module
  (expression_statement
    (assignment
      left: (pattern_list
        (identifier) @name.definition.variable))))

(module
  (type_alias_statement
    left: (type
      (identifier) @name.definition.type)))

; ---- References ----
;
; A call of a plain name is a "call", of an attribute ("x.f()") a "member"
; call: only the first can be a call of a builtin function.

(decorator
  (identifier) @name.reference.decorator)

(decorator
  (attribute
    attribute: (identifier) @name.reference.decorator))

(decorator
  (call
    function: (identifier) @name.reference.decorator))

(decorator
  (call
    function: (attribute
      attribute: (identifier) @name.reference.decorator)))

(class_definition
  superclasses: (argument_list
    (identifier) @name.reference.class))

(class_definition
  superclasses: (argument_list
    (attribute
      attribute: (identifier) @name.reference.class)))

(call
  function: (identifier) @name.reference.call)

(call
  function: (attribute
    attribute: (identifier) @name.reference.member))

(import_from_statement
  name: (dotted_name
    (identifier) @name.reference.import))

(import_from_statement
  name: (aliased_import
    name: (dotted_name
      (identifier) @name.reference.import)))
