# Stock counts per SKU.
require "./pricing"

module Shop
  MAX_COUNT = 1000

  record Item, sku : String, count : Int32, cents : Int32

  abstract class Store
    abstract def value : Int32
  end

  class Inventory < Store
    include Enumerable(Item)
    getter items = {} of String => Item

    def restock(sku : String, n : Int32) : Nil
      item = @items.fetch(sku) { Item.new(sku, 0, 0) }
      @items[sku] = item.copy_with(count: Math.min(item.count + n, MAX_COUNT))
    end

    def value : Int32
      Pricing.format_cents(@items.values.sum { |i| i.count * i.cents })
    end
  end

  macro define_store(name)
    class {{name.id}} < Store; end
  end
end

lib LibPricing
  fun format_cents(cents : Int32) : UInt8*
end

enum Unit
  Piece
  Kilogram
end

annotation Audited
end

alias Catalog = Hash(String, Shop::Item)
