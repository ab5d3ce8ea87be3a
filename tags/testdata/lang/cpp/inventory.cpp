#include "inventory.hpp"

#include <algorithm>

namespace shop {

static int open_registries = 0;

template <typename T>
Registry<T>::Registry(std::string name) : name_(std::move(name)) {
    ++open_registries;
}

template <typename T>
Registry<T>::~Registry() {
    --open_registries;
}

template <typename T>
Quantity Registry<T>::count(const Item& item) const {
    auto it = table_.find(item.sku);
    return it == table_.end() ? 0 : it->second;
}

template <typename T>
void Registry<T>::add(const Item& item, Quantity n) {
    Quantity next = clamp_quantity<Quantity>(table_[item.sku] + n, 0, 1000);
    table_[item.sku] = next;
    this->notify(item);
}

template <typename T>
T clamp_quantity(T value, T low, T high) {
    return std::min(std::max(value, low), high);
}

namespace {
void log_line(const char* msg) { std::puts(msg); }
}  // namespace

}  // namespace shop

int main() {
    auto reg = shop::Registry<int>::make("main");
    shop::Item bolt{"bolt-6mm"};
    reg->add(bolt, 12);
    shop::log_line("added");
    return reg->count(bolt) > 0 ? 0 : 1;
}
