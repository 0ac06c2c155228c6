import assert from "node:assert/strict";
import {
  HEAD_CHECK_MS,
  MAX_CATALOGUE_AGE_MS,
  RecipeCatalogue,
} from "../../src/catalogue/recipe_catalogue.ts";
import { withRecipeCatalogue } from "../../src/catalogue/recipe_lookup.ts";
import { startDeadline } from "../../src/async/deadline.ts";
import { RecipeStore } from "../../src/catalogue/recipe_store.ts";
import type { CatalogueRecipe } from "../../src/gw2/schemas.ts";
import { silentLogger } from "../../src/log.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv } from "../support/kv.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

const SWORD: CatalogueRecipe = {
  id: 20,
  output_item_id: 500,
  output_item_count: 1,
  ingredients: [
    { type: "Item", id: 19684, count: 2 },
    { type: "Item", id: 19684, count: 1 },
    { type: "Currency", id: 1, count: 50 },
  ],
};
const INGOT: CatalogueRecipe = {
  id: 7,
  output_item_id: 19684,
  output_item_count: 1,
  ingredients: [{ type: "Item", id: 19700, count: 2 }],
};
const SECOND_SWORD: CatalogueRecipe = { ...SWORD, id: 3 };

async function setup(recipes: CatalogueRecipe[], head?: { count?: number; completedAt?: number }) {
  const kv = await openMemoryKv();
  const clock = new ManualClock();
  const store = new RecipeStore({ kv, namespace: "http://gw2.test" });
  const op = kv.atomic();
  store.addPage(op, 1, 0, recipes);
  if (head !== undefined) {
    store.publish(op, {
      generation: 1,
      completedAt: head.completedAt ?? clock.now(),
      count: head.count ?? recipes.length,
    });
  }
  await op.commit();
  const catalogue = new RecipeCatalogue({ store, clock, log: silentLogger });
  return { kv, clock, store, catalogue, [Symbol.dispose]: () => kv.close() };
}

Deno.test("RecipeCatalogue answers searches by output and input, ascending, like upstream", async () => {
  using env = await setup([SWORD, INGOT, SECOND_SWORD], {});
  const { catalogue } = env;
  assert.deepEqual(await catalogue.search({ output: 500 }), [3, 20]);
  assert.deepEqual(await catalogue.search({ input: 19684 }), [3, 20], "each recipe once");
  assert.deepEqual(await catalogue.search({ input: 1 }), [], "currencies are not searchable");
  assert.deepEqual(await catalogue.search({ output: 424242 }), [], "complete: a miss is empty");
  assert.deepEqual(await catalogue.status(), {
    complete: true,
    recipes: 3,
    completedAt: env.clock.now(),
  });
});

Deno.test("RecipeCatalogue answers nothing without a published, whole, recent catalogue", async (t) => {
  await t.step("nothing published", async () => {
    using env = await setup([SWORD]);
    assert.equal(await env.catalogue.search({ output: 500 }), undefined);
  });
  await t.step("fewer recipes than the head counts", async () => {
    using env = await setup([SWORD], { count: 2 });
    assert.equal(await env.catalogue.search({ output: 500 }), undefined);
  });
  await t.step("older than the bound", async () => {
    using env = await setup([SWORD], {});
    assert.deepEqual(await env.catalogue.search({ output: 500 }), [20]);
    env.clock.advance(MAX_CATALOGUE_AGE_MS);
    assert.equal(await env.catalogue.search({ output: 500 }), undefined);
  });
});

Deno.test("RecipeCatalogue notices a newer generation at the next head check, or at once on refresh()", async () => {
  using env = await setup([SWORD], {});
  const { catalogue, clock, kv, store } = env;
  assert.deepEqual(await catalogue.search({ output: 19684 }), []);
  const op = kv.atomic();
  store.addPage(op, 2, 0, [SWORD, INGOT]);
  store.publish(op, { generation: 2, completedAt: clock.now(), count: 2, previous: 1 });
  await op.commit();
  assert.deepEqual(await catalogue.search({ output: 19684 }), [], "until the next check");
  clock.advance(HEAD_CHECK_MS);
  assert.deepEqual(await catalogue.search({ output: 19684 }), [7]);
  const op3 = kv.atomic();
  store.addPage(op3, 3, 0, [SWORD]);
  store.publish(op3, { generation: 3, completedAt: clock.now(), count: 1, previous: 2 });
  await op3.commit();
  catalogue.refresh();
  assert.deepEqual(await catalogue.search({ output: 19684 }), []);
});

Deno.test("withRecipeCatalogue() answers searches from the catalogue, else from the client", async () => {
  using env = await setup([SWORD], {});
  const stub = new StubGw2Client();
  const lookups = withRecipeCatalogue(stub, env.catalogue);
  assert.deepEqual(await lookups.searchRecipes({ output: 500 }), { value: [20] });
  assert.equal(stub.calls.length, 0, "no read of the client");
  await lookups.items([19721]);
  assert.deepEqual(stub.calls.map((call) => call.method), ["items"], "other reads pass through");
  const empty = withRecipeCatalogue(stub, { search: () => Promise.resolve(undefined) });
  await empty.searchRecipes({ input: 19721 });
  assert.deepEqual(stub.calls.at(-1), { method: "searchRecipes", args: [{ input: 19721 }] });
});

Deno.test("withRecipeCatalogue(): a call's view keeps the catalogue, and the deadline bounds it", async () => {
  using env = await setup([SWORD], {});
  const stub = new StubGw2Client();
  using deadline = startDeadline(env.clock, 14_000);
  const view = withRecipeCatalogue(stub, env.catalogue).withDeadline(deadline);
  assert.deepEqual(await view.searchRecipes({ output: 500 }), { value: [20] });
  assert.equal(stub.calls.length, 0, "answered by the catalogue");
  await view.items([19721]);
  assert.deepEqual(stub.deadlines, [deadline], "other reads go to the client's bounded view");
  // A catalogue whose KV stalls: at the deadline the search is the client's (stale or timeout).
  const stalled = withRecipeCatalogue(stub, { search: () => new Promise(() => {}) });
  const searching = stalled.withDeadline(deadline).searchRecipes({ input: 19721 });
  env.clock.advance(14_000);
  await searching;
  assert.deepEqual(stub.calls.at(-1), { method: "searchRecipes", args: [{ input: 19721 }] });
});
