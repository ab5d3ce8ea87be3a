; Tags for Svelte components: the snippets a template defines, the
; components it renders (<ProductCard>) and the functions its event
; handlers name (on:click={addToCart}, onclick={addToCart}).
;
; This grammar parses the template only: the <script> and <style>
; contents are raw text, so the script's imports, functions and exports
; are not tagged. Nor are names inside other {…} expressions, which are
; raw text as well ({@render priceTag(total)}, {#each items as item}).
; A component is defined by its file name, which a query cannot tag.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.
; Captures named otherwise (@attr) only feed predicates.

; ---- Definitions ----

(snippet_start
  (snippet_name) @name.definition.snippet)

; ---- References ----

; A component is an element whose name starts with a capital letter;
; <svelte:window> and HTML elements are lower-case.
(start_tag
  (tag_name) @name.reference.component
  (#match? @name.reference.component "^[A-Z][A-Za-z0-9_]*$"))

(self_closing_tag
  (tag_name) @name.reference.component
  (#match? @name.reference.component "^[A-Z][A-Za-z0-9_]*$"))

; An event handler that is a plain function name; an inline arrow
; function is raw text.
(attribute
  (attribute_name) @attr
  (expression
    (svelte_raw_text) @name.reference.call)
  (#match? @attr "^on(:|[a-z]+$)")
  (#match? @name.reference.call "^[A-Za-z_$][A-Za-z0-9_$]*$"))
