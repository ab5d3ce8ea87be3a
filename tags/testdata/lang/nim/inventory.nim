## Stock counts per SKU.
import std/[tables, strutils]
import pricing

const MaxCount* = 1000

type
  Item* = object
    sku*: string
    count*, cents*: int
  Stock* = Table[string, Item]

proc restock*(stock: var Stock, sku: string, n: int) =
  var it = stock.getOrDefault(sku)
  it.count = min(it.count + n, MaxCount)
  stock[sku] = it

func value(it: Item): int = it.count * it.cents

proc totalValue*(stock: Stock): string =
  var total = 0
  for it in stock.values:
    total += value(it)
  result = formatCents(total)

template withStock*(s: Stock, body: untyped) =
  body

iterator skus*(stock: Stock): string =
  for k in stock.keys: yield k.toUpperAscii

var openCount = 0
let defaultName = "main"

converter toCount(n: int): Natural = Natural(n)

macro checked(body: untyped): untyped = body

method describe(s: Stock): string {.base.} = "stock"
