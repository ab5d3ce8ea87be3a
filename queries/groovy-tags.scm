; Tags for Groovy (classes, scripts, Gradle build files, Jenkinsfiles): what
; a file defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; The last segment of the package name ties the files of a package to the
; files that import all of it ("import com.shop.model.*"); it is not shown.
(package_declaration
  name: (qualified_name
    (identifier) @name.definition.package .))

(class_declaration
  name: (identifier) @name.definition.class)

(interface_declaration
  name: (identifier) @name.definition.interface)

; "@interface Name": an annotation type.
(annotation_type_declaration
  name: (identifier) @name.definition.interface)

(trait_declaration
  name: (identifier) @name.definition.trait)

(enum_declaration
  name: (identifier) @name.definition.enum)

(record_declaration
  name: (identifier) @name.definition.record)

(enum_constant
  name: (identifier) @name.definition.constant)

(constructor_declaration
  name: (identifier) @name.definition.constructor)

(class_body
  (method_declaration
    name: (identifier) @name.definition.method))

; A call the grammar misread as a declaration ("stage('Build') { … }"
; after a line it could not parse) has a string for its parameters.
(method_declaration
  name: (identifier) @ignore
  parameters: (formal_parameters) @_parameters
  (#match? @_parameters "^\\(\\s*['\"]"))

; A method of a script (or a build file) is a function; it has a body.
(method_declaration
  name: (identifier) @name.definition.function
  body: (block))

; Static fields: "static final" ones are constants, other static ones
; fields. Instance fields are left out.
(field_declaration
  "static"
  "final"
  (variable_declarator
    name: (identifier) @name.definition.constant))

(field_declaration
  "final"
  "static"
  (variable_declarator
    name: (identifier) @name.definition.constant))

(field_declaration
  "static"
  (variable_declarator
    name: (identifier) @name.definition.field))

; The variables of a script: "def version = '1.2'".
(source_file
  (local_variable_declaration
    (variable_declarator
      name: (identifier) @name.definition.variable)))

; ---- References ----

; The grammar reads a command call such as "println releaseName(v)" in a
; script or a closure as a method declaration without a body (return type
; "println"): both names are calls.
(source_file
  (method_declaration
    return_type: (type_identifier) @name.reference.call
    name: (identifier) @name.reference.call
    !body))

(closure
  (method_declaration
    return_type: (type_identifier) @name.reference.call
    name: (identifier) @name.reference.call
    !body))

(block
  (method_declaration
    return_type: (type_identifier) @name.reference.call
    name: (identifier) @name.reference.call
    !body))

; Lower-case type names are primitives ("int", "boolean"), and a one-letter
; one is almost always a type parameter ("T").
((type_identifier) @ignore
  (#match? @ignore "^([A-Z]|[a-z].*)$"))

(import_declaration
  name: (qualified_name
    (identifier) @name.reference.package .)
  ".*")

(import_declaration
  name: (qualified_name
    (identifier) @name.reference.import .))

(annotation
  name: (qualified_name
    (identifier) @name.reference.annotation .))

(superclass
  [
    (type_identifier) @name.reference.class
    (qualified_type
      (type_identifier) @name.reference.class .)
    (generic_type
      base: [
        (type_identifier) @name.reference.class
        (qualified_type
          (type_identifier) @name.reference.class .)
      ])
  ])

(super_interfaces
  [
    (type_identifier) @name.reference.implementation
    (qualified_type
      (type_identifier) @name.reference.implementation .)
    (generic_type
      base: [
        (type_identifier) @name.reference.implementation
        (qualified_type
          (type_identifier) @name.reference.implementation .)
      ])
  ])

(extends_interfaces
  [
    (type_identifier) @name.reference.implementation
    (qualified_type
      (type_identifier) @name.reference.implementation .)
    (generic_type
      base: [
        (type_identifier) @name.reference.implementation
        (qualified_type
          (type_identifier) @name.reference.implementation .)
      ])
  ])

(object_creation_expression
  type: [
    (type_identifier) @name.reference.class
    (qualified_type
      (type_identifier) @name.reference.class .)
    (generic_type
      base: [
        (type_identifier) @name.reference.class
        (qualified_type
          (type_identifier) @name.reference.class .)
      ])
  ])

; "super(…)" and "this(…)" call constructors of the class itself.
(method_invocation
  function: (identifier) @ignore
  (#any-of? @ignore "super" "this"))

; Calls: "f(x)", "o.f(x)", "o?.f(x)", "o*.f(x)", and command calls without
; parentheses: "println 'hi'", "dependencies { … }", "deploy env: 'prod'".
(method_invocation
  function: [
    (identifier) @name.reference.call
    (field_access
      field: (identifier) @name.reference.call)
    (safe_navigation_expression
      property: (identifier) @name.reference.call)
    (safe_chain_dot_expression
      property: (identifier) @name.reference.call)
    (spread_dot_expression
      property: (identifier) @name.reference.call)
  ])

(command_chain
  receiver: (identifier) @name.reference.call)

; "this.&helper", "Order::create".
(method_pointer_expression
  method: (identifier) @name.reference.call)

(method_reference_expression
  name: (identifier) @name.reference.call)

; A capitalized receiver is a class: "Money.of(…)", "Status.OPEN".
(field_access
  object: (identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))

(type_identifier) @name.reference.type
