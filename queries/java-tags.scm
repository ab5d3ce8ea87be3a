; Tags for Java: what a compilation unit defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; The last segment of the package name ties the files of a package to the
; files that import all of it ("import com.shop.model.*"); it is not shown.
(package_declaration
  [
    (identifier) @name.definition.package
    (scoped_identifier
      name: (identifier) @name.definition.package)
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

(superclass
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

(method_invocation
  name: (identifier) @name.reference.call)

; "Type::method" and "Type::new".
(method_reference
  (identifier) @name.reference.call .)

; A capitalized receiver is a class: "Money.of(…)", "Status.OPEN".
(method_invocation
  object: (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

(field_access
  object: (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

(import_declaration
  (scoped_identifier
    name: (identifier) @name.reference.package)
  (asterisk))

(import_declaration
  (scoped_identifier
    name: (identifier) @name.reference.import))

(type_identifier) @name.reference.type
