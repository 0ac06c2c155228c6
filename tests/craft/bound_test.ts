/**
 * The bound-ordered search (`src/craft/pass.ts`, `rows.ts`) against brute force: on many seeded
 * random catalogues — cycles, self-loops, recipes making several, coin, currencies with and
 * without the library's estimate, guild upgrades, unpriced and unbuyable items, vendor and Mystic
 * Forge records, filters — every recipe is priced exactly, and `top()` must return exactly the
 * best rows of that list: the pass's bound never hides a row that belongs.
 */

import assert from "node:assert/strict";
import type { CuratedRecipe } from "../../src/data/curated_recipes.ts";
import { buildCraftGraph, SOURCE } from "../../src/craft/graph.ts";
import { runPass } from "../../src/craft/pass.ts";
import { CraftRows, priceCraft } from "../../src/craft/rows.ts";
import type { CatalogueRecipe } from "../../src/gw2/schemas.ts";
import { catalogueOf, recipe, sheetOf } from "./_catalogue.ts";

/** A small deterministic generator (mulberry32). */
function generator(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
}

const ITEMS = 14;
const DISCIPLINES = ["Weaponsmith", "Chef", "Tailor"];

type Ingredient = Parameters<typeof recipe>[2][number];

function randomCase(seed: number) {
  const next = generator(seed);
  const item = () => 1 + next(ITEMS);
  const recipes: CatalogueRecipe[] = [];
  const count = 4 + next(12);
  for (let id = 1; id <= count; id++) {
    const ingredients: Ingredient[] = [];
    const n = 1 + next(3);
    for (let k = 0; k < n; k++) {
      const kind = next(20);
      if (kind === 0) ingredients.push(["coin", 1 + next(300)]);
      else if (kind === 1) ingredients.push(["cur", 18, 1 + next(3)]); // no estimate
      else if (kind === 2) ingredients.push(["cur", 2, 1 + next(500)]); // karma: estimated
      else if (kind === 3) ingredients.push(["guild", 7, 1]);
      else ingredients.push([item(), 1 + next(4)]);
    }
    recipes.push(recipe(id * 3, item(), ingredients, {
      count: next(3) === 0 ? 1 + next(5) : 1,
      disciplines: next(12) === 0 ? [] : [DISCIPLINES[next(3)] ?? "Chef"],
    }));
  }
  const curated = new Map<number, CuratedRecipe>();
  for (let k = next(3); k > 0; k--) {
    const output = item();
    const vendor = next(2) === 0;
    curated.set(output, {
      outputId: output,
      name: `Curated ${output}`,
      outputCount: 1 + next(3),
      source: vendor ? "vendor" : "mystic_forge",
      rule: vendor ? 2 : 3,
      ingredients: vendor
        ? [{ type: "Currency", id: 1, count: 1 + next(200) }]
        : [{ type: "Item", id: item(), count: 1 + next(3) }],
      ...(vendor ? { merchant: "Merchant" } : {}),
    });
  }
  const rows: [number, number, number][] = [];
  for (let id = 1; id <= ITEMS; id++) {
    if (next(6) === 0) continue; // not on the Trading Post
    const sell = next(5) === 0 ? 0 : 1 + next(400);
    const buy = next(4) === 0 ? 0 : 1 + next(500);
    rows.push([id, buy, sell]);
  }
  return { recipes, curated, sheet: sheetOf(rows), wanted: next(4) };
}

Deno.test("the bound never hides a row: top() equals brute force over every recipe, on 400 random catalogues", () => {
  let listed = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const { recipes, curated, sheet, wanted } = randomCase(seed);
    const graph = buildCraftGraph(catalogueOf(recipes), curated);
    const pass = runPass(graph, sheet);
    const accepts = wanted === 0 ? undefined : (r: number) => (graph.disciplines[r] ?? 0) !== 2;
    // Brute force: every official recipe a tree uses, priced exactly.
    const all = [];
    for (let r = 0; r < graph.outputNode.length; r++) {
      if (graph.source[r] !== SOURCE.official || graph.disciplines[r] === 0) continue;
      if ((pass.buy[graph.outputNode[r] ?? 0] ?? 0) === 0) continue;
      if (accepts !== undefined && !accepts(r)) continue;
      const craft = priceCraft(graph, pass, r);
      if (craft.partial || craft.profit <= 0 || craft.daily) continue;
      all.push(craft);
    }
    all.sort((a, b) =>
      b.profit - a.profit || (graph.recipeId[a.recipe] ?? 0) - (graph.recipeId[b.recipe] ?? 0)
    );
    for (const limit of [1, 3, 50]) {
      const rows = new CraftRows(graph, pass);
      const top = rows.top({ includeTimeGated: false, ...(accepts ? { accepts } : {}) }, limit);
      assert.deepEqual(
        top.map((craft) => [graph.recipeId[craft.recipe], craft.profit]),
        all.slice(0, limit).map((craft) => [graph.recipeId[craft.recipe], craft.profit]),
        `seed ${seed}, limit ${limit}`,
      );
    }
    // And the bound is an upper bound of each exact profit.
    for (const candidate of pass.candidates) {
      const craft = priceCraft(graph, pass, candidate.recipe);
      if (!craft.partial) assert.ok(craft.profit <= candidate.upper, `seed ${seed}`);
    }
    listed += all.length;
  }
  assert.ok(listed > 200, `${listed} rows in all: the cases exercise the search`);
});
