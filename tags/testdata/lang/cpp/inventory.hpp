// inventory.hpp - warehouse stock keeping.
#pragma once

#include <map>
#include <memory>
#include <string>

#define INVENTORY_VERSION 3

namespace shop {
namespace detail {
struct Slot;
}

enum class Unit { Piece, Kilogram };

using Quantity = long;
typedef std::map<std::string, Quantity> StockTable;

constexpr int kMaxShelves = 40;

struct Item {
    std::string sku;
    Unit unit = Unit::Piece;
};

class Storage {
public:
    virtual ~Storage() = default;
    virtual Quantity count(const Item& item) const = 0;
};

template <typename T>
class Registry : public Storage, private detail::Holder<T> {
public:
    explicit Registry(std::string name);
    ~Registry() override;

    Quantity count(const Item& item) const override;
    void add(const Item& item, Quantity n);
    bool operator==(const Registry& other) const;

    static std::unique_ptr<Registry> make(const std::string& name) {
        return std::make_unique<Registry>(name);
    }

private:
    StockTable table_;
    std::string name_;
};

template <typename T>
T clamp_quantity(T value, T low, T high);

union Tag {
    int code;
    char label[8];
};

}  // namespace shop
