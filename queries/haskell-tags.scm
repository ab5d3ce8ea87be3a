; Tags for Haskell: the module a file defines, its top-level functions
; (at the type signature, or at the first equation of a function without
; one), data types with their constructors and record fields, newtypes,
; type synonyms, type families, and type classes with their methods; and
; the classes it gives instances of, the modules and names it imports, the
; functions it applies, the constructors it uses and the types it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; The module's dotted name, which imports name too.
(header
  module: (module) @name.definition.module)

(class
  name: (name) @name.definition.class)

(class_declarations
  (signature
    [
      name: (variable) @name.definition.method
      names: (binding_list
        (variable) @name.definition.method)
    ]))

(data_type
  name: (name) @name.definition.data)

(newtype
  name: (name) @name.definition.newtype)

(type_synomym
  name: (name) @name.definition.type)

(type_family
  name: (name) @name.definition.type)

(data_family
  name: (name) @name.definition.type)

(data_constructor
  constructor: [
    (prefix
      name: (constructor) @name.definition.constructor)
    (record
      name: (constructor) @name.definition.constructor)
  ])

(newtype_constructor
  name: (constructor) @name.definition.constructor)

(gadt_constructor
  name: (constructor) @name.definition.constructor)

(data_constructor
  constructor: (record
    fields: (fields
      (field
        name: (field_name
          (variable) @name.definition.field)))))

(newtype_constructor
  field: (record
    field: (field
      name: (field_name
        (variable) @name.definition.field))))

; A top-level function is tagged at its signature. The equations right
; after their signature, and the second and later equations of a
; function, are no tags; the first equation of a function without a
; signature is.
(declarations
  (signature
    [
      name: (variable) @name.definition.function
      names: (binding_list
        (variable) @name.definition.function)
    ]))

((declarations
  (signature
    name: (variable) @_signed)
  .
  [
    (function
      name: (variable) @ignore)
    (bind
      name: (variable) @ignore)
  ])
  (#eq? @_signed @ignore))

((declarations
  [
    (function
      name: (variable) @_previous)
    (bind
      name: (variable) @_previous)
  ]
  .
  [
    (function
      name: (variable) @ignore)
    (bind
      name: (variable) @ignore)
  ])
  (#eq? @_previous @ignore))

(declarations
  [
    (function
      name: (variable) @name.definition.function)
    (bind
      name: (variable) @name.definition.function)
  ])

; ---- References ----

(instance
  name: [
    (name) @name.reference.implementation
    (qualified
      id: (name) @name.reference.implementation)
  ])

; import qualified Data.Map as Map: the module, not its alias; and the
; names of an import list.
(import
  alias: (module) @ignore)

(import
  module: (module) @name.reference.module)

(import_name
  [
    type: (name) @name.reference.import
    variable: (variable) @name.reference.import
  ])

; The export list names the module's own definitions.
(export
  [
    type: (name) @ignore
    variable: (variable) @ignore
  ])

; The head of an application: f x y, Map.lookup k m.
(apply
  function: [
    (variable) @name.reference.call
    (qualified
      id: (variable) @name.reference.call)
  ])

(constructor) @name.reference.constructor

(name) @name.reference.type
