"""
Stock keeping for one warehouse.
"""
module Inventory

using Dates
using Statistics: mean, median
import JSON
import Base: show, length

export Warehouse, receive!, total_value

const MAX_SHELVES = 40
const DEFAULT_NAME = "main"

abstract type AbstractStore end

struct Item
    sku::String
    price::Float64
end

mutable struct Warehouse{T<:Real} <: AbstractStore
    name::String
    stock::Dict{String,T}
    updated::DateTime
end

Warehouse(name::AbstractString) = Warehouse{Int}(name, Dict{String,Int}(), now())

clamp_qty(q) = clamp(q, 0, 1000)

function receive!(w::Warehouse, item::Item, qty::Integer)
    w.stock[item.sku] = clamp_qty(get(w.stock, item.sku, 0) + qty)
    w.updated = now()
    @debug "received" item.sku qty
    return w
end

function total_value(w::Warehouse, prices::Dict{String,Float64})::Float64
    return sum(prices[sku] * qty for (sku, qty) in w.stock; init = 0.0)
end

length(w::Warehouse) = length(w.stock)

function Base.show(io::IO, w::Warehouse)
    print(io, "Warehouse(", w.name, ", ", length(w), " items)")
end

macro checked(expr)
    return :(isnothing($(esc(expr))) ? error("missing") : $(esc(expr)))
end

average_price(prices) = mean(values(prices))

end # module
