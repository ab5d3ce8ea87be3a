; Tags for Ruby: the classes, modules, methods (singleton methods too,
; "def self.x" and those in "class << self"), top-level methods and
; constants a file defines, and the methods it calls, its superclasses, the
; modules it mixes in with include, extend or prepend, and the constants
; it names.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(class
  name: [
    (constant) @name.definition.class
    (scope_resolution
      name: (constant) @name.definition.class)
  ])

(module
  name: [
    (constant) @name.definition.module
    (scope_resolution
      name: (constant) @name.definition.module)
  ])

; A method outside any class or module is a function.
(program
  (method
    name: (_) @name.definition.function))

(method
  name: (_) @name.definition.method)

(singleton_method
  name: (_) @name.definition.method)

(assignment
  left: (constant) @name.definition.constant)

; ---- References ----

(superclass
  [
    (constant) @name.reference.class
    (scope_resolution
      name: (constant) @name.reference.class)
  ])

((call
  method: (identifier) @_mix
  arguments: (argument_list
    [
      (constant) @name.reference.mixin
      (scope_resolution
        name: (constant) @name.reference.mixin)
    ]))
  (#any-of? @_mix "include" "extend" "prepend"))

; Calls, but not the keywords of the language that are methods.
((call
  method: (identifier) @name.reference.call)
  (#not-any-of? @name.reference.call
    "require" "require_relative" "load" "include" "extend" "prepend"
    "attr_reader" "attr_writer" "attr_accessor" "private" "protected"
    "public" "private_constant" "module_function" "raise"))

(constant) @name.reference.constant
