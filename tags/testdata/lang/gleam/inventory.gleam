//// Stock counts per SKU.

import gleam/dict.{type Dict}
import gleam/int
import shop/pricing.{format_cents}

pub const max_count = 1000

pub type Item {
  Item(sku: String, count: Int, cents: Int)
}

pub type Stock =
  Dict(String, Item)

pub fn restock(stock: Stock, sku: String, n: Int) -> Stock {
  case dict.get(stock, sku) {
    Ok(item) -> dict.insert(stock, sku, Item(..item, count: cap(item.count + n)))
    Error(_) -> stock
  }
}

fn cap(n: Int) -> Int {
  int.min(n, max_count)
}

pub fn total_value(stock: Stock) -> String {
  dict.fold(stock, 0, fn(acc, _, item) { acc + item.count * item.cents })
  |> format_cents
}
