library PricingLib;

function FormatCents(Cents: Integer): PChar; stdcall;
begin
  Result := 'EUR';
end;

exports FormatCents;

begin
end.
