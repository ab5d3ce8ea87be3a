/// Stock counts per SKU.
module Shop.Inventory

open System.Collections.Generic
open Shop.Pricing

[<Literal>]
let MaxCount = 1000

type Item = { Sku: string; Count: int; Cents: int }

type StockEvent =
    | Restocked of sku: string * count: int
    | SoldOut of string

type IPriced =
    abstract Price: unit -> int

type Inventory(items: Dictionary<string, Item>) =
    member this.Restock(sku: string, n: int) =
        let it = items.[sku]
        items.[sku] <- { it with Count = min (it.Count + n) MaxCount }

    interface IPriced with
        member _.Price() = items.Values |> Seq.sumBy (fun it -> it.Count * it.Cents)

let totalValue (inv: Inventory) =
    formatCents ((inv :> IPriced).Price())

let rec countDown n = if n <= 0 then [] else n :: countDown (n - 1)
