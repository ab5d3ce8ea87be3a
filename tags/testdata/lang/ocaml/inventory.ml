(* Stock keeping for one warehouse. *)

open Printf
module SMap = Map.Make (String)

type sku = string

type movement =
  | Received of sku * int
  | Shipped of { sku : sku; qty : int }

type warehouse = {
  name : string;
  mutable stock : int SMap.t;
}

exception Out_of_stock of sku

external now : unit -> float = "caml_sys_time"

let max_shelves = 40

let clamp n = max 0 (min n 1000)

let create name = { name; stock = SMap.empty }

let receive w sku n =
  let have = Option.value ~default:0 (SMap.find_opt sku w.stock) in
  w.stock <- SMap.add sku (clamp (have + n)) w.stock

let rec apply_all w = function
  | [] -> w
  | Received (sku, n) :: rest -> receive w sku n; apply_all w rest
  | Shipped { sku; qty } :: rest ->
      if not (SMap.mem sku w.stock) then raise (Out_of_stock sku);
      receive w sku (-qty);
      apply_all w rest

module type LEDGER = sig
  type t
  val balance : t -> sku -> int
end

module Ledger : LEDGER with type t = warehouse = struct
  type t = warehouse
  let balance w sku = SMap.find sku w.stock
end

class audit_log prefix =
  object (self)
    val mutable lines = []
    method add line = lines <- (prefix ^ line) :: lines
    method dump = List.iter print_endline (List.rev lines); self#clear
    method clear = lines <- []
  end

let report w =
  let log = new audit_log "report: " in
  SMap.iter (fun sku n -> log#add (sprintf "%s=%d" sku n)) w.stock;
  log#dump

let () = report (create "main")
