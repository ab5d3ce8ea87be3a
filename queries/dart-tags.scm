; Tags for Dart: what a library file defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.
; In this grammar a call is flat: the callee, then a (selector) sibling
; holding its (argument_part).

; ---- Definitions ----

; "interface class" (Dart 3).
(class_definition
  (interface)
  name: (identifier) @name.definition.interface)

(class_definition
  name: (identifier) @name.definition.class)

(mixin_declaration
  (identifier) @name.definition.mixin)

(enum_declaration
  name: (identifier) @name.definition.enum)

(enum_constant
  name: (identifier) @name.definition.constant)

(extension_declaration
  name: (identifier) @name.definition.extension)

(extension_type_declaration
  name: (identifier) @name.definition.type)

; "typedef Json = Map<String, dynamic>;" and "typedef int Compare(a, b);".
(type_alias
  .
  (type_identifier) @name.definition.type
  "=")

(type_alias
  (type_identifier) @name.definition.type
  .
  (formal_parameter_list))

; Constructors: "Order(…)", "Order.empty(…)", "const Order(…)",
; "factory Order.fromJson(…)"; the last name is the constructor's.
(constructor_signature
  (identifier) @name.definition.constructor
  .
  (formal_parameter_list))

(constant_constructor_signature
  (identifier) @name.definition.constructor
  .
  (formal_parameter_list))

(factory_constructor_signature
  (identifier) @name.definition.constructor
  .
  (formal_parameter_list))

(redirecting_factory_constructor_signature
  (identifier) @name.definition.constructor
  .
  (formal_parameter_list))

; Getters and setters of a type are its properties; its functions are
; methods (with a body, or abstract).
(class_body
  [
    (method_signature
      [
        (getter_signature
          name: (identifier) @name.definition.property)
        (setter_signature
          name: (identifier) @name.definition.property)
        (function_signature
          name: (identifier) @name.definition.method)
      ])
    (declaration
      [
        (getter_signature
          name: (identifier) @name.definition.property)
        (setter_signature
          name: (identifier) @name.definition.property)
        (function_signature
          name: (identifier) @name.definition.method)
      ])
  ])

(enum_body
  [
    (method_signature
      [
        (getter_signature
          name: (identifier) @name.definition.property)
        (setter_signature
          name: (identifier) @name.definition.property)
        (function_signature
          name: (identifier) @name.definition.method)
      ])
    (declaration
      [
        (getter_signature
          name: (identifier) @name.definition.property)
        (setter_signature
          name: (identifier) @name.definition.property)
        (function_signature
          name: (identifier) @name.definition.method)
      ])
  ])

(extension_body
  [
    (method_signature
      [
        (getter_signature
          name: (identifier) @name.definition.property)
        (setter_signature
          name: (identifier) @name.definition.property)
        (function_signature
          name: (identifier) @name.definition.method)
      ])
    (declaration
      [
        (getter_signature
          name: (identifier) @name.definition.property)
        (setter_signature
          name: (identifier) @name.definition.property)
        (function_signature
          name: (identifier) @name.definition.method)
      ])
  ])

(program
  (function_signature
    name: (identifier) @name.definition.function))

(program
  [
    (getter_signature
      name: (identifier) @name.definition.property)
    (setter_signature
      name: (identifier) @name.definition.property)
  ])

; Variables: at the top level a "const" or "final" is a constant and any
; other a variable; in a type, "static const" and "static final" ones are
; constants and other static ones fields. Instance fields are left out.
; The name is the first identifier: the initializer follows it flat.
(program
  (static_final_declaration_list
    (static_final_declaration
      .
      (identifier) @name.definition.constant)))

(program
  (initialized_identifier_list
    (initialized_identifier
      .
      (identifier) @name.definition.variable)))

(declaration
  "static"
  (static_final_declaration_list
    (static_final_declaration
      .
      (identifier) @name.definition.constant)))

(declaration
  "static"
  (initialized_identifier_list
    (initialized_identifier
      .
      (identifier) @name.definition.field)))

; ---- References ----

; Lower-case type names are built in ("int", "bool", "dynamic"), and a
; one-letter one is almost always a type parameter ("T").
((type_identifier) @ignore
  (#match? @ignore "^([A-Z]|[a-z].*)$"))

(annotation
  name: (identifier) @name.reference.annotation)

(superclass
  (type_identifier) @name.reference.class)

(mixins
  (type_identifier) @name.reference.implementation)

(interfaces
  (type_identifier) @name.reference.implementation)

(new_expression
  (type_identifier) @name.reference.class)

(const_object_expression
  (type_identifier) @name.reference.class)

; Calls: "f(x)", "Order(…)" (a constructor), "o.f(x)", "o?.f(x)",
; "super.f(x)", "o..f(x)".
(_
  (identifier) @name.reference.call
  .
  (selector
    (argument_part)))

(_
  (selector
    [
      (unconditional_assignable_selector
        (identifier) @name.reference.call)
      (conditional_assignable_selector
        (identifier) @name.reference.call)
    ])
  .
  (selector
    (argument_part)))

(_
  (unconditional_assignable_selector
    (identifier) @name.reference.call)
  .
  (selector
    (argument_part)))

(cascade_section
  [
    (cascade_selector
      (identifier) @name.reference.call)
    (unconditional_assignable_selector
      (identifier) @name.reference.call)
  ]
  .
  (argument_part))

; A capitalized receiver is a class or an enum: "Money.zero", "Status.open".
(_
  (identifier) @name.reference.type
  .
  (selector
    [
      (unconditional_assignable_selector)
      (conditional_assignable_selector)
    ])
  (#match? @name.reference.type "^[A-Z]"))

(_
  (identifier) @name.reference.type
  .
  (unconditional_assignable_selector)
  (#match? @name.reference.type "^[A-Z]"))

; "import 'money.dart' show Money;": the names shown.
(combinator
  "show"
  (identifier) @name.reference.import)

(type_identifier) @name.reference.type
