<?php

declare(strict_types=1);

namespace Shop\Stock;

use Shop\Catalog\Item;
use Shop\Pricing\{PriceList, Currency as Money};
use function Shop\Util\clamp;

const MAX_SHELVES = 40;

interface Ledger extends \Countable
{
    public function record(Item $item, int $qty): void;
}

trait LogsMovements
{
    protected array $log = [];

    public function logMovement(string $sku, int $qty): void
    {
        $this->log[] = sprintf('%s:%d', $sku, $qty);
    }
}

enum Unit: string
{
    case Piece = 'pc';
    case Kilogram = 'kg';
}

#[Audited]
final class Warehouse extends Storage implements Ledger, \JsonSerializable
{
    use LogsMovements;

    public const DEFAULT_NAME = 'main';

    private array $stock = [];

    public function __construct(private string $name, private ?PriceList $prices = null)
    {
        $this->prices ??= PriceList::fromConfig($name);
    }

    public function record(Item $item, int $qty): void
    {
        $sku = $item->sku();
        $this->stock[$sku] = clamp(($this->stock[$sku] ?? 0) + $qty, 0, 1000);
        $this->logMovement($sku, $qty);
    }

    public static function open(string $name): self
    {
        return new Warehouse($name, new PriceList(Money::EUR));
    }

    public function count(): int
    {
        return \count($this->stock);
    }

    public function jsonSerialize(): mixed
    {
        return ['name' => $this->name, 'value' => $this->prices?->total($this->stock)];
    }
}

function default_warehouse(): Warehouse
{
    return Warehouse::open(Warehouse::DEFAULT_NAME);
}
