-- Stock keeping for one warehouse.

local json = require("dkjson")
local pricing = require "shop.pricing"

local M = {}

local DEFAULTS = {
  name = "main",
  shelves = 40,
}

VERSION = "1.2.0"

local Warehouse = {}
Warehouse.__index = Warehouse

local function clamp(n, low, high)
  return math.max(low, math.min(n, high))
end

function Warehouse.new(name)
  local self = setmetatable({}, Warehouse)
  self.name = name or DEFAULTS.name
  self.stock = {}
  return self
end

function Warehouse:receive(sku, qty)
  local have = self.stock[sku] or 0
  self.stock[sku] = clamp(have + qty, 0, 1000)
  self:log("receive", sku)
end

function Warehouse:value()
  local total = 0
  for sku, qty in pairs(self.stock) do
    total = total + pricing.price_of(sku) * qty
  end
  return total
end

function Warehouse:log(event, sku)
  print(string.format("%s %s %s", self.name, event, sku))
end

M.to_json = function(w)
  return json.encode({ name = w.name, stock = w.stock })
end

function M.open(name)
  return Warehouse.new(name)
end

function report(w)
  io.write(M.to_json(w), "\n")
end

return M
