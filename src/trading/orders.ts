/**
 * The account's open Trading Post orders against the market: per item and price, the units the
 * account has listed (or ordered), the market's best price on that side now, whether the order is
 * undercut (outbid), and how many units are ahead of it in the order book - listed below its price
 * (ordered above it), so sold (filled) first. Pure: the orders and the books are read elsewhere.
 *
 * The client keeps books bounded (`src/gw2/order_book.ts`: 1,000 levels a side, 10 million units).
 * When a side stops before reaching an order's price, `ahead` counts the kept levels only and the
 * row says `atLeast: true`; a book upstream could not return (`unread`) gives no `ahead` (`null`).
 *
 * @module
 */

import type { BookLevel, OrderBook } from "../gw2/schemas.ts";
import type { CurrentOrder } from "../gw2/schemas_trading.ts";

/** A sell listing row: the account's units listed at one price. */
export type SellingRow = {
  readonly id: number;
  readonly count: number;
  /** Copper per unit. */
  readonly price: number;
  /** The market's lowest sell listing now; `null` when nothing is listed or the book is unread. */
  readonly lowest: number | null;
  /** `lowest < price`: someone sells cheaper. */
  readonly undercut: boolean;
  /** Units listed below `price`, which sell first; `null` when the book could not be read. */
  readonly ahead: number | null;
  /** `ahead` counts only the part of the book kept: at least that many. */
  readonly atLeast?: true;
};

/** A buy order row: the account's units ordered at one price. */
export type BuyingRow = {
  readonly id: number;
  readonly count: number;
  readonly price: number;
  /** The market's best buy order now; `null` when there is none or the book is unread. */
  readonly highest: number | null;
  /** `highest > price`: someone pays more. */
  readonly outbid: boolean;
  /** Units ordered above `price`, which are filled first; `null` when the book is unread. */
  readonly ahead: number | null;
  readonly atLeast?: true;
};

/**
 * One row per item and price (orders at the same price summed), undercut rows first, then by the
 * coin they hold (count x price, largest first), then item id.
 *
 * @example
 * ```ts
 * sellingRows([{item_id: 19721, price: 2926, quantity: 250}], new Map([[19721, book]]));
 * // [{id: 19721, count: 250, price: 2926, lowest: 2797, undercut: true, ahead: 11893}]
 * ```
 * @param books the order book of each item listed (an item without one counts as unread)
 */
export function sellingRows(
  orders: readonly CurrentOrder[],
  books: ReadonlyMap<number, OrderBook>,
): SellingRow[] {
  return grouped(orders).map(({ id, price, count }) => {
    const book = books.get(id);
    if (book === undefined || book.unread === true) {
      return { id, count, price, lowest: null, undercut: false, ahead: null };
    }
    const lowest = book.sells[0]?.[0] ?? null;
    const { units, atLeast } = unitsBefore(book.sells, book.more === true, (at) => at < price);
    return {
      id,
      count,
      price,
      lowest,
      undercut: lowest !== null && lowest < price,
      ahead: units,
      ...(atLeast ? { atLeast } : {}),
    };
  }).sort((a, b) => Number(b.undercut) - Number(a.undercut) || byCoin(a, b));
}

/**
 * One row per item and price, outbid rows first, then by coin held, then item id. The buy side is
 * the book's kept buy levels (`buys`), else its best level alone (entries cached before the buy
 * levels were kept), which then bounds `ahead` from below when the order is not at the top.
 */
export function buyingRows(
  orders: readonly CurrentOrder[],
  books: ReadonlyMap<number, OrderBook>,
): BuyingRow[] {
  return grouped(orders).map(({ id, price, count }) => {
    const book = books.get(id);
    if (book === undefined || book.unread === true) {
      return { id, count, price, highest: null, outbid: false, ahead: null };
    }
    const levels = book.buys ?? (book.buy === undefined ? [] : [book.buy]);
    const cut = book.buys === undefined ? book.buy !== undefined : book.moreBuys === true;
    const highest = levels[0]?.[0] ?? null;
    const { units, atLeast } = unitsBefore(levels, cut, (at) => at > price);
    return {
      id,
      count,
      price,
      highest,
      outbid: highest !== null && highest > price,
      ahead: units,
      ...(atLeast ? { atLeast } : {}),
    };
  }).sort((a, b) => Number(b.outbid) - Number(a.outbid) || byCoin(a, b));
}

/** Orders summed per item and price. */
function grouped(
  orders: readonly CurrentOrder[],
): { id: number; price: number; count: number }[] {
  const rows = new Map<string, { id: number; price: number; count: number }>();
  for (const order of orders) {
    const key = `${order.item_id}:${order.price}`;
    const row = rows.get(key);
    if (row === undefined) {
      rows.set(key, { id: order.item_id, price: order.price, count: order.quantity });
    } else row.count += order.quantity;
  }
  return [...rows.values()];
}

/**
 * Units of the levels (best price first) that come before an order: those `before` accepts. When
 * every kept level does and the side goes on past them (`cut`), the count is a lower bound.
 */
function unitsBefore(
  levels: readonly BookLevel[],
  cut: boolean,
  before: (price: number) => boolean,
): { units: number; atLeast: boolean } {
  let units = 0;
  for (const [price, quantity] of levels) {
    if (!before(price)) return { units, atLeast: false };
    units += quantity;
  }
  return { units, atLeast: cut };
}

function byCoin(
  a: { id: number; count: number; price: number },
  b: { id: number; count: number; price: number },
): number {
  return b.count * b.price - a.count * a.price || a.id - b.id;
}
