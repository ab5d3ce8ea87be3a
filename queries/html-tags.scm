; Tags for HTML: element ids as definitions; the scripts and stylesheets
; a page loads and the custom elements (<cart-drawer>) it uses as
; references.
;
; Class attributes are left out: every element has some, and the same
; class names are on every page. Inline <script> and <style> content is
; raw text to this grammar, so nothing inside it is tagged.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.
; Captures named otherwise (@attr, @tag…) only feed predicates. HTML
; names are case-insensitive, hence the (?i) of the patterns.

; ---- Definitions ----

(attribute
  (attribute_name) @attr
  (quoted_attribute_value
    (attribute_value) @name.definition.id)
  (#match? @attr "(?i)^id$"))

(attribute
  (attribute_name) @attr
  (attribute_value) @name.definition.id
  (#match? @attr "(?i)^id$"))

; ---- References ----

; <script src="/js/cart.js">.
(script_element
  (start_tag
    (attribute
      (attribute_name) @attr
      [(quoted_attribute_value (attribute_value) @name.reference.import)
       (attribute_value) @name.reference.import])
    (#match? @attr "(?i)^src$")))

; <link rel="stylesheet" href="/css/site.css">, the attributes in either
; order. Other links (icons, feeds, preconnects) load no code.
(start_tag
  (tag_name) @tag
  (attribute
    (attribute_name) @rel
    [(quoted_attribute_value (attribute_value) @rel_value)
     (attribute_value) @rel_value])
  (attribute
    (attribute_name) @attr
    [(quoted_attribute_value (attribute_value) @name.reference.import)
     (attribute_value) @name.reference.import])
  (#match? @tag "(?i)^link$")
  (#match? @rel "(?i)^rel$")
  (#match? @rel_value "(?i)(^|\\s)stylesheet(\\s|$)")
  (#match? @attr "(?i)^href$"))

(start_tag
  (tag_name) @tag
  (attribute
    (attribute_name) @attr
    [(quoted_attribute_value (attribute_value) @name.reference.import)
     (attribute_value) @name.reference.import])
  (attribute
    (attribute_name) @rel
    [(quoted_attribute_value (attribute_value) @rel_value)
     (attribute_value) @rel_value])
  (#match? @tag "(?i)^link$")
  (#match? @rel "(?i)^rel$")
  (#match? @rel_value "(?i)(^|\\s)stylesheet(\\s|$)")
  (#match? @attr "(?i)^href$"))

; Custom elements: a tag name with a hyphen.
(start_tag
  (tag_name) @name.reference.element
  (#match? @name.reference.element "-"))

(self_closing_tag
  (tag_name) @name.reference.element
  (#match? @name.reference.element "-"))
