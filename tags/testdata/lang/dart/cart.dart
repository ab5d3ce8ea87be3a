import 'dart:async';
import 'package:shop/money.dart' show Money, Currency;
import 'package:shop/catalog.dart' hide Legacy;

const maxItems = 50;
var lastCheckout = DateTime.now();

typedef ItemFilter = bool Function(CartItem item);
typedef void CartListener(Cart cart);

extension type Sku(String value) {}

enum CartState { empty, filled, checkedOut }

mixin Observable {
  final _listeners = <CartListener>[];

  void notify(Cart cart) => _listeners.forEach((l) => l(cart));
}

abstract interface class PriceSource {
  Money priceOf(Sku sku);
}

@immutable
class CartItem {
  final Sku sku;
  final int quantity;

  const CartItem(this.sku, {this.quantity = 1});
}

class Cart extends Store<CartItem> with Observable implements Comparable<Cart> {
  static const currency = Currency.eur;
  static int opened = 0;
  final List<CartItem> items = [];

  Cart() {
    opened++;
  }

  factory Cart.of(Iterable<CartItem> items) => Cart()..items.addAll(items);

  CartState get state => items.isEmpty ? CartState.empty : CartState.filled;

  Money total(PriceSource prices) =>
      items.fold(Money.zero, (sum, i) => sum + prices.priceOf(i.sku) * i.quantity);

  @override
  int compareTo(Cart other) => items.length.compareTo(other.items.length);

  Future<Receipt> checkout(PriceSource prices) async {
    final receipt = new Receipt(total(prices), currency);
    notify(this);
    return receipt;
  }
}

extension CartSummary on Cart {
  String describe() => '${items.length} items, ${const Duration(days: 1)}';
}

void main() {
  final cart = Cart.of([CartItem(Sku('apple'))]);
  cart.checkout(FixedPrices()).then(print);
}
