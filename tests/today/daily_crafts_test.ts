/**
 * What a time-gated craft earns (`src/today/daily_crafts.ts`): its own row when its output trades,
 * else the best tradeable item one unit is refined into - each the crafting scan's exact row, the
 * figure `priory_craft_profit` lists.
 */
import assert from "node:assert/strict";
import { buildCraftGraph } from "../../src/craft/graph.ts";
import { runPass } from "../../src/craft/pass.ts";
import { CraftRows } from "../../src/craft/rows.ts";
import { DAILY_CRAFT_ITEMS, dailyEarning } from "../../src/today/daily_crafts.ts";
import { catalogueOf, recipe, sheetOf } from "../craft/_catalogue.ts";

const X = 1;
const Y = 2;
const LUMP = 46_742; // account bound: never on the Trading Post
const QUARTZ = 43_772; // no recipe makes it
const STEEL = 46_738; // one Lump + 2 X
const ALLOY = 90; // one Lump + 1 Y: the better sale
const DOUBLE = 91; // two Lumps: not one craft's worth
const TRADED_DAILY = 92; // a daily craft whose own output trades
const FROM_QUARTZ = 93;

function scanAt(rows: readonly (readonly [number, number, number])[]) {
  const graph = buildCraftGraph(
    catalogueOf([
      recipe(1, LUMP, [[X, 5]]),
      recipe(2, STEEL, [[LUMP, 1], [X, 2]]),
      recipe(3, ALLOY, [[LUMP, 1], [Y, 1]]),
      recipe(4, DOUBLE, [[LUMP, 2]]),
      recipe(5, TRADED_DAILY, [[X, 1]]),
      recipe(6, FROM_QUARTZ, [[QUARTZ, 1]]),
    ]),
    new Map(),
  );
  const pass = runPass(graph, sheetOf(rows));
  return { graph, pass, rows: new CraftRows(graph, pass) };
}

// X sells at 100 and Y at 300 (bought at their lowest listing); the Lump costs 5 X = 500.
const PRICES = [
  [X, 90, 100],
  [Y, 250, 300],
  [STEEL, 1_000, 1_100], // 850 - (500 + 200) = 150
  [ALLOY, 2_000, 2_100], // 1,700 - (500 + 300) = 900
  [DOUBLE, 100_000, 100_000], // far better, but two Lumps a craft
  [TRADED_DAILY, 400, 450], // 340 - 100 = 240
  [FROM_QUARTZ, 5_000, 5_000],
] as const;

Deno.test("an untradeable daily craft earns the best sale of what one unit is refined into", () => {
  const scan = scanAt(PRICES);
  assert.deepEqual(dailyEarning(scan, LUMP), { profit: 900, via: ALLOY });
  const alloy = scan.rows.exact(scan.graph.recipeOf[scan.graph.nodeOf.get(ALLOY) ?? 0] ?? 0);
  assert.equal(alloy.profit, 900, "the scan's own row: what priory_craft_profit lists");
});

Deno.test("a daily craft that trades earns its own row; one nothing prices whole earns nothing", () => {
  const scan = scanAt(PRICES);
  assert.deepEqual(dailyEarning(scan, TRADED_DAILY), { profit: 240 });
  assert.equal(dailyEarning(scan, QUARTZ), undefined, "no recipe: every product is partial");
  assert.equal(dailyEarning(scan, 12_345), undefined, "an item no recipe knows");
});

Deno.test("a loss is reported as one, and a product without buy orders is no sale", () => {
  const scan = scanAt([
    [X, 90, 100],
    [Y, 250, 300],
    [STEEL, 500, 600], // 425 - 700 = -275
    [ALLOY, 0, 2_100], // listed, but nobody buys
  ]);
  assert.deepEqual(dailyEarning(scan, LUMP), { profit: -275, via: STEEL });
});

Deno.test("the daily crafting ids name their items", () => {
  assert.equal(DAILY_CRAFT_ITEMS.get("lump_of_mithrilium"), LUMP);
  assert.equal(DAILY_CRAFT_ITEMS.get("charged_quartz_crystal"), QUARTZ);
  assert.equal(DAILY_CRAFT_ITEMS.size, 5);
});
