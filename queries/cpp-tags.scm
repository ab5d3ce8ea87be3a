; Tags for C++: the namespaces, classes, structs, unions, enums, type
; aliases, functions (definitions and prototypes, templates too), methods
; (in the class and out of it: "Foo::bar" defines bar), constructors,
; fields, macros and namespace-scope variables a file defines, and the
; functions and methods it calls, its base classes and the types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(namespace_definition
  name: (namespace_identifier) @name.definition.namespace)

(namespace_definition
  name: (nested_namespace_specifier
    (namespace_identifier) @name.definition.namespace .))

(class_specifier
  name: [
    (type_identifier) @name.definition.class
    (template_type
      name: (type_identifier) @name.definition.class)
  ]
  body: (field_declaration_list))

(struct_specifier
  name: [
    (type_identifier) @name.definition.struct
    (template_type
      name: (type_identifier) @name.definition.struct)
  ]
  body: (field_declaration_list))

(union_specifier
  name: (type_identifier) @name.definition.union
  body: (field_declaration_list))

(enum_specifier
  name: (type_identifier) @name.definition.enum
  body: (enumerator_list))

(enumerator
  name: (identifier) @name.definition.constant)

(alias_declaration
  name: (type_identifier) @name.definition.type)

(type_definition
  declarator: [
    (type_identifier) @name.definition.type
    (pointer_declarator
      declarator: (type_identifier) @name.definition.type)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (type_identifier) @name.definition.type)))
  ])

; Inside a class body: constructors (a function without a return type,
; named by a plain identifier), methods and fields.
(field_declaration_list
  [
    (declaration
      !type
      declarator: (function_declarator
        declarator: (identifier) @name.definition.constructor))
    (function_definition
      !type
      declarator: (function_declarator
        declarator: (identifier) @name.definition.constructor))
    (template_declaration
      [
        (declaration
          !type
          declarator: (function_declarator
            declarator: (identifier) @name.definition.constructor))
        (function_definition
          !type
          declarator: (function_declarator
            declarator: (identifier) @name.definition.constructor))
      ])
  ])

(field_declaration_list
  [
    (field_declaration
      declarator: [
        (function_declarator
          declarator: [(field_identifier) (operator_name)] @name.definition.method)
        (pointer_declarator
          declarator: (function_declarator
            declarator: [(field_identifier) (operator_name)] @name.definition.method))
        (reference_declarator
          (function_declarator
            declarator: [(field_identifier) (operator_name)] @name.definition.method))
      ])
    (function_definition
      declarator: [
        (function_declarator
          declarator: [(field_identifier) (operator_name)] @name.definition.method)
        (pointer_declarator
          declarator: (function_declarator
            declarator: [(field_identifier) (operator_name)] @name.definition.method))
        (reference_declarator
          (function_declarator
            declarator: [(field_identifier) (operator_name)] @name.definition.method))
      ])
    (template_declaration
      [
        (declaration
          declarator: (function_declarator
            declarator: [(identifier) (field_identifier) (operator_name)] @name.definition.method))
        (function_definition
          declarator: (function_declarator
            declarator: [(identifier) (field_identifier) (operator_name)] @name.definition.method))
      ])
  ])

(field_declaration_list
  (field_declaration
    declarator: [
      (field_identifier) @name.definition.field
      (pointer_declarator
        declarator: (field_identifier) @name.definition.field)
      (reference_declarator
        (field_identifier) @name.definition.field)
      (array_declarator
        declarator: (field_identifier) @name.definition.field)
      (function_declarator
        declarator: (parenthesized_declarator
          (pointer_declarator
            declarator: (field_identifier) @name.definition.field)))
    ]))

; Out of the class: "Foo::Foo" is a constructor, "Foo::bar" a method
; (also "ns::Foo::bar" and "Foo<T>::bar"); "Foo::~Foo" is no tag.
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: [
        (namespace_identifier) @_class
        (template_type
          name: (type_identifier) @_class)
      ]
      name: (identifier) @name.definition.constructor))
  (#eq? @_class @name.definition.constructor))

(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      name: (qualified_identifier
        scope: [
          (namespace_identifier) @_class
          (template_type
            name: (type_identifier) @_class)
        ]
        name: (identifier) @name.definition.constructor)))
  (#eq? @_class @name.definition.constructor))

(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        name: [
          (identifier) @name.definition.method
          (operator_name) @name.definition.method
          (template_function
            name: (identifier) @name.definition.method)
          (qualified_identifier
            name: [(identifier) (operator_name)] @name.definition.method)
        ]))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          name: [
            (identifier) @name.definition.method
            (operator_name) @name.definition.method
            (template_function
              name: (identifier) @name.definition.method)
          ])))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          name: [
            (identifier) @name.definition.method
            (operator_name) @name.definition.method
            (template_function
              name: (identifier) @name.definition.method)
          ])))
  ])

; Functions and their prototypes, templates too.
(function_definition
  declarator: [
    (function_declarator
      declarator: (identifier) @name.definition.function)
    (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name.definition.function))
    (reference_declarator
      (function_declarator
        declarator: (identifier) @name.definition.function))
  ])

(declaration
  declarator: [
    (function_declarator
      declarator: (identifier) @name.definition.function)
    (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name.definition.function))
    (reference_declarator
      (function_declarator
        declarator: (identifier) @name.definition.function))
  ])

; Macros. An object-like macro without a value is an include guard or a
; flag, not worth a map line.
(preproc_def
  name: (identifier) @name.definition.macro
  value: (preproc_arg))

(preproc_function_def
  name: (identifier) @name.definition.macro)

; Variables declared in a function body are locals: no tags.
(compound_statement
  (declaration
    declarator: [
      (identifier) @ignore
      (pointer_declarator
        declarator: (identifier) @ignore)
      (reference_declarator
        (identifier) @ignore)
      (array_declarator
        declarator: (identifier) @ignore)
      (init_declarator
        declarator: [
          (identifier) @ignore
          (pointer_declarator
            declarator: (identifier) @ignore)
          (reference_declarator
            (identifier) @ignore)
          (array_declarator
            declarator: (identifier) @ignore)
        ])
    ]))

([(case_statement) (condition_clause)]
  (declaration
    declarator: [
      (identifier) @ignore
      (init_declarator
        declarator: [
          (identifier) @ignore
          (pointer_declarator
            declarator: (identifier) @ignore)
          (reference_declarator
            (identifier) @ignore)
        ])
    ]))

(for_statement
  initializer: (declaration
    declarator: (init_declarator
      declarator: [
        (identifier) @ignore
        (pointer_declarator
          declarator: (identifier) @ignore)
      ])))

; The other declarations are at namespace scope: constants and variables.
(declaration
  (type_qualifier) @_const
  declarator: [
    (identifier) @name.definition.constant
    (init_declarator
      declarator: (identifier) @name.definition.constant)
  ]
  (#any-of? @_const "const" "constexpr" "constinit"))

(declaration
  declarator: [
    (identifier) @name.definition.variable
    (pointer_declarator
      declarator: (identifier) @name.definition.variable)
    (reference_declarator
      (identifier) @name.definition.variable)
    (array_declarator
      declarator: (identifier) @name.definition.variable)
    (init_declarator
      declarator: [
        (identifier) @name.definition.variable
        (pointer_declarator
          declarator: (identifier) @name.definition.variable)
        (reference_declarator
          (identifier) @name.definition.variable)
        (array_declarator
          declarator: (identifier) @name.definition.variable)
      ])
  ])

; A template's own parameters are no references.
(type_parameter_declaration
  (type_identifier) @ignore)

(optional_type_parameter_declaration
  name: (type_identifier) @ignore)

(variadic_type_parameter_declaration
  (type_identifier) @ignore)

; What the standard library defines is not in the repository: std::
; names are no references.
(qualified_identifier
  scope: (namespace_identifier) @_std
  name: [
    (identifier) @ignore
    (type_identifier) @ignore
    (template_type
      name: (type_identifier) @ignore)
    (template_function
      name: (identifier) @ignore)
  ]
  (#eq? @_std "std"))

; ---- References ----

(base_class_clause
  [
    (type_identifier) @name.reference.class
    (template_type
      name: (type_identifier) @name.reference.class)
    (qualified_identifier
      name: [
        (type_identifier) @name.reference.class
        (template_type
          name: (type_identifier) @name.reference.class)
      ])
  ])

(call_expression
  function: [
    (identifier) @name.reference.call
    (template_function
      name: (identifier) @name.reference.call)
    (field_expression
      field: [
        (field_identifier) @name.reference.call
        (template_method
          name: (field_identifier) @name.reference.call)
      ])
    (qualified_identifier
      name: [
        (identifier) @name.reference.call
        (template_function
          name: (identifier) @name.reference.call)
        (qualified_identifier
          name: [
            (identifier) @name.reference.call
            (template_function
              name: (identifier) @name.reference.call)
          ])
      ])
  ])

; A one-letter type is a template parameter.
((type_identifier) @name.reference.type
  (#not-match? @name.reference.type "^[A-Z]$"))

; An #include of a file in quotes refers to that file: its name is the
; file's base name, its path qualifies it. Includes in <> are the
; system's.
(preproc_include
  path: (string_literal) @qual @name.reference.include)
