/**
 * The background catalogue crawl and what it buys, in this process on an injected clock (one
 * slice per simulated cron minute):
 *
 * - over the fake GW2 API's whole catalogue (8,744 items in five languages, 1,274 recipes)
 *   through the real client: requests, simulated crawl time and the share of the 5/s budget it
 *   spent;
 * - over a synthetic catalogue the size of the real one (75,000 items in each of the five
 *   languages, 13,200 recipes) served from memory: the same, per language too, then recipe
 *   lookups from the crawled catalogue, the on-demand fill of the recipes (every page at once, at
 *   300 ms latency, in real time) and the time a new instance takes to load the full name index.
 *   (Search on that index through the tool: `item-search`.)
 *
 * @module
 */

import { crawlCatalogue, type CrawlDeps } from "../../src/background/crawl.ts";
import { systemClock } from "../../src/async/clock.ts";
import { FILL_CONCURRENCY, RecipeCatalogue } from "../../src/catalogue/recipe_catalogue.ts";
import { RecipeStore } from "../../src/catalogue/recipe_store.ts";
import { createGw2Client } from "../../src/gw2/client.ts";
import type { CatalogueRecipe } from "../../src/gw2/schemas.ts";
import { type Lang, LANGUAGES } from "../../src/gw2/types.ts";
import type { Gw2PagedReads, Page } from "../../src/gw2/types.ts";

/** The paged reads a crawl makes. */
type CrawlPages = Pick<Gw2PagedReads, "itemsPage" | "recipesPage">;
import { silentLogger } from "../../src/log.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { createFakeGw2 } from "../../tests/fake_gw2/mod.ts";
import { ManualClock } from "../../tests/support/clock.ts";
import {
  syntheticLocalizedEntries,
  syntheticNameEntries,
} from "../../tests/support/synthetic_names.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { median, percentile } from "../support/stats.ts";

const NAMESPACE = "http://gw2.bench";
/** The sustained upstream budget the crawl's share is measured against. */
const RATE_PER_SEC = 5;
/** The upstream latency of the full-scale fill (the ranking's and warm-up's). */
const FILL_LATENCY_MS = 300;
/** The real catalogue's size (items, recipes). */
export const FULL_SCALE = { items: 75_000, recipes: 13_200 } as const;

interface CrawlRun {
  readonly requests: number;
  /** Item pages read in each language. */
  readonly byLanguage: ReadonlyMap<Lang, number>;
  readonly simulatedMin: number;
  /** Requests over what the sustained budget allowed in the same time. */
  readonly share: number;
  readonly realMs: number;
  readonly recipes: RecipeCatalogue;
}

async function crawl(kv: Deno.Kv, pages: CrawlPages, clock: ManualClock): Promise<CrawlRun> {
  const names = new NameIndex({ kv, namespace: NAMESPACE, log: silentLogger, clock });
  const store = new RecipeStore({ kv, namespace: NAMESPACE });
  let requests = 0;
  const byLanguage = new Map<Lang, number>();
  const counted: CrawlPages = {
    itemsPage: (page, size, deadline, lang = "en") => {
      requests++;
      byLanguage.set(lang, (byLanguage.get(lang) ?? 0) + 1);
      return pages.itemsPage(page, size, deadline, lang);
    },
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
    ratePerSec: RATE_PER_SEC,
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
    byLanguage,
    simulatedMin: simulatedMs / 60_000,
    share: requests / ((simulatedMs / 1000) * RATE_PER_SEC),
    realMs: performance.now() - real,
    recipes: new RecipeCatalogue({ store, clock, log: silentLogger }),
  };
}

/** A paged source over in-memory records, as upstream pages them (items in each language). */
function memoryPages(
  items: ReadonlyMap<Lang, readonly { id: number; name: string; rarity: string; type: string }[]>,
  recipes: readonly CatalogueRecipe[],
): CrawlPages {
  const page = <T>(all: readonly T[], index: number, size: number): Promise<Page<T>> =>
    Promise.resolve({
      records: all.slice(index * size, index * size + size),
      skipped: 0,
      pageTotal: Math.ceil(all.length / size),
    });
  return {
    itemsPage: (index, size, _deadline, lang = "en") => page(items.get(lang) ?? [], index, size),
    recipesPage: (index, size) => page(recipes, index, size),
  };
}

/** What a crawl reports: its figures, and its share of the budget against the tenth it may use. */
function crawlReport(label: string, run: CrawlRun): { figures: Figure[]; target: Target } {
  return {
    figures: [
      {
        label: `${label}: crawl requests`,
        value: run.requests,
        unit: "requests",
        note: `${run.simulatedMin.toFixed(1)} simulated min, ${
          (run.realMs / 1000).toFixed(1)
        } s of work`,
      },
      {
        label: `${label}: share of the budget`,
        value: run.share * 100,
        unit: "%",
        note: `of ${RATE_PER_SEC} requests/s over the crawl`,
      },
      {
        label: `${label}: item pages per language`,
        value: run.byLanguage.get("en") ?? 0,
        unit: "requests",
        note: `${
          LANGUAGES.map((lang) => `${lang} ${run.byLanguage.get(lang) ?? 0}`).join(", ")
        }; a language ≈ ${
          ((run.byLanguage.get("en") ?? 0) / (RATE_PER_SEC * 0.1) / 60).toFixed(1)
        } min at a tenth of ${RATE_PER_SEC}/s`,
      },
    ],
    target: {
      label: `crawl ≤ a tenth of the sustained budget (${label})`,
      value: run.share * 100,
      unit: "%",
      max: 10,
    },
  };
}

/** The catalogue scenario. */
export const catalogue: Scenario = {
  name: "catalogue",
  summary: "the catalogue crawl (fake and full scale), recipe lookups, loading the full index",
  tools: [],
  async run(ctx) {
    const figures: Figure[] = [];
    const targets: Target[] = [];
    {
      const clock = new ManualClock({ advance: "delays" });
      const fake = createFakeGw2({ now: () => clock.now() });
      using kv = await Deno.openKv(":memory:");
      const client = createGw2Client({
        baseUrl: NAMESPACE,
        kv,
        clock,
        log: silentLogger,
        rate: { burst: 300, perSec: RATE_PER_SEC },
        fetch: (input, init) => fake.fetch(new Request(input, init)),
        maxRetries: 0,
      });
      const report = crawlReport("fake", await crawl(kv, client, clock));
      figures.push(...report.figures);
      targets.push(report.target);
    }
    ctx.note(`full scale: ${FULL_SCALE.items} items, ${FULL_SCALE.recipes} recipes`);
    const dir = await Deno.makeTempDir({ prefix: "priory-bench-" });
    try {
      const clock = new ManualClock({ advance: "delays" });
      using kv = await Deno.openKv(`${dir}/kv.sqlite3`);
      const items = syntheticNameEntries(FULL_SCALE.items);
      const recipes: CatalogueRecipe[] = Array.from({ length: FULL_SCALE.recipes }, (_, index) => ({
        id: index + 1,
        output_item_id: items[(index * 5) % items.length]?.id ?? 1,
        output_item_count: 1,
        disciplines: ["Weaponsmith"],
        min_rating: 400,
        flags: ["AutoLearned"],
        ingredients: [1, 2, 3, 4].map((k) => ({
          type: "Item",
          id: items[(index * 7 + k * 131) % items.length]?.id ?? 1,
          count: k * 10,
        })),
      }));
      const localized = new Map(
        LANGUAGES.map((lang) => [lang, syntheticLocalizedEntries(FULL_SCALE.items, lang)] as const),
      );
      const run = await crawl(kv, memoryPages(localized, recipes), clock);
      const report = crawlReport("full scale", run);
      figures.push(...report.figures);
      targets.push(report.target);
      await run.recipes.warm();
      const lookups: number[] = [];
      for (let index = 0; index < 2_000; index++) {
        const id = items[index]?.id ?? 1;
        const started = performance.now();
        await run.recipes.search(index % 2 === 0 ? { output: id } : { input: id });
        lookups.push(performance.now() - started);
      }
      figures.push({
        label: "recipe lookup from the catalogue",
        value: median(lookups),
        unit: "ms",
        note: `p95 ${percentile(lookups, 95).toFixed(3)} ms over 2,000 lookups`,
      });
      // The on-demand fill a fresh server's warm-up (or first tree walk) makes instead of
      // waiting for the crawl: every recipe page at once, 300 ms upstream latency, real time.
      {
        using fillKv = await Deno.openKv(`${dir}/fill.sqlite3`);
        const store = new RecipeStore({ kv: fillKv, namespace: NAMESPACE });
        const filler = new RecipeCatalogue({ store, clock: systemClock, log: silentLogger });
        const source = memoryPages(new Map(), recipes);
        let pages = 0;
        const started = performance.now();
        await filler.fill(async (page, size) => {
          pages++;
          await new Promise((resolve) => setTimeout(resolve, FILL_LATENCY_MS));
          return await source.recipesPage(page, size);
        });
        figures.push({
          label: "full scale: on-demand recipe fill",
          value: performance.now() - started,
          unit: "ms",
          note: `${pages} pages at ${FILL_LATENCY_MS} ms, ${FILL_CONCURRENCY} at once`,
        });
      }
      const fresh = new NameIndex({ kv, namespace: NAMESPACE, log: silentLogger, clock });
      const loading = performance.now();
      await fresh.warm();
      figures.push({
        label: "a new instance loads the name index",
        value: performance.now() - loading,
        unit: "ms",
        note: `${(await fresh.status()).names} items in ${LANGUAGES.length} languages`,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    return { figures, targets };
  },
};
