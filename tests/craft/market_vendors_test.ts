/**
 * The crafting scan prices the market's vendor offers (issue 31): with the project's curated data
 * (`CURATED_RECIPES`, Lump of Tin 10 for 80 coin among its `market` records) over the 2023
 * snapshot's Bronze Ingot (recipe 16) and Weak Potion of Dredge Slaying (recipe 4228), a craft
 * costs what the tree says: 140 and 181 at the prices (see
 * `tests/tree/market_vendors_test.ts`), not the 206 and 247 of the Trading Post's tin.
 */

import assert from "node:assert/strict";
import { buildCraftGraph } from "../../src/craft/graph.ts";
import { runPass } from "../../src/craft/pass.ts";
import { CraftRows } from "../../src/craft/rows.ts";
import { CURATED_RECIPES } from "../../src/data/curated_recipes.ts";
import { catalogueOf, recipe, sheetOf } from "./_catalogue.ts";

const BRONZE_INGOT = 19679;
const POTION = 8817;
const COPPER_ORE = 19697;
const LUMP_OF_TIN = 19704;
const GLITTERING_DUST = 24272;
const JUG_OF_WATER = 12156;

const CATALOGUE = catalogueOf([
  recipe(16, BRONZE_INGOT, [[COPPER_ORE, 10], [LUMP_OF_TIN, 1]], {
    count: 5,
    disciplines: ["Armorsmith", "Artificer", "Weaponsmith", "Scribe", "Huntsman"],
  }),
  recipe(4228, POTION, [[GLITTERING_DUST, 1], [COPPER_ORE, 1], [LUMP_OF_TIN, 1], [
    JUG_OF_WATER,
    1,
  ]], { disciplines: ["Artificer"], rating: 50, flags: [] }),
]);

/** `[id, buy, sell]`: the issue's prices; the outputs' bids high enough for both to profit. */
const SHEET = sheetOf([
  [COPPER_ORE, 5, 6],
  [LUMP_OF_TIN, 120, 146],
  [GLITTERING_DUST, 13, 15],
  [JUG_OF_WATER, 8, 10],
  [BRONZE_INGOT, 60, 70],
  [POTION, 300, 320],
]);

/** Each row's output and cost, by output. */
function costs(curated = CURATED_RECIPES): Map<number, number> {
  const graph = buildCraftGraph(CATALOGUE, curated);
  const rows = new CraftRows(graph, runPass(graph, SHEET)).top({ includeTimeGated: false }, 10);
  return new Map(rows.map((row) => [row.outputId, row.cost]));
}

Deno.test("the crafting scan buys Lump of Tin from the master craftsmen: Bronze Ingot 140, the potion 181", () => {
  assert.deepEqual(costs(), new Map([[BRONZE_INGOT, 10 * 6 + 80], [POTION, 15 + 6 + 80 + 80]]));
  const withoutTin = new Map([...CURATED_RECIPES].filter(([id]) => id !== LUMP_OF_TIN));
  assert.deepEqual(costs(withoutTin), new Map([[BRONZE_INGOT, 206], [POTION, 247]]));
});
