; Tags for JSON: the keys of the root object. Nested keys are left out:
; they repeat from file to file and would tie every JSON file to every
; other. JSON names nothing elsewhere, so there are no references.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; A key with an escape sequence is split into several string_content
; nodes, none of them the whole name: only a key of one piece is taken.
(document
  (object
    (pair
      key: (string
        .
        (string_content) @name.definition.key
        .))))
