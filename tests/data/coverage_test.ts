/**
 * The curated data against the fake world, which serves the 2023 snapshot's real items and
 * recipes (and stand-ins for the Obsidian armor the snapshot predates): every legendary has a
 * tree or a reason, every ingredient of every tree resolves, and the trees have no cycle — the
 * way `src/tree/resolve.ts` walks them (a curated record first, else the lowest official recipe
 * id).
 */
import assert from "node:assert/strict";
import { CURATED_RECIPES, CURRENCY_NAMES } from "../../src/data/curated_recipes.ts";
import {
  LEGENDARIES,
  LEGENDARIES_WITHOUT_TREE,
  type Legendary,
} from "../../src/data/legendaries.ts";
import { getWorld } from "../fake_gw2/mod.ts";

type Ingredient = { readonly type: string; readonly id: number; readonly count: number };

/** The ingredients a tree uses for `id`: the curated record, else the lowest official recipe. */
function ingredientsOf(id: number): readonly Ingredient[] | undefined {
  const curated = CURATED_RECIPES.get(id);
  if (curated !== undefined) return curated.ingredients;
  const world = getWorld();
  const recipeIds = world.recipesByOutput.get(id) ?? [];
  if (recipeIds.length === 0) return undefined;
  return world.recipes.get(Math.min(...recipeIds))?.ingredients;
}

/** Every item of every legendary's tree. */
function treeItems(): Set<number> {
  const seen = new Set(LEGENDARIES.map(({ id }) => id));
  for (const id of seen) {
    for (const ingredient of ingredientsOf(id) ?? []) {
      if (ingredient.type === "Item") seen.add(ingredient.id);
    }
  }
  return seen;
}

function category(legendary: Legendary): string {
  return legendary.type === "weapon"
    ? `gen-${legendary.generation ?? "none"} weapon`
    : legendary.type;
}

Deno.test("every legendary has a tree (a curated final recipe) or is listed with its reason", () => {
  const world = getWorld();
  for (const legendary of LEGENDARIES) {
    const reason = LEGENDARIES_WITHOUT_TREE.get(legendary.id);
    const tree = CURATED_RECIPES.has(legendary.id);
    assert.ok(tree !== (reason !== undefined), `${legendary.name}: a tree or a reason, not both`);
    if (reason === "after-data") {
      assert.equal(world.items.has(legendary.id), false, `${legendary.name} postdates the data`);
    }
    if (reason === "reward") {
      assert.ok(world.items.has(legendary.id), `${legendary.name} is in the data`);
      assert.equal(world.recipesByOutput.has(legendary.id), false);
    }
  }
  assert.deepEqual([...LEGENDARIES_WITHOUT_TREE], [
    [103815, "after-data"],
    [95380, "reward"],
    [104857, "after-data"],
  ]);
});

Deno.test("trees per category: every category of the contract is covered", () => {
  const counts = new Map<string, [number, number]>();
  for (const legendary of LEGENDARIES) {
    const [trees, all] = counts.get(category(legendary)) ?? [0, 0];
    counts.set(category(legendary), [trees + (CURATED_RECIPES.has(legendary.id) ? 1 : 0), all + 1]);
  }
  assert.deepEqual(Object.fromEntries(counts), {
    "gen-1 weapon": [21, 21],
    "gen-2 weapon": [16, 16],
    "gen-3 weapon": [16, 16],
    "gen-none weapon": [0, 1],
    armor: [108, 108],
    trinket: [5, 6],
    back: [3, 4],
    upgrade: [2, 2],
  });
});

Deno.test("every ingredient of every tree resolves: a known item, a curated recipe or a named currency", () => {
  const world = getWorld();
  const items = treeItems();
  for (const id of items) {
    if (LEGENDARIES_WITHOUT_TREE.get(id) === "after-data") continue;
    assert.ok(world.items.has(id) || CURATED_RECIPES.has(id), `item ${id} resolves`);
    for (const ingredient of ingredientsOf(id) ?? []) {
      if (ingredient.type === "Currency") {
        assert.ok(CURRENCY_NAMES.has(ingredient.id), `currency ${ingredient.id} has a name`);
      } else assert.equal(ingredient.type, "Item", `${id}: no guild upgrade in a legendary tree`);
    }
  }
  assert.equal(items.size, 1119, "the items of all trees (the data's walk counts the same)");
});

Deno.test("rule (1): no item the API makes carries a curated record", () => {
  const world = getWorld();
  for (const id of CURATED_RECIPES.keys()) {
    assert.equal(world.recipesByOutput.has(id), false, `the API has a recipe for ${id}`);
  }
});

Deno.test("the chosen records have no cycle, though the candidate records do", () => {
  const state = new Map<number, "open" | "done">();
  const visit = (id: number, path: number[]): void => {
    state.set(id, "open");
    for (const ingredient of ingredientsOf(id) ?? []) {
      if (ingredient.type !== "Item") continue;
      const seen = state.get(ingredient.id);
      assert.notEqual(seen, "open", `cycle: ${[...path, id, ingredient.id].join(" → ")}`);
      if (seen === undefined) visit(ingredient.id, [...path, id]);
    }
    state.set(id, "done");
  };
  for (const { id } of LEGENDARIES) if (!state.has(id)) visit(id, []);
  // The fractal essences' forge records make a cycle (38014 → 38023 → 38024 → 38023 …); the
  // rule buys 38014 and 38024 from a vendor (currencies only), so no tree reaches 38023.
  assert.equal(CURATED_RECIPES.get(38014)?.rule, 2);
  assert.equal(CURATED_RECIPES.get(38024)?.rule, 2);
  assert.equal(treeItems().has(38023), false);
  // The Super Adventure Box trades (Bauble, Bauble Bubble, Continue Coin) are in no tree either.
  for (const id of [39752, 41886, 41824]) assert.equal(treeItems().has(id), false, String(id));
});
