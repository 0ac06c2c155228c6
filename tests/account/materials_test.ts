import assert from "node:assert/strict";
import { materialRows, rollUpMaterials } from "../../src/account/materials.ts";
import { netSellUnit } from "../../src/market/trading_post.ts";
import type { AccountMaterial, MaterialCategory } from "../../src/gw2/schemas.ts";
import { getWorld, WELL_KNOWN } from "../fake_gw2/mod.ts";

const CATEGORIES: MaterialCategory[] = [
  { id: 6, name: "Basic Crafting Materials", items: [19701, 19685], order: 0 },
  { id: 5, name: "Fine Crafting Materials", items: [24295, 24357], order: 10 },
  { id: 29, name: "Intermediate Crafting Materials", items: [19721, 19675], order: 20 },
];

const STORED: AccountMaterial[] = [
  { id: 19701, category: 6, count: 412 },
  { id: 19685, category: 6, count: 0 },
  { id: 24295, category: 5, count: 312 },
  { id: 24357, category: 5, count: 3 },
  { id: 19721, category: 29, count: 1_234 },
  { id: 19675, category: 29, count: 38, binding: "Account" },
];

Deno.test("netSellUnit() is floor(buy × 0.85), exactly, for every price", () => {
  assert.equal(netSellUnit(0), 0);
  assert.equal(netSellUnit(1), 0);
  assert.equal(netSellUnit(2603), 2212); // 2212.55
  assert.equal(netSellUnit(100), 85);
  for (let buy = 0; buy < 200_000; buy += 7) {
    assert.equal(netSellUnit(buy), Math.floor(buy * 0.85), `buy ${buy}`);
  }
});

Deno.test("rollUpMaterials() gives one row per category in game order, owned rows only", () => {
  const buys = new Map([[19701, 180], [24295, 300], [19721, 2603]]);
  assert.deepEqual(rollUpMaterials(CATEGORIES, STORED, buys), [
    {
      category: "Basic Crafting Materials",
      distinct_owned: 1,
      total_count: 412,
      total_sell_value: 412 * 153,
    },
    {
      category: "Fine Crafting Materials",
      distinct_owned: 2,
      total_count: 315,
      total_sell_value: 312 * 255, // 24357 has no price: it adds 0, not a guess
    },
    {
      category: "Intermediate Crafting Materials",
      distinct_owned: 2,
      total_count: 1_272,
      total_sell_value: 1_234 * 2212, // clovers are account bound: no price
    },
  ]);
});

Deno.test("rollUpMaterials() keeps empty categories and names unknown ones", () => {
  const rows = rollUpMaterials(CATEGORIES, [{ id: 99, category: 77, count: 5 }], new Map());
  assert.deepEqual(rows.map((row) => [row.category, row.distinct_owned, row.total_count]), [
    ["Basic Crafting Materials", 0, 0],
    ["Fine Crafting Materials", 0, 0],
    ["Intermediate Crafting Materials", 0, 0],
    ["Category 77", 1, 5],
  ]);
  assert.deepEqual(rollUpMaterials([], [], new Map()), []);
});

Deno.test("rollUpMaterials() totals equal the fake account's sums per category", () => {
  const world = getWorld();
  const categories = [...world.materials.values()].map((category) => ({
    ...category,
    items: [...category.items],
  }));
  const buys = new Map(
    [...world.prices.values()].map((price) => [price.id, price.buys.unit_price]),
  );
  const rows = rollUpMaterials(categories, world.accountMaterials, buys);
  assert.equal(rows.length, categories.length);
  assert.ok(rows.length >= 5 && rows.length <= 12, `${rows.length} rows, about nine`);
  for (const category of categories) {
    const owned = world.accountMaterials.filter((row) =>
      row.category === category.id && row.count > 0
    );
    const expected = {
      category: category.name,
      distinct_owned: owned.length,
      total_count: owned.reduce((sum, row) => sum + row.count, 0),
      total_sell_value: owned.reduce(
        (sum, row) =>
          sum + row.count * Math.floor((world.prices.get(row.id)?.buys.unit_price ?? 0) * 0.85),
        0,
      ),
    };
    assert.deepEqual(rows.find((row) => row.category === category.name), expected);
  }
  assert.ok(rows.some((row) => row.total_sell_value > 0));
  assert.ok(JSON.stringify(rows).length / 4 < 500, "a few hundred tokens, not 18,000");
});

Deno.test("materialRows() returns exactly the requested ids, count 0 included", () => {
  const names = new Map([
    [19685, "Orichalcum Ingot"],
    [19721, "Glob of Ectoplasm"],
    [30703, "Sunrise"],
  ]);
  const rows = materialRows([19721, 19685, 30703, 1, 19721, 24295], CATEGORIES, STORED, names);
  assert.deepEqual(rows, [
    {
      id: 19721,
      name: "Glob of Ectoplasm",
      category: "Intermediate Crafting Materials",
      count: 1234,
    },
    { id: 19685, name: "Orichalcum Ingot", category: "Basic Crafting Materials", count: 0 },
    { id: 30703, name: "Sunrise", category: null, count: 0 },
    { id: 1, name: null, category: null, count: 0 },
    { id: 24295, name: null, category: "Fine Crafting Materials", count: 312 },
  ]);
});

Deno.test("materialRows() names a storable item's category even when the account has no row", () => {
  const rows = materialRows([WELL_KNOWN.orichalcumIngot], CATEGORIES, [], new Map());
  assert.deepEqual(rows, [{
    id: WELL_KNOWN.orichalcumIngot,
    name: null,
    category: "Basic Crafting Materials",
    count: 0,
  }]);
});
