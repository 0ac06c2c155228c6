/**
 * What a priced plan buys, and what that really costs. Two pure steps around the one order-book
 * read of `plan.ts`:
 *
 * 1. {@linkcode purchases} reads the plan's leaves, aggregated per item over the whole tree:
 *    Trading Post purchases (units, lowest sell listing, and what crafting those units would
 *    cost where the item has a recipe), vendor purchases paid in coin, items that can be neither
 *    bought nor crafted (to earn: no price), and currencies. Built with the player's owned
 *    counts, it is what is left once the holdings are used.
 * 2. {@linkcode shoppingList} prices it at depth: each Trading Post purchase walks its order
 *    book's sell levels from the lowest price up (`src/market/order_book.ts`), once for the
 *    item's whole count.
 *
 * At unit prices the list adds up to the plan's `totalCraftCost`; `buyCost` is the same list at
 * depth, `depthExtra` the difference.
 *
 * @module
 */

import { COIN_ID } from "../data/curated_recipes.ts";
import type { OrderBook } from "../gw2/schemas.ts";
import { walkSells } from "../market/order_book.ts";
import type { PricedNode, PricedTree, TreePrice, TreeRecipe } from "./pricing.ts";

/**
 * Units to buy on the Trading Post: `unit` is the lowest sell listing; `total` what buying
 * `count` units costs walking the sell listings from the lowest price up. `short`: units the book
 * lacks (priced at its highest listed price; the whole count when its sell side is empty, priced
 * at `unit`). `craftCheaper`: crafting `count` costs less than `total`. `noDepth`: the book could
 * not be read, `total` is `count × unit`. `soldPerWeek`: the units the market sells in a week
 * (the price history's estimate), when `count` is more than that: the listings will take longer
 * than a week to refill what the plan buys.
 */
export type ShoppingItem = {
  readonly id: number;
  readonly count: number;
  readonly unit: number;
  readonly total: number;
  readonly short?: number;
  readonly craftCheaper?: true;
  readonly noDepth?: true;
  readonly soldPerWeek?: number;
};

/** Units bought from a vendor for coin: `total` copper, paid to `vendor`. */
export type ShoppingVendor = {
  readonly id: number;
  readonly count: number;
  readonly vendor: string;
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
export type ShoppingEntry = ShoppingItem | ShoppingVendor | ShoppingUnavailable | ShoppingCurrency;

/** A Trading Post purchase before the order book: units, unit price, crafting them instead. */
export interface MarketPurchase {
  readonly id: number;
  readonly count: number;
  /** The lowest sell listing. */
  readonly unit: number;
  /** Copper to craft those units instead, at unit prices; absent when some have no recipe. */
  readonly craftCost?: number;
}

/** What a plan buys, aggregated per item (or currency) over the tree, in plan order. */
export interface Purchases {
  readonly market: readonly MarketPurchase[];
  readonly vendor: readonly ShoppingVendor[];
  readonly unavailable: readonly ShoppingUnavailable[];
  /** Currencies paid, coin (`cur` 1) among them when paid other than to a coin vendor row. */
  readonly currencies: readonly ShoppingCurrency[];
}

/** The shopping list at depth, and its totals. */
export interface PricedShoppingList {
  /**
   * Trading Post purchases by total (largest first, then id), vendor purchases likewise, then
   * items to earn, then currencies.
   */
  readonly toBuy: ShoppingEntry[];
  /** Copper the whole list costs at depth: Trading Post totals, vendor totals and coin. */
  readonly buyCost: number;
  /** `buyCost` minus the same list at unit prices (`count × unit` per Trading Post row). */
  readonly depthExtra: number;
}

/**
 * What `tree` buys. A vendor purchase that pays coin becomes one vendor row per item (its coin
 * as `total`, its merchant from `recipes`); whatever else it takes - other currencies, items -
 * is listed as usual. Coin paid any other way, and every other currency, is a currency row.
 *
 * @example
 * ```ts
 * const plan = priceRecipeTree(recipes, 30703, 1, prices, holdings.counts);
 * purchases(plan, prices, recipes).market; // [{id: 19721, count: 499, unit: 2797, ...}, ...]
 * ```
 * @param tree the priced plan (with the owned counts, if any)
 * @param prices the unit prices it was priced with
 * @param recipes the recipes it was priced with (for the vendors' names)
 */
export function purchases(
  tree: PricedTree,
  prices: ReadonlyMap<number, TreePrice>,
  recipes: ReadonlyMap<number, TreeRecipe>,
): Purchases {
  const market = new Map<number, { count: number; craftCost: number | undefined }>();
  const vendor = new Map<number, { count: number; vendor: string; total: number }>();
  const unavailable = new Map<number, number>();
  const currencies = new Map<number, number>();
  const add = (tally: Map<number, number>, id: number, count: number) =>
    tally.set(id, (tally.get(id) ?? 0) + count);
  const walk = (node: PricedNode) => {
    const needed = node.quantity - node.owned;
    switch (node.action) {
      case "craft": {
        const recipe = recipes.get(node.id);
        const coin = node.children.filter((child) =>
          child.kind === "currency" && child.id === COIN_ID
        )
          .reduce((sum, child) => sum + (child.cost ?? 0), 0);
        if (recipe?.source !== "vendor" || coin === 0) {
          node.children.forEach(walk);
          return;
        }
        const line = vendor.get(node.id) ?? {
          count: 0,
          vendor: recipe.merchant ?? "vendor",
          total: 0,
        };
        vendor.set(node.id, { ...line, count: line.count + needed, total: line.total + coin });
        node.children.filter((child) => !(child.kind === "currency" && child.id === COIN_ID))
          .forEach(walk);
        return;
      }
      case "buy": {
        const line = market.get(node.id) ?? { count: 0, craftCost: 0 };
        market.set(node.id, {
          count: line.count + needed,
          craftCost: line.craftCost === undefined || node.craftCost === undefined
            ? undefined
            : line.craftCost + node.craftCost,
        });
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
  return {
    market: [...market].map(([id, { count, craftCost }]) => ({
      id,
      count,
      unit: prices.get(id)?.sell ?? 0,
      ...(craftCost === undefined ? {} : { craftCost }),
    })),
    vendor: [...vendor].map(([id, line]) => ({ id, ...line })),
    unavailable: [...unavailable].map(([id, count]) => ({ id, count, na: true })),
    currencies: [...currencies].map(([cur, count]) => ({ cur, count })),
  };
}

/** The ids to read order books for: every Trading Post purchase, once. */
export function marketIds(bought: Purchases): number[] {
  return bought.market.map((line) => line.id);
}

/**
 * Prices `bought` at depth. Each Trading Post purchase walks its book once for its whole count;
 * a book that is absent or `unread` prices it at `count × unit`, flagged `noDepth`; a book with
 * no sell levels is `short` of every unit, priced at `unit` (never 0). A purchase is
 * `craftCheaper` when crafting its units costs less than buying them at depth.
 *
 * @example
 * ```ts
 * const { toBuy, buyCost, depthExtra } = shoppingList(bought, books);
 * ```
 * @param bought what the plan buys (see {@linkcode purchases})
 * @param books order books by item id (see `Gw2Client.listings`)
 * @param soldPerDay units the market sells a day, by item id, where the price history knows
 */
export function shoppingList(
  bought: Purchases,
  books: ReadonlyMap<number, OrderBook>,
  soldPerDay: ReadonlyMap<number, number> = new Map(),
): PricedShoppingList {
  let depthExtra = 0;
  const market = bought.market.map((line): ShoppingItem => {
    const { id, count, unit } = line;
    const atUnit = count * unit;
    const daily = soldPerDay.get(id);
    const week = daily === undefined ? undefined : Math.floor(daily * 7);
    const liquidity = week !== undefined && count > week ? { soldPerWeek: week } : {};
    const book = books.get(id);
    if (book === undefined || book.unread === true) {
      return { id, count, unit, total: atUnit, noDepth: true, ...liquidity };
    }
    const walk = walkSells(book.sells, count, book.more === true) ??
      { total: atUnit, short: count };
    depthExtra += walk.total - atUnit;
    return {
      id,
      count,
      unit,
      total: walk.total,
      ...(walk.short === undefined ? {} : { short: walk.short }),
      ...(line.craftCost !== undefined && line.craftCost < walk.total
        ? { craftCheaper: true }
        : {}),
      ...liquidity,
    };
  });
  const byTotal = (a: { id: number; total: number }, b: { id: number; total: number }) =>
    b.total - a.total || a.id - b.id;
  market.sort(byTotal);
  const vendor = [...bought.vendor].sort(byTotal);
  const coin = bought.currencies.find((line) => line.cur === COIN_ID)?.count ?? 0;
  const buyCost = [...market, ...vendor].reduce((sum, line) => sum + line.total, coin);
  return {
    toBuy: [...market, ...vendor, ...bought.unavailable, ...bought.currencies],
    buyCost,
    depthExtra,
  };
}
