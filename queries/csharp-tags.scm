; Tags for C#: what a compilation unit defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.
; C# has no separate node for type names: a type is an (identifier) in a
; type position (a "type:" or "returns:" field, a base list, a type
; argument), or the last name of a (qualified_name) or (generic_name).

; ---- Definitions ----

; The last segment of a namespace ties its files to the files that import
; it ("using Shop.Orders;"); like a Go package, it is not shown. The whole
; name qualifies it, after the name of the namespace it is nested in.
(namespace_declaration
  name: (_) @qual
  body: (declaration_list
    (namespace_declaration
      name: [
        (identifier) @name.definition.package
        (qualified_name
          name: (identifier) @name.definition.package)
      ] @qual)))

(namespace_declaration
  name: [
    (identifier) @name.definition.package
    (qualified_name
      name: (identifier) @name.definition.package)
  ] @qual)

(file_scoped_namespace_declaration
  name: [
    (identifier) @name.definition.package
    (qualified_name
      name: (identifier) @name.definition.package)
  ] @qual)

(class_declaration
  name: (identifier) @name.definition.class)

(struct_declaration
  name: (identifier) @name.definition.struct)

(interface_declaration
  name: (identifier) @name.definition.interface)

(enum_declaration
  name: (identifier) @name.definition.enum)

(record_declaration
  name: (identifier) @name.definition.record)

(delegate_declaration
  name: (identifier) @name.definition.type)

(enum_member_declaration
  name: (identifier) @name.definition.constant)

(constructor_declaration
  name: (identifier) @name.definition.constructor)

; An extension method ("this T x" first) is qualified by "this".
(method_declaration
  name: (identifier) @name.definition.method
  parameters: (parameter_list
    .
    (parameter
      (modifier) @qual
      (#eq? @qual "this"))))

(method_declaration
  name: (identifier) @name.definition.method)

(property_declaration
  name: (identifier) @name.definition.property)

; Fields: "const" and "static readonly" ones are constants, other static
; ones fields. Instance fields are left out.
(field_declaration
  (modifier) @_const
  (variable_declaration
    (variable_declarator
      name: (identifier) @name.definition.constant))
  (#eq? @_const "const"))

(field_declaration
  (modifier) @_static
  (modifier) @_readonly
  (variable_declaration
    (variable_declarator
      name: (identifier) @name.definition.constant))
  (#eq? @_static "static")
  (#eq? @_readonly "readonly"))

(field_declaration
  (modifier) @_static
  (variable_declaration
    (variable_declarator
      name: (identifier) @name.definition.field))
  (#eq? @_static "static"))

; ---- References ----

; The inner names of "A.B.C" are namespaces.
(qualified_name
  qualifier: (qualified_name
    name: (identifier) @ignore))

; "using System.Linq;", "using static Shop.Money;", "using Alias = A.B;":
; the last name, which is a namespace or a type, qualified by the whole
; directive.
(using_directive
  [
    (identifier) @name.reference.import
    (qualified_name
      name: (identifier) @name.reference.import)
  ]
  .) @qual

; Generic type parameters by convention: "T", "TKey", "TResult".
((identifier) @ignore
  (#match? @ignore "^(T|T[A-Z][a-z][A-Za-z0-9]*)$"))

(attribute
  name: [
    (identifier) @name.reference.attribute
    (qualified_name
      name: (identifier) @name.reference.attribute)
    (generic_name
      .
      (identifier) @name.reference.attribute)
  ])

; A base list mixes the base class and interfaces; interface names start
; with "I" and a capital letter by convention. The ":" qualifies both.
(base_list
  ":" @qual
  [
    (identifier) @name.reference.implementation
    (qualified_name
      name: (identifier) @name.reference.implementation)
    (generic_name
      .
      (identifier) @name.reference.implementation)
  ]
  (#match? @name.reference.implementation "^I[A-Z]"))

(base_list
  ":" @qual
  [
    (identifier) @name.reference.class
    (qualified_name
      name: (identifier) @name.reference.class)
    (generic_name
      .
      (identifier) @name.reference.class)
    (primary_constructor_base_type
      type: [
        (identifier) @name.reference.class
        (qualified_name
          name: (identifier) @name.reference.class)
        (generic_name
          .
          (identifier) @name.reference.class)
      ])
  ])

; "var x = new T(…)": the class is x's type, qualified by x.
(variable_declarator
  name: (identifier) @qual
  (object_creation_expression
    type: [
      (identifier) @name.reference.class
      (qualified_name
        name: [
          (identifier) @name.reference.class
          (generic_name
            .
            (identifier) @name.reference.class)
        ])
      (generic_name
        .
        (identifier) @name.reference.class)
    ]))

(object_creation_expression
  type: [
    (identifier) @name.reference.class
    (qualified_name
      name: [
        (identifier) @name.reference.class
        (generic_name
          .
          (identifier) @name.reference.class)
      ])
    (generic_name
      .
      (identifier) @name.reference.class)
  ])

; nameof(x) is an operator, not a call.
(invocation_expression
  function: (identifier) @ignore
  (#eq? @ignore "nameof"))

; A call is qualified by its object when that is a name, "this" or
; "base", by "." when it is another expression; a plain call has no
; qualifier.
(invocation_expression
  function: (member_access_expression
    expression: [
      (identifier)
      "this"
      "base"
    ] @qual
    name: [
      (identifier) @name.reference.call
      (generic_name
        .
        (identifier) @name.reference.call)
    ]))

; "this.field.M()" as "field.M()".
(invocation_expression
  function: (member_access_expression
    expression: (member_access_expression
      expression: "this"
      name: (identifier) @qual)
    name: [
      (identifier) @name.reference.call
      (generic_name
        .
        (identifier) @name.reference.call)
    ]))

(invocation_expression
  function: (member_access_expression
    "." @qual
    name: [
      (identifier) @name.reference.call
      (generic_name
        .
        (identifier) @name.reference.call)
    ]))

; "x?.M()".
(invocation_expression
  function: (conditional_access_expression
    condition: (identifier) @qual
    (member_binding_expression
      name: [
        (identifier) @name.reference.call
        (generic_name
          .
          (identifier) @name.reference.call)
      ])))

(invocation_expression
  function: (conditional_access_expression
    "?" @qual
    (member_binding_expression
      name: [
        (identifier) @name.reference.call
        (generic_name
          .
          (identifier) @name.reference.call)
      ])))

(invocation_expression
  function: [
    (identifier) @name.reference.call
    (generic_name
      .
      (identifier) @name.reference.call)
    (member_access_expression
      name: [
        (identifier) @name.reference.call
        (generic_name
          .
          (identifier) @name.reference.call)
      ])
    (conditional_access_expression
      (member_binding_expression
        name: [
          (identifier) @name.reference.call
          (generic_name
            .
            (identifier) @name.reference.call)
        ]))
  ])

; A capitalized receiver is most often a class: "Money.Of(…)"; "."
; qualifies it, as it may be a property's value instead.
(member_access_expression
  expression: (identifier) @name.reference.type
  "." @qual
  (#match? @name.reference.type "^[A-Z]"))

; The type of a field, a local, a parameter or a property is qualified by
; the name it declares; of a generic type, the type before its arguments.
(variable_declaration
  type: [
    (identifier) @name.reference.type
    (generic_name
      .
      (identifier) @name.reference.type)
  ]
  (variable_declarator
    name: (identifier) @qual))

([
  (parameter
    type: [
      (identifier) @name.reference.type
      (generic_name
        .
        (identifier) @name.reference.type)
    ]
    name: (identifier) @qual)
  (property_declaration
    type: [
      (identifier) @name.reference.type
      (generic_name
        .
        (identifier) @name.reference.type)
    ]
    name: (identifier) @qual)
])

(_
  type: (identifier) @name.reference.type)

(method_declaration
  returns: (identifier) @name.reference.type)

(type_argument_list
  (identifier) @name.reference.type)

(generic_name
  .
  (identifier) @name.reference.type)

(qualified_name
  name: (identifier) @name.reference.type)
