/// Stock counts per SKU.
module shop.inventory;

import std.algorithm : min, sum, map;
import shop.pricing;

enum maxCount = 1000;

struct Item { string sku; int count; int cents; }

interface Priced { int price() const; }

class Inventory : Priced
{
    private Item[string] items;

    void restock(string sku, int n)
    {
        auto total = items[sku].count + n;
        items[sku].count = min(total, maxCount);
    }

    override int price() const
    {
        return formatCents(items.byValue.map!(it => it.cents * it.count).sum);
    }
}

T clampCount(T)(T n) { return n < 0 ? 0 : n; }

union Code { int number; char[8] label; }

alias Stock = Item[string];

template Pair(T) { struct Entry { T first, second; } }
