# Stock counts per SKU.
class_name Inventory
extends Node

signal restocked(sku: String, count: int)

enum State { OPEN, CLOSED }

const MAX_COUNT := 1000
@export var currency: String = "EUR"
var _items: Dictionary = {}

class Item:
	var sku: String
	var count := 0

func restock(sku: String, n: int) -> void:
	var item: Item = _items.get(sku, Item.new())
	item.count = mini(item.count + n, MAX_COUNT)
	_items[sku] = item
	restocked.emit(sku, item.count)

static func format_cents(cents: int) -> String:
	return Pricing.format(cents)
