/**
 * One pass over the whole recipe graph at one set of prices: the cheapest way to acquire every
 * item - buy it at its lowest sell listing, or make it from its cheapest ingredients - memoised,
 * with cycles cut; then every recipe whose output sells, with a bound on its profit. Pure, and run
 * once per market sheet: every call reuses it.
 *
 * **A bound, then exact trees.** The pass prices per unit (a recipe making 5 costs a fifth per
 * unit), so its cost is a lower bound of the tree's, which crafts whole runs (ceil(need ÷ 5)), prices
 * leaves the library's way and never crafts through an unavailable item. A recipe's profit bound
 * is therefore an upper bound of its real profit, and `rows.ts` prices exact trees in the bound's
 * order only until no bound left can beat the rows found (the gw2-arbitrage approach, made exact).
 * What keeps the bound a bound:
 * - an item that can be neither bought nor made costs infinity, and so does making anything from it (a
 *   tree buys instead, or is partial and not listed); a guild upgrade likewise (the tree buys the
 *   nearest buyable item above it, or is partial);
 * - every currency but coin adds 0, whether the library has an estimate for it or not: a tree's
 *   coin total leaves them out, and where the tree cannot force-buy around one it has no estimate
 *   for (nothing above it buyable, up to the root) it crafts through it, a row with `cur`;
 *   coin adds its count;
 * - an ingredient met again while it is being priced (a cycle) adds 0 - less than any tree can
 *   pay for it, whichever way the tree cuts the cycle.
 *
 * @module
 */

import { netSellUnit } from "../market/trading_post.ts";
import { type MarketSheet, sheetIndex } from "../market/sheet.ts";
import { type CraftGraph, INGREDIENT, SOURCE } from "./graph.ts";

/** A recipe worth pricing exactly: its output sells, and its bound says it may profit. */
export interface Candidate {
  /** The graph recipe. */
  readonly recipe: number;
  /** A lower bound of one craft's cost (copper). */
  readonly bound: number;
  /** What one craft's output fetches sold to the best buy order, after the fee. */
  readonly sell: number;
  /** `sell - bound`: an upper bound of the craft's profit. */
  readonly upper: number;
}

/** The pass at one sheet. */
export interface CraftPass {
  /** When the sheet was taken. */
  readonly takenAt: number;
  /** Per node: the lowest sell listing (0: none). */
  readonly sell: Uint32Array;
  /** Per node: the best buy order (0: none). */
  readonly buy: Uint32Array;
  /** Per node: a lower bound of one unit's cheapest cost; `Infinity` when it cannot be had. */
  readonly unit: Float64Array;
  /** Official recipes (a discipline crafts) whose output has a buy order. */
  readonly sellable: number;
  /** Those whose profit bound is positive, highest bound first (then recipe id). */
  readonly candidates: readonly Candidate[];
}

const UNSEEN = 0;
const OPEN = 1;
const DONE = 2;

/**
 * Runs the pass over `graph` at `sheet`'s prices.
 *
 * @example
 * ```ts
 * const pass = runPass(graph, sheet);
 * pass.candidates[0]; // the recipe whose profit bound is highest
 * ```
 */
export function runPass(graph: CraftGraph, sheet: MarketSheet): CraftPass {
  const nodes = graph.itemIds.length;
  const sell = new Uint32Array(nodes);
  const buy = new Uint32Array(nodes);
  for (let node = 0; node < nodes; node++) {
    const row = sheetIndex(sheet, graph.itemIds[node] ?? 0);
    if (row < 0) continue;
    sell[node] = sheet.sellPrice[row] ?? 0;
    buy[node] = sheet.buyPrice[row] ?? 0;
  }
  const unit = new Float64Array(nodes);
  const state = new Uint8Array(nodes);
  const costOf = (node: number): number => {
    if (state[node] === DONE) return unit[node] ?? Infinity;
    if (state[node] === OPEN) return 0;
    state[node] = OPEN;
    const bought = (sell[node] ?? 0) > 0 ? sell[node] ?? 0 : Infinity;
    const recipe = graph.recipeOf[node] ?? -1;
    const made = recipe < 0 ? Infinity : runCost(recipe) / (graph.outputCount[recipe] ?? 1);
    state[node] = DONE;
    unit[node] = Math.min(bought, made);
    return unit[node] ?? Infinity;
  };
  const runCost = (recipe: number): number => {
    let total = 0;
    for (let at = graph.ingStart[recipe] ?? 0; at < (graph.ingStart[recipe + 1] ?? 0); at++) {
      const count = graph.ingCount[at] ?? 0;
      const ref = graph.ingRef[at] ?? 0;
      switch (graph.ingKind[at]) {
        case INGREDIENT.item:
          total += count * costOf(ref);
          break;
        case INGREDIENT.coin:
          total += count;
          break;
        case INGREDIENT.currency:
          break;
        default:
          return Infinity;
      }
      if (total === Infinity) return Infinity;
    }
    return total;
  };
  for (let node = 0; node < nodes; node++) if (state[node] === UNSEEN) costOf(node);
  const candidates: Candidate[] = [];
  let sellable = 0;
  for (let recipe = 0; recipe < graph.outputNode.length; recipe++) {
    // Official recipes only, and only those a discipline crafts (the API lists a few with none).
    if (graph.source[recipe] !== SOURCE.official || graph.disciplines[recipe] === 0) continue;
    const output = graph.outputNode[recipe] ?? 0;
    const bid = buy[output] ?? 0;
    if (bid === 0) continue;
    sellable++;
    // The root is always crafted: one run of its own recipe.
    const bound = runCost(recipe);
    if (bound === Infinity) continue;
    const value = (graph.outputCount[recipe] ?? 0) * netSellUnit(bid);
    if (value - bound <= 0) continue;
    candidates.push({ recipe, bound, sell: value, upper: value - bound });
  }
  candidates.sort((a, b) =>
    b.upper - a.upper || (graph.recipeId[a.recipe] ?? 0) - (graph.recipeId[b.recipe] ?? 0)
  );
  return { takenAt: sheet.takenAt, sell, buy, unit, sellable, candidates };
}
