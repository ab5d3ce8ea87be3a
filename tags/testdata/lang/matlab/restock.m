function stock = restock(stock, sku, n)
%RESTOCK Add N items of SKU to STOCK, capped at the maximum count.
%   function fake() in a comment is not a definition.
    limit = maxCount();
    if isKey(stock, sku)
        stock(sku) = min(stock(sku) + n, limit);
    else
        stock(sku) = normalizeCount(n, limit);
    end
end

function n = normalizeCount(n, limit)
    n = max(0, min(n, limit));
end

function m = maxCount()
    m = 1000;
end
