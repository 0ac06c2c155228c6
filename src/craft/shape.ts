/**
 * The crafting scan's answer, built field by field (pure): one row per craft, the contract's
 * figures first, then what qualifies them. Kept lean: the default ten rows are a few hundred
 * tokens.
 *
 * @module
 */

import { disciplinesOf, FLAG } from "./graph.ts";
import type { CraftGraph } from "./graph.ts";
import type { DepthResult } from "./depth.ts";
import type { ExactCraft } from "./rows.ts";

/** One row of `priory_craft_profit`. (An object type, to fit the loose output schema.) */
export type CraftRow = {
  /** The output item: `itemId` of the matching `priory_recipe_tree`. */
  readonly id: number;
  readonly name: string;
  readonly recipeId: number;
  readonly discipline: string;
  /** The recipe's minimum rating. */
  readonly rating: number;
  /** Items one craft makes: the `quantity` of the matching `priory_recipe_tree`. */
  readonly count: number;
  readonly cost: number;
  readonly sell: number;
  readonly profit: number;
  /** `profit / cost`; `null` for a craft that costs no coin. */
  readonly roi: number | null;
  readonly crafts: number;
  readonly totalProfit: number;
  /** What ended the run of crafts: `bids`, `asks`, `cap`, `daily`. */
  readonly stop: string;
  readonly daily?: true;
  /** Learned from a recipe sheet (without `useAccount`: the account may not know it). */
  readonly sheet?: true;
  /** Non-coin currencies one craft pays, not in `cost`. */
  readonly cur?: readonly { readonly id: number; readonly count: number }[];
  /** An order book could not be read: `crafts` is 1 at most, at unit prices. */
  readonly noDepth?: true;
  /** Units of the output the market sells a day (the price history's estimate), where known. */
  readonly soldPerDay?: number;
  /**
   * Days the market takes to buy what `crafts` make, at `soldPerDay` (`crafts × count ÷
   * soldPerDay`, one decimal); absent when `soldPerDay` is unknown or 0.
   */
  readonly sellDays?: number;
};

/** What a row is built from besides the exact craft. */
export interface RowContext {
  readonly graph: CraftGraph;
  readonly name: string | undefined;
  /** The discipline to show (the filter's, the account's, else the recipe's first). */
  readonly discipline: string | undefined;
  readonly depth: DepthResult;
  /** Flag recipe sheets (`sheet: true`): only without `useAccount`. */
  readonly flagSheets: boolean;
  /** Units of the output sold a day, where the price history knows. */
  readonly soldPerDay?: number | undefined;
}

/** One row. */
export function craftRow(craft: ExactCraft, context: RowContext): CraftRow {
  const { graph, depth } = context;
  const r = craft.recipe;
  const discipline = context.discipline ?? disciplinesOf(graph.disciplines[r] ?? 0)[0] ?? "";
  const sheet = context.flagSheets && ((graph.flags[r] ?? 0) & FLAG.learnedFromItem) !== 0;
  const sellDays = daysToSell(depth.crafts * craft.count, context.soldPerDay);
  return {
    id: craft.outputId,
    name: context.name ?? `Item ${craft.outputId}`,
    recipeId: graph.recipeId[r] ?? 0,
    discipline,
    rating: graph.minRating[r] ?? 0,
    count: craft.count,
    cost: craft.cost,
    sell: craft.sell,
    profit: craft.profit,
    roi: craft.cost > 0 ? craft.profit / craft.cost : null,
    crafts: depth.crafts,
    totalProfit: depth.totalProfit,
    stop: depth.stop,
    ...(craft.daily ? { daily: true } : {}),
    ...(sheet ? { sheet: true } : {}),
    ...(craft.currencies.length > 0 ? { cur: craft.currencies } : {}),
    ...(depth.noDepth === true ? { noDepth: true } : {}),
    ...(context.soldPerDay === undefined ? {} : { soldPerDay: Math.round(context.soldPerDay) }),
    ...(sellDays === undefined ? {} : { sellDays }),
  };
}

/** `crafts × count ÷ soldPerDay`, one decimal; `undefined` without a positive `soldPerDay`. */
function daysToSell(units: number, soldPerDay: number | undefined): number | undefined {
  if (soldPerDay === undefined || !(soldPerDay > 0)) return undefined;
  return Math.round((units / soldPerDay) * 10) / 10;
}
