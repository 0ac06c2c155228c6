/**
 * The market reads of a tree (or of many trees at once): every id's unit price in a single
 * batched `/v2/commerce/prices` read, then the order books of what the plan buys in a single
 * batched `/v2/commerce/listings` read; the client splits each into requests of at most 200 ids.
 *
 * @module
 */

import type { TreePrice } from "./pricing.ts";
import { type ResolvedRecipes, type ResolveOptions, resolveRecipes } from "./resolve.ts";
import { isGw2Failure } from "../gw2/errors.ts";
import type { OrderBook } from "../gw2/schemas.ts";
import type { Gw2Client } from "../gw2/types.ts";

/** Unit prices by item id; untradeable ids are absent. */
export interface TreePrices {
  readonly prices: ReadonlyMap<number, TreePrice>;
  /** Age of the oldest price served stale because upstream failed; absent when all fresh. */
  readonly staleAgeMs?: number;
}

/** Resolved trees with their prices. */
export interface PricedResolution {
  readonly resolved: ResolvedRecipes;
  readonly priced: TreePrices;
}

/**
 * Resolves the trees of `rootIds` and reads the prices of every item they reach, the price read
 * started as soon as the walk knows the ids - beside the item names, one round trip sooner than
 * after them. A walk that found no recipe (nothing beyond its roots: an error path for a tree)
 * is priced only once resolved, so a root that is unknown or not craftable costs no price read
 * before its error.
 *
 * @example
 * ```ts
 * const { resolved, priced } = await resolveAndPrice(gw2, [30703]);
 * ```
 * @throws {Gw2Failure} when an upstream read fails (see `src/gw2/errors.ts`); an early price
 *   read is settled before the resolution's failure is thrown
 */
export async function resolveAndPrice(
  gw2: Gw2Client,
  rootIds: readonly number[],
  options: ResolveOptions = {},
): Promise<PricedResolution> {
  let pricing: Promise<TreePrices> | undefined;
  const resolved = await resolveRecipes(gw2, rootIds, {
    ...options,
    onWalked: (ids) => {
      options.onWalked?.(ids);
      if (ids.length <= new Set(rootIds).size) return;
      pricing = readTreePrices(gw2, ids);
      pricing.catch(() => undefined); // awaited below; a failed resolution must not leave it unhandled
    },
  }).catch(async (error: unknown) => {
    await pricing?.catch(() => undefined);
    throw error;
  });
  return { resolved, priced: await (pricing ?? readTreePrices(gw2, resolved.itemIds)) };
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

/** Order books by item id, as far as they could be read. */
export interface TreeBooks {
  /** Books by item id; an id absent here is priced at its unit price, flagged `noDepth`. */
  readonly books: ReadonlyMap<number, OrderBook>;
  /** Age of the oldest book served stale because upstream failed; absent when all fresh. */
  readonly staleAgeMs?: number;
}

/**
 * Reads the order books of `ids` (what a plan buys on the Trading Post) in one batched read:
 * ceil(ids / 200) requests, none within the cache's minute. Depth is an improvement on the unit
 * price, never a reason to fail: when the read fails (an outage, the budget, the deadline), no
 * book is returned and every purchase keeps its unit price, flagged.
 *
 * @example
 * ```ts
 * const { books } = await readTreeBooks(gw2, marketIds(bought));
 * ```
 */
export async function readTreeBooks(gw2: Gw2Client, ids: readonly number[]): Promise<TreeBooks> {
  if (ids.length === 0) return { books: new Map() };
  try {
    const read = await gw2.listings(ids);
    const books = new Map(read.found.map((book) => [book.id, book]));
    return read.staleAgeMs === undefined ? { books } : { books, staleAgeMs: read.staleAgeMs };
  } catch (error) {
    if (!isGw2Failure(error)) throw error;
    return { books: new Map() };
  }
}
