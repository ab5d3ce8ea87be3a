-- Inventory schema.
CREATE TABLE items (
    sku        TEXT PRIMARY KEY,
    count      INTEGER NOT NULL DEFAULT 0,
    cents      INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS shop.restocks (
    id    SERIAL PRIMARY KEY,
    sku   TEXT REFERENCES items (sku),
    added INTEGER NOT NULL
);

CREATE UNIQUE INDEX restocks_sku_idx ON shop.restocks (sku);

CREATE OR REPLACE VIEW stock_value AS
    SELECT i.sku, i.count * i.cents AS value
    FROM items i
    JOIN shop.restocks r ON r.sku = i.sku;

CREATE FUNCTION total_value() RETURNS BIGINT AS $$
    SELECT sum(value) FROM stock_value;
$$ LANGUAGE sql;

INSERT INTO items (sku, count, cents) VALUES ('A-1', 3, 250);
DROP TABLE IF EXISTS old_items;
