import assert from "node:assert/strict";
import {
  COIN_ID,
  CURATED_RECIPES,
  type CuratedRecipe,
  curatedTreeItemIds,
  CURRENCY_NAMES,
  parseCuratedData,
} from "../../src/data/curated_recipes.ts";
import { findLegendaries } from "../../src/data/legendaries.ts";
import { getWorld, NAMED_GIFT_IDS, WELL_KNOWN } from "../fake_gw2/mod.ts";

const GIFT_OF_MASTERY = 19674;
const GIFT_OF_FORTUNE = 19626;
const KARMA = 2;
const SPIRIT_SHARD = 23;

function recipe(id: number): CuratedRecipe {
  const found = CURATED_RECIPES.get(id);
  assert.ok(found, `a curated recipe makes ${id}`);
  return found;
}

function ingredientPairs(id: number): [number, number][] {
  return recipe(id).ingredients.map((ingredient) => [ingredient.id, ingredient.count]);
}

const forge = () => [...CURATED_RECIPES.values()].filter((r) => r.source === "mystic_forge");
const vendor = () => [...CURATED_RECIPES.values()].filter((r) => r.source === "vendor");

Deno.test("curated Mystic Forge data: the 21 gen-1 legendaries, 20 named gifts and the generic gifts", () => {
  const gen1 = findLegendaries({ generation: 1 });
  assert.equal(gen1.length, 21);
  for (const legendary of gen1) {
    assert.equal(recipe(legendary.id).source, "mystic_forge", legendary.name);
    if (legendary.precursorId === undefined) continue; // Eternity, below
    const [precursor, gift, mastery, fortune] = ingredientPairs(legendary.id);
    assert.deepEqual(precursor, [legendary.precursorId, 1], `${legendary.name}: its precursor`);
    assert.ok(NAMED_GIFT_IDS.includes(gift?.[0] ?? 0), `${legendary.name}: a named gift`);
    assert.deepEqual([mastery, fortune], [[GIFT_OF_MASTERY, 1], [GIFT_OF_FORTUNE, 1]]);
  }
  assert.deepEqual(ingredientPairs(WELL_KNOWN.eternity), [
    [WELL_KNOWN.sunrise, 1],
    [WELL_KNOWN.twilight, 1],
    [WELL_KNOWN.pileOfCrystallineDust, 5],
    [WELL_KNOWN.philosophersStone, 10],
  ]);
  for (const gift of NAMED_GIFT_IDS) {
    const pairs = ingredientPairs(gift);
    assert.equal(pairs.length, 4);
    assert.deepEqual(pairs[2], [WELL_KNOWN.icyRunestone, 100], `${gift}: 100 Icy Runestones`);
  }
  assert.deepEqual(ingredientPairs(GIFT_OF_MASTERY), [
    [19678, 1],
    [19677, 1],
    [WELL_KNOWN.obsidianShard, 250],
    [WELL_KNOWN.bloodstoneShard, 1],
  ]);
  assert.deepEqual(ingredientPairs(GIFT_OF_FORTUNE), [
    [WELL_KNOWN.giftOfMagic, 1],
    [WELL_KNOWN.giftOfMight, 1],
    [WELL_KNOWN.mysticClover, 77],
    [WELL_KNOWN.globOfEctoplasm, 250],
  ]);
  assert.deepEqual(ingredientPairs(WELL_KNOWN.giftOfMight).map(([, count]) => count), [
    250,
    250,
    250,
    250,
  ]);
});

Deno.test("curated Mystic Forge data: Mystic Clover yields 0.31 per attempt, not a whole number", () => {
  assert.equal(recipe(WELL_KNOWN.mysticClover).outputCount, 0.31);
  assert.deepEqual(ingredientPairs(WELL_KNOWN.mysticClover), [
    [WELL_KNOWN.obsidianShard, 1],
    [WELL_KNOWN.mysticCoin, 1],
    [WELL_KNOWN.globOfEctoplasm, 1],
    [WELL_KNOWN.philosophersStone, 6],
  ]);
  const fractional = [...CURATED_RECIPES.values()].filter((r) => !Number.isInteger(r.outputCount));
  assert.deepEqual(fractional.map((r) => r.outputId), [WELL_KNOWN.mysticClover]);
});

Deno.test("curated vendor purchases end the gen-1 trees with their currency costs", () => {
  const expected: [number, number, [number, number][]][] = [
    [WELL_KNOWN.icyRunestone, 1, [[COIN_ID, 10_000]]],
    [WELL_KNOWN.obsidianShard, 1, [[KARMA, 2_100]]],
    [WELL_KNOWN.philosophersStone, 10, [[SPIRIT_SHARD, 1]]],
    [WELL_KNOWN.bloodstoneShard, 1, [[SPIRIT_SHARD, 200]]],
    [WELL_KNOWN.eldritchScroll, 1, [[SPIRIT_SHARD, 50]]],
    [WELL_KNOWN.mysticCrystal, 5, [[SPIRIT_SHARD, 3]]],
  ];
  for (const [id, outputCount, costs] of expected) {
    const purchase = recipe(id);
    assert.equal(purchase.source, "vendor");
    assert.equal(purchase.rule, 2);
    assert.equal(purchase.outputCount, outputCount);
    assert.ok(purchase.merchant);
    assert.deepEqual(purchase.ingredients.map(({ id, count }) => [id, count]), costs);
  }
  for (let gift = 19664; gift <= 19671; gift++) {
    assert.deepEqual(recipe(gift).ingredients, [
      { type: "Currency", id: 69, count: 500 },
    ], `dungeon gift ${gift}`);
  }
});

Deno.test("the contract's rule decides among several records: examples from the data", () => {
  // (2) a coin vendor ends an official tree: Thermocatalytic Reagent, 10 for 1,496 coin.
  assert.deepEqual(recipe(46747), {
    outputId: 46747,
    name: "Thermocatalytic Reagent",
    outputCount: 10,
    source: "vendor",
    rule: 2,
    merchant: "Master Armorsmiths",
    ingredients: [{ type: "Currency", id: COIN_ID, count: 1_496 }],
  });
  // (2) least coin first: of Obsidian Shard's 29 offers, the karma-only one (no coin at all).
  assert.deepEqual(recipe(WELL_KNOWN.obsidianShard).merchant, "Tactician Deathstrider");
  // (2) before (3): the fractal essences are bought, so their forge records' cycle is never walked.
  assert.equal(recipe(38014).rule, 2);
  assert.equal(recipe(38024).rule, 2);
  // (3) a forge record's repeated ingredient is merged: 1 dust + 3 × 24514 listed three times.
  assert.deepEqual(ingredientPairs(68063), [[24277, 1], [24514, 9]]);
  // (2) Brick of Clay's offer lists 0 coin beside 12 Geodes: the 0 is dropped.
  assert.deepEqual(recipe(66902).ingredients, [{ type: "Currency", id: 25, count: 12 }]);
  // (4) the Obsidian armor: only Lyhr's offers, which take the gifts and ectoplasm.
  const crown = recipe(101516);
  assert.deepEqual([crown.rule, crown.source, crown.merchant], [4, "vendor", "Lyhr"]);
  assert.deepEqual(crown.ingredients[0], {
    type: "Item",
    id: WELL_KNOWN.globOfEctoplasm,
    count: 10,
  });
  // (4) among item-taking offers the fewest ingredients: Funerary Incense for one 46683 (the
  // offer naming "item 34", read as 100 Trade Contracts, takes four).
  assert.deepEqual(ingredientPairs(86093), [[46683, 1]]);
});

Deno.test("every curated record obeys its rule, and the counts per rule are the documented ones", () => {
  const count = (rule: number) => [...CURATED_RECIPES.values()].filter((r) => r.rule === rule);
  for (const r of count(2)) {
    assert.equal(r.source, "vendor");
    assert.ok(
      r.ingredients.every((i) => i.type === "Currency"),
      `${r.outputId} paid in currencies`,
    );
  }
  for (const r of count(3)) assert.equal(r.source, "mystic_forge");
  for (const r of count(4)) {
    assert.equal(r.source, "vendor");
    assert.ok(r.ingredients.some((i) => i.type === "Item"), `${r.outputId} takes an item`);
  }
  assert.deepEqual([count(2).length, count(3).length, count(4).length], [78 + 46, 282, 100]);
  assert.equal(CURATED_RECIPES.size, 460 + 46);
  // The market's offers: rule 2, 46 items beyond the legendary trees' (41 more are in them).
  const market = [...CURATED_RECIPES.values()].filter((r) => r.market === true);
  assert.equal(market.length, 46);
  assert.ok(market.every((r) => r.rule === 2));
  assert.equal(forge().length + vendor().length, CURATED_RECIPES.size);
  for (const r of CURATED_RECIPES.values()) {
    assert.ok(r.ingredients.every((i) => !(i.type === "Item" && i.id === r.outputId)));
    assert.ok(r.ingredients.every((i) => i.count > 0), `${r.outputId}: positive counts`);
    const ids = r.ingredients.map((i) => `${i.type}:${i.id}`);
    assert.equal(new Set(ids).size, ids.length, `${r.outputId}: one ingredient per id`);
  }
});

Deno.test("CURRENCY_NAMES names every currency a curated record takes, coin first", () => {
  const taken = new Set(
    [...CURATED_RECIPES.values()].flatMap((r) =>
      r.ingredients.filter((i) => i.type === "Currency").map((i) => i.id)
    ),
  );
  assert.deepEqual(
    [...CURRENCY_NAMES.keys()].sort((a, b) => a - b),
    [...taken].sort((a, b) => a - b),
  );
  assert.equal(CURRENCY_NAMES.get(COIN_ID), "Coin");
  assert.equal(CURRENCY_NAMES.get(KARMA), "Karma");
  assert.equal(CURRENCY_NAMES.get(75), "Calcified Gasp", "a currency the 2023 snapshot predates");
  // Where the fake (the 2023 snapshot's /v2/currencies) knows a currency, the names agree.
  const { currencies } = getWorld();
  for (const [id, name] of CURRENCY_NAMES) {
    const served = currencies.get(id);
    if (served !== undefined) assert.equal(served.name, name, `currency ${id}`);
  }
});

Deno.test("parseCuratedData() refuses data that would break a tree", () => {
  const row = (id: number, input: unknown[][], extra: Record<string, unknown> = {}) => ({
    id,
    name: `item ${id}`,
    count: 1,
    source: "mystic_forge",
    rule: 3,
    in: input,
    ...extra,
  });
  const data = (recipes: unknown[], currencies = [{ id: 1, name: "Coin" }]) => ({
    recipes,
    currencies,
  });
  assert.equal(parseCuratedData(data([row(10, [["I", 11, 2]])])).recipes.size, 1);
  const refused: [string, unknown][] = [
    ["a second record", data([row(10, [["I", 11, 2]]), row(10, [["I", 12, 1]])])],
    ["no name", data([row(10, [["C", 23, 5]], { source: "vendor", rule: 2 })])],
    ["its own output", data([row(10, [["I", 10, 2]])])],
    ["does not choose", data([row(10, [["C", 1, 5]], { source: "vendor", rule: 3 })])],
    [
      "currencies alone",
      data([row(10, [["I", 11, 1], ["C", 1, 5]], { source: "vendor", rule: 2 })]),
    ],
    ["cycle", data([row(10, [["I", 11, 1]]), row(11, [["I", 12, 1]]), row(12, [["I", 10, 1]])])],
    ["expected", data([row(10, [["I", 11, 0]])])], // a zero count: a ZodError
  ];
  for (const [message, raw] of refused) {
    assert.throws(() => parseCuratedData(raw), new RegExp(message), message);
  }
});

Deno.test("curatedTreeItemIds() lists every curated output and item ingredient of the trees once, ascending", () => {
  const ids = curatedTreeItemIds();
  assert.deepEqual(ids, [...new Set(ids)].sort((a, b) => a - b));
  for (const recipe of CURATED_RECIPES.values()) {
    // The market's offers (Lump of Tin) are no tree's: the warm-up leaves them out.
    assert.equal(ids.includes(recipe.outputId), recipe.market !== true, String(recipe.outputId));
    if (recipe.market === true) continue;
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Item") assert.ok(ids.includes(ingredient.id), String(ingredient.id));
    }
  }
  // Account-bound leaves and the precursors are warmed too; currencies are not items.
  for (const id of [19677, 19678, WELL_KNOWN.dawn, WELL_KNOWN.mysticClover]) {
    assert.ok(ids.includes(id), String(id));
  }
});

Deno.test("the fake world knows every curated item; account-bound gifts have no price", () => {
  const world = getWorld();
  for (const id of curatedTreeItemIds()) assert.ok(world.items.has(id), `the fake knows ${id}`);
  for (const id of [19677, 19678, GIFT_OF_MASTERY, GIFT_OF_FORTUNE, WELL_KNOWN.mysticClover]) {
    assert.equal(world.prices.has(id), false, `${id} has no Trading Post price`);
    assert.equal(world.recipesByOutput.has(id), false, `the API has no recipe for ${id}`);
  }
});
