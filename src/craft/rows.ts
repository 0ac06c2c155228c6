/**
 * The rows of the crafting scan, exactly: for the recipes the pass (`pass.ts`) ranks highest, the
 * tree `priory_recipe_tree` would price - `priceRecipeTree` over the same recipes and prices, so
 * `cost` is its `totalCraftCost` at `quantity` = the recipe's output count - in the bound's order,
 * until no recipe left can beat the rows found. Each exact craft is kept for the sheet's lifetime,
 * so every call at the same sheet reuses it. Pure.
 *
 * Left out: a craft whose tree is partial (an ingredient that can be neither bought nor crafted,
 * or a guild upgrade), one that does not profit at unit prices, and - unless asked for - one
 * that touches a daily cooldown: the output, or an item its tree crafts or buys, in
 * `@gw2efficiency/recipe-calculation`'s table (`staticItems.dailyCooldowns`: Lump of
 * Mithrillium, Spool of Silk Weaving Thread, Glob of Elder Spirit Residue, ... and the tradeable
 * items made from them).
 *
 * @module
 */

import { staticItems } from "@gw2efficiency/recipe-calculation";
import type { PricedNode, PricedTree, TreePrice } from "../tree/pricing.ts";
import { NotCraftableError, priceRecipeTree } from "../tree/pricing.ts";
import { type Purchases, purchases } from "../tree/shopping_list.ts";
import { type CraftGraph, subtreeRecipes } from "./graph.ts";
import type { CraftPass } from "./pass.ts";

/** Item ids of the daily-cooldown table (`@gw2efficiency/recipe-calculation`). */
export const DAILY_COOLDOWN_IDS: ReadonlySet<number> = new Set(staticItems.dailyCooldowns);

/** One craft, priced exactly. */
export interface ExactCraft {
  /** The graph recipe. */
  readonly recipe: number;
  readonly outputId: number;
  /** Items one craft makes (the `quantity` of the matching `priory_recipe_tree`). */
  readonly count: number;
  /** `priory_recipe_tree`'s `totalCraftCost` at that quantity (copper). */
  readonly cost: number;
  /** `count × floor(best buy order × 0.85)`. */
  readonly sell: number;
  readonly profit: number;
  /** Some cost is missing from `cost` (an unavailable item, a guild upgrade): never listed. */
  readonly partial: boolean;
  /** The craft touches a daily cooldown. */
  readonly daily: boolean;
  /** Non-coin currencies one craft pays (not in `cost`). */
  readonly currencies: readonly { readonly id: number; readonly count: number }[];
  /** What one craft buys, for the order-book walk. */
  readonly purchases: Purchases;
  /** The unit prices the tree was priced with (what `purchases` refers to). */
  readonly prices: ReadonlyMap<number, TreePrice>;
}

/** Which recipes a call wants. */
export interface CraftFilter {
  /** Keep a recipe only when this holds (a discipline, what the account can craft). */
  readonly accepts?: (recipe: number) => boolean;
  /** Keep crafts touching a daily cooldown (flagged `daily`). */
  readonly includeTimeGated: boolean;
}

/**
 * Prices graph recipe `r` exactly at the pass's prices: the tree of its output at quantity = its
 * output count, what that tree buys, and whether it touches a daily cooldown. A recipe that takes
 * its own output has no tree (`priory_recipe_tree` refuses it): partial, so never listed.
 */
export function priceCraft(graph: CraftGraph, pass: CraftPass, r: number): ExactCraft {
  const recipes = subtreeRecipes(graph, r);
  const prices = new Map<number, TreePrice>();
  const priceOf = (itemId: number) => {
    const node = graph.nodeOf.get(itemId);
    if (node === undefined || prices.has(itemId)) return;
    const sell = pass.sell[node] ?? 0;
    const buy = pass.buy[node] ?? 0;
    if (sell > 0 || buy > 0) prices.set(itemId, { buy, sell });
  };
  for (const recipe of recipes.values()) {
    priceOf(recipe.outputId);
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Item") priceOf(ingredient.id);
    }
  }
  const outputId = graph.itemIds[graph.outputNode[r] ?? 0] ?? 0;
  const count = graph.outputCount[r] ?? 1;
  let tree: PricedTree;
  try {
    tree = priceRecipeTree(recipes, outputId, count, prices);
  } catch (error) {
    if (!(error instanceof NotCraftableError)) throw error;
    const purchases = { market: [], vendor: [], unavailable: [], currencies: [] };
    return {
      recipe: r,
      outputId,
      count,
      cost: 0,
      sell: 0,
      profit: 0,
      partial: true,
      daily: false,
      currencies: [],
      purchases,
      prices,
    };
  }
  const { summary } = tree;
  const sell = summary.netSell ?? 0;
  return {
    recipe: r,
    outputId,
    count,
    cost: summary.totalCraftCost,
    sell,
    profit: sell - summary.totalCraftCost,
    partial: summary.partial,
    daily: touchesDaily(tree.root),
    currencies: summary.currencies,
    purchases: purchases(tree, prices, recipes),
    prices,
  };
}

/** Whether the output, or an item the tree crafts or buys, is in the daily-cooldown table. */
function touchesDaily(node: PricedNode): boolean {
  if (node.kind === "item" && (node.action === "craft" || node.action === "buy")) {
    if (DAILY_COOLDOWN_IDS.has(node.id)) return true;
  }
  return node.children.some(touchesDaily);
}

/** The exact crafts of one pass, priced on demand and kept. */
export class CraftRows {
  readonly #graph: CraftGraph;
  readonly #pass: CraftPass;
  readonly #exact = new Map<number, ExactCraft>();

  /** @param graph the recipe graph; @param pass the pass at the sheet's prices */
  constructor(graph: CraftGraph, pass: CraftPass) {
    this.#graph = graph;
    this.#pass = pass;
  }

  /** Crafts priced exactly so far (for the benchmark and logs). */
  get priced(): number {
    return this.#exact.size;
  }

  /**
   * The `limit` most profitable crafts `filter` keeps, highest profit first (then recipe id):
   * only crafts that profit, whose tree is whole. Candidates are priced in their bound's order
   * and the search stops once the next bound cannot beat the last row kept.
   */
  top(filter: CraftFilter, limit: number): ExactCraft[] {
    const kept: ExactCraft[] = [];
    const byProfit = (a: ExactCraft, b: ExactCraft) =>
      b.profit - a.profit ||
      (this.#graph.recipeId[a.recipe] ?? 0) - (this.#graph.recipeId[b.recipe] ?? 0);
    for (const candidate of this.#pass.candidates) {
      const last = kept.length >= limit ? kept[limit - 1] : undefined;
      if (last !== undefined && candidate.upper < last.profit) break;
      if (filter.accepts !== undefined && !filter.accepts(candidate.recipe)) continue;
      const outputId = this.#graph.itemIds[this.#graph.outputNode[candidate.recipe] ?? 0] ?? 0;
      if (!filter.includeTimeGated && DAILY_COOLDOWN_IDS.has(outputId)) continue;
      const craft = this.exact(candidate.recipe);
      if (craft.partial || craft.profit <= 0) continue;
      if (craft.daily && !filter.includeTimeGated) continue;
      kept.push(craft);
      kept.sort(byProfit);
      if (kept.length > limit) kept.pop();
    }
    return kept;
  }

  /**
   * Graph recipe `recipe` priced exactly (`priceCraft`), kept for the pass's lifetime: one row of
   * `priory_craft_profit`, whatever filters would list it (`priory_today` prices the daily crafts
   * with it).
   */
  exact(recipe: number): ExactCraft {
    let craft = this.#exact.get(recipe);
    if (craft === undefined) {
      craft = priceCraft(this.#graph, this.#pass, recipe);
      this.#exact.set(recipe, craft);
    }
    return craft;
  }
}
