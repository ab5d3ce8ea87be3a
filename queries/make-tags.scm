; Tags for Makefiles: the targets that rules build, the variables and
; `define` macros a makefile sets, and the targets and variables it uses.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; A rule's plain targets: `build:`, `%.o:`. Special targets such as
; .PHONY or .DEFAULT_GOAL are directives, not things the makefile builds;
; a computed target such as `$(BUILD_DIR)/app` has no name of its own.
(rule
  (targets
    (word) @name.definition.target)
  (#not-match? @name.definition.target "^\\.[A-Z_]+$"))

; A variable set for the whole makefile: `X := 1`, `X ?= 1`, also under
; override/export/private and inside conditionals. A target-specific
; assignment (`debug: CFLAGS = -g`) and an append (`X += y`) do not
; define the variable: they are references below.
(variable_assignment
  !target_or_pattern
  name: (word) @name.definition.variable
  operator: ["=" ":=" "::=" "?="])

(shell_assignment
  name: (word) @name.definition.variable)

(define_directive
  name: (word) @name.definition.macro)

; ---- References ----

; Prerequisites name the targets a rule needs. Pattern prerequisites
; (`%.c`) name no target.
(rule
  normal: (prerequisites
    (word) @name.reference.target)
  (#not-match? @name.reference.target "%"))

(rule
  order_only: (prerequisites
    (word) @name.reference.target)
  (#not-match? @name.reference.target "%"))

; An append or a target-specific assignment uses a variable defined
; elsewhere.
(variable_assignment
  name: (word) @name.reference.variable)

; $(VAR), ${VAR}, $(VAR:.c=.o), ifdef VAR.
(variable_reference
  (word) @name.reference.variable)

(substitution_reference
  text: (word) @name.reference.variable)

(ifdef_directive
  variable: (word) @name.reference.variable)

(ifndef_directive
  variable: (word) @name.reference.variable)

; $(call macro). The grammar keeps `macro,arg1,arg2` as one text node, so
; only a call without arguments has a node that is the macro's name.
(function_call
  function: "call"
  (arguments
    .
    argument: (text) @name.reference.call)
  (#match? @name.reference.call "^[A-Za-z_][A-Za-z0-9_.-]*$"))
