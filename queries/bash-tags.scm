; Tags for Bash: the functions a script defines and the commands it runs
; (the functions of its own or of a sourced file among them).
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(function_definition
  name: (word) @name.definition.function)

; ---- References ----

(command
  name: (command_name
    (word) @name.reference.call))
