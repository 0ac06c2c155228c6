/**
 * The ranking's I/O: the work of the recipe tree, done once for every legendary at once. The
 * scope check; then the holdings read beside one `resolveRecipes` over every root, followed as
 * soon as the trees are resolved by one price read for every item of every tree; then one
 * order-book read for everything any row buys on the Trading Post; then the pure ranking
 * (`rank.ts`). With a warm cache (trees for a day, holdings five minutes, prices and books one)
 * it asks upstream nothing.
 *
 * @module
 */

import { withHoldings } from "../account/holdings.ts";
import { LEGENDARIES } from "../data/legendaries.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { oldestStaleAge } from "../staleness.ts";
import { readTreeBooks, readTreePrices } from "../tree/prices.ts";
import { resolveRecipes } from "../tree/resolve.ts";
import {
  rankableIds,
  rankingPurchases,
  type RankingResult,
  rankLegendaries,
  shapeRanking,
} from "./rank.ts";

/** What to rank. */
export interface RankingRequest {
  /** The player's GW2 API key: the holdings the rows are priced with. */
  readonly gw2Key: string;
  /** Most rows to return. */
  readonly limit: number;
  /** Told each step of a long, cold run, when the caller asked for progress. */
  readonly progress?: { report(message: string): void } | undefined;
}

/**
 * Ranks every legendary with a tree by the profit of crafting it from the player's holdings.
 *
 * @throws {Gw2ScopeMissingError} naming every holdings scope the key lacks
 * @throws a `Gw2Failure` when an upstream read fails (see `src/gw2/errors.ts`)
 */
export async function runRanking(gw2: Gw2Client, request: RankingRequest): Promise<RankingResult> {
  const { gw2Key, limit, progress } = request;
  const roots = rankableIds(LEGENDARIES);
  progress?.report(`Reading your holdings and ${roots.length} legendary recipe trees`);
  // The trees' price read starts as soon as they are resolved, beside the holdings read.
  const { holdings, value: { resolved, priced } } = await withHoldings(gw2, gw2Key, async () => {
    const resolved = await resolveRecipes(gw2, roots, {
      onLevel: (level, items) =>
        progress?.report(`Recipe trees: level ${level} resolved (${items} items)`),
    });
    progress?.report(`Reading the prices of ${resolved.itemIds.length} items`);
    return { resolved, priced: await readTreePrices(gw2, resolved.itemIds) };
  });
  const inputs = { ...resolved, prices: priced.prices, owned: holdings.counts };
  const bought = rankingPurchases(LEGENDARIES, inputs);
  progress?.report(`Reading the order books of ${bought.length} items`);
  const books = await readTreeBooks(gw2, bought);
  const ranking = rankLegendaries(LEGENDARIES, { ...inputs, books: books.books });
  progress?.report(
    `Ranked ${ranking.rows.length} legendaries for ${holdings.characters} characters' holdings`,
  );
  return shapeRanking(ranking, limit, {
    names: resolved.names,
    characters: holdings.characters,
    staleAgeMs: oldestStaleAge(
      oldestStaleAge(resolved.staleAgeMs, priced.staleAgeMs),
      books.staleAgeMs,
    ),
  });
}
