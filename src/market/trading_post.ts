/**
 * The Trading Post's arithmetic shared by every value Priory computes from its prices: what a
 * sale fetches after the listing and exchange fees (15 % in all), and the two unit prices read
 * off `/v2/commerce/prices` - the lowest sell listing (what buying a unit costs now) and the best
 * buy order (what selling one fetches before the fee). One place for each, so every tool quotes
 * the same figure.
 *
 * @module
 */

import type { Price } from "../gw2/schemas.ts";

/** The Trading Post's fee on a sale, in percent. */
export const TRADING_POST_FEE_PERCENT = 15;

/**
 * What one unit fetches when sold instantly to the best buy order, after the fee:
 * `floor(buy × 0.85)`, in integer arithmetic so no float rounding can shave a copper.
 *
 * @example
 * ```ts
 * netSellUnit(2603); // 2212
 * ```
 */
export function netSellUnit(buy: number): number {
  return Math.floor(buy * (100 - TRADING_POST_FEE_PERCENT) / 100);
}

/**
 * The lowest sell listing (copper) of each item with one: a unit's price when bought now. An item
 * nobody lists (upstream's `sells.unit_price` 0) is absent, as one that does not trade.
 *
 * @example
 * ```ts
 * lowestSells((await gw2.prices([19721])).found).get(19721); // 2797
 * ```
 */
export function lowestSells(prices: readonly Price[]): Map<number, number> {
  return new Map(
    prices.filter((price) => price.sells.unit_price > 0)
      .map((price) => [price.id, price.sells.unit_price]),
  );
}

/**
 * The best buy order (copper) of each priced item: 0 when it trades but nobody is buying (it then
 * sells for nothing now). An item without a price does not trade and is absent.
 *
 * @example
 * ```ts
 * netSellUnit(bestBuys((await gw2.prices([19721])).found).get(19721) ?? 0); // 2212
 * ```
 */
export function bestBuys(prices: readonly Price[]): Map<number, number> {
  return new Map(prices.map((price) => [price.id, price.buys.unit_price]));
}
