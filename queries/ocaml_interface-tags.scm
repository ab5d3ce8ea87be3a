; Tags for OCaml interfaces (.mli): the val specifications (functions and
; values), externals, types with their constructors and record fields,
; exceptions, modules, module types, classes and their methods a file
; declares; and the module types, modules and types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(value_specification
  (value_name) @name.definition.function
  type: (function_type))

(value_specification
  (value_name) @name.definition.variable)

(external
  (value_name) @name.definition.function)

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

(method_specification
  (method_name) @name.definition.method)

; ---- References ----

(module_type_path
  (module_type_name) @name.reference.interface)

(module_name) @name.reference.module

(type_constructor_path
  (type_constructor) @name.reference.type)
