import assert from "node:assert/strict";
import {
  COIN_ID,
  CURATED_RECIPES,
  curatedTreeItemIds,
  MYSTIC_FORGE_RECIPES,
  VENDOR_PURCHASES,
} from "../../src/data/curated_recipes.ts";
import { findLegendaries } from "../../src/data/legendaries.ts";
import { getWorld, NAMED_GIFT_IDS, WELL_KNOWN } from "../fake_gw2/mod.ts";

const GIFT_OF_MASTERY = 19674;
const GIFT_OF_FORTUNE = 19626;

function ingredientPairs(id: number): [number, number][] {
  const recipe = CURATED_RECIPES.get(id);
  assert.ok(recipe, `a curated recipe makes ${id}`);
  return recipe.ingredients.map((ingredient) => [ingredient.id, ingredient.count]);
}

Deno.test("curated Mystic Forge data: the 21 gen-1 legendaries, 20 named gifts and the generic gifts", () => {
  const gen1 = findLegendaries({ generation: 1 });
  assert.equal(gen1.length, 21);
  for (const legendary of gen1) {
    const recipe = MYSTIC_FORGE_RECIPES.get(legendary.id);
    assert.ok(recipe, legendary.name);
    assert.equal(recipe.source, "mystic_forge");
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
  assert.equal(MYSTIC_FORGE_RECIPES.size, 21 + 20 + 5);
});

Deno.test("curated Mystic Forge data: Mystic Clover yields 0.31 per attempt, not a whole number", () => {
  const clover = MYSTIC_FORGE_RECIPES.get(WELL_KNOWN.mysticClover);
  assert.equal(clover?.outputCount, 0.31);
  assert.deepEqual(ingredientPairs(WELL_KNOWN.mysticClover), [
    [WELL_KNOWN.obsidianShard, 1],
    [WELL_KNOWN.mysticCoin, 1],
    [WELL_KNOWN.globOfEctoplasm, 1],
    [WELL_KNOWN.philosophersStone, 6],
  ]);
});

Deno.test("curated vendor purchases end the trees with their currency costs", () => {
  const expected: [number, number, [number, number][]][] = [
    [WELL_KNOWN.icyRunestone, 1, [[COIN_ID, 10_000]]],
    [WELL_KNOWN.obsidianShard, 1, [[2, 2_100]]],
    [WELL_KNOWN.philosophersStone, 10, [[23, 1]]],
    [WELL_KNOWN.bloodstoneShard, 1, [[23, 200]]],
    [WELL_KNOWN.eldritchScroll, 1, [[23, 50]]],
    [WELL_KNOWN.mysticCrystal, 5, [[23, 3]]],
  ];
  for (const [id, outputCount, costs] of expected) {
    const purchase = VENDOR_PURCHASES.get(id);
    assert.ok(purchase, `${id} is a vendor purchase`);
    assert.equal(purchase.source, "vendor");
    assert.equal(purchase.outputCount, outputCount);
    assert.ok(purchase.merchant);
    assert.deepEqual(purchase.ingredients.map(({ id, count }) => [id, count]), costs);
  }
  for (let gift = 19664; gift <= 19671; gift++) {
    assert.deepEqual(VENDOR_PURCHASES.get(gift)?.ingredients, [
      { type: "Currency", id: 69, count: 500 },
    ], `dungeon gift ${gift}`);
  }
  for (const purchase of VENDOR_PURCHASES.values()) {
    assert.ok(purchase.ingredients.every((ingredient) => ingredient.type === "Currency"));
    assert.ok(!MYSTIC_FORGE_RECIPES.has(purchase.outputId), "no item is both forged and bought");
  }
  assert.equal(CURATED_RECIPES.size, MYSTIC_FORGE_RECIPES.size + VENDOR_PURCHASES.size);
});

Deno.test("curatedTreeItemIds() lists every curated output and item ingredient once, ascending", () => {
  const ids = curatedTreeItemIds();
  assert.deepEqual(ids, [...new Set(ids)].sort((a, b) => a - b));
  for (const recipe of CURATED_RECIPES.values()) {
    assert.ok(ids.includes(recipe.outputId));
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
