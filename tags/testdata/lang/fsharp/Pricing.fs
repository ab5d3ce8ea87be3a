/// Prices in cents.
namespace Shop.Pricing

exception PriceMissing of string

module Prices =
    let cents (amount: decimal) = int (amount * 100m)

    let formatCents (c: int) = sprintf "%d.%02d EUR" (c / 100) (c % 100)
