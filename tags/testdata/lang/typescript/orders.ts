import { Injectable } from '@angular/core';
import type { Customer } from './customer';
import Money, { formatMoney as fmt } from './money';

export { Invoice } from './invoice';

declare const BUILD_ID: string;
export const MAX_LINES = 100;
let nextId = 1;

export enum OrderStatus {
  Open,
  Paid,
  Shipped = 'shipped',
}

export type OrderId = string;

export type LineItem = {
  sku: string;
  total(): Money;
};

export interface Repository<T> extends Iterable<T> {
  findById(id: OrderId): Promise<T | undefined>;
  readonly size: number;
}

export abstract class Entity {
  abstract validate(): boolean;
}

@Injectable({ providedIn: 'root' })
export class Order extends Entity implements Repository<LineItem> {
  lines: LineItem[] = [];
  onChange = (status: OrderStatus): void => {};

  constructor(public readonly customer: Customer) {
    super();
  }

  add(line: LineItem): this;
  add(line: LineItem, count?: number): this {
    this.lines.push(line);
    return this;
  }

  validate(): boolean {
    return this.lines.length <= MAX_LINES;
  }
}

export namespace Orders {
  export function create(customer: Customer): Order {
    return new Order(customer);
  }
}

export function* pendingLines(order: Order): Generator<LineItem> {
  yield* order.lines;
}

export const describe = (order: Order): string =>
  fmt(order.lines.reduce((sum, l) => sum.plus(l.total()), Money.zero()));

declare function track(event: string): void;

export const orderApi = {
  place(order: Order) {
    track('place');
  },
};

const DraftOrder = class extends Order {};
