import assert from "node:assert/strict";
import {
  CHUNK_JSON_BYTES,
  packRecipes,
  RecipeStore,
  unpackRecipes,
} from "../../src/catalogue/recipe_store.ts";
import type { CatalogueRecipe } from "../../src/gw2/schemas.ts";
import { openMemoryKv } from "../support/kv.ts";

function recipe(id: number, ingredients = 4): CatalogueRecipe {
  return {
    id,
    output_item_id: 100_000 + id,
    output_item_count: 1 + (id % 5),
    disciplines: id % 2 === 0 ? ["Chef"] : ["Armorsmith", "Weaponsmith"],
    min_rating: id % 500,
    flags: id % 3 === 0 ? [] : ["LearnedFromItem"],
    ingredients: Array.from({ length: ingredients }, (_, index) => ({
      type: index === 3 ? "Currency" : "Item",
      id: 19_000 + index,
      count: 250,
    })),
  };
}

Deno.test("packRecipes() round-trips through unpackRecipes()", () => {
  const recipes = [recipe(1), recipe(2, 0), {
    ...recipe(3, 1),
    ingredients: [{ type: "GuildUpgrade", id: 279, count: 1 }],
  }];
  const chunks = packRecipes(recipes);
  assert.equal(chunks.length, 1);
  assert.deepEqual(chunks.flatMap(unpackRecipes), recipes);
});

Deno.test("packRecipes() splits a page so every chunk stays far below KV's 64 KiB", async () => {
  const page = Array.from({ length: 200 }, (_, index) => recipe(15_000_000 + index, 40));
  const chunks = packRecipes(page);
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) assert.ok(JSON.stringify(chunk).length <= CHUNK_JSON_BYTES);
  assert.deepEqual(chunks.flatMap(unpackRecipes), page);
  using kv = await openMemoryKv();
  const store = new RecipeStore({ kv, namespace: "http://gw2.test" });
  const result = await store.addPage(kv.atomic(), 7, 0, page).commit();
  assert.equal(result.ok, true, "the whole page commits in one atomic operation");
  assert.deepEqual(await store.load(7), page);
});

Deno.test("packRecipes() keeps disciplines, minimum rating and the two known flags; others are dropped", () => {
  const odd = {
    ...recipe(1, 1),
    disciplines: ["Scribe", "Homesteader", "Armorsmith"],
    min_rating: 425,
    flags: ["LearnedFromItem", "Shiny", "AutoLearned"],
  };
  assert.deepEqual(unpackRecipes(packRecipes([odd])[0]), [{
    ...odd,
    disciplines: ["Armorsmith", "Scribe"],
    flags: ["AutoLearned", "LearnedFromItem"],
  }]);
});

Deno.test("packRecipes() drops ingredients of a type it does not know", () => {
  const odd = { ...recipe(1, 2), ingredients: [{ type: "Mystery", id: 5, count: 1 }] };
  assert.deepEqual(unpackRecipes(packRecipes([odd])[0]), [{ ...odd, ingredients: [] }]);
});

Deno.test("unpackRecipes() reads a value that does not fit the layout as empty", () => {
  const values = [
    null,
    "x",
    [1, 2, 3],
    [1, 2, 3, 0, 0, 0, 2, 0, 5, 1],
    [1, 2, 3, 0, 0, 0, 1, 9, 5, 1],
    [1.5],
  ];
  for (const value of values) {
    assert.deepEqual(unpackRecipes(value), [], JSON.stringify(value));
  }
});

Deno.test("RecipeStore publishes a head, loads a generation, and prunes the others", async () => {
  using kv = await openMemoryKv();
  const store = new RecipeStore({ kv, namespace: "http://gw2.test" });
  const other = new RecipeStore({ kv, namespace: "http://other.test" });
  assert.equal(await store.head(), undefined);
  const op = kv.atomic();
  store.addPage(op, 1, 0, [recipe(1)]);
  store.addPage(op, 1, 1, [recipe(2)]);
  store.addPage(op, 2, 0, [recipe(3)]);
  store.addPage(op, 3, 0, [recipe(4)]);
  other.addPage(op, 9, 0, [recipe(5)]);
  store.publish(op, { generation: 1, completedAt: 5, count: 2 });
  await op.commit();
  assert.deepEqual(await store.head(), { generation: 1, completedAt: 5, count: 2 });
  assert.equal(await other.head(), undefined, "another upstream's catalogue is apart");
  assert.deepEqual((await store.load(1)).map((r) => r.id), [1, 2]);
  await store.prune([1, 3]);
  assert.deepEqual(await store.load(2), []);
  assert.deepEqual((await store.load(1)).map((r) => r.id), [1, 2]);
  assert.deepEqual((await store.load(3)).map((r) => r.id), [4]);
  assert.equal((await other.load(9)).length, 1, "another upstream's catalogue is untouched");
});
