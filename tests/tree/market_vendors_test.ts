/**
 * The market's vendor offers in trees (issue 31): Lump of Tin, which the master craftsmen sell 10
 * for 80 coin, is a curated rule-2 record (`src/data/curated_recipes.json`, `market`), so Bronze
 * Ingot and Weak Potion of Dredge Slaying - official recipes far from any legendary - price it
 * at the vendor, not at the Trading Post.
 *
 * The recipes are the 2023 snapshot's (recipe 16: 10 Copper Ore + 1 Lump of Tin make 5 Bronze
 * Ingots; recipe 4228: Pile of Glittering Dust, Copper Ore, Lump of Tin and Jug of Water make the
 * potion); the vendor records are the project's own data. The prices reproduce the issue's
 * real-scale reading (the reference pack holds no price of these items): Lump of Tin's lowest
 * listing 146 c, Copper Ore 6 c with six units at 6 and the rest at 7 (so ten cost 64 at
 * depth), Pile of Glittering Dust 15 c, Jug of Water 10 c (its vendor's 80 for 10 is cheaper).
 * By the contract's rules Bronze Ingot then costs 140 at unit prices and 144 at depth (its
 * `buyCost`: the figure), against 206 / 210 at the Trading Post's tin; the potion 181,
 * against 247.
 */

import assert from "node:assert/strict";
import { CURATED_RECIPES } from "../../src/data/curated_recipes.ts";
import type { OrderBook } from "../../src/gw2/schemas.ts";
import { priceRecipeTree, type TreePrice, type TreeRecipe } from "../../src/tree/pricing.ts";
import { purchases, shoppingList } from "../../src/tree/shopping_list.ts";

const BRONZE_INGOT = 19679;
const POTION = 8817;
const COPPER_ORE = 19697;
const LUMP_OF_TIN = 19704;
const GLITTERING_DUST = 24272;
const JUG_OF_WATER = 12156;

/** A curated record as a tree uses it (as `src/tree/resolve.ts` turns it). */
function curated(id: number): TreeRecipe {
  const record = CURATED_RECIPES.get(id);
  assert.ok(record !== undefined, `a curated record for ${id}`);
  return {
    outputId: record.outputId,
    outputCount: record.outputCount,
    source: record.source,
    ingredients: record.ingredients,
    ...(record.merchant === undefined ? {} : { merchant: record.merchant }),
  };
}

/** An official recipe of the snapshot: `[item id, count]` ingredients. */
function official(
  recipeId: number,
  outputId: number,
  outputCount: number,
  ingredients: readonly (readonly [number, number])[],
): TreeRecipe {
  return {
    outputId,
    outputCount,
    source: "official",
    recipeId,
    ingredients: ingredients.map(([id, count]) => ({ type: "Item", id, count })),
  };
}

const RECIPES = new Map<number, TreeRecipe>([
  [BRONZE_INGOT, official(16, BRONZE_INGOT, 5, [[COPPER_ORE, 10], [LUMP_OF_TIN, 1]])],
  [
    POTION,
    official(4228, POTION, 1, [[GLITTERING_DUST, 1], [COPPER_ORE, 1], [LUMP_OF_TIN, 1], [
      JUG_OF_WATER,
      1,
    ]]),
  ],
  [LUMP_OF_TIN, curated(LUMP_OF_TIN)],
  [JUG_OF_WATER, curated(JUG_OF_WATER)],
]);
/** Before the market's offers: Lump of Tin had no record (a leaf, bought on the Trading Post). */
const WITHOUT_TIN = new Map([...RECIPES].filter(([id]) => id !== LUMP_OF_TIN));

const PRICES = new Map<number, TreePrice>([
  [COPPER_ORE, { buy: 5, sell: 6 }],
  [LUMP_OF_TIN, { buy: 120, sell: 146 }],
  [GLITTERING_DUST, { buy: 13, sell: 15 }],
  [JUG_OF_WATER, { buy: 8, sell: 10 }],
]);
const BOOKS = new Map<number, OrderBook>([
  [COPPER_ORE, { id: COPPER_ORE, sells: [[6, 6], [7, 10_000]] }],
  [LUMP_OF_TIN, { id: LUMP_OF_TIN, sells: [[146, 10_000]] }],
  [GLITTERING_DUST, { id: GLITTERING_DUST, sells: [[15, 10_000]] }],
  [JUG_OF_WATER, { id: JUG_OF_WATER, sells: [[10, 10_000]] }],
]);

/** The tree of one `rootId` at unit prices, and its shopping list at depth. */
function costs(rootId: number, recipes = RECIPES) {
  const plan = priceRecipeTree(recipes, rootId, 1, PRICES);
  const list = shoppingList(purchases(plan, PRICES, recipes), BOOKS);
  return { totalCraftCost: plan.summary.totalCraftCost, buyCost: list.buyCost, toBuy: list.toBuy };
}

Deno.test("the market's data sells Lump of Tin at the master craftsmen: 10 for 80 coin, rule 2", () => {
  const tin = CURATED_RECIPES.get(LUMP_OF_TIN);
  assert.deepEqual(
    tin && { ...tin },
    {
      outputId: LUMP_OF_TIN,
      name: "Lump of Tin",
      outputCount: 10,
      source: "vendor",
      rule: 2,
      ingredients: [{ type: "Currency", id: 1, count: 80 }],
      // Six master craftsmen sell it at 80; the source's first.
      merchant: "Master Armorsmiths",
      market: true,
    },
  );
});

Deno.test("Bronze Ingot buys its Lump of Tin from the vendor: 144 at depth, not 210", () => {
  const bronze = costs(BRONZE_INGOT);
  assert.deepEqual([bronze.totalCraftCost, bronze.buyCost], [10 * 6 + 80, 64 + 80]);
  assert.equal(bronze.buyCost, 144);
  assert.deepEqual(bronze.toBuy, [
    { id: COPPER_ORE, count: 10, unit: 6, total: 64 },
    { id: LUMP_OF_TIN, count: 10, vendor: "Master Armorsmiths", total: 80 },
  ]);
  const before = costs(BRONZE_INGOT, WITHOUT_TIN);
  assert.deepEqual([before.totalCraftCost, before.buyCost], [206, 210], "the Trading Post's tin");
});

Deno.test("Weak Potion of Dredge Slaying costs 181, not 247: its tin and water from vendors", () => {
  const potion = costs(POTION);
  assert.deepEqual([potion.totalCraftCost, potion.buyCost], [181, 181]);
  assert.deepEqual(
    potion.toBuy.filter((row) => "vendor" in row),
    [
      { id: JUG_OF_WATER, count: 10, vendor: "Master Artificers", total: 80 },
      { id: LUMP_OF_TIN, count: 10, vendor: "Master Armorsmiths", total: 80 },
    ],
  );
  const before = costs(POTION, WITHOUT_TIN);
  assert.deepEqual([before.totalCraftCost, before.buyCost], [247, 247]);
});
