# Stock counts per SKU.
Import-Module "$PSScriptRoot/Pricing.psm1"

enum StockState { Open; Closed }

class Item {
    [string] $Sku
    [int] $Count

    Item([string] $sku) {
        $this.Sku = $sku
    }

    [int] Value([int] $cents) {
        return Format-Cents ($this.Count * $cents)
    }
}

function Add-Stock {
    param([hashtable] $Stock, [string] $Sku, [int] $N)
    $current = Get-StockCount -Stock $Stock -Sku $Sku
    $Stock[$Sku] = [Math]::Min($current + $N, 1000)
}

function Get-StockCount([hashtable] $Stock, [string] $Sku) {
    if ($Stock.ContainsKey($Sku)) { $Stock[$Sku] } else { 0 }
}

Export-ModuleMember -Function Add-Stock, Get-StockCount
