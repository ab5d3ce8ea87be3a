; Tags for XML: the root element (what the document is: a Maven
; <project>, an <svg>, a <plist>…), the entities and elements an internal
; DTD declares, and the entities (&name; and %name;) the document uses.
;
; id attributes are left out: the grammar's attribute value node holds
; the quotes too (`"TS-001"`), and no node holds the name alone. Other
; elements are left out too: their names repeat all through a document
; (<dependency>, <bean>, <path>) and say nothing a map needs.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(document
  root: (element
    [(STag (Name) @name.definition.element)
     (EmptyElemTag (Name) @name.definition.element)]))

; <!ENTITY company "…">, <!ENTITY % money "…">.
(GEDecl
  .
  (Name) @name.definition.entity)

(PEDecl
  .
  (Name) @name.definition.entity)

; <!ELEMENT product (name, price)>.
(elementdecl
  .
  (Name) @name.definition.element)

; ---- References ----

; &company; and %money;, but not the five entities XML predefines.
(EntityRef
  (Name) @name.reference.entity
  (#not-any-of? @name.reference.entity "amp" "lt" "gt" "quot" "apos"))

(PEReference
  (Name) @name.reference.entity)

; A C# project's <Using Include="A.B" />: a using directive of the C#
; files below the project file, qualified by its namespace, and by
; "Static" for a static one.
(EmptyElemTag
  (Name) @name.reference.using
  (Attribute
    (Name) @_include
    (AttValue) @qual)
  (Attribute
    (Name) @_static @qual
    (AttValue) @_true)
  (#eq? @name.reference.using "Using")
  (#eq? @_include "Include")
  (#eq? @_static "Static")
  (#eq? @_true "\"true\""))

(EmptyElemTag
  (Name) @name.reference.using
  (Attribute
    (Name) @_include
    (AttValue) @qual)
  (#eq? @name.reference.using "Using")
  (#eq? @_include "Include"))
