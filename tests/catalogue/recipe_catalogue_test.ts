import assert from "node:assert/strict";
import {
  FILL_MAX_PAGES,
  HEAD_CHECK_MS,
  MAX_CATALOGUE_AGE_MS,
  RecipeCatalogue,
  type RecipePageReader,
} from "../../src/catalogue/recipe_catalogue.ts";
import {
  catalogueRecipeIndex,
  type RecipeLookup,
  type RecipePages,
} from "../../src/catalogue/recipe_lookup.ts";
import { startDeadline, withinDeadline } from "../../src/async/deadline.ts";
import { RecipeStore } from "../../src/catalogue/recipe_store.ts";
import { Gw2UpstreamError } from "../../src/gw2/errors.ts";
import type { CatalogueRecipe } from "../../src/gw2/schemas.ts";
import { silentLogger } from "../../src/log.ts";
import { createFakeGw2, getWorld } from "../fake_gw2/mod.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { ManualClock } from "../support/clock.ts";
import { collectGarbage } from "../support/heap.ts";
import { openMemoryKv } from "../support/kv.ts";

const SWORD: CatalogueRecipe = {
  id: 20,
  output_item_id: 500,
  output_item_count: 1,
  disciplines: ["Weaponsmith"],
  min_rating: 400,
  flags: ["AutoLearned"],
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
  disciplines: ["Weaponsmith"],
  min_rating: 400,
  flags: ["AutoLearned"],
  ingredients: [{ type: "Item", id: 19700, count: 2 }],
};
const SECOND_SWORD: CatalogueRecipe = { ...SWORD, id: 3 };

/** Paged reads that must not be made (the catalogue is published, or the lookup is a stub). */
const NO_PAGES: RecipePages = {
  recipesPage: () => Promise.reject(new Error("no recipe page expected")),
};

/** A lookup answering searches with `search` and nothing else. */
function searchOnly(search: RecipeLookup["search"]): RecipeLookup {
  return {
    search,
    recipesMaking: () => Promise.resolve(undefined),
    fill: () => Promise.resolve(false),
  };
}

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

/** A client over the fake GW2 API on `env`'s KV and clock, its recipe index over `lookup`. */
function clientWith(
  env: Awaited<ReturnType<typeof setup>>,
  lookup: RecipeLookup,
  pages: RecipePages,
) {
  const fake = createFakeGw2({ now: () => env.clock.now() });
  const gw2 = clientOverFake(env.kv, env.clock, fake, {
    recipeIndex: catalogueRecipeIndex(lookup, pages),
  });
  const searches = () =>
    fake.control.requests.filter((request) => request.path === "/v2/recipes/search").length;
  return { gw2, fake, searches };
}

Deno.test("catalogueRecipeIndex(): the client answers searches from the catalogue, else upstream", async () => {
  using env = await setup([SWORD], {});
  const { gw2, searches } = clientWith(env, env.catalogue, NO_PAGES);
  assert.deepEqual(await gw2.searchRecipes({ output: 500 }), { value: [20] });
  assert.equal(searches(), 0, "no request: the catalogue answered");
  const empty = clientWith(env, searchOnly(() => Promise.resolve(undefined)), NO_PAGES);
  await empty.gw2.searchRecipes({ input: 19721 });
  assert.equal(empty.searches(), 1, "no catalogue answer: the client searched upstream");
});

Deno.test("catalogueRecipeIndex(): a call's deadline bounds the catalogue; past it the search is upstream's", async () => {
  using env = await setup([SWORD], {});
  using deadline = startDeadline(env.clock, 14_000);
  const { gw2 } = clientWith(env, env.catalogue, NO_PAGES);
  assert.deepEqual(await withinDeadline(deadline, () => gw2.searchRecipes({ output: 500 })), {
    value: [20],
  });
  // A catalogue whose KV stalls: at the deadline the client takes the search back, and with no
  // cached answer and no time left it reports the timeout.
  const stalled = clientWith(env, searchOnly(() => new Promise(() => {})), NO_PAGES);
  const searching = withinDeadline(deadline, () => stalled.gw2.searchRecipes({ input: 19721 }));
  env.clock.advance(14_000);
  await assert.rejects(searching, (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    assert.equal(error.reason, "timeout");
    return true;
  });
});

/** A page reader over `pages`, counting its reads; `fail` makes that page's read reject. */
function pagesOf(pages: readonly CatalogueRecipe[][], fail?: number) {
  const reads: number[] = [];
  const read: RecipePageReader = (page) => {
    reads.push(page);
    if (page === fail) return Promise.reject(new Error(`page ${page} failed`));
    return Promise.resolve({ records: pages[page] ?? [], skipped: 0, pageTotal: pages.length });
  };
  return { read, reads };
}

Deno.test("RecipeCatalogue.fill() reads every page, publishes a generation and answers from it", async () => {
  using env = await setup([]);
  const { catalogue, clock, store } = env;
  assert.equal(await catalogue.recipesMaking([500]), undefined, "nothing yet");
  const pages = pagesOf([[SWORD], [INGOT], [SECOND_SWORD]]);
  assert.equal(await catalogue.fill(pages.read), true);
  assert.deepEqual(pages.reads.sort(), [0, 1, 2], "each page once");
  const making = await catalogue.recipesMaking([500, 19684, 19700]);
  assert.deepEqual(making, new Map([[500, [SECOND_SWORD, SWORD]], [19684, [INGOT]], [19700, []]]));
  assert.deepEqual(await catalogue.search({ input: 19684 }), [3, 20]);
  const head = await store.head();
  assert.deepEqual(head, { generation: clock.now(), completedAt: clock.now(), count: 3 });
  // Another instance on the same KV loads it, reading no page.
  const other = new RecipeCatalogue({ store, clock, log: silentLogger });
  const none = pagesOf([]);
  assert.equal(await other.fill(none.read), true);
  assert.deepEqual(none.reads, []);
  assert.deepEqual(await other.search({ output: 19684 }), [7]);
});

Deno.test("RecipeCatalogue.fill(): callers and lookups meanwhile join the one fill in flight", async () => {
  using env = await setup([]);
  const { catalogue } = env;
  const held = Promise.withResolvers<void>();
  const reads: number[] = [];
  const slow: RecipePageReader = async (page) => {
    reads.push(page);
    await held.promise;
    return { records: page === 0 ? [SWORD] : [INGOT], skipped: 0, pageTotal: 2 };
  };
  const first = catalogue.fill(slow);
  const second = catalogue.fill(slow);
  const search = catalogue.search({ output: 500 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  held.resolve();
  assert.deepEqual(await Promise.all([first, second]), [true, true]);
  assert.deepEqual(await search, [20], "the search made during the fill waited for it");
  assert.deepEqual(reads, [0, 1], "one fill's reads");
});

Deno.test("RecipeCatalogue.fill(): a later caller's reader helps the fill in flight, reading the pages nobody reads yet", async () => {
  using env = await setup([]);
  const { catalogue } = env;
  const held = Promise.withResolvers<void>();
  const slowReads: number[] = [];
  const answer = (page: number) => ({
    records: [{ ...SWORD, id: 100 + page }],
    skipped: 0,
    pageTotal: 12,
  });
  // The background client, stuck waiting for its share after the first page.
  const slow: RecipePageReader = async (page) => {
    slowReads.push(page);
    if (page > 0) await held.promise;
    return answer(page);
  };
  const fastReads: number[] = [];
  const fast: RecipePageReader = (page) => {
    fastReads.push(page);
    return Promise.resolve(answer(page));
  };
  const background = catalogue.fill(slow);
  for (let turn = 0; turn < 50 && slowReads.length < 9; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const call = catalogue.fill(fast);
  for (let turn = 0; turn < 50 && fastReads.length < 3; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.deepEqual(fastReads.sort((a, b) => a - b), [9, 10, 11], "the pages left free");
  held.resolve();
  assert.deepEqual(await Promise.all([background, call]), [true, true]);
  assert.equal((await env.store.head())?.count, 12, "each page once");
});

Deno.test("RecipeCatalogue.fill(): a failed page leaves no catalogue; the next fill reads again", async () => {
  using env = await setup([]);
  const { catalogue, store } = env;
  const failing = pagesOf([[SWORD], [INGOT]], 1);
  assert.equal(await catalogue.fill(failing.read), false);
  assert.equal(await catalogue.search({ output: 500 }), undefined, "lookups go upstream");
  assert.equal(await store.head(), undefined, "nothing published");
  const working = pagesOf([[SWORD], [INGOT]]);
  assert.equal(await catalogue.fill(working.read), true);
  assert.deepEqual(await catalogue.search({ output: 500 }), [20]);
});

Deno.test("RecipeCatalogue.fill() reads a page again after a 5xx or a lost connection, up to 3 attempts", async () => {
  using env = await setup([]);
  const { catalogue } = env;
  const failures = new Map<number, Error[]>([
    [0, [new Gw2UpstreamError("network")]],
    [1, [new Gw2UpstreamError("server_error", 502), new Gw2UpstreamError("server_error", 503)]],
  ]);
  const reads: number[] = [];
  const flaky: RecipePageReader = (page) => {
    reads.push(page);
    const error = failures.get(page)?.shift();
    if (error !== undefined) return Promise.reject(error);
    return Promise.resolve({ records: page === 0 ? [SWORD] : [INGOT], skipped: 0, pageTotal: 2 });
  };
  assert.equal(await catalogue.fill(flaky), true);
  assert.deepEqual(reads, [0, 0, 1, 1, 1], "page 0 twice, page 1 three times");
  assert.deepEqual(await catalogue.search({ output: 500 }), [20]);
  // A third failure of one page, or a failure that is no passing one, fails the fill.
  using again = await setup([]);
  const always = pagesOf([[SWORD], [INGOT]]);
  const down: RecipePageReader = (page, size) =>
    page === 1
      ? Promise.reject(new Gw2UpstreamError("server_error", 500))
      : always.read(page, size);
  assert.equal(await again.catalogue.fill(down), false);
  const timedOut = pagesOf([[SWORD], [INGOT]]);
  let timeouts = 0;
  const slow: RecipePageReader = (page, size) => {
    if (page !== 1) return timedOut.read(page, size);
    timeouts++;
    return Promise.reject(new Gw2UpstreamError("timeout"));
  };
  assert.equal(await again.catalogue.fill(slow), false);
  assert.equal(timeouts, 1, "a timeout is not read again");
});

Deno.test("RecipeCatalogue.fill(): a page past a collection that shrank (400) is its end; a 400 on the first page fails the fill", async () => {
  using env = await setup([]);
  const { catalogue, store } = env;
  // Three pages counted, then the collection lost its last page before it was read.
  const outOfRange = () => Promise.reject(new Gw2UpstreamError("unexpected_status", 400));
  const shrunk: RecipePageReader = (page) =>
    page === 2
      ? outOfRange()
      : Promise.resolve({ records: [[SWORD], [INGOT]][page] ?? [], skipped: 0, pageTotal: 3 });
  assert.equal(await catalogue.fill(shrunk), true);
  assert.equal((await store.head())?.count, 2);
  assert.deepEqual(await catalogue.search({ output: 19684 }), [7]);
  using fresh = await setup([]);
  assert.equal(await fresh.catalogue.fill(outOfRange), false, "no first page: no catalogue");
  assert.equal(
    await fresh.catalogue.fill((page) =>
      page === 1
        ? Promise.reject(new Gw2UpstreamError("server_error", 502))
        : Promise.resolve({ records: [SWORD], skipped: 0, pageTotal: 2 })
    ),
    false,
    "any other failure of a later page fails the fill",
  );
});

Deno.test("RecipeCatalogue.fill() reads no more than FILL_MAX_PAGES pages: a larger page count declines after the first", async () => {
  using env = await setup([]);
  const { catalogue, store } = env;
  const huge = pagesOf(Array.from({ length: FILL_MAX_PAGES + 1 }, () => [SWORD]));
  assert.equal(await catalogue.fill(huge.read), false);
  assert.deepEqual(huge.reads, [0], "only the page that told the count");
  assert.equal(await store.head(), undefined, "nothing published");
  const largest = pagesOf(Array.from({ length: FILL_MAX_PAGES }, () => [SWORD]));
  assert.equal(await catalogue.fill(largest.read), true);
  assert.equal(largest.reads.length, FILL_MAX_PAGES);
});

Deno.test("catalogueRecipeIndex(): officialRecipes fills the catalogue through the client's pages, under the call's deadline", async () => {
  using env = await setup([]);
  const asked: (number | undefined)[] = [];
  using deadline = startDeadline(env.clock, 14_000);
  const pages: RecipePages = {
    recipesPage: (_page, _size, bound) => {
      asked.push(bound?.remainingMs());
      return Promise.resolve({ records: [SWORD, INGOT], skipped: 0, pageTotal: 1 });
    },
  };
  const { gw2, fake } = clientWith(env, env.catalogue, pages);
  const recipes = await withinDeadline(deadline, () => gw2.officialRecipes?.([500, 19684, 424242]));
  assert.deepEqual(recipes, new Map([[500, [SWORD]], [19684, [INGOT]], [424242, []]]));
  assert.deepEqual(asked, [14_000], "one page, read under the call's deadline");
  assert.equal(fake.control.requests.length, 0, "no search, no recipe read");
});

Deno.test("a loaded catalogue the real API's size (13,200 recipes) holds under 3 MB of heap", async () => {
  // Every instance holds it, and V8 grows its heap to several times what is live
  // (docs/performance.md, "Memory"): as recipe objects it measured ~7.8 MB, packed ~2 MB.
  const world = [...getWorld().recipes.values()];
  const recipes = Array.from({ length: 13_200 }, (_, index): CatalogueRecipe => {
    const recipe = world[index % world.length];
    assert.ok(recipe);
    return {
      id: index + 1,
      output_item_id: recipe.output_item_id,
      output_item_count: recipe.output_item_count,
      disciplines: [...recipe.disciplines],
      min_rating: recipe.min_rating,
      flags: [...recipe.flags],
      ingredients: recipe.ingredients.map((ingredient) => ({ ...ingredient })),
    };
  });
  using env = await setup([]);
  const pages = Array.from(
    { length: 66 },
    (_, page) => recipes.slice(page * 200, page * 200 + 200),
  );
  await env.store.writeGeneration(2, pages, env.clock.now());
  if (!collectGarbage()) return; // no forced collection on this runtime (Deno 2.5)
  const before = Deno.memoryUsage().heapUsed;
  await env.catalogue.warm();
  collectGarbage();
  const bytes = Deno.memoryUsage().heapUsed - before;
  assert.equal((await env.catalogue.status()).recipes, 13_200);
  assert.ok(bytes < 3 * 2 ** 20, `${(bytes / 2 ** 20).toFixed(1)} MB`);
  const first = recipes[0];
  assert.ok(first);
  const making = await env.catalogue.recipesMaking([first.output_item_id]);
  assert.ok(making?.get(first.output_item_id)?.some((recipe) => recipe.id === first.id));
});
