; Tags for Java: what a compilation unit defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; The last segment of the package name ties the files of a package to the
; files that import all of it ("import com.shop.model.*"); it is not shown.
; The whole name qualifies it.
(package_declaration
  [
    (identifier) @name.definition.package @qual
    (scoped_identifier
      name: (identifier) @name.definition.package) @qual
  ])

(class_declaration
  name: (identifier) @name.definition.class)

(interface_declaration
  name: (identifier) @name.definition.interface)

; "@interface Name": an annotation type.
(annotation_type_declaration
  name: (identifier) @name.definition.interface)

(enum_declaration
  name: (identifier) @name.definition.enum)

(record_declaration
  name: (identifier) @name.definition.record)

(enum_constant
  name: (identifier) @name.definition.constant)

(constructor_declaration
  name: (identifier) @name.definition.constructor)

(compact_constructor_declaration
  name: (identifier) @name.definition.constructor)

(method_declaration
  name: (identifier) @name.definition.method)

(annotation_type_element_declaration
  name: (identifier) @name.definition.method)

; Static fields: "static final" ones are constants, and so are the fields
; of an interface. Instance fields are left out.
(field_declaration
  (modifiers
    "static"
    "final")
  declarator: (variable_declarator
    name: (identifier) @name.definition.constant))

(field_declaration
  (modifiers
    "final"
    "static")
  declarator: (variable_declarator
    name: (identifier) @name.definition.constant))

(field_declaration
  (modifiers
    "static")
  declarator: (variable_declarator
    name: (identifier) @name.definition.field))

(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name.definition.constant))

; ---- References ----

; Type parameters ("T", "K") and lower-case names (package segments of a
; qualified type, "var") are not type names.
(type_parameter
  (type_identifier) @ignore)

((type_identifier) @ignore
  (#match? @ignore "^([A-Z]|[a-z].*)$"))

(marker_annotation
  name: [
    (identifier) @name.reference.annotation
    (scoped_identifier
      name: (identifier) @name.reference.annotation)
  ])

(annotation
  name: [
    (identifier) @name.reference.annotation
    (scoped_identifier
      name: (identifier) @name.reference.annotation)
  ])

; A superclass is qualified by "extends", which a class made with "new"
; is not.
(superclass
  "extends" @qual
  [
    (type_identifier) @name.reference.class
    (scoped_type_identifier
      (type_identifier) @name.reference.class .)
    (generic_type
      [
        (type_identifier) @name.reference.class
        (scoped_type_identifier
          (type_identifier) @name.reference.class .)
      ])
  ])

(super_interfaces
  (type_list
    [
      (type_identifier) @name.reference.implementation
      (scoped_type_identifier
        (type_identifier) @name.reference.implementation .)
      (generic_type
        [
          (type_identifier) @name.reference.implementation
          (scoped_type_identifier
            (type_identifier) @name.reference.implementation .)
        ])
    ]))

(object_creation_expression
  type: [
    (type_identifier) @name.reference.class
    (scoped_type_identifier
      (type_identifier) @name.reference.class .)
    (generic_type
      [
        (type_identifier) @name.reference.class
        (scoped_type_identifier
          (type_identifier) @name.reference.class .)
      ])
  ])

; A call is qualified by its object when that is a name, "this" or
; "super", by "." when it is another expression; a plain call has no
; qualifier.
(method_invocation
  object: [
    (identifier)
    (this)
    (super)
  ] @qual
  name: (identifier) @name.reference.call)

; "this.field.m()" as "field.m()".
(method_invocation
  object: (field_access
    object: (this)
    field: (identifier) @qual)
  name: (identifier) @name.reference.call)

(method_invocation
  object: (_)
  "." @qual
  name: (identifier) @name.reference.call)

(method_invocation
  name: (identifier) @name.reference.call)

; "Type::method": qualified as a call is, by "::" for another expression.
(method_reference
  .
  [
    (identifier)
    (type_identifier)
    (this)
    (super)
  ] @qual
  (identifier) @name.reference.call .)

(method_reference
  "::" @qual
  (identifier) @name.reference.call .)

; A capitalized receiver is a class: "Money.of(…)", "Status.OPEN".
(method_invocation
  object: (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

(field_access
  object: (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

; An import is qualified by the name it imports, after "static" for a
; static one.
(import_declaration
  "static" @qual
  (scoped_identifier
    name: (identifier) @name.reference.package) @qual
  (asterisk))

(import_declaration
  (scoped_identifier
    name: (identifier) @name.reference.package) @qual
  (asterisk))

(import_declaration
  "static" @qual
  (scoped_identifier
    name: (identifier) @name.reference.import) @qual)

(import_declaration
  (scoped_identifier
    name: (identifier) @name.reference.import) @qual)

; The type of a field, a local or a parameter is qualified by the name it
; declares; of a generic type, the type before its arguments.
; (A field, a local or an interface's constant.)
(_
  type: [
    (type_identifier) @name.reference.type
    (generic_type
      .
      (type_identifier) @name.reference.type)
  ]
  declarator: (variable_declarator
    name: (identifier) @qual))

(formal_parameter
  type: [
    (type_identifier) @name.reference.type
    (generic_type
      .
      (type_identifier) @name.reference.type)
  ]
  name: (identifier) @qual)

(type_identifier) @name.reference.type
