/**
 * The personalised legendary profit ranking, computed without I/O: for every legendary with a
 * recipe tree, the cost to finish it with the player's holdings used first, against what selling
 * it instantly yields, ranked by profit. Each row is priced with all the holdings (the rows are
 * alternatives, not a plan to craft them all), through the same `priceRecipeTree` as
 * `priory_recipe_tree`, twice: with the holdings and without, the difference being what the
 * holdings contribute (at unit prices). Given the order books of what the rows buy, the cost is
 * the holdings-aware shopping list at depth, as `priory_recipe_tree`'s `buyCost`.
 *
 * Only legendaries with a curated recipe can have a tree: the GW2 API lists no recipe whose
 * output is a legendary (every legendary's last step is the Mystic Forge, or a vendor), so the
 * others are counted as unpriced rather than searched for. Which legendaries the curated data
 * covers is the data's business: a legendary gains a row as soon as it has a curated recipe.
 *
 * @module
 */

import { CURATED_RECIPES } from "../data/curated_recipes.ts";
import type { OrderBook } from "../gw2/schemas.ts";
import {
  type OwnedCounts,
  type PricedTree,
  priceRecipeTree,
  type TreePrice,
  type TreeRecipe,
} from "../tree/pricing.ts";
import { marketIds, type Purchases, purchases, shoppingList } from "../tree/shopping_list.ts";
import { type Staleness, staleness } from "../staleness.ts";

/** A legendary as the ranking needs it. */
export interface RankedLegendary {
  readonly id: number;
  readonly name: string;
}

/** One priced legendary. (An object type, so it fits the loose output schema.) */
export type RankingRow = {
  readonly id: number;
  readonly name: string;
  /**
   * Copper still to spend to craft it, the holdings used first: its shopping list at depth
   * (Trading Post purchases walking the sell listings, vendor coin).
   */
  readonly cost: number;
  /** Copper from selling it to the best buy order after the 15 % fee; `null` without one. */
  readonly sell: number | null;
  /** `sell - cost`; `null` without `sell`. */
  readonly profit: number | null;
  /**
   * Copper the holdings save, at unit prices (as `priory_recipe_tree`'s `saved`): the plan's
   * `totalCraftCost` without them minus with them.
   */
  readonly saved: number;
  /** Set when a cost is missing from `cost` (items that must be earned). */
  readonly partial?: true;
  /** Items the plan needs that can be neither bought nor crafted. */
  readonly na?: number[];
  /** Non-coin currencies the plan pays (not in `cost`), by currency name. */
  readonly cur?: Record<string, number>;
};

/** What the ranking is computed from: the resolved trees of the rankable legendaries. */
export interface RankingInputs {
  readonly recipes: ReadonlyMap<number, TreeRecipe>;
  /** Item names by id, upstream's: a legendary upstream does not know has none. */
  readonly names: ReadonlyMap<number, string>;
  readonly prices: ReadonlyMap<number, TreePrice>;
  readonly owned: OwnedCounts;
}

/** One legendary's plans: with the holdings (the row), and its cost without them. */
interface LegendaryPlan {
  readonly legendary: RankedLegendary;
  readonly name: string;
  /** The holdings-aware plan. */
  readonly tree: PricedTree;
  /** What it buys, once the holdings are used. */
  readonly bought: Purchases;
  /** `totalCraftCost` of the same tree without the holdings. */
  readonly unaidedCost: number;
}

/** Every rankable legendary planned, and how many could not be. */
export interface LegendaryPlans {
  readonly plans: readonly LegendaryPlan[];
  readonly unpriced: number;
}

/** Every priced legendary, best profit first, and how many could not be priced. */
export interface Ranking {
  readonly rows: readonly RankingRow[];
  readonly unpriced: number;
}

/**
 * The legendaries that can have a tree: those with a curated recipe, the ones to resolve.
 *
 * @example
 * ```ts
 * const roots = rankableIds(LEGENDARIES); // every legendary the curated data makes
 * ```
 */
export function rankableIds(legendaries: readonly RankedLegendary[]): number[] {
  return legendaries.filter((legendary) => CURATED_RECIPES.has(legendary.id)).map(({ id }) => id);
}

/**
 * Plans every legendary once, with and without the holdings, through `priceRecipeTree`. A
 * legendary without a resolved recipe, or unknown upstream (no name), is counted in `unpriced`.
 *
 * @example
 * ```ts
 * const plans = planLegendaries(LEGENDARIES, { ...resolved, prices, owned: holdings.counts });
 * ```
 */
export function planLegendaries(
  legendaries: readonly RankedLegendary[],
  inputs: RankingInputs,
): LegendaryPlans {
  const { recipes, prices, owned } = inputs;
  const plans: LegendaryPlan[] = [];
  for (const legendary of legendaries) {
    const name = inputs.names.get(legendary.id);
    if (!recipes.has(legendary.id) || name === undefined) continue;
    const tree = priceRecipeTree(recipes, legendary.id, 1, prices, owned);
    plans.push({
      legendary,
      name,
      tree,
      bought: purchases(tree, prices, recipes),
      unaidedCost: priceRecipeTree(recipes, legendary.id, 1, prices).summary.totalCraftCost,
    });
  }
  return { plans, unpriced: legendaries.length - plans.length };
}

/**
 * Every item some row buys on the Trading Post once the holdings are used: the ids of the
 * ranking's one order-book read.
 *
 * @example
 * ```ts
 * const { books } = await readTreeBooks(gw2, rankingPurchases(plans));
 * rankLegendaries(plans, { currencyNames, books });
 * ```
 */
export function rankingPurchases(plans: LegendaryPlans): number[] {
  return [...new Set(plans.plans.flatMap((plan) => marketIds(plan.bought)))];
}

/** How the rows are written and costed. */
export interface RankContext {
  /** Currency names by id (a currency without one is written by its id). */
  readonly currencyNames: ReadonlyMap<number, string>;
  /**
   * Order books of what the rows buy (see {@linkcode rankingPurchases}): each row's money
   * columns are what its shopping list costs at depth, as `priory_recipe_tree`'s `buyCost` (a
   * purchase whose book is absent at its unit price, so with no books `totalCraftCost`).
   */
  readonly books: ReadonlyMap<number, OrderBook>;
}

/**
 * Ranks the planned legendaries by profit (highest first; no buy order last; then by id).
 *
 * @example
 * ```ts
 * const { rows } = rankLegendaries(plans, { currencyNames, books });
 * rows[0]; // {id, name, cost, sell, profit, saved, ...}
 * ```
 */
export function rankLegendaries(plans: LegendaryPlans, context: RankContext): Ranking {
  const rows = plans.plans.map((plan) => priceRow(plan, context));
  rows.sort((a, b) => (b.profit ?? -Infinity) - (a.profit ?? -Infinity) || a.id - b.id);
  return { rows, unpriced: plans.unpriced };
}

function priceRow(plan: LegendaryPlan, context: RankContext): RankingRow {
  const { summary } = plan.tree;
  const cost = shoppingList(plan.bought, context.books).buyCost;
  return {
    id: plan.legendary.id,
    name: plan.name,
    cost,
    sell: summary.netSell,
    profit: summary.netSell === null ? null : summary.netSell - cost,
    saved: plan.unaidedCost - summary.totalCraftCost,
    ...(summary.partial ? { partial: true } : {}),
    ...(summary.unavailableIds.length > 0 ? { na: [...summary.unavailableIds] } : {}),
    ...(summary.currencies.length > 0
      ? {
        cur: Object.fromEntries(
          summary.currencies.map(({ id, count }) => [context.currencyNames.get(id) ?? id, count]),
        ),
      }
      : {}),
  };
}

/** `priory_legendary_ranking` structured result. */
export interface RankingResult extends Staleness {
  readonly ranking: RankingRow[];
  /** Legendaries priced (the ranking holds the best `limit` of them). */
  readonly priced: number;
  /** Legendaries without a tree to price. */
  readonly unpriced: number;
  /** Characters whose bags were counted. */
  readonly characters: number;
  /** Names of the items in the rows' `na`. */
  readonly names?: Record<string, string>;
}

/**
 * The compact result: the best `limit` rows, and names only for the ids they mention.
 *
 * @example
 * ```ts
 * shapeRanking(ranking, 10, { names, characters: 19 });
 * ```
 */
export function shapeRanking(
  ranking: Ranking,
  limit: number,
  context: {
    readonly names: ReadonlyMap<number, string>;
    readonly characters: number;
    readonly staleAgeMs?: number | undefined;
  },
): RankingResult {
  const rows = ranking.rows.slice(0, limit);
  const names: Record<string, string> = {};
  for (const id of rows.flatMap((row) => row.na ?? [])) {
    const name = context.names.get(id);
    if (name !== undefined) names[id] = name;
  }
  return {
    ranking: rows,
    priced: ranking.rows.length,
    unpriced: ranking.unpriced,
    characters: context.characters,
    ...(Object.keys(names).length > 0 ? { names } : {}),
    ...staleness(context.staleAgeMs),
  };
}
