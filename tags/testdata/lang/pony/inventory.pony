use "collections"

primitive MaxCount
  fun apply(): USize => 1000

trait Priced
  fun price(): U64

class Item is Priced
  let sku: String
  var count: USize = 0
  let cents: U64

  new create(sku': String, cents': U64) =>
    sku = sku'
    cents = cents'

  fun price(): U64 => cents * count.u64()

actor Inventory
  let _items: Map[String, Item] = Map[String, Item]

  be restock(sku: String, n: USize) =>
    try
      let it = _items(sku)?
      it.count = (it.count + n).min(MaxCount())
    end

type Stock is Map[String, Item]

interface Countable
  fun count(): USize

struct Point
  var x: U32 = 0
