program Shop;

uses Inventory;

type
  TShelf = class
  private
    FCaption: string;
  public
    constructor Create(const ACaption: string);
    destructor Destroy; override;
    function Size: Integer;
    property Caption: string read FCaption;
  end;

constructor TShelf.Create(const ACaption: string);
begin
  FCaption := ACaption;
end;

destructor TShelf.Destroy;
begin
  inherited Destroy;
end;

function TShelf.Size: Integer;
begin
  Result := Length(FCaption);
end;

begin
  TShelf.Create('main').Free;
end.
