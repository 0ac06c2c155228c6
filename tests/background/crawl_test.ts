import assert from "node:assert/strict";
import {
  CRAWL_REFRESH_MS,
  crawlCatalogue,
  type CrawlDeps,
  crawlIntervalMs,
  type CrawlReport,
} from "../../src/background/crawl.ts";
import { acquireLease } from "../../src/background/lease.ts";
import { LANGUAGES } from "../../src/gw2/types.ts";
import { CATALOGUE_COMPLETE_FOR_MS } from "../../src/search/name_index.ts";
import { resolveRecipes } from "../../src/tree/resolve.ts";
import { FILLER_FIRST_ID, getWorld, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient } from "../support/app.ts";
import { type BackgroundApp, startBackgroundApp, to } from "../support/background.ts";

// 9,563 items (8,744 before the achievements' stand-ins: 44 pages), in each language.
const ITEM_PAGES = Math.ceil(getWorld().items.size / 200);
const NAME_PAGES = ITEM_PAGES * LANGUAGES.length; // the items' pages in every language
const RECIPE_PAGES = 7; // 1,274 recipes
const TICK_MS = 60_000;

function crawlDeps(app: BackgroundApp, extra: Partial<CrawlDeps> = {}): CrawlDeps {
  return {
    kv: app.kv,
    namespace: "http://gw2.test",
    owner: "instance-a",
    clock: app.clock,
    log: app.log,
    enabled: true,
    pages: app.backgroundGw2,
    names: app.names,
    recipes: app.recipeStore,
    ratePerSec: 5,
    onRecipesPublished: () => app.recipes.refresh(),
    ...extra,
  };
}

/** Runs a slice per cron tick (a minute apart) until the crawl is done. */
async function crawlToEnd(app: BackgroundApp, deps = crawlDeps(app)): Promise<CrawlReport[]> {
  const reports: CrawlReport[] = [];
  for (let tick = 0; tick < 40; tick++) {
    const report = await crawlCatalogue(deps);
    reports.push(report);
    if (report.phase === "done") return reports;
    app.clock.advance(TICK_MS - (app.clock.now() % TICK_MS));
  }
  throw new Error("the crawl did not finish in 40 ticks");
}

Deno.test("crawlIntervalMs(): a tenth of the refill rate", () => {
  assert.equal(crawlIntervalMs(5), 2000);
  assert.equal(crawlIntervalMs(20), 500);
});

Deno.test("the crawl reads the fake's whole catalogue in every language, within a tenth of the budget", async () => {
  await using app = await startBackgroundApp();
  const started = app.clock.now();
  const reports = await crawlToEnd(app);
  const sent = app.sent.background;
  assert.equal(to(sent, "/v2/recipes").length, RECIPE_PAGES);
  const items = to(sent, "/v2/items");
  assert.equal(items.length, NAME_PAGES);
  // Each language's pages in turn, English first, lang always sent.
  assert.deepEqual(
    [...new Set(items.map((request) => request.query.get("lang")))],
    [...LANGUAGES],
  );
  for (const [index, lang] of LANGUAGES.entries()) {
    const pages = items.slice(index * ITEM_PAGES, (index + 1) * ITEM_PAGES);
    assert.deepEqual(
      pages.map((request) => [request.query.get("lang"), Number(request.query.get("page"))]),
      Array.from({ length: ITEM_PAGES }, (_, page) => [lang, page]),
    );
  }
  assert.equal(sent.length, RECIPE_PAGES + NAME_PAGES, "one request per page, nothing else");
  for (const request of sent) assert.equal(request.query.get("page_size"), "200");
  // The pace: requests at least 2 s apart, so never more than a tenth of 5/s in any window.
  for (let index = 1; index < sent.length; index++) {
    const gap = (sent[index]?.at ?? 0) - (sent[index - 1]?.at ?? 0);
    assert.ok(gap >= crawlIntervalMs(5), `gap ${gap} ms before request ${index}`);
  }
  const elapsed = (sent.at(-1)?.at ?? 0) - started;
  assert.ok(sent.length <= 1 + (elapsed / 1000) * 5 * 0.1);
  assert.ok(reports.length >= 2, `done in ${reports.length} slices of 50 s`);

  const status = await app.names.status();
  assert.equal(status.complete, true);
  assert.equal(status.names, app.fake.world.items.size);
  assert.equal(app.names.pending, 0, "each language packed once its last page is in");
  const twilight = await app.names.search("Düsternis", 1);
  assert.deepEqual(twilight.matches.map(({ id, lang }) => [id, lang]), [[
    WELL_KNOWN.twilight,
    "de",
  ]]);
  const recipes = await app.recipes.status();
  assert.equal(recipes.complete, true);
  assert.equal(recipes.recipes, app.fake.world.recipes.size);
});

Deno.test("after the crawl, search finds filler items and trees and recipe search need no search request", async () => {
  await using app = await startBackgroundApp();
  await crawlToEnd(app);
  const filler = app.fake.world.items.get(FILLER_FIRST_ID + 4321);
  assert.ok(filler);
  const { matches } = await app.names.search(filler.name, 5);
  assert.ok(matches.some((match) => match.id === filler.id), filler.name);

  const before = app.sent.interactive.length;
  await using client = await connectClient(app.handler);
  // A tool call reads through a view bound to its deadline: lookups still come from the catalogue.
  const tree = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.eternity },
  });
  assert.equal(tree.isError, undefined);
  assert.deepEqual(to(app.sent.interactive.slice(before), "/v2/recipes/search"), []);
  const resolved = await resolveRecipes(app.gw2, [WELL_KNOWN.sunrise, WELL_KNOWN.twilight]);
  assert.equal(resolved.recipes.get(WELL_KNOWN.dawn)?.source, "official");
  const search = await client.callTool({
    name: "gw2_recipe_search",
    arguments: { input: WELL_KNOWN.globOfEctoplasm },
  });
  assert.deepEqual(search.structuredContent, {
    recipe_ids: app.fake.world.recipesByInput.get(WELL_KNOWN.globOfEctoplasm),
  });
  const after = app.sent.interactive.slice(before);
  assert.deepEqual(to(after, "/v2/recipes/search"), []);
  assert.deepEqual(to(after, "/v2/recipes"), [], "the trees' recipes are the catalogue's too");
});

Deno.test("a pass finding the recipes filled on demand reads only the items, and keeps that generation", async () => {
  await using app = await startBackgroundApp();
  const fill = (page: number, size: number) => app.backgroundGw2.recipesPage(page, size);
  assert.equal(await app.recipes.fill(fill), true);
  const filled = await app.recipeStore.head();
  assert.ok(filled);
  const before = app.sent.background.length;
  assert.equal(before, RECIPE_PAGES, "the fill read every recipe page");
  await crawlToEnd(app);
  const crawled = app.sent.background.slice(before);
  assert.deepEqual(to(crawled, "/v2/recipes"), [], "no recipe page read again");
  assert.equal(to(crawled, "/v2/items").length, NAME_PAGES);
  assert.deepEqual(await app.recipeStore.head(), filled, "the filled generation stays published");
  assert.equal((await app.recipes.status()).recipes, app.fake.world.recipes.size);
  assert.equal((await app.names.status()).complete, true);
});

/** The recipe generations in KV (published or not). */
async function generations(app: BackgroundApp): Promise<number[]> {
  const found = new Set<number>();
  const prefix = ["catalogue", "v2", "http://gw2.test", "recipes"];
  for await (const entry of app.kv.list({ prefix })) {
    const generation = entry.key[prefix.length];
    if (typeof generation === "number") found.add(generation);
  }
  return [...found].sort((a, b) => a - b);
}

Deno.test("a pass giving up its recipes for a filled catalogue deletes its own pages, not those of a fill still being written", async () => {
  await using app = await startBackgroundApp();
  // The pass begins on the recipes: two pages in a short slice.
  const begun = await crawlCatalogue(crawlDeps(app), { sliceMs: 2_000 });
  assert.deepEqual([begun.phase, begun.pages], ["recipes", 2]);
  const [pass] = await generations(app);
  assert.ok(pass !== undefined);
  // Another instance's fill is writing its generation (not published yet) when this one's
  // fill publishes.
  const elsewhere = app.clock.now() + 1;
  const other = {
    id: 1,
    output_item_id: 2,
    output_item_count: 1,
    disciplines: [],
    min_rating: 0,
    flags: [],
    ingredients: [],
  };
  await app.recipeStore.addPage(app.kv.atomic(), elsewhere, 0, [other]).commit();
  assert.equal(
    await app.recipes.fill((page, size) => app.backgroundGw2.recipesPage(page, size)),
    true,
  );
  const filled = (await app.recipeStore.head())?.generation;
  assert.ok(filled !== undefined);
  app.clock.advance(TICK_MS);
  const next = await crawlCatalogue(crawlDeps(app));
  assert.equal(next.phase, "items", "the pass went on with the items");
  assert.deepEqual(
    await generations(app),
    [filled, elsewhere].sort((a, b) => a - b),
    "the pass's own pages are gone; the fill's and the one still being written stay",
  );
});

Deno.test("catalogue lookups equal upstream's searches for every item", async () => {
  await using app = await startBackgroundApp();
  await crawlToEnd(app);
  const world = app.fake.world;
  for (const id of world.items.keys()) {
    const output = await app.recipes.search({ output: id });
    assert.deepEqual(output, world.recipesByOutput.get(id) ?? [], `output ${id}`);
    const input = await app.recipes.search({ input: id });
    assert.deepEqual(input, world.recipesByInput.get(id) ?? [], `input ${id}`);
  }
});

Deno.test("the crawl resumes after a stop from the progress in KV, reading no page twice", async () => {
  await using kv = await Deno.openKv(":memory:");
  const stop = new AbortController();
  {
    await using first = await startBackgroundApp({ kv });
    let pages = 0;
    const deps = crawlDeps(first, {
      signal: stop.signal,
      pages: {
        recipesPage: (page, size) => first.backgroundGw2.recipesPage(page, size),
        itemsPage: async (page, size, _deadline, lang) => {
          // Shut down while the tenth item page is read (that read, not bound to the slice's
          // deadline here, completes).
          if (++pages === 10) stop.abort();
          return await first.backgroundGw2.itemsPage(page, size, undefined, lang);
        },
      },
    });
    const report = await crawlCatalogue(deps, { sliceMs: 10 * TICK_MS });
    assert.equal(report.phase, "items");
    assert.equal(report.pages, RECIPE_PAGES + 10);
  }
  // A new process on the same KV takes over at the next tick.
  await using second = await startBackgroundApp({ kv, owner: "instance-b" });
  second.clock.advance(TICK_MS);
  await crawlToEnd(second, crawlDeps(second, { owner: "instance-b" }));
  const items = to(second.sent.background, "/v2/items");
  const english = items.filter((r) => r.query.get("lang") === "en").map((r) =>
    Number(r.query.get("page"))
  );
  assert.deepEqual(english, Array.from({ length: ITEM_PAGES - 10 }, (_, index) => 10 + index));
  assert.equal(items.length, NAME_PAGES - 10, "then every other language, once");
  assert.deepEqual(to(second.sent.background, "/v2/recipes"), []);
  assert.equal((await second.names.status()).names, second.fake.world.items.size);
});

Deno.test("a failed page ends the slice; the next slice reads it again, keeping the pace", async () => {
  await using app = await startBackgroundApp();
  app.fake.control.injectFault("server_error", { endpoint: "/v2/recipes" });
  const failed = await crawlCatalogue(crawlDeps(app));
  assert.equal(failed.pages, 0);
  assert.match(failed.error ?? "", /server_error|5\d\d/i);
  const next = await crawlCatalogue(crawlDeps(app));
  assert.ok(next.pages > 0);
  const pages = to(app.sent.background, "/v2/recipes").map((r) => r.query.get("page"));
  assert.deepEqual(pages.slice(0, 2), ["0", "0"]);
  const [first, second] = app.sent.background;
  assert.ok((second?.at ?? 0) - (first?.at ?? 0) >= crawlIntervalMs(5));
});

Deno.test("the catalogue is refreshed after a day into a new generation; older ones and abandoned passes are pruned", async () => {
  await using app = await startBackgroundApp();
  await crawlToEnd(app);
  const generations = async () => {
    const found = new Set<unknown>();
    for await (
      const entry of app.kv.list({ prefix: ["catalogue", "v2", "http://gw2.test", "recipes"] })
    ) {
      found.add(entry.key[4]);
    }
    return found.size;
  };
  assert.equal(await generations(), 1);
  app.clock.advance(TICK_MS);
  assert.deepEqual(await crawlCatalogue(crawlDeps(app)), {
    ran: false,
    reason: "fresh",
    phase: "done",
    pages: 0,
  });
  // An abandoned pass (its progress lost) leaves a generation behind; the next publication prunes it.
  await app.kv.set(["catalogue", "v2", "http://gw2.test", "recipes", 1, 0, 0], [1, 2, 3, 0]);
  for (let pass = 2; pass <= 3; pass++) {
    app.clock.advance(CRAWL_REFRESH_MS);
    const before = app.sent.background.length;
    await crawlToEnd(app);
    assert.equal(app.sent.background.length - before, RECIPE_PAGES + NAME_PAGES);
    assert.equal(await generations(), 2, `pass ${pass}: the current and the previous one`);
  }
  assert.equal((await app.recipes.status()).recipes, app.fake.world.recipes.size);
});

Deno.test("search is complete while the passes keep coming: eight days without one expire it, the next pass re-earns it", async () => {
  await using app = await startBackgroundApp();
  await crawlToEnd(app);
  const completedAt = app.clock.now();
  assert.equal((await app.names.status()).complete, true);
  // The crawl stops (PRIORY_CATALOGUE turned off, say): a day, then a week, pass with no pass.
  app.clock.advance(CRAWL_REFRESH_MS);
  assert.equal((await app.names.status()).complete, true, "a day later, still complete");
  app.clock.advance(CATALOGUE_COMPLETE_FOR_MS - CRAWL_REFRESH_MS);
  const expired = await app.names.status();
  assert.equal(expired.complete, false, "eight days without a pass");
  assert.ok((expired.completedAt ?? 0) >= completedAt - 60_000, "it still says when it last was");
  // The crawl resumes: its next pass marks the catalogue complete again.
  await crawlToEnd(app);
  const renewed = await app.names.status();
  assert.equal(renewed.complete, true);
  assert.ok((renewed.completedAt ?? 0) > completedAt + CATALOGUE_COMPLETE_FOR_MS - 60_000);
});

Deno.test("PRIORY_CATALOGUE=off: the crawl does nothing", async () => {
  await using app = await startBackgroundApp({ catalogue: false });
  const report = await crawlCatalogue(crawlDeps(app, { enabled: false }));
  assert.deepEqual(report, { ran: false, reason: "off", phase: "done", pages: 0 });
  assert.deepEqual(app.sent.background, []);
});

Deno.test("two instances ticking together: one crawls, the other skips", async () => {
  await using kv = await Deno.openKv(":memory:");
  await using a = await startBackgroundApp({ kv });
  await using b = await startBackgroundApp({
    kv,
    fake: a.fake,
    clock: a.clock,
    owner: "instance-b",
  });
  const [first, second] = await Promise.all([
    crawlCatalogue(crawlDeps(a)),
    crawlCatalogue(crawlDeps(b, { owner: "instance-b" })),
  ]);
  const reports = [first, second];
  const sent = [a.sent.background, b.sent.background].map((requests) =>
    requests.filter((request) => request.query.has("page")).length
  );
  const crawler = reports.findIndex((report) => report.ran);
  assert.notEqual(crawler, -1, "one of them crawled");
  const skipper = 1 - crawler;
  assert.deepEqual(reports[skipper], { ran: false, reason: "leased", phase: "done", pages: 0 });
  assert.equal(sent[skipper], 0, "the skipper read no page");
  // The crawler's slice: one request at once, then one every 2 s up to the slice's 50 s: 26
  // pages (6 recipe pages, then item pages), each a request it sent and one its progress counts.
  assert.equal(reports[crawler]?.pages, 26);
  assert.equal(sent[crawler], 26);
  assert.equal(reports[crawler]?.requests, 26);
});

Deno.test("a crawler that lost its lease (it stalled past it) stops without writing", async () => {
  await using app = await startBackgroundApp();
  const leaseKey = ["background", "v1", "http://gw2.test", "crawl-lease"];
  let reads = 0;
  const report = await crawlCatalogue(crawlDeps(app, {
    pages: {
      itemsPage: (page, size) => app.backgroundGw2.itemsPage(page, size),
      recipesPage: async (page, size) => {
        if (++reads === 2) {
          // Stalled past the lease; another instance took over.
          app.clock.advance(10 * TICK_MS);
          assert.ok(await acquireLease(app.kv, leaseKey, "instance-b", TICK_MS, app.clock));
        }
        return await app.backgroundGw2.recipesPage(page, size);
      },
    },
  }));
  assert.equal(report.pages, 1);
  assert.match(report.error ?? "", /lost its lease/);
  const progress = await app.kv.get(["background", "v1", "http://gw2.test", "crawl"]);
  assert.equal(Reflect.get(Object(progress.value), "page"), 1, "the second page was not recorded");
  assert.equal(
    (await crawlCatalogue(crawlDeps(app))).reason,
    "leased",
    "the new holder's lease stands",
  );
});
