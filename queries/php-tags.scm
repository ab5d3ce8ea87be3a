; Tags for PHP: the classes, interfaces, traits, enums and their cases,
; functions, methods, constants and properties a file defines, and the
; functions and methods it calls, the classes it creates with new, extends,
; implements, mixes in with use or names in a static access, the names it
; imports with use, its attributes and the types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(class_declaration
  name: (name) @name.definition.class)

(interface_declaration
  name: (name) @name.definition.interface)

(trait_declaration
  name: (name) @name.definition.trait)

(enum_declaration
  name: (name) @name.definition.enum)

(enum_case
  name: (name) @name.definition.constant)

(method_declaration
  name: (name) @name.definition.method)

(function_definition
  name: (name) @name.definition.function)

(const_declaration
  (const_element
    (name) @name.definition.constant))

(property_declaration
  (property_element
    name: (variable_name
      (name) @name.definition.property)))

; Constructor promotion: "private string $name" defines a property.
(property_promotion_parameter
  name: (variable_name
    (name) @name.definition.property))

; ---- References ----

(attribute
  [
    (name) @name.reference.attribute
    (qualified_name
      (name) @name.reference.attribute)
  ])

(base_clause
  [
    (name) @name.reference.class
    (qualified_name
      (name) @name.reference.class)
  ])

(class_interface_clause
  [
    (name) @name.reference.implementation
    (qualified_name
      (name) @name.reference.implementation)
  ])

; "use SomeTrait;" in a class body.
(use_declaration
  [
    (name) @name.reference.mixin
    (qualified_name
      (name) @name.reference.mixin)
  ])

(object_creation_expression
  [
    (name) @name.reference.constructor
    (qualified_name
      (name) @name.reference.constructor)
  ])

(function_call_expression
  function: [
    (name) @name.reference.call
    (qualified_name
      (name) @name.reference.call)
  ])

(member_call_expression
  name: (name) @name.reference.call)

(nullsafe_member_call_expression
  name: (name) @name.reference.call)

(scoped_call_expression
  name: (name) @name.reference.call)

; The class of a static call or constant: Foo::bar(), Foo::BAR.
(scoped_call_expression
  scope: [
    (name) @name.reference.class
    (qualified_name
      (name) @name.reference.class)
  ])

(class_constant_access_expression
  .
  [
    (name) @name.reference.class
    (qualified_name
      (name) @name.reference.class)
  ])

; use Shop\Catalog\Item; use Shop\Pricing\{PriceList, Currency as Money}:
; the imported names, not their aliases.
(namespace_use_clause
  alias: (name) @ignore)

(namespace_use_clause
  [
    (name) @name.reference.import
    (qualified_name
      (name) @name.reference.import)
  ])

((named_type
  [
    (name) @name.reference.type
    (qualified_name
      (name) @name.reference.type)
  ])
  (#not-any-of? @name.reference.type "self" "static" "parent"))
