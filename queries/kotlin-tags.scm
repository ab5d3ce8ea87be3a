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

; A class the grammar cannot parse is left in an error, which holds its
; keyword and its name: "class ByteString" still defines it. (What
; follows the fault may be lost.)
(ERROR
  "class"
  .
  (identifier) @name.definition.class)

(object_declaration
  name: (identifier) @name.definition.object)

(companion_object
  name: (identifier) @name.definition.object)

(type_alias
  type: (identifier) @name.definition.type)

; The members of a class, an object or a companion object are qualified
; by the type that holds them (a companion object's by its class); the
; members of an object expression, and top-level functions and
; properties, are not.
(class_declaration
  name: (identifier) @qual
  (enum_class_body
    (enum_entry
      (identifier) @name.definition.constant)))

(class_declaration
  name: (identifier) @qual
  [
    (class_body
      (function_declaration
        name: (identifier) @name.definition.method))
    (enum_class_body
      (function_declaration
        name: (identifier) @name.definition.method))
    (class_body
      (companion_object
        (class_body
          (function_declaration
            name: (identifier) @name.definition.method))))
  ])

(object_declaration
  name: (identifier) @qual
  (class_body
    (function_declaration
      name: (identifier) @name.definition.method)))

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
(class_declaration
  name: (identifier) @qual
  (class_body
    (companion_object
      (class_body
        (property_declaration
          (modifiers
            (property_modifier) @_const)
          (variable_declaration
            (identifier) @name.definition.constant)))))
  (#eq? @_const "const"))

(object_declaration
  name: (identifier) @qual
  (class_body
    (property_declaration
      (modifiers
        (property_modifier) @_const)
      (variable_declaration
        (identifier) @name.definition.constant)))
  (#eq? @_const "const"))

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
  name: (identifier) @qual
  (class_body
    (property_declaration
      (variable_declaration
        (identifier) @name.definition.property))))

(class_declaration
  name: (identifier) @qual
  (class_body
    (companion_object
      (class_body
        (property_declaration
          (variable_declaration
            (identifier) @name.definition.property))))))

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

; An import is qualified by the name it imports, and "as" and the local
; name for a renamed one; an import on demand by the package's name.
(import
  (qualified_identifier
    (identifier) @name.reference.package .) @qual
  "*")

(import
  (qualified_identifier
    (identifier) @name.reference.import .) @qual
  "as" @qual
  (identifier) @qual)

(import
  (qualified_identifier
    (identifier) @name.reference.import .) @qual)

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

; "val x = Order(…)" without a declared type: the class called is x's
; type, qualified by x.
(property_declaration
  (variable_declaration
    (identifier) @qual .)
  (call_expression
    .
    (identifier) @name.reference.type
    (#match? @name.reference.type "^[A-Z]")))

; Calls: "load()", "repo.find()", "Order(…)" (a constructor). A call is
; qualified by its receiver when that is a name, "this" or "super"
; ("this.repo.find()" by the property, repo), by "." or "?." when it is
; another expression; a plain call has no qualifier.
(call_expression
  .
  (identifier) @name.reference.call)

(call_expression
  .
  (navigation_expression
    .
    [
      (identifier)
      (this_expression)
      (super_expression)
    ] @qual
    (identifier) @name.reference.call .))

(call_expression
  .
  (navigation_expression
    .
    (navigation_expression
      .
      (this_expression)
      (identifier) @qual .)
    (identifier) @name.reference.call .))

(call_expression
  .
  (navigation_expression
    [
      "."
      "?."
    ] @qual
    (identifier) @name.reference.call .))

; "::helper", "Order::total". A bound reference ("x::m", "this::m") is
; not tagged: tagging it lowered the overview of moshi's default map.
(callable_reference
  (identifier) @name.reference.call .)

; A capitalized receiver is a class or an object: "UUID.randomUUID()".
(navigation_expression
  .
  (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

; The type of a property, a local or a parameter is qualified by the name
; it declares: the last name of a qualified type, before its arguments,
; of a nullable type too.
(variable_declaration
  (identifier) @qual
  [
    (user_type
      (identifier) @name.reference.type .)
    (user_type
      (identifier) @name.reference.type
      .
      (type_arguments) .)
    (nullable_type
      [
        (user_type
          (identifier) @name.reference.type .)
        (user_type
          (identifier) @name.reference.type
          .
          (type_arguments) .)
      ])
  ])

(parameter
  (identifier) @qual
  [
    (user_type
      (identifier) @name.reference.type .)
    (user_type
      (identifier) @name.reference.type
      .
      (type_arguments) .)
    (nullable_type
      [
        (user_type
          (identifier) @name.reference.type .)
        (user_type
          (identifier) @name.reference.type
          .
          (type_arguments) .)
      ])
  ])

(class_parameter
  (identifier) @qual
  [
    (user_type
      (identifier) @name.reference.type .)
    (user_type
      (identifier) @name.reference.type
      .
      (type_arguments) .)
    (nullable_type
      [
        (user_type
          (identifier) @name.reference.type .)
        (user_type
          (identifier) @name.reference.type
          .
          (type_arguments) .)
      ])
  ])

(user_type
  (identifier) @name.reference.type)
