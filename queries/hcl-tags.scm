; Tags for HCL and Terraform: the top-level blocks a file declares, named
; by their last label (`resource "aws_s3_bucket" "logs"` defines logs),
; the values of a locals block, top-level attributes (.tfvars, plain HCL
; configs), and the names that traversals such as var.region,
; module.vpc.subnet_ids or aws_s3_bucket.logs.arn and function calls use.
;
; Capture names follow the convention @name.definition.<kind> and
; @name.reference.<kind>. When several patterns capture the same node,
; the pattern written first wins, so the specific patterns come before
; the general ones; @ignore marks a node that no later pattern may take.
; Captures named otherwise (@type, @root…) only feed predicates.

; ---- Definitions ----

; Terraform's labelled blocks, by block type. A label is a quoted string
; or, in old configurations, a bare identifier.
(config_file
  (body
    (block
      (identifier) @type
      [(string_lit (template_literal) @name.definition.resource)
       (identifier) @name.definition.resource]
      .
      (block_start))
    (#eq? @type "resource")))

(config_file
  (body
    (block
      (identifier) @type
      [(string_lit (template_literal) @name.definition.data)
       (identifier) @name.definition.data]
      .
      (block_start))
    (#eq? @type "data")))

(config_file
  (body
    (block
      (identifier) @type
      [(string_lit (template_literal) @name.definition.module)
       (identifier) @name.definition.module]
      .
      (block_start))
    (#eq? @type "module")))

(config_file
  (body
    (block
      (identifier) @type
      [(string_lit (template_literal) @name.definition.variable)
       (identifier) @name.definition.variable]
      .
      (block_start))
    (#eq? @type "variable")))

(config_file
  (body
    (block
      (identifier) @type
      [(string_lit (template_literal) @name.definition.output)
       (identifier) @name.definition.output]
      .
      (block_start))
    (#eq? @type "output")))

(config_file
  (body
    (block
      (identifier) @type
      [(string_lit (template_literal) @name.definition.provider)
       (identifier) @name.definition.provider]
      .
      (block_start))
    (#eq? @type "provider")))

; The values of a locals block, which local.<name> refers to.
(config_file
  (body
    (block
      (identifier) @type
      (body
        (attribute
          (identifier) @name.definition.local)))
    (#eq? @type "locals")))

(config_file
  (body
    (block
      .
      (identifier) @name.definition.terraform
      .
      (block_start))
    (#eq? @name.definition.terraform "terraform")))

; Any other top-level block: by its last label, or by its type when it
; has none (Packer's `build {`, a plain HCL config's sections).
; Terraform's refactoring records (moved, import, removed) are no
; definitions.
(config_file
  (body
    (block
      (_)
      [(string_lit (template_literal) @name.definition.block)
       (identifier) @name.definition.block]
      .
      (block_start))))

(config_file
  (body
    (block
      .
      (identifier) @name.definition.block
      .
      (block_start))
    (#not-any-of? @name.definition.block "moved" "import" "removed" "locals")))

; A top-level attribute: a .tfvars value, a plain HCL setting.
(config_file
  (body
    (attribute
      (identifier) @name.definition.attribute)))

; ---- References ----

; var.region, local.name_prefix, module.vpc, data.aws_ami.ubuntu.
(expression
  (variable_expr (identifier) @root)
  .
  (get_attr (identifier) @name.reference.variable)
  (#eq? @root "var"))

(expression
  (variable_expr (identifier) @root)
  .
  (get_attr (identifier) @name.reference.local)
  (#eq? @root "local"))

; module.vpc.private_subnets: the module, then the output of it.
(expression
  (variable_expr (identifier) @root)
  .
  (get_attr (identifier) @name.reference.module)
  .
  (get_attr (identifier) @name.reference.output)
  (#eq? @root "module"))

(expression
  (variable_expr (identifier) @root)
  .
  (get_attr (identifier) @name.reference.module)
  (#eq? @root "module"))

(expression
  (variable_expr (identifier) @root)
  .
  (get_attr)
  .
  (get_attr (identifier) @name.reference.data)
  (#eq? @root "data"))

; aws_s3_bucket.logs: a resource type is provider_type, which tells it
; from count.index, each.key, path.module, self.* and loop variables.
(expression
  (variable_expr (identifier) @root)
  .
  (get_attr (identifier) @name.reference.resource)
  (#match? @root "^[a-z][a-z0-9]*_[a-z0-9_]+$"))

; provider = aws.west: the provider a resource uses.
(attribute
  (identifier) @key
  (expression
    .
    (variable_expr (identifier) @name.reference.provider))
  (#eq? @key "provider"))

(function_call
  (identifier) @name.reference.call)
