/**
 * The ranking's I/O: the work of the recipe tree, done once for every legendary at once. The
 * scope check; then the holdings read beside one `resolveRecipes` over every root, and as soon as
 * the walk knows every item of every tree, one price read for them beside their names; then one
 * order-book read for everything any row buys on the Trading Post; then the pure ranking
 * (`rank.ts`). With a warm cache (trees for a day, holdings five minutes, prices and books one)
 * it asks upstream nothing.
 *
 * @module
 */

import { withArmory, withoutOwned } from "../account/armory.ts";
import { withHoldings } from "../account/holdings.ts";
import { type PartRead, readPart, type Unread, unreadOf, valueOf } from "../account/unread.ts";
import type { ArmorySlot } from "../gw2/schemas.ts";
import { chunk } from "../async/concurrency.ts";
import { findLegendaries, type LegendaryFilter } from "../data/legendaries.ts";
import type { Fresh, Gw2Client } from "../gw2/types.ts";
import { oldestStaleAge } from "../staleness.ts";
import { currencyNamesFor, itemNamesFor, type Naming, renamed } from "../tree/names.ts";
import { readTreeBooks, resolveAndPrice } from "../tree/prices.ts";
import {
  type LegendaryPlans,
  planLegendaries,
  rankableIds,
  type RankedLegendary,
  type Ranking,
  type RankingInputs,
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
  /** Which legendaries to rank (a generation, a category); none ranks every one. */
  readonly filter?: LegendaryFilter;
  /** Told each step of a long, cold run, when the caller asked for progress. */
  readonly progress?: { report(message: string): void } | undefined;
  /** The language to name legendaries, items and currencies in (English when absent). */
  readonly naming?: Naming | undefined;
  /** Leave out the legendaries the account's armory holds (issue 30). */
  readonly excludeOwned?: boolean;
}

/**
 * Ranks every legendary with a tree (of those `request.filter` selects) by the profit of crafting
 * it from the player's holdings.
 *
 * @throws {Gw2ScopeMissingError} naming every holdings scope the key lacks
 * @throws a `Gw2Failure` when an upstream read fails (see `src/gw2/errors.ts`)
 */
export async function runRanking(gw2: Gw2Client, request: RankingRequest): Promise<RankingResult> {
  const { gw2Key, limit, progress, naming } = request;
  const legendaries = findLegendaries(request.filter);
  const roots = rankableIds(legendaries);
  progress?.report(`Reading your holdings and ${roots.length} legendary recipe trees`);
  // The trees' price read starts as soon as they are resolved, beside the holdings read.
  // The armory (issue 30): its rows' `owned`, unread without its scope; read once the holdings'
  // scopes are known, beside the trees.
  const armory: { read?: Promise<PartRead<Fresh<readonly ArmorySlot[]>>> } = {};
  const readArmory = () =>
    readPart("armory", () => gw2.doc("accountLegendaryArmory", { key: gw2Key }));
  const { holdings, value: { resolved, priced } } = await withHoldings(
    gw2,
    gw2Key,
    () => {
      armory.read = readArmory();
      armory.read.catch(() => undefined);
      return resolveAndPrice(gw2, roots, {
        onLevel: (level, items) =>
          progress?.report(`Recipe trees: level ${level} resolved (${items} items)`),
        onWalked: (ids) => progress?.report(`Reading the prices of ${ids.length} items`),
      });
    },
  );
  const plans = await planInTurns(legendaries, {
    ...resolved,
    prices: priced.prices,
    owned: holdings.counts,
  });
  const bought = rankingPurchases(plans);
  progress?.report(`Reading the order books of ${bought.length} items`);
  const books = await readTreeBooks(gw2, bought);
  const currencyNames = naming === undefined ? resolved.currencyNames : await currencyNamesFor(
    gw2,
    naming,
    plans.plans.flatMap((plan) => plan.tree.summary.currencies.map(({ id }) => id)),
    resolved.currencyNames,
  );
  const ranked = rankLegendaries(plans, { currencyNames, books: books.books });
  progress?.report(
    `Ranked ${ranked.rows.length} legendaries for ${holdings.characters} characters' holdings`,
  );
  const owned = await (armory.read ?? readArmory());
  const { ranking, armoryFields } = withArmoryRows(ranked, owned, request.excludeOwned);
  const shaped = {
    ...shapeRanking(ranking, limit, {
      names: resolved.names,
      characters: holdings.characters,
      staleAgeMs: oldestStaleAge(resolved.staleAgeMs, priced.staleAgeMs, books.staleAgeMs),
    }),
    ...armoryFields,
  };
  if (naming === undefined || naming.lang === "en") return shaped;
  const ids = [
    ...shaped.ranking.map((row) => row.id),
    ...Object.keys(shaped.names ?? {}).map(Number),
  ];
  const localized = await itemNamesFor(gw2, naming, ids, new Map());
  return {
    ...shaped,
    ranking: shaped.ranking.map((row) => ({ ...row, name: localized.get(row.id) ?? row.name })),
    ...(shaped.names === undefined ? {} : { names: renamed(shaped.names, localized) }),
  };
}

/**
 * The ranking with the armory's `owned` on each row, without the owned ones when asked; the
 * armory unread (and named) when the key lacks its permissions.
 */
function withArmoryRows(
  ranking: Ranking,
  armory: PartRead<Fresh<readonly ArmorySlot[]>>,
  excludeOwned = false,
): {
  readonly ranking: Ranking;
  readonly armoryFields: { readonly excluded?: number; readonly unread?: Unread[] };
} {
  const slots = valueOf(armory)?.value;
  if (slots === undefined) return { ranking, armoryFields: { unread: unreadOf([armory]) } };
  const owned = withArmory(ranking.rows, slots);
  if (!excludeOwned) return { ranking: { ...ranking, rows: owned }, armoryFields: {} };
  const { rows, excluded } = withoutOwned(owned);
  return { ranking: { ...ranking, rows }, armoryFields: { excluded } };
}

/** Legendaries planned per turn of the event loop (each is two whole-tree pricings). */
const PLANS_PER_TURN = 8;

/**
 * {@linkcode planLegendaries} a few legendaries at a time, yielding to the event loop between
 * them. Pricing every tree twice is ~1 s of CPU on a busy machine; in one piece it would hold
 * every other request of the process - another player's call, a KV answer its timeout is waiting
 * for - behind it, and a player running rankings in a loop would hold them there for good.
 */
async function planInTurns(
  legendaries: readonly RankedLegendary[],
  inputs: RankingInputs,
): Promise<LegendaryPlans> {
  const plans: LegendaryPlans["plans"][number][] = [];
  let unpriced = 0;
  for (const slice of chunk(legendaries, PLANS_PER_TURN)) {
    const part = planLegendaries(slice, inputs);
    plans.push(...part.plans);
    unpriced += part.unpriced;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { plans, unpriced };
}
