//! Stock keeping for one warehouse.
const std = @import("std");
const catalog = @import("catalog.zig");
const Allocator = std.mem.Allocator;
const Sku = catalog.Sku;

pub const max_shelves: usize = 40;
var open_count: u32 = 0;

pub const Unit = enum { piece, kilogram };

pub const Movement = union(enum) {
    received: u32,
    shipped: u32,
    lost,
};

pub const StockError = error{ OutOfStock, Overflow };

pub const Warehouse = struct {
    name: []const u8,
    stock: std.StringHashMap(u32),

    const Self = @This();

    pub fn init(allocator: Allocator, name: []const u8) Self {
        open_count += 1;
        return .{ .name = name, .stock = std.StringHashMap(u32).init(allocator) };
    }

    pub fn deinit(self: *Self) void {
        self.stock.deinit();
        open_count -= 1;
    }

    pub fn apply(self: *Self, sku: Sku, movement: Movement) StockError!void {
        const entry = try self.stock.getOrPutValue(sku.code(), 0);
        switch (movement) {
            .received => |n| entry.value_ptr.* = clamp(entry.value_ptr.* + n),
            .shipped => |n| entry.value_ptr.* -|= n,
            .lost => catalog.reportLoss(sku),
        }
    }
};

fn clamp(n: u32) u32 {
    return @min(n, 1000);
}

pub fn totalUnits(w: *const Warehouse) u64 {
    var total: u64 = 0;
    var it = w.stock.valueIterator();
    while (it.next()) |qty| total += qty.*;
    return total;
}

test "receive adds stock" {
    var w = Warehouse.init(std.testing.allocator, "main");
    defer w.deinit();
    try w.apply(Sku.parse("A-1"), .{ .received = 3 });
    try std.testing.expectEqual(@as(u64, 3), totalUnits(&w));
}
