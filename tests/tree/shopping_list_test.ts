import assert from "node:assert/strict";
import { priceRecipeTree, type TreePrice, type TreeRecipe } from "../../src/tree/pricing.ts";
import { shoppingList } from "../../src/tree/shopping_list.ts";
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

Deno.test("shoppingList() lists bought leaves with unit and total, items to earn, and currencies", () => {
  const plan = priceRecipeTree(RECIPES, 1, 1, PRICES);
  assert.deepEqual(shoppingList(plan, PRICES), [
    { id: 4, count: 6, unit: 20, total: 120 },
    { id: 3, count: 1, unit: 70, total: 70 },
    { id: 9, count: 1, na: true },
    { cur: 1, count: 10 },
    { cur: 2, count: 10 },
  ]);
  assert.equal(plan.summary.totalCraftCost, 120 + 70 + 10, "items' totals plus coin = the cost");
});

Deno.test("shoppingList() leaves out what the holdings cover; an owned intermediate drops its ingredients", () => {
  const partly = priceRecipeTree(RECIPES, 1, 1, PRICES, new Map([[4, 4], [9, 1]]));
  assert.deepEqual(shoppingList(partly, PRICES), [
    { id: 3, count: 1, unit: 70, total: 70 },
    { id: 4, count: 2, unit: 20, total: 40 },
    { cur: 1, count: 10 },
    { cur: 2, count: 10 },
  ]);
  const intermediate = priceRecipeTree(RECIPES, 1, 1, PRICES, new Map([[2, 2]]));
  const list = shoppingList(intermediate, PRICES);
  assert.deepEqual(list, [
    { id: 3, count: 1, unit: 70, total: 70 },
    { id: 9, count: 1, na: true },
    { cur: 2, count: 10 },
  ]);
  assert.equal(intermediate.summary.totalCraftCost, 70);
});

Deno.test("shoppingList() sums an item bought in several places", () => {
  const recipes = new Map<number, TreeRecipe>([
    [1, recipe(1, [[2, 1], [3, 1]])],
    [2, recipe(2, [[4, 2]])],
    [3, recipe(3, [[4, 5]])],
  ]);
  const prices = new Map<number, TreePrice>([[4, { sell: 3, buy: 2 }]]);
  const plan = priceRecipeTree(recipes, 1, 1, prices, new Map([[4, 1]]));
  assert.deepEqual(shoppingList(plan, prices), [{ id: 4, count: 6, unit: 3, total: 18 }]);
});
