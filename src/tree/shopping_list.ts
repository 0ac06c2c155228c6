/**
 * What is still to buy to carry out a priced plan once the player's holdings are used: the
 * leaves of the plan that are bought on the Trading Post (with unit and total cost), those that
 * can be neither bought nor crafted (to be earned: no price), and what vendors are paid, per
 * currency. Pure: read off a {@linkcode PricedTree} built with the player's owned counts.
 *
 * The items' totals plus the coin paid to vendors equal the plan's `totalCraftCost`.
 *
 * @module
 */

import type { PricedNode, PricedTree, TreePrice } from "./pricing.ts";

/** Units to buy on the Trading Post: `unit` is the lowest sell listing, `total` their cost. */
export type ShoppingItem = {
  readonly id: number;
  readonly count: number;
  readonly unit: number;
  readonly total: number;
};

/** Units the plan needs that can be neither bought nor crafted (account-bound): earn them. */
export type ShoppingUnavailable = {
  readonly id: number;
  readonly count: number;
  readonly na: true;
};

/** A currency paid to vendors: `cur` 1 is coin (`count` in copper); others are unconverted. */
export type ShoppingCurrency = {
  readonly cur: number;
  readonly count: number;
};

/**
 * One line of the shopping list. (Object types, not interfaces, so they fit the loose output
 * schema's index signature.)
 */
export type ShoppingEntry = ShoppingItem | ShoppingUnavailable | ShoppingCurrency;

/**
 * The shopping list of a plan: Trading Post purchases by total cost (largest first, then id),
 * then items to earn, then currencies, each in plan order and summed per id.
 *
 * @example
 * ```ts
 * const plan = priceRecipeTree(recipes, 30703, 1, prices, holdings.counts);
 * shoppingList(plan, prices); // [{id: 19721, count: 12, unit: 2603, total: 31236}, …]
 * ```
 */
export function shoppingList(
  tree: PricedTree,
  prices: ReadonlyMap<number, TreePrice>,
): ShoppingEntry[] {
  const bought = new Map<number, { count: number; total: number }>();
  const unavailable = new Map<number, number>();
  const currencies = new Map<number, number>();
  const add = (tally: Map<number, number>, id: number, count: number) =>
    tally.set(id, (tally.get(id) ?? 0) + count);
  const walk = (node: PricedNode) => {
    const needed = node.quantity - node.owned;
    switch (node.action) {
      case "craft":
        node.children.forEach(walk);
        return;
      case "buy": {
        const line = bought.get(node.id) ?? { count: 0, total: 0 };
        bought.set(node.id, { count: line.count + needed, total: line.total + (node.cost ?? 0) });
        return;
      }
      case "unavailable":
        add(unavailable, node.id, needed);
        return;
      case "pay":
        add(currencies, node.id, needed);
        return;
      case "owned":
        return;
    }
  };
  walk(tree.root);
  const items: ShoppingItem[] = [...bought].map(([id, { count, total }]) => ({
    id,
    count,
    unit: prices.get(id)?.sell ?? 0,
    total,
  }));
  items.sort((a, b) => b.total - a.total || a.id - b.id);
  return [
    ...items,
    ...[...unavailable].map(([id, count]): ShoppingUnavailable => ({ id, count, na: true })),
    ...[...currencies].map(([cur, count]): ShoppingCurrency => ({ cur, count })),
  ];
}
