/**
 * What the client keeps of an order book (`/v2/commerce/listings`): a popular item's book runs to
 * thousands of price levels on each side, a plan needs only the cheapest sell levels up to what it
 * can buy. The bounds come from the largest purchase a tree can make: 250 units of the root
 * (`priory_recipe_tree`'s most) × the largest per-unit need of any item of any legendary tree
 * crafted throughout (25,350 Elder Wood Logs in Pharus, measured over every legendary on the
 * fake's records) ≈ 6.3 million units. A book longer than the kept levels is marked `more`; a walk
 * past them is priced at the last kept level, a lower bound (`src/market/order_book.ts`).
 *
 * @module
 */

import type { BookLevel, Listing, OrderBook } from "./schemas.ts";

/** Sell units kept per book: more than the largest purchase a tree can make (see above). */
export const BOOK_MAX_UNITS = 10_000_000;

/**
 * Sell levels kept per book, whatever their units: bounds the stored value (≈ 14 bytes a level in
 * KV, so ≈ 14 KB, well under KV's 64 KiB) and, plus one sent as `top=`, what upstream sends per
 * side (the one more level says whether the book goes on).
 */
export const BOOK_MAX_LEVELS = 1_000;

/**
 * The book as kept: sell levels lowest price first (levels without units dropped) until
 * {@linkcode BOOK_MAX_UNITS} units or {@linkcode BOOK_MAX_LEVELS} levels, `more` when the book
 * went on past them, and the best buy level. Sorted here rather than trusted to be sorted.
 *
 * @example
 * ```ts
 * keptBook({ id: 1, buys: [], sells: [{ listings: 2, unit_price: 99, quantity: 211 }] });
 * // {id: 1, sells: [[99, 211]]}
 * ```
 */
export function keptBook(listing: Listing): OrderBook {
  const sells = listing.sells.filter((level) => level.quantity > 0)
    .sort((a, b) => a.unit_price - b.unit_price);
  const kept: BookLevel[] = [];
  let units = 0;
  for (const level of sells) {
    if (units >= BOOK_MAX_UNITS || kept.length >= BOOK_MAX_LEVELS) break;
    kept.push([level.unit_price, level.quantity]);
    units += level.quantity;
  }
  let best: BookLevel | undefined;
  for (const level of listing.buys) {
    if (level.quantity > 0 && (best === undefined || level.unit_price > best[0])) {
      best = [level.unit_price, level.quantity];
    }
  }
  return {
    id: listing.id,
    sells: kept,
    ...(best === undefined ? {} : { buy: best }),
    ...(kept.length < sells.length ? { more: true } : {}),
  };
}

/** The record kept for an id whose book upstream could not return: no levels, `unread`. */
export function unreadBook(id: number): OrderBook {
  return { id, sells: [], unread: true };
}
