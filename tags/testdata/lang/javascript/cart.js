import React, { useState } from 'react';
import { formatPrice as fmt } from './money';
import * as analytics from './analytics';

export { Coupon, applyCoupon } from './coupon';

export const MAX_ITEMS = 50;
let instances = 0;

/** A shopping cart that remembers its line items. */
@observable
export class Cart extends Store.Base {
  static currency = 'EUR';
  #items = [];

  constructor(owner) {
    super(owner);
    this.id = new CartId(owner.name);
    instances += 1;
  }

  add(product, quantity = 1) {
    if (this.#items.length >= MAX_ITEMS) {
      throw new Errors.LimitError(MAX_ITEMS);
    }
    this.#items.push({ product, quantity });
    analytics.track('add', product.sku);
  }

  get total() {
    return this.#items.reduce((sum, it) => sum + it.product.price * it.quantity, 0);
  }

  onClear = () => {
    this.#items = [];
  };
}

export function* lineItems(cart) {
  yield* cart.items();
}

export const totalLabel = (cart) => fmt(cart.total, Cart.currency);

const GuestCart = class extends Cart {};

export const cartApi = {
  create(owner) {
    return new Cart(owner);
  },
};

export default function CartSummary({ cart }) {
  const [open, setOpen] = useState(false);
  return (
    <Panel title="Cart" onToggle={() => setOpen(!open)}>
      <Layout.Row>
        <span>{totalLabel(cart)}</span>
        <PriceTag amount={cart.total} />
      </Layout.Row>
    </Panel>
  );
}
