classdef Item < handle
    % An item of the inventory.
    properties
        Sku
        Count = 0
    end
    methods
        function obj = Item(sku)
            obj.Sku = sku;
        end
        function value = total(obj, cents)
            value = obj.Count * cents;
            value = formatCents(value);
        end
    end
end
