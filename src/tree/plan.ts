/**
 * The priced tree of one item, from upstream reads to the compact result: `resolveRecipes`
 * gathers the tree, `readTreePrices` is its one price read, `priceRecipeTree` the pure
 * computation and `shapeRecipeTree` the compact form. With a key, the player's holdings are read
 * beside the tree and used before buying or crafting (an owned intermediate removes its whole
 * subtree), and the result adds what they saved. Every plan carries its shopping list (after
 * the holdings, when used), priced from the order books of what it buys.
 *
 * @module
 */

import { withHoldings } from "../account/holdings.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { oldestStaleAge } from "../staleness.ts";
import { currencyNamesFor, itemNamesFor, type Naming, renamed } from "./names.ts";
import { NotCraftableError, priceRecipeTree } from "./pricing.ts";
import { readTreeBooks, resolveAndPrice } from "./prices.ts";
import { type RecipeTreeResult, shapeRecipeTree } from "./shape.ts";
import { marketIds, purchases, type ShoppingEntry, shoppingList } from "./shopping_list.ts";

/** What to plan. */
export interface TreeRequest {
  readonly itemId: number;
  /** Units to craft. */
  readonly quantity: number;
  /** The player's GW2 API key, to use their holdings; none prices the tree from scratch. */
  readonly gw2Key?: string | undefined;
  /**
   * Units the market sells a day of each of `ids` (the price history's estimates; an id it does
   * not know is absent): the shopping list says when a count is more than a week's.
   */
  readonly soldPerDay?: (ids: readonly number[]) => Promise<ReadonlyMap<number, number>>;
  /** The language to name items and currencies in (English when absent). */
  readonly naming?: Naming | undefined;
}

/**
 * A planned tree with its shopping list at depth: `buyCost` and `depthExtra` in the summary (and,
 * with holdings, what they saved), `toBuy` always.
 */
export type TreePlan = RecipeTreeResult & {
  readonly summary: RecipeTreeResult["summary"] & {
    readonly buyCost: number;
    readonly depthExtra: number;
    readonly saved?: number;
  };
  readonly toBuy: ShoppingEntry[];
};

/**
 * Plans the tree of `request.itemId`: resolve, price, shape; then the order books of what the
 * plan buys on the Trading Post (one batched read), for the shopping list at depth.
 *
 * @example
 * ```ts
 * const plan = await planTree(gw2, { itemId: 30703, quantity: 1 });
 * plan.summary.totalCraftCost; // copper, at unit prices
 * plan.summary.buyCost; // copper, the shopping list at depth
 * ```
 * @throws {Gw2NotFoundError} when upstream does not know the item
 * @throws {NotCraftableError} when the item has no recipe, official or curated
 * @throws a `Gw2Failure` when an upstream read fails (see `src/gw2/errors.ts`); the order-book
 *   read never fails the plan (see `readTreeBooks`)
 */
export async function planTree(gw2: Gw2Client, request: TreeRequest): Promise<TreePlan> {
  const { itemId, quantity, gw2Key, naming } = request;
  // The tree and its prices (read as soon as the walk knows the ids), beside the holdings read.
  const treeAndPrices = async () => {
    const priced = await resolveAndPrice(gw2, [itemId]);
    const { resolved } = priced;
    if (resolved.missingItemIds.includes(itemId)) throw new Gw2NotFoundError([itemId], "item");
    if (!resolved.recipes.has(itemId)) {
      throw new NotCraftableError(itemId, resolved.names.get(itemId));
    }
    return priced;
  };
  const { holdings, value: { resolved, priced: { prices, staleAgeMs } } } = gw2Key === undefined
    ? { holdings: undefined, value: await treeAndPrices() }
    : await withHoldings(gw2, gw2Key, treeAndPrices);
  const plan = priceRecipeTree(resolved.recipes, itemId, quantity, prices, holdings?.counts);
  const bought = purchases(plan, prices, resolved.recipes);
  // The history's estimates beside the book read; without them the list is the same, unflagged.
  const [books, sales] = await Promise.all([
    readTreeBooks(gw2, marketIds(bought)),
    request.soldPerDay?.(marketIds(bought)).catch(() => undefined),
  ]);
  const { toBuy, buyCost, depthExtra } = shoppingList(bought, books.books, sales);
  const english = shapeRecipeTree(
    plan,
    resolved.names,
    naming === undefined ? resolved.currencyNames : await currencyNamesFor(
      gw2,
      naming,
      plan.summary.currencies.map(({ id }) => id),
      resolved.currencyNames,
    ),
    oldestStaleAge(resolved.staleAgeMs, staleAgeMs, books.staleAgeMs),
  );
  const shaped = naming === undefined || naming.lang === "en" ? english : {
    ...english,
    names: renamed(
      english.names,
      await itemNamesFor(gw2, naming, Object.keys(english.names).map(Number), new Map()),
    ),
  };
  // buyCost and depthExtra follow the contract's fields, before what makes the total partial.
  const { rootId, quantity: units, totalCraftCost, rootBuyPrice, netSell, profit, ...rest } =
    shaped.summary;
  const contract = { rootId, quantity: units, totalCraftCost, rootBuyPrice, netSell, profit };
  if (holdings === undefined) {
    return { ...shaped, summary: { ...contract, buyCost, depthExtra, ...rest }, toBuy };
  }
  const unaided = priceRecipeTree(resolved.recipes, itemId, quantity, prices);
  const saved = unaided.summary.totalCraftCost - plan.summary.totalCraftCost;
  return { ...shaped, summary: { ...contract, buyCost, depthExtra, ...rest, saved }, toBuy };
}
