import assert from "node:assert/strict";
import { Gw2UpstreamError } from "../../src/gw2/errors.ts";
import type { Currency, Item, Recipe } from "../../src/gw2/schemas.ts";
import type { BulkRead, Fresh, RecipeSearchQuery } from "../../src/gw2/types.ts";
import { readTreePrices } from "../../src/tree/prices.ts";
import { catalogueRecipeIndex } from "../../src/catalogue/recipe_lookup.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { resolveRecipes } from "../../src/tree/resolve.ts";
import { WELL_KNOWN } from "../fake_gw2/mod.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { startBackgroundApp, to } from "../support/background.ts";
import { LEGENDARIES } from "../../src/data/legendaries.ts";
import { ECTO, RECIPE, StubGw2Client } from "../tools/_stub_gw2.ts";

/**
 * A client over `app`'s fake and KV without the recipe catalogue: its recipe lookups are
 * searches (the app's own client looks them up in the catalogue, as main.ts wires it).
 */
function searchingClient(app: TestApp, options: { readonly maxRetries?: number } = {}) {
  return clientOverFake(app.kv, app.clock, app.fake, {
    baseUrl: app.config.gw2ApiBase,
    ...options,
  });
}

function searchedOutputs(requests: readonly { path: string; query: string }[]): number[] {
  return requests.filter((request) => request.path === "/v2/recipes/search")
    .map((request) => Number(new URLSearchParams(request.query).get("output")));
}

Deno.test("resolveRecipes() over the fake: curated recipes where the API has none, official ones searched", async () => {
  await using app = await startTestApp();
  const world = app.fake.world;
  const resolved = await resolveRecipes(searchingClient(app), [WELL_KNOWN.sunrise]);
  assert.equal(resolved.itemIds[0], WELL_KNOWN.sunrise);
  assert.deepEqual(resolved.missingItemIds, []);
  assert.equal(resolved.names.get(WELL_KNOWN.sunrise), "Sunrise");
  for (
    const [id, source] of [
      [WELL_KNOWN.sunrise, "mystic_forge"],
      [WELL_KNOWN.giftOfSunrise, "mystic_forge"],
      [WELL_KNOWN.mysticClover, "mystic_forge"],
      [WELL_KNOWN.obsidianShard, "vendor"],
      [WELL_KNOWN.icyRunestone, "vendor"],
      [WELL_KNOWN.dawn, "official"],
      [WELL_KNOWN.giftOfMetal, "official"],
    ] as const
  ) {
    assert.equal(resolved.recipes.get(id)?.source, source, String(id));
  }
  assert.equal(
    resolved.recipes.get(WELL_KNOWN.dawn)?.recipeId,
    world.recipesByOutput.get(29169)?.[0],
  );
  assert.equal(resolved.recipes.has(19677), false, "Gift of Exploration is a leaf");
  assert.equal(resolved.currencyNames.get(23), "Spirit Shard");
  const searched = searchedOutputs(app.fake.control.requests);
  for (const curated of [WELL_KNOWN.sunrise, WELL_KNOWN.mysticClover, WELL_KNOWN.obsidianShard]) {
    assert.ok(!searched.includes(curated), `no search for curated ${curated}`);
  }
  assert.ok(searched.includes(WELL_KNOWN.dawn));
  assert.equal(new Set(searched).size, searched.length, "each item searched once");
  assert.equal(new Set(resolved.itemIds).size, resolved.itemIds.length);
});

Deno.test("resolveRecipes() takes the lowest recipe id when the API lists several", async () => {
  await using app = await startTestApp();
  const hilt = 94270;
  const listed = app.fake.world.recipesByOutput.get(hilt) ?? [];
  assert.ok(listed.length > 1, "the fake lists several recipes for the hilt");
  const resolved = await resolveRecipes(app.gw2, [hilt]);
  assert.equal(resolved.recipes.get(hilt)?.recipeId, Math.min(...listed));
});

Deno.test("resolveRecipes() resolves several roots together and reports the unknown ones", async () => {
  await using app = await startTestApp();
  const resolved = await resolveRecipes(app.gw2, [
    WELL_KNOWN.sunrise,
    WELL_KNOWN.twilight,
    WELL_KNOWN.absentItem,
    WELL_KNOWN.sunrise,
  ]);
  assert.deepEqual(resolved.missingItemIds, [WELL_KNOWN.absentItem]);
  assert.deepEqual(resolved.itemIds.slice(0, 3), [30703, 30704, WELL_KNOWN.absentItem]);
  const searched = searchedOutputs(app.fake.control.requests);
  assert.equal(new Set(searched).size, searched.length, "shared items are searched once");
  const { prices } = await readTreePrices(app.gw2, resolved.itemIds);
  const priceRequests = app.fake.control.requests.filter((request) =>
    request.path === "/v2/commerce/prices"
  );
  assert.equal(priceRequests.length, Math.ceil(resolved.itemIds.length / 200));
  assert.equal(prices.get(WELL_KNOWN.globOfEctoplasm)?.sell, 2797);
  assert.equal(prices.has(WELL_KNOWN.giftOfMastery), false, "account bound: no price");
});

Deno.test("resolveRecipes() reports each level walked and the items reached so far", async () => {
  await using app = await startTestApp();
  const levels: [number, number][] = [];
  const resolved = await resolveRecipes(app.gw2, [WELL_KNOWN.sunrise, WELL_KNOWN.twilight], {
    onLevel: (level, items) => levels.push([level, items]),
  });
  assert.ok(levels.length >= 5, `${levels.length} levels`);
  assert.deepEqual(levels.map(([level]) => level), levels.map((_, index) => index + 1));
  for (let index = 1; index < levels.length; index++) {
    assert.ok((levels[index]?.[1] ?? 0) >= (levels[index - 1]?.[1] ?? 0), "items only grow");
  }
  assert.equal(levels.at(-1)?.[1], resolved.itemIds.length);
});

/** A stub whose recipes make a cycle: item 19721 is made from item 2, which is made from 19721. */
class CyclicClient extends StubGw2Client {
  readonly #recipes: Recipe[] = [
    { ...RECIPE, id: 1, output_item_id: ECTO.id, ingredients: [{ type: "Item", id: 2, count: 1 }] },
    { ...RECIPE, id: 2, output_item_id: 2, ingredients: [{ type: "Item", id: ECTO.id, count: 3 }] },
  ];

  override items(ids: readonly number[]): Promise<BulkRead<Item>> {
    const found = ids.map((id) => ({ ...ECTO, id, name: `Item ${id}` }));
    return Promise.resolve({ found, missingIds: [] });
  }

  override recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    return Promise.resolve({
      found: this.#recipes.filter((recipe) => ids.includes(recipe.id)),
      missingIds: [],
    });
  }

  override searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>> {
    const output = "output" in query ? query.output : 0;
    const value = this.#recipes.filter((recipe) => recipe.output_item_id === output)
      .map((recipe) => recipe.id);
    return Promise.resolve({ value });
  }
}

Deno.test("resolveRecipes() terminates on cyclic recipes, keeping each recipe once", async () => {
  const resolved = await resolveRecipes(new CyclicClient(), [ECTO.id]);
  assert.deepEqual([...resolved.recipes.keys()], [ECTO.id, 2]);
  assert.deepEqual(resolved.itemIds, [ECTO.id, 2]);
});

Deno.test("resolveRecipes() tells onWalked every item id before it waits for their names", async () => {
  const names = Promise.withResolvers<void>();
  class SlowNames extends CyclicClient {
    override async items(ids: readonly number[]): Promise<BulkRead<Item>> {
      await names.promise;
      return await super.items(ids);
    }
  }
  let walked: readonly number[] | undefined;
  const resolving = resolveRecipes(new SlowNames(), [ECTO.id], {
    onWalked: (ids) => walked = ids,
  });
  // The walk needs no name: it is over while every item read still waits.
  for (let turn = 0; walked === undefined && turn < 100; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.deepEqual(walked, [ECTO.id, 2]);
  names.resolve();
  assert.deepEqual((await resolving).itemIds, walked);
});

/** A stub with one recipe taking a currency the curated data does not name (gems). */
class GemRecipeClient extends CyclicClient {
  currencyReads = 0;

  override recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    const gems: Recipe = { ...RECIPE, id: 1, ingredients: [{ type: "Currency", id: 4, count: 3 }] };
    return Promise.resolve({ found: ids.includes(1) ? [gems] : [], missingIds: [] });
  }

  override currencies(): Promise<Fresh<readonly Currency[]>> {
    this.currencyReads++;
    return Promise.resolve({ value: [{ id: 4, name: "Gem", order: 3 }] });
  }
}

Deno.test("resolveRecipes() names the currencies recipes take, reading /v2/currencies only for unknown ones", async () => {
  const client = new GemRecipeClient();
  const resolved = await resolveRecipes(client, [ECTO.id]);
  assert.equal(resolved.currencyNames.get(4), "Gem");
  assert.equal(resolved.currencyNames.get(23), "Spirit Shard");
  assert.equal(client.currencyReads, 1);
  const curatedOnly = new GemRecipeClient();
  await resolveRecipes(curatedOnly, [WELL_KNOWN.bloodstoneShard]);
  assert.equal(curatedOnly.currencyReads, 0, "spirit shards are named by the curated data");
});

Deno.test("resolveRecipes() fails with the upstream error once every read has settled", async () => {
  await using app = await startTestApp({ maxRetries: 0 });
  // The item read is still in flight when the search fails; it must not be left behind.
  app.fake.control.setLatency(50, "/v2/items");
  app.fake.control.injectFault("server_error", { endpoint: "/v2/recipes/search" });
  await assert.rejects(
    resolveRecipes(searchingClient(app, { maxRetries: 0 }), [WELL_KNOWN.orichalcumIngot]),
    (error: unknown) => error instanceof Gw2UpstreamError && error.reason === "server_error",
  );
});

Deno.test("resolveRecipes() through the recipe catalogue equals resolution by search, with no search and no recipe read", async () => {
  const roots = [...LEGENDARIES.map(({ id }) => id)];
  await using searching = await startBackgroundApp({ catalogue: false });
  const bySearch = await resolveRecipes(searching.gw2, roots);
  assert.ok(to(searching.sent.interactive, "/v2/recipes/search").length > 100);
  await using catalogued = await startBackgroundApp();
  const byCatalogue = await resolveRecipes(catalogued.gw2, roots);
  assert.deepEqual(byCatalogue.recipes, bySearch.recipes);
  assert.deepEqual(byCatalogue.itemIds, bySearch.itemIds);
  assert.deepEqual(byCatalogue.names, bySearch.names);
  const sent = catalogued.sent.interactive;
  assert.deepEqual(to(sent, "/v2/recipes/search"), []);
  assert.equal(
    to(sent, "/v2/recipes").length,
    Math.ceil(catalogued.fake.world.recipes.size / 200),
    "the catalogue's pages, filled once; no recipe read by id",
  );
  assert.ok(to(sent, "/v2/recipes").every((request) => request.query.has("page")));
});

Deno.test("resolveRecipes() takes an official recipe over the curated record when the catalogue lists one", async () => {
  await using app = await startTestApp();
  const runestone = WELL_KNOWN.icyRunestone;
  const curated = await resolveRecipes(app.gw2, [runestone]);
  assert.equal(curated.recipes.get(runestone)?.source, "vendor", "curated: sold for coin");
  // Upstream adds an official recipe for it (the contract's rule 1 wins): 3 globs make 2.
  const added = {
    id: 990_001,
    output_item_id: runestone,
    output_item_count: 2,
    disciplines: ["Artificer"],
    min_rating: 0,
    flags: ["AutoLearned"],
    ingredients: [{ type: "Item", id: WELL_KNOWN.globOfEctoplasm, count: 3 }],
  };
  const catalogue = {
    fill: () => Promise.resolve(true),
    search: () => Promise.resolve(undefined),
    recipesMaking: (ids: readonly number[]) =>
      Promise.resolve(new Map(ids.flatMap((id) => id === runestone ? [[id, [added]]] : []))),
  };
  const withAdded = clientOverFake(app.kv, app.clock, app.fake, {
    baseUrl: app.config.gw2ApiBase,
    recipeIndex: catalogueRecipeIndex(catalogue, app.gw2),
  });
  const resolved = await resolveRecipes(withAdded, [runestone]);
  const recipe = resolved.recipes.get(runestone);
  assert.deepEqual([recipe?.source, recipe?.recipeId, recipe?.outputCount], [
    "official",
    990_001,
    2,
  ]);
  assert.deepEqual(resolved.itemIds, [runestone, WELL_KNOWN.globOfEctoplasm]);
});
