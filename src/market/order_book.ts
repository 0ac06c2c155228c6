/**
 * What buying a quantity really costs: a walk up the sell side of an order book
 * (`/v2/commerce/listings`), taking the cheapest listings first. Every calculator prices a
 * purchase as lowest listing × quantity; the book's later levels can be far above the first.
 *
 * @module
 */

/** A sell level: `[unit price in copper, units listed at it]`. */
export type SellLevel = readonly [unitPrice: number, units: number];

/** The cost of buying a quantity off the sell side. */
export type BookWalk = {
  /** Copper for every unit asked, the missing ones included (see `short`). */
  readonly total: number;
  /**
   * Units the book does not hold, priced in `total` at its highest listed price; absent when it
   * holds them all.
   */
  readonly short?: number;
};

/**
 * Buys `count` units walking `sells` from the lowest price up. Units past the last level are
 * `short` and priced at that level's price - unless `more` says the levels given stop before
 * the book does (a book kept in part), in which case they are priced the same way but not
 * short: the book holds them, at that price or above, so the total is a lower bound.
 *
 * @example
 * ```ts
 * walkSells([[100, 2], [150, 3]], 4); // {total: 100 × 2 + 150 × 2 = 500}
 * walkSells([[100, 2]], 5); // {total: 500, short: 3}
 * walkSells([], 5); // undefined: nothing listed
 * ```
 * @param sells the sell levels, lowest price first
 * @param count units to buy (a whole number, 0 or more)
 * @param more whether the book goes on past `sells`
 * @returns the cost, or `undefined` when the sell side is empty: nothing can be bought
 */
export function walkSells(
  sells: readonly SellLevel[],
  count: number,
  more = false,
): BookWalk | undefined {
  const last = sells.at(-1);
  if (last === undefined) return undefined;
  let left = count;
  let total = 0;
  for (const [unitPrice, units] of sells) {
    if (left <= 0) break;
    const taken = Math.min(left, units);
    total += taken * unitPrice;
    left -= taken;
  }
  if (left <= 0) return { total };
  total += left * last[0];
  return more ? { total } : { total, short: left };
}
