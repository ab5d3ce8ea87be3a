; Tags for CSS: the classes and ids that rules style, custom properties
; and @keyframes, and the custom properties (var(--x)) and animations
; that declarations use.
;
; A class or id is a definition where it is the subject of a rule: in the
; last compound selector (`.title` in `.card > .title`, both classes of
; `.btn.primary:hover`), not where it only gives the context (`.card`)
; or sits in a pseudo-class argument (`:not(.is-disabled)`). The grammar
; nests selectors to the left: `.a .b:hover` is a pseudo-class selector
; around a descendant selector, `.a.b` a class selector around another.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

; `.a`, `a.b`, `.a.b`, `#a`, `main#a.b`: the subject itself.
(selectors
  [(class_selector (class_name) @name.definition.class)
   (class_selector (class_selector (class_name) @name.definition.class))
   (id_selector (id_name) @name.definition.id)
   (class_selector (id_selector (id_name) @name.definition.id))])

; `.a:hover`, `.a::before`, `.a:hover::before`.
(selectors
  [(pseudo_class_selector
     .
     [(class_selector (class_name) @name.definition.class)
      (class_selector (class_selector (class_name) @name.definition.class))
      (id_selector (id_name) @name.definition.id)
      (class_selector (id_selector (id_name) @name.definition.id))])
   (pseudo_element_selector
     .
     [(class_selector (class_name) @name.definition.class)
      (class_selector (class_selector (class_name) @name.definition.class))
      (id_selector (id_name) @name.definition.id)
      (class_selector (id_selector (id_name) @name.definition.id))])
   (pseudo_element_selector
     .
     (pseudo_class_selector
       .
       [(class_selector (class_name) @name.definition.class)
        (class_selector (class_selector (class_name) @name.definition.class))
        (id_selector (id_name) @name.definition.id)
        (class_selector (id_selector (id_name) @name.definition.id))]))])

; `.a .b`, `.a > .b`, `.a ~ .b`, `.a + .b`, and those with a pseudo-class
; or pseudo-element: the right-hand side of the combinator. Under
; `selectors`, only a combinator has a class or id selector as its last
; child (a compound selector ends with the class or id name).
(selectors
  [(_
     [(class_selector (class_name) @name.definition.class)
      (class_selector (class_selector (class_name) @name.definition.class))
      (id_selector (id_name) @name.definition.id)
      (class_selector (id_selector (id_name) @name.definition.id))]
     .)
   (pseudo_class_selector
     .
     (_
       [(class_selector (class_name) @name.definition.class)
        (class_selector (class_selector (class_name) @name.definition.class))
        (id_selector (id_name) @name.definition.id)
        (class_selector (id_selector (id_name) @name.definition.id))]
       .))
   (pseudo_element_selector
     .
     (_
       [(class_selector (class_name) @name.definition.class)
        (class_selector (class_selector (class_name) @name.definition.class))
        (id_selector (id_name) @name.definition.id)
        (class_selector (id_selector (id_name) @name.definition.id))]
       .))])

; A custom property declared: `--accent: #e4572e;`.
(declaration
  (property_name) @name.definition.variable
  (#match? @name.definition.variable "^--"))

(keyframes_statement
  (keyframes_name) @name.definition.keyframes)

; ---- References ----

; var(--accent), var(--surface, #fff).
(call_expression
  (function_name) @function
  (arguments
    .
    (plain_value) @name.reference.variable)
  (#eq? @function "var")
  (#match? @name.reference.variable "^--"))

; The keyframes an animation runs: the words of `animation` and
; `animation-name` that are not one of the property's keywords.
(declaration
  (property_name) @property
  (plain_value) @name.reference.animation
  (#any-of? @property "animation" "animation-name")
  (#not-any-of? @name.reference.animation
    "none" "infinite" "normal" "reverse" "alternate" "alternate-reverse"
    "forwards" "backwards" "both" "running" "paused" "linear" "ease"
    "ease-in" "ease-out" "ease-in-out" "step-start" "step-end"
    "initial" "inherit" "unset" "revert" "revert-layer"))
