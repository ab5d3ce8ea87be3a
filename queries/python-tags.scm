; Tags for Python: what a module defines and what it refers to.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(class_definition
  name: (identifier) @name.definition.class)

; A method's class qualifies it.
(class_definition
  name: (identifier) @qual
  body: (block
    (function_definition
      name: (identifier) @name.definition.method)))

(class_definition
  name: (identifier) @qual
  body: (block
    (decorated_definition
      definition: (function_definition
        name: (identifier) @name.definition.method))))

; A function decorated as a pytest fixture ("@fixture", "@pytest.fixture",
; with or without arguments) is a "fixture": tests take it by naming it
; as a parameter. Its parameters name the fixtures it takes, as a test's
; do (below): each is a "fixture" reference.
(decorated_definition
  (decorator
    [
      (identifier) @_fixture
      (attribute
        attribute: (identifier) @_fixture)
      (call
        function: [
          (identifier) @_fixture
          (attribute
            attribute: (identifier) @_fixture)
        ])
    ])
  definition: (function_definition
    name: (identifier) @name.definition.fixture
    parameters: (parameters
      [
        (identifier) @name.reference.fixture
        (typed_parameter
          (identifier) @name.reference.fixture)
      ]?))
  (#eq? @_fixture "fixture"))

(function_definition
  name: (identifier) @name.definition.function)

(module
  (expression_statement
    (assignment
      left: (identifier) @name.definition.variable)))

(module
  (expression_statement
    (assignment
      left: (pattern_list
        (identifier) @name.definition.variable))))

(module
  (type_alias_statement
    left: (type
      (identifier) @name.definition.type)))

; ---- References ----
;
; A call of a plain name is a "call", of an attribute ("x.f()") a "member"
; call: only the first can be a call of a builtin function. An attribute's
; object qualifies it when it is a name, a dotted name or a call of
; super(); a base class is qualified by the class it is a base of, then
; by its object.

(decorator
  (identifier) @name.reference.decorator)

(decorator
  (attribute
    object: [
      (identifier)
      (attribute)
    ] @qual
    attribute: (identifier) @name.reference.decorator))

(decorator
  (attribute
    attribute: (identifier) @name.reference.decorator))

(decorator
  (call
    function: (identifier) @name.reference.decorator))

(decorator
  (call
    function: (attribute
      object: [
        (identifier)
        (attribute)
      ] @qual
      attribute: (identifier) @name.reference.decorator)))

(decorator
  (call
    function: (attribute
      attribute: (identifier) @name.reference.decorator)))

(class_definition
  name: (identifier) @qual
  superclasses: (argument_list
    (identifier) @name.reference.class))

(class_definition
  name: (identifier) @qual
  superclasses: (argument_list
    (attribute
      object: [
        (identifier)
        (attribute)
      ] @qual
      attribute: (identifier) @name.reference.class)))

(class_definition
  superclasses: (argument_list
    (attribute
      attribute: (identifier) @name.reference.class)))

(call
  function: (identifier) @name.reference.call)

(call
  function: (attribute
    object: [
      (identifier)
      (attribute)
    ] @qual
    attribute: (identifier) @name.reference.member))

(call
  function: (attribute
    object: (call
      function: (identifier) @_super
      (#eq? @_super "super")) @qual
    attribute: (identifier) @name.reference.member))

(call
  function: (attribute
    attribute: (identifier) @name.reference.member))

; A type annotation (of a parameter, a return or a variable) uses the
; types it names: each is a "hint" reference, the base of a
; generic type ("Optional" of "Optional[T]") too, and the members of a union ("A | B",
; three deep). A string annotation is a forward reference: one naming a
; single type is a use of it.
(type
  (identifier) @name.reference.hint)

(type
  (attribute
    object: [
      (identifier)
      (attribute)
    ] @qual
    attribute: (identifier) @name.reference.hint))

(type
  (string
    (string_content) @name.reference.hint)
  (#match? @name.reference.hint "^[A-Za-z_][A-Za-z0-9_]*$"))

(generic_type
  (identifier) @name.reference.hint)

(type
  (binary_operator
    [
      (identifier) @name.reference.hint
      (attribute
        object: [
          (identifier)
          (attribute)
        ] @qual
        attribute: (identifier) @name.reference.hint)
      (binary_operator
        [
          (identifier) @name.reference.hint
          (attribute
            object: [
              (identifier)
              (attribute)
            ] @qual
            attribute: (identifier) @name.reference.hint)
          (binary_operator
            (identifier) @name.reference.hint)
        ])
    ]))

; The parameters of a test function name the fixtures it takes: each is
; a "fixture" reference.
(function_definition
  name: (identifier) @_test
  parameters: (parameters
    [
      (identifier) @name.reference.fixture
      (typed_parameter
        (identifier) @name.reference.fixture)
    ])
  (#match? @_test "^test"))

; A module's __all__ lists the names it exports: each string of it is an
; "export" of the name.
(module
  (expression_statement
    (assignment
      left: (identifier) @_all
      right: [
        (list
          (string
            (string_content) @name.reference.export))
        (tuple
          (string
            (string_content) @name.reference.export))
      ])
    (#eq? @_all "__all__")))

; "import a.b" and "import a.b as c" refer to the module, by the last
; part of its name; the qualifier is its dotted name, then the alias.
(import_statement
  name: (dotted_name
    (identifier) @name.reference.module .) @qual)

(import_statement
  name: (aliased_import
    name: (dotted_name
      (identifier) @name.reference.module .) @qual
    alias: (identifier) @qual))

; "from m import n as k" refers to n; the qualifier is the module as
; written (relative ones start with dots), then the alias. "*" stands for
; every name of the module.
(import_from_statement
  module_name: (_) @qual
  name: (dotted_name
    (identifier) @name.reference.import))

(import_from_statement
  module_name: (_) @qual
  name: (aliased_import
    name: (dotted_name
      (identifier) @name.reference.import)
    alias: (identifier) @qual))

(import_from_statement
  module_name: (_) @qual
  (wildcard_import) @name.reference.import)

; ---- Bindings ----
;
; What a variable holds, where the source says it, for the rules to tell
; which class's method a use of it calls. These references link nothing
; themselves, and come last: a name another pattern takes (a module's
; variable, a test's parameter) binds nothing. "x = F(…)" in a function
; or a class is a "bind" reference to x, qualified by F as written ("F",
; "m.F"); "self.a = F(…)" a "selfbind" reference to a; a parameter
; annotated with a type, "x: T" or "x: m.T", a "bindhint" reference to x
; qualified by the type.
(assignment
  left: (identifier) @name.reference.bind
  right: (call
    function: [
      (identifier)
      (attribute)
    ] @qual))

(assignment
  left: (attribute
    object: (identifier) @_self
    attribute: (identifier) @name.reference.selfbind)
  right: (call
    function: [
      (identifier)
      (attribute)
    ] @qual)
  (#eq? @_self "self"))

; "x = []", "x = {}", "x = 'a'", "x = None" and the like (a literal or a
; comprehension) are a "bindlit" reference to x, "self.a = []" a
; "selfbindlit" one to a: a value of a builtin type, of no class of the
; tree.
(assignment
  left: (identifier) @name.reference.bindlit
  right: [
    (list) (dictionary) (set) (tuple) (string) (concatenated_string)
    (integer) (float) (true) (false) (none)
    (list_comprehension) (dictionary_comprehension) (set_comprehension)
  ])

(assignment
  left: (attribute
    object: (identifier) @_self
    attribute: (identifier) @name.reference.selfbindlit)
  right: [
    (list) (dictionary) (set) (tuple) (string) (concatenated_string)
    (integer) (float) (true) (false) (none)
    (list_comprehension) (dictionary_comprehension) (set_comprehension)
  ]
  (#eq? @_self "self"))

(typed_parameter
  (identifier) @name.reference.bindhint
  type: (type
    [
      (identifier)
      (attribute)
    ] @qual))

(typed_default_parameter
  name: (identifier) @name.reference.bindhint
  type: (type
    [
      (identifier)
      (attribute)
    ] @qual))
