/**
 * What the client keeps of an order book (`/v2/commerce/listings`): a popular item's book runs to
 * thousands of price levels on each side, a plan needs only the cheapest sell levels up to what it
 * can buy. The bounds come from the largest purchase a tree can make: 250 units of the root
 * (`priory_recipe_tree`'s most) × the largest per-unit need of any item of any legendary tree
 * crafted throughout (25,350 Elder Wood Logs in Pharus, measured over every legendary on the
 * fake's records) ~ 6.3 million units. A book longer than the kept levels is marked `more`; a walk
 * past them is priced at the last kept level, a lower bound (`src/market/order_book.ts`).
 *
 * @module
 */

import type { BookLevel, Listing, OrderBook } from "./schemas.ts";

/** Sell units kept per book: more than the largest purchase a tree can make (see above). */
export const BOOK_MAX_UNITS = 10_000_000;

/**
 * Sell levels kept per book, whatever their units: bounds the stored value (~ 14 bytes a level in
 * KV, so ~ 14 KB, well under KV's 64 KiB) and, plus one sent as `top=`, what upstream sends per
 * side (the one more level says whether the book goes on).
 */
export const BOOK_MAX_LEVELS = 1_000;

/**
 * The book as kept: sell levels lowest price first (levels without units dropped) until
 * {@linkcode BOOK_MAX_UNITS} units or {@linkcode BOOK_MAX_LEVELS} levels, `more` when the book
 * went on past them; the best buy level; and buy levels highest first under the same caps
 * (`moreBuys`), what a run of crafts sells into. Sorted here rather than trusted to be sorted.
 *
 * @example
 * ```ts
 * keptBook({ id: 1, buys: [], sells: [{ listings: 2, unit_price: 99, quantity: 211 }] });
 * // {id: 1, sells: [[99, 211]]}
 * ```
 */
export function keptBook(listing: Listing): OrderBook {
  const sells = kept(listing.sells, (a, b) => a.unit_price - b.unit_price);
  const buys = kept(listing.buys, (a, b) => b.unit_price - a.unit_price);
  const best = buys.levels[0];
  return {
    id: listing.id,
    sells: sells.levels,
    ...(best === undefined ? {} : { buy: best }),
    ...(sells.more ? { more: true } : {}),
    ...(buys.levels.length === 0 ? {} : { buys: buys.levels }),
    ...(buys.more ? { moreBuys: true } : {}),
  };
}

/**
 * One side's levels in `order` (levels without units dropped) until {@linkcode BOOK_MAX_UNITS}
 * units or {@linkcode BOOK_MAX_LEVELS} levels, and whether the side went on past them.
 */
function kept(
  side: Listing["sells"],
  order: (a: Listing["sells"][number], b: Listing["sells"][number]) => number,
): { levels: BookLevel[]; more: boolean } {
  const sorted = side.filter((level) => level.quantity > 0).sort(order);
  const levels: BookLevel[] = [];
  let units = 0;
  for (const level of sorted) {
    if (units >= BOOK_MAX_UNITS || levels.length >= BOOK_MAX_LEVELS) break;
    levels.push([level.unit_price, level.quantity]);
    units += level.quantity;
  }
  return { levels, more: levels.length < sorted.length };
}

/** The record kept for an id whose book upstream could not return: no levels, `unread`. */
export function unreadBook(id: number): OrderBook {
  return { id, sells: [], unread: true };
}
