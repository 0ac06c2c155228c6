/**
 * Catalogue benchmark: the background crawl and what it buys.
 *
 * - `fake`: the crawl over the fake GW2 API's whole catalogue (8,242 items, 1,048 recipes), one
 *   slice per simulated cron minute on an injected clock: requests, simulated crawl time, the
 *   share of the 5/s budget it spent, and the real time the work took.
 * - `full scale`: the same crawl over a synthetic catalogue the size of the real one (75,000
 *   items, 13,200 recipes) served from memory: simulated time at a tenth of 5/s, then name
 *   search and recipe lookup latency on the full index (real time).
 *
 * Run: `deno run --allow-read --allow-write bench/catalogue.ts` (a minute or two).
 *
 * @module
 */

import { crawlCatalogue, type CrawlDeps } from "../src/background/crawl.ts";
import { RecipeCatalogue } from "../src/catalogue/recipe_catalogue.ts";
import { RecipeStore } from "../src/catalogue/recipe_store.ts";
import { createGw2Client } from "../src/gw2/client.ts";
import type { CatalogueItem, CatalogueRecipe } from "../src/gw2/schemas.ts";
import type { Gw2PagedReads, Page } from "../src/gw2/types.ts";
import { silentLogger } from "../src/log.ts";
import { NameIndex } from "../src/search/name_index.ts";
import { createFakeGw2 } from "../tests/fake_gw2/mod.ts";
import { ManualClock } from "../tests/support/clock.ts";
import { syntheticNameEntries } from "../tests/support/synthetic_names.ts";

const NAMESPACE = "http://gw2.bench";
const report: string[] = [];

interface CrawlRun {
  readonly requests: number;
  readonly simulatedMin: number;
  readonly share: number;
  readonly realS: number;
  readonly names: NameIndex;
  readonly recipes: RecipeCatalogue;
}

async function crawl(kv: Deno.Kv, clock: ManualClock, pages: Gw2PagedReads): Promise<CrawlRun> {
  const names = new NameIndex({ kv, namespace: NAMESPACE, log: silentLogger, clock });
  const store = new RecipeStore({ kv, namespace: NAMESPACE });
  const recipes = new RecipeCatalogue({ store, clock, log: silentLogger });
  let requests = 0;
  const counted: Gw2PagedReads = {
    itemsPage: (page, size) => (requests++, pages.itemsPage(page, size)),
    recipesPage: (page, size) => (requests++, pages.recipesPage(page, size)),
  };
  const deps: CrawlDeps = {
    kv,
    namespace: NAMESPACE,
    owner: "bench",
    clock,
    log: silentLogger,
    enabled: true,
    pages: counted,
    names,
    recipes: store,
    ratePerSec: 5,
  };
  const started = clock.now();
  const real = performance.now();
  for (;;) {
    const report = await crawlCatalogue(deps);
    if (report.phase === "done") break;
    clock.advance(60_000 - (clock.now() % 60_000));
  }
  const simulatedMs = clock.now() - started;
  return {
    requests,
    simulatedMin: simulatedMs / 60_000,
    share: requests / (simulatedMs / 1000 * 5),
    realS: (performance.now() - real) / 1000,
    names,
    recipes,
  };
}

/** A paged source over in-memory records, as upstream would page them. */
function memoryPages(items: CatalogueItem[], recipes: CatalogueRecipe[]): Gw2PagedReads {
  const page = <T>(all: T[], index: number, size: number): Promise<Page<T>> =>
    Promise.resolve({
      records: all.slice(index * size, index * size + size),
      skipped: 0,
      pageTotal: Math.ceil(all.length / size),
    });
  return {
    itemsPage: (index, size) => page(items, index, size),
    recipesPage: (index, size) => page(recipes, index, size),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function timed(runs: number, work: (index: number) => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await work(index);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return `median ${percentile(times, 0.5).toFixed(2)} ms, p95 ${
    percentile(times, 0.95).toFixed(2)
  } ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms`;
}

// The fake's catalogue through the real client (one request per page).
{
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  using kv = await Deno.openKv(":memory:");
  const client = createGw2Client({
    baseUrl: NAMESPACE,
    kv,
    clock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
    fetch: (input, init) => fake.fetch(new Request(input, init)),
    maxRetries: 0,
  });
  const run = await crawl(kv, clock, client);
  report.push(
    `fake: ${run.requests} requests, ${run.simulatedMin.toFixed(1)} simulated min, ` +
      `${(run.share * 100).toFixed(1)} % of 5/s, ${run.realS.toFixed(1)} s of work`,
  );
}

// A catalogue the size of the real one.
{
  const clock = new ManualClock({ advance: "delays" });
  const dir = await Deno.makeTempDir({ prefix: "priory-bench-" });
  try {
    using kv = await Deno.openKv(`${dir}/kv.sqlite3`);
    const items = syntheticNameEntries(75_000);
    const recipes: CatalogueRecipe[] = Array.from({ length: 13_200 }, (_, index) => ({
      id: index + 1,
      output_item_id: items[index * 5 % items.length]?.id ?? 1,
      output_item_count: 1,
      ingredients: [1, 2, 3, 4].map((k) => ({
        type: "Item",
        id: items[(index * 7 + k * 131) % items.length]?.id ?? 1,
        count: k * 10,
      })),
    }));
    const run = await crawl(kv, clock, memoryPages(items, recipes));
    report.push(
      `full scale: ${run.requests} requests, ${run.simulatedMin.toFixed(1)} simulated min, ` +
        `${(run.share * 100).toFixed(1)} % of 5/s, ${run.realS.toFixed(1)} s of work`,
    );
    const queries = [
      "Glob of Ectoplasm",
      "sunrise",
      "gift of sun",
      "mystic clovr",
      "superior",
      "of",
      "zzzz nothing",
    ];
    await run.names.search("warm", 10);
    report.push(
      `name search on ${(await run.names.status()).names} names: ${await timed(
        700,
        (index) => run.names.search(queries[index % queries.length] ?? "", 10),
      )}`,
    );
    await run.recipes.warm();
    report.push(
      `recipe lookup: ${await timed(2000, (index) =>
        run.recipes.search(
          index % 2 === 0 ? { output: items[index]?.id ?? 1 } : { input: items[index]?.id ?? 1 },
        ))}`,
    );
    const fresh = new NameIndex({ kv, namespace: NAMESPACE, log: silentLogger, clock });
    const loading = performance.now();
    await fresh.warm();
    report.push(
      `a new instance loads the full name index in ${(performance.now() - loading).toFixed(0)} ms`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// deno-lint-ignore no-console -- a benchmark prints its results
console.log(report.join("\n"));
