import assert from "node:assert/strict";
import type { OrderBook } from "../../src/gw2/schemas.ts";
import { priceRecipeTree, type TreePrice, type TreeRecipe } from "../../src/tree/pricing.ts";
import {
  marketIds,
  purchases,
  type ShoppingEntry,
  shoppingList,
} from "../../src/tree/shopping_list.ts";
import { recipe } from "./_recipes.ts";

/**
 * 1 ← 2 × item 2 (crafted from 3 × item 4 and 5 coin) + 1 × item 3 (bought) + 1 × item 9
 * (neither buyable nor craftable) + 10 karma.
 */
const RECIPES = new Map<number, TreeRecipe>([
  [1, recipe(1, [[2, 2], [3, 1], [9, 1], [-2, 10]])],
  [2, recipe(2, [[4, 3], [-1, 5]])],
]);
const PRICES = new Map<number, TreePrice>([
  [2, { sell: 1_000, buy: 900 }],
  [3, { sell: 70, buy: 60 }],
  [4, { sell: 20, buy: 15 }],
]);

/** A book of sell levels `[price, units]`, lowest first. */
function book(id: number, sells: [number, number][], more?: true): OrderBook {
  return more === undefined ? { id, sells } : { id, sells, more };
}

/** Books where every purchase fits in its first level: the list at unit prices. */
const DEEP = new Map([[3, book(3, [[70, 100]])], [4, book(4, [[20, 100]])]]);

function list(plan: ReturnType<typeof priceRecipeTree>, books = DEEP, recipes = RECIPES) {
  return shoppingList(purchases(plan, PRICES, recipes), books);
}

Deno.test("shoppingList() lists bought leaves with unit and total, items to earn, and currencies", () => {
  const plan = priceRecipeTree(RECIPES, 1, 1, PRICES);
  const priced = list(plan);
  assert.deepEqual(priced.toBuy, [
    { id: 4, count: 6, unit: 20, total: 120 },
    { id: 3, count: 1, unit: 70, total: 70 },
    { id: 9, count: 1, na: true },
    { cur: 1, count: 10 },
    { cur: 2, count: 10 },
  ]);
  assert.equal(plan.summary.totalCraftCost, 120 + 70 + 10, "items' totals plus coin = the cost");
  assert.deepEqual([priced.buyCost, priced.depthExtra], [200, 0], "deep books: unit prices");
});

Deno.test("shoppingList() leaves out what the holdings cover; an owned intermediate drops its ingredients", () => {
  const partly = priceRecipeTree(RECIPES, 1, 1, PRICES, new Map([[4, 4], [9, 1]]));
  assert.deepEqual(list(partly).toBuy, [
    { id: 3, count: 1, unit: 70, total: 70 },
    { id: 4, count: 2, unit: 20, total: 40 },
    { cur: 1, count: 10 },
    { cur: 2, count: 10 },
  ]);
  const intermediate = priceRecipeTree(RECIPES, 1, 1, PRICES, new Map([[2, 2]]));
  assert.deepEqual(list(intermediate).toBuy, [
    { id: 3, count: 1, unit: 70, total: 70 },
    { id: 9, count: 1, na: true },
    { cur: 2, count: 10 },
  ]);
  assert.equal(intermediate.summary.totalCraftCost, 70);
});

Deno.test("shoppingList() walks each book up its levels; buyCost and depthExtra add up", () => {
  const plan = priceRecipeTree(RECIPES, 1, 1, PRICES);
  const books = new Map([
    // 6 of item 4: 2 × 20 + 3 × 25 + 1 × 40 = 155 (unit price: 120).
    [4, book(4, [[20, 2], [25, 3], [40, 9]])],
    [3, book(3, [[70, 5]])],
  ]);
  const priced = list(plan, books);
  assert.deepEqual(priced.toBuy.slice(0, 2), [
    { id: 4, count: 6, unit: 20, total: 155 },
    { id: 3, count: 1, unit: 70, total: 70 },
  ]);
  assert.equal(priced.buyCost, 155 + 70 + 10, "Trading Post totals and coin");
  assert.equal(priced.depthExtra, 35);
  assert.equal(priced.buyCost - priced.depthExtra, plan.summary.totalCraftCost);
});

Deno.test("shoppingList() walks an item bought in several subtrees once, for its summed count", () => {
  const recipes = new Map<number, TreeRecipe>([
    [1, recipe(1, [[2, 1], [3, 1]])],
    [2, recipe(2, [[4, 2]])],
    [3, recipe(3, [[4, 5]])],
  ]);
  const prices = new Map<number, TreePrice>([[4, { sell: 3, buy: 2 }]]);
  const plan = priceRecipeTree(recipes, 1, 1, prices);
  // Walked apart, 2 units (2 × 3) and 5 units (4 × 3 + 1 × 10) would cost 6 + 22 = 28;
  // the 7 units the tree buys cost 4 × 3 + 3 × 10 = 42.
  const books = new Map([[4, book(4, [[3, 4], [10, 100]])]]);
  const bought = purchases(plan, prices, recipes);
  assert.deepEqual(marketIds(bought), [4]);
  const priced = shoppingList(bought, books);
  assert.deepEqual(priced.toBuy, [{ id: 4, count: 7, unit: 3, total: 42 }]);
  assert.equal(priced.depthExtra, 42 - 21);
});

Deno.test("shoppingList(): a short book, an empty sell side, an unread or missing book", () => {
  const plan = priceRecipeTree(RECIPES, 1, 1, PRICES);
  const cases: [string, Map<number, OrderBook>, ShoppingEntry][] = [
    // 4 listed: 4 × 20, then 2 missing at the highest listed price, 30.
    ["short", new Map([[4, book(4, [[20, 1], [30, 3]])]]), {
      id: 4,
      count: 6,
      unit: 20,
      total: 20 + 90 + 60,
      short: 2,
    }],
    ["kept in part", new Map([[4, book(4, [[20, 1], [30, 3]], true)]]), {
      id: 4,
      count: 6,
      unit: 20,
      total: 20 + 90 + 60,
    }],
    ["empty sell side", new Map([[4, book(4, [])]]), {
      id: 4,
      count: 6,
      unit: 20,
      total: 120,
      short: 6,
    }],
    ["unread", new Map([[4, { id: 4, sells: [], unread: true }]]), {
      id: 4,
      count: 6,
      unit: 20,
      total: 120,
      noDepth: true,
    }],
    ["missing", new Map(), { id: 4, count: 6, unit: 20, total: 120, noDepth: true }],
  ];
  for (const [label, books, expected] of cases) {
    const row = list(plan, books).toBuy.find((entry) => "id" in entry && entry.id === 4);
    assert.deepEqual(row, expected, label);
  }
});

Deno.test("shoppingList() flags craftCheaper where buying the count at depth costs more than crafting it", () => {
  // Item 2 has a recipe (3 × item 4 and 5 coin: 65 a unit) but buying it is cheaper at unit
  // prices (60), so the plan buys 2 of it; at depth the second costs 90.
  const prices = new Map<number, TreePrice>([...PRICES, [2, { sell: 60, buy: 50 }]]);
  const plan = priceRecipeTree(RECIPES, 1, 1, prices);
  const bought = purchases(plan, prices, RECIPES);
  assert.deepEqual(bought.market.find((line) => line.id === 2), {
    id: 2,
    count: 2,
    unit: 60,
    craftCost: 130,
  });
  const at = (sells: [number, number][]) =>
    shoppingList(bought, new Map([[2, book(2, sells)]])).toBuy.find((entry) =>
      "id" in entry && entry.id === 2
    );
  assert.deepEqual(at([[60, 1], [90, 5]]), {
    id: 2,
    count: 2,
    unit: 60,
    total: 150,
    craftCheaper: true,
  });
  assert.deepEqual(at([[60, 1], [70, 5]]), { id: 2, count: 2, unit: 60, total: 130 }, "a tie buys");
});

Deno.test("shoppingList(): a vendor purchase paid in coin is one vendor row; other currencies stay currency rows", () => {
  const vendor = (id: number, ingredients: [number, number][]): TreeRecipe => ({
    ...recipe(id, ingredients),
    source: "vendor",
    merchant: `Merchant ${id}`,
  });
  // 1 ← 2 × item 5 (10 coin each) + 3 × item 6 (4 coin + 7 karma each) + item 7 (2 spirit shards),
  // and item 5 again under item 8.
  const recipes = new Map<number, TreeRecipe>([
    [1, recipe(1, [[5, 2], [6, 3], [7, 1], [8, 1]])],
    [8, recipe(8, [[5, 1]])],
    [5, vendor(5, [[-1, 10]])],
    [6, vendor(6, [[-1, 4], [-2, 7]])],
    [7, vendor(7, [[-23, 2]])],
  ]);
  const plan = priceRecipeTree(recipes, 1, 1, new Map());
  const priced = shoppingList(purchases(plan, new Map(), recipes), new Map());
  assert.deepEqual(priced.toBuy, [
    { id: 5, count: 3, vendor: "Merchant 5", total: 30 },
    { id: 6, count: 3, vendor: "Merchant 6", total: 12 },
    { cur: 2, count: 21 },
    { cur: 23, count: 2 },
  ]);
  assert.deepEqual([priced.buyCost, priced.depthExtra], [42, 0]);
  assert.equal(plan.summary.totalCraftCost, 42, "vendor coin is in the unit-price cost too");
});

Deno.test("shoppingList() says when a count is more than the market sells in a week", () => {
  // 10 × item 1 buys 60 of item 4 and 10 of item 3 (item 2 crafted: 2 × 3 × 10).
  const plan = priceRecipeTree(RECIPES, 1, 10, PRICES);
  const bought = purchases(plan, PRICES, RECIPES);
  const deep = new Map([[3, book(3, [[70, 1_000]])], [4, book(4, [[20, 1_000]])]]);
  const sales = new Map([[4, 8.4], [3, 1.5]]); // 58 and 10 a week
  const rows = shoppingList(bought, deep, sales).toBuy;
  const row = (id: number) => rows.find((entry) => "id" in entry && entry.id === id);
  assert.deepEqual(row(4), { id: 4, count: 60, unit: 20, total: 1_200, soldPerWeek: 58 });
  assert.deepEqual(row(3), { id: 3, count: 10, unit: 70, total: 700 }, "10 is a week's: no flag");
  assert.deepEqual(
    shoppingList(bought, deep).toBuy,
    shoppingList(bought, deep, new Map()).toBuy,
    "no estimates: the list is unchanged",
  );
  const unread = shoppingList(bought, new Map(), sales).toBuy;
  assert.equal(
    unread.find((entry) => "id" in entry && entry.id === 4 && "soldPerWeek" in entry) !== undefined,
    true,
    "an unread book's row is flagged too",
  );
});
