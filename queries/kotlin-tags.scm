; Tags for Kotlin: what a file defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; The last segment of the package name ties the files of a package to the
; files that import all of it ("import com.shop.model.*"); it is not shown.
; The whole name qualifies it.
(package_header
  (qualified_identifier
    (identifier) @name.definition.package .) @qual)

(class_declaration
  "interface"
  name: (identifier) @name.definition.interface)

(class_declaration
  name: (identifier) @name.definition.enum
  (enum_class_body))

(class_declaration
  name: (identifier) @name.definition.class)

(object_declaration
  name: (identifier) @name.definition.object)

(companion_object
  name: (identifier) @name.definition.object)

(type_alias
  type: (identifier) @name.definition.type)

(enum_entry
  (identifier) @name.definition.constant)

; A secondary constructor has no name of its own: the keyword stands for it.
(secondary_constructor
  "constructor" @name.definition.constructor)

(class_body
  (function_declaration
    name: (identifier) @name.definition.method))

(enum_class_body
  (function_declaration
    name: (identifier) @name.definition.method))

(function_declaration
  name: (identifier) @name.definition.function)

; Properties: "const val" anywhere is a constant; at the top level a "val"
; is a constant and a "var" a variable; in an object or a companion object
; a property is a property. Instance properties are left out.
(property_declaration
  (modifiers
    (property_modifier) @_const)
  (variable_declaration
    (identifier) @name.definition.constant)
  (#eq? @_const "const"))

(source_file
  (property_declaration
    "val"
    (variable_declaration
      (identifier) @name.definition.constant)))

(source_file
  (property_declaration
    "var"
    (variable_declaration
      (identifier) @name.definition.variable)))

(object_declaration
  (class_body
    (property_declaration
      (variable_declaration
        (identifier) @name.definition.property))))

(companion_object
  (class_body
    (property_declaration
      (variable_declaration
        (identifier) @name.definition.property))))

; ---- References ----

; Type parameters ("T") and lower-case segments of a qualified type are not
; type names.
(user_type
  (identifier) @ignore
  (#match? @ignore "^([A-Z]|[a-z].*)$"))

(import
  (qualified_identifier
    (identifier) @name.reference.package .)
  "*")

(import
  (qualified_identifier
    (identifier) @name.reference.import .))

(annotation
  [
    (user_type
      (identifier) @name.reference.annotation .)
    (user_type
      (identifier) @name.reference.annotation
      .
      (type_arguments) .)
    (constructor_invocation
      (user_type
        (identifier) @name.reference.annotation .))
  ])

; Supertypes: a class is called ("Entity(id)"), an interface is not. The
; name is the last one of a qualified type, before its type arguments.
(delegation_specifier
  (constructor_invocation
    [
      (user_type
        (identifier) @name.reference.class .)
      (user_type
        (identifier) @name.reference.class
        .
        (type_arguments) .)
    ]))

(delegation_specifier
  [
    (user_type
      (identifier) @name.reference.implementation .)
    (user_type
      (identifier) @name.reference.implementation
      .
      (type_arguments) .)
    (explicit_delegation
      [
        (user_type
          (identifier) @name.reference.implementation .)
        (user_type
          (identifier) @name.reference.implementation
          .
          (type_arguments) .)
      ])
  ])

; Calls: "load()", "repo.find()", "Order(…)" (a constructor).
(call_expression
  .
  (identifier) @name.reference.call)

(call_expression
  .
  (navigation_expression
    (identifier) @name.reference.call .))

; "::helper", "Order::total".
(callable_reference
  (identifier) @name.reference.call .)

; A capitalized receiver is a class or an object: "UUID.randomUUID()".
(navigation_expression
  .
  (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

(user_type
  (identifier) @name.reference.type)
