; Tags for TOML: table headers ([server], [[products]], and [a.b] by its
; last key) and the keys set at the top level, before any table. TOML
; names nothing elsewhere, so there are no references.
;
; Quoted keys are left out: the grammar has no node for the text between
; the quotes.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; A Cargo.toml's [package] table is qualified by the package's name, which
; is how Rust code names the crate.
(table
  .
  (bare_key) @name.definition.table
  (pair
    .
    (bare_key) @_name
    .
    (string) @qual)
  (#eq? @name.definition.table "package")
  (#eq? @_name "name"))

(table
  .
  (bare_key) @name.definition.table)

(table
  .
  (dotted_key
    (bare_key) @name.definition.table
    .))

(table_array_element
  .
  (bare_key) @name.definition.table)

(table_array_element
  .
  (dotted_key
    (bare_key) @name.definition.table
    .))

(document
  (pair
    .
    (bare_key) @name.definition.key))

(document
  (pair
    .
    (dotted_key
      (bare_key) @name.definition.key
      .)))
