; JSX component references, added to a language's tags query (TSX takes
; typescript-tags.scm followed by this file).

; JSX: a capitalized tag is a component; lower-case tags are HTML.
(jsx_opening_element
  name: (identifier) @name.reference.component
  (#match? @name.reference.component "^[A-Z]"))

(jsx_self_closing_element
  name: (identifier) @name.reference.component
  (#match? @name.reference.component "^[A-Z]"))

(jsx_opening_element
  name: (member_expression
    property: (property_identifier) @name.reference.component))

(jsx_self_closing_element
  name: (member_expression
    property: (property_identifier) @name.reference.component))

; Imports: the imported name, not a local alias.
(import_clause
  (identifier) @name.reference.import)

(import_specifier
  name: (identifier) @name.reference.import)

(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @name.reference.import))
  source: (string))

; Every other use of a type name: annotations, type arguments, "extends"
; of an interface, "as" and "satisfies".
(type_identifier) @name.reference.type
