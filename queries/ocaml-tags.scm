; Tags for OCaml (.ml): the let bindings of a file's top level and of its
; modules' structures (functions and values), externals, types with their
; constructors and record fields, exceptions, modules, module types,
; classes and their methods, and the val specifications of module types;
; and the functions it applies, the methods it invokes, the classes it
; makes with new, and the modules, module types, constructors and types
; it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; let ... in binds local names: no tags.
(let_expression
  (value_definition
    (let_binding
      pattern: (value_name) @ignore)))

; let f x = ..., let f = fun x -> ..., let f = function ...
(let_binding
  pattern: (value_name) @name.definition.function
  (parameter))

(let_binding
  pattern: (value_name) @name.definition.function
  body: [(fun_expression) (function_expression)])

(let_binding
  pattern: (value_name) @name.definition.variable)

(external
  (value_name) @name.definition.function)

(value_specification
  (value_name) @name.definition.function
  type: (function_type))

(value_specification
  (value_name) @name.definition.variable)

(type_binding
  name: (type_constructor) @name.definition.type)

(exception_definition
  (constructor_declaration
    (constructor_name) @name.definition.exception))

(constructor_declaration
  (constructor_name) @name.definition.constructor)

(field_declaration
  (field_name) @name.definition.field)

(module_binding
  (module_name) @name.definition.module)

(module_type_definition
  (module_type_name) @name.definition.interface)

(class_binding
  (class_name) @name.definition.class)

(class_type_binding
  (class_type_name) @name.definition.class)

(method_definition
  (method_name) @name.definition.method)

(method_specification
  (method_name) @name.definition.method)

; ---- References ----

(application_expression
  function: (value_path
    (value_name) @name.reference.call))

(method_invocation
  method: (method_name) @name.reference.call)

(new_expression
  (class_path
    (class_name) @name.reference.class))

(inheritance_definition
  class: (class_path
    (class_name) @name.reference.class))

(constructor_path
  (constructor_name) @name.reference.constructor)

(module_type_path
  (module_type_name) @name.reference.interface)

(module_name) @name.reference.module

(type_constructor_path
  (type_constructor) @name.reference.type)
