/**
 * The Trading Post's arithmetic shared by every value Priory computes from a buy order: what a
 * sale fetches after the listing and exchange fees (15 % in all).
 *
 * @module
 */

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
