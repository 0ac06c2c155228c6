/**
 * The flip: buy with a buy order one copper above the best, list one copper under the lowest
 * listing, and pay the Trading Post's 15 % on the sale. What one unit earns, in integer
 * arithmetic so no float rounding shaves a copper.
 *
 * @module
 */

import { netSellUnit } from "./trading_post.ts";

/**
 * Copper one flipped unit earns: `floor((sell - 1) × 0.85) - (buy + 1)`, from the best buy order
 * `buy` and the lowest sell listing `sell`. Negative when the spread does not pay the fee; `null`
 * when either side of the book is empty (0), where there is nothing to outbid or undercut.
 *
 * @example
 * ```ts
 * flipMargin(100, 200); // 168 - 101 = 67
 * ```
 */
export function flipMargin(buy: number, sell: number): number | null {
  if (buy <= 0 || sell <= 1) return null;
  return netSellUnit(sell - 1) - (buy + 1);
}
