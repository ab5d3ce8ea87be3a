; Tags for YAML: the keys of each document's top-level mapping, and the
; anchors (&name) that aliases reuse.
;
; Aliases (*name) are no references: an anchor holds only within its own
; document, so an alias would tie files that merely share an anchor name.
; Nested keys are left out: they repeat from file to file (image, ports,
; name…) and would tie every YAML file to every other. Quoted keys are
; left out too: the grammar has no node for the text between the quotes.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.

; ---- Definitions ----

(document
  (block_node
    (block_mapping
      (block_mapping_pair
        key: (flow_node
          (plain_scalar) @name.definition.key)
        (#not-eq? @name.definition.key "<<")))))

(anchor
  (anchor_name) @name.definition.anchor)
