(** Stock keeping for one warehouse. *)

type sku = string

type movement =
  | Received of sku * int
  | Shipped of { sku : sku; qty : int }

type warehouse
(** A warehouse with its stock; create one with {!create}. *)

exception Out_of_stock of sku

val max_shelves : int

val create : string -> warehouse

val receive : warehouse -> sku -> int -> unit

val apply_all : warehouse -> movement list -> warehouse

external now : unit -> float = "caml_sys_time"

module type LEDGER = sig
  type t
  val balance : t -> sku -> int
end

module Ledger : LEDGER with type t = warehouse

module Prices : sig
  type t = (sku * float) list
  val total : t -> warehouse -> float
  val load : Stdlib.in_channel -> t
end

class audit_log : string -> object
  method add : string -> unit
  method dump : unit
end

val report : warehouse -> unit
