/**
 * The one price read of a tree (or of many trees at once): every id in a single batched
 * `/v2/commerce/prices` read, which the client splits into requests of at most 200 ids.
 *
 * @module
 */

import type { TreePrice } from "./pricing.ts";
import type { Gw2Client } from "../gw2/types.ts";

/** Unit prices by item id; untradeable ids are absent. */
export interface TreePrices {
  readonly prices: ReadonlyMap<number, TreePrice>;
  /** Age of the oldest price served stale because upstream failed; absent when all fresh. */
  readonly staleAgeMs?: number;
}

/**
 * Reads the prices of `ids` in one batched read.
 *
 * @example
 * ```ts
 * const { prices } = await readTreePrices(gw2, resolved.itemIds);
 * prices.get(19721)?.sell; // copper
 * ```
 * @throws {Gw2Failure} when the read fails (see `src/gw2/errors.ts`)
 */
export async function readTreePrices(gw2: Gw2Client, ids: readonly number[]): Promise<TreePrices> {
  if (ids.length === 0) return { prices: new Map() };
  const read = await gw2.prices(ids);
  const prices = new Map(
    read.found.map((price) => [
      price.id,
      { buy: price.buys.unit_price, sell: price.sells.unit_price },
    ]),
  );
  return read.staleAgeMs === undefined ? { prices } : { prices, staleAgeMs: read.staleAgeMs };
}
