unit Inventory;

interface

uses SysUtils, Pricing;

const
  MaxCount = 1000;

type
  TItem = record
    Sku: string;
    Count: Integer;
  end;

  TInventory = class(TObject)
  private
    FItems: array of TItem;
  public
    procedure Restock(const Sku: string; N: Integer);
  end;

implementation

procedure TInventory.Restock(const Sku: string; N: Integer);
begin
  FItems[0].Count := Min(FItems[0].Count + N, MaxCount);
  FormatCents(Length(FItems));
end;

end.
