/**
 * A fresh server's warm-up: Priory as `deno task start` runs it, on an empty KV, at 300 ms of
 * upstream latency with the production budget — how soon a legendary's name is searchable
 * (`priory_item_search "Astralaria"`, polled from the spawn), and in German (`"Düsternis"`, the
 * warm set's names in the other languages come right after its items), when the warm-up is done
 * (the job runner's `background job` line for it) and what it asked upstream, by kind and by
 * language. Started early in a clock minute, so the crons' first tick (the crawl, the prices)
 * does not mix into the count.
 *
 * @module
 */

import { LANGUAGES } from "../../src/gw2/types.ts";
import { WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import { ITEM_SEARCH, OPEN_BUDGET, structured } from "./calls.ts";
import { RANKING_LATENCY_MS } from "./ranking.ts";

/** The issue's bound: a legendary's name searchable this soon after boot. */
const SEARCHABLE_MAX_MS = 10_000;
/** "Tens of requests, not hundreds." */
const WARM_UP_MAX_REQUESTS = 100;

/** The fields of a log line (JSON), or undefined when none matches `msg`. */
function logged(lines: readonly string[], msg: string): Record<string, unknown> | undefined {
  const line = lines.find((entry) => entry.includes(`"msg":"${msg}"`));
  return line === undefined ? undefined : JSON.parse(line);
}

/** The warm-up's own run line (the job runner logs one per run). */
export function warmRun(lines: readonly string[]): Record<string, unknown> | undefined {
  const line = lines.find((entry) =>
    entry.includes(`"msg":"background job"`) && entry.includes(`"job":"warm"`)
  );
  return line === undefined ? undefined : JSON.parse(line);
}

/** The warm-up scenario. */
export const warmUp: Scenario = {
  name: "warm-up",
  summary:
    "fresh server, 300 ms upstream: a legendary name searchable, the warm-up's requests and time",
  tools: [ITEM_SEARCH],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: RANKING_LATENCY_MS, rate: OPEN_BUDGET });
    const second = new Date().getUTCSeconds();
    if (second > 40) {
      ctx.note(`waiting ${61 - second} s for a new minute (no cron tick during the warm-up)`);
      await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    }
    const priory = await ctx.startPriory(fake);
    const client = ctx.client(priory);
    /** Polls `query` from the spawn until its first match is `id`; the time since the spawn. */
    const searchable = async (query: string, id: number): Promise<number> => {
      for (;;) {
        const found = structured(
          await client.callTool(ITEM_SEARCH, { query, limit: 1 }),
          ITEM_SEARCH,
        );
        const matches = found.matches as { id: number }[];
        if (matches[0]?.id === id) return performance.now() - priory.spawnedAt;
        if (performance.now() - priory.spawnedAt > 60_000) {
          throw new Error(`${query} was not searchable within a minute`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const searchableMs = await searchable("Astralaria", WELL_KNOWN.astralaria);
    const germanMs = await searchable("Düsternis", WELL_KNOWN.twilight);
    const log = priory.backgroundLog ?? (() => []);
    for (let waited = 0; warmRun(log()) === undefined; waited += 100) {
      if (waited > 120_000) throw new Error("the warm-up did not finish within two minutes");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const done = warmRun(log()) ?? {};
    const itemsRead = logged(log(), "warm-up items read") ?? {};
    const filled = logged(log(), "recipe catalogue filled") ?? {};
    const requests = [...fake.fake.control.requests];
    const crawl =
      requests.filter((request) => request.path === "/v2/items" && request.query.includes("page="))
        .length;
    const itemBatches = requests.filter((request) =>
      request.path === "/v2/items" && request.query.includes("ids=")
    );
    const byLanguage = LANGUAGES.map((lang) =>
      `${lang} ${itemBatches.filter((request) => request.query.includes(`lang=${lang}`)).length}`
    ).join(", ");
    const byKind = {
      items: itemBatches.length,
      recipePages:
        requests.filter((request) =>
          request.path === "/v2/recipes" && request.query.includes("page=")
        ).length,
      searches: requests.filter((request) => request.path === "/v2/recipes/search").length,
    };
    const warmUpRequests = requests.length - crawl;
    return {
      figures: [
        {
          label: "spawn → 'Astralaria' searchable",
          value: searchableMs,
          unit: "ms",
          note: `warm set's items read ${Number(itemsRead.ms)} ms into the warm-up (${
            Number(itemsRead.ids)
          } ids)`,
        },
        {
          label: "spawn → 'Düsternis' (German) searchable",
          value: germanMs,
          unit: "ms",
          note: `the warm set's names in de, fr, es, zh: ${
            Number(logged(log(), "warm-up names read")?.ms)
          } ms into the warm-up`,
        },
        {
          label: "warm-up, start to done",
          value: Number(done.ms),
          unit: "ms",
          note: `${Number(done.ids)} ids; recipe catalogue ${Number(filled.recipes)} recipes in ${
            Number(filled.ms)
          } ms`,
        },
        {
          label: "warm-up upstream requests",
          value: warmUpRequests,
          unit: "requests",
          note:
            `${byKind.items} item batches, ${byKind.recipePages} recipe pages, ${byKind.searches} searches${
              crawl > 0 ? `; ${crawl} crawl pages beside, not counted` : ""
            }`,
        },
        {
          label: "… item batches per language",
          value: itemBatches.length / LANGUAGES.length,
          unit: "requests",
          note: byLanguage,
        },
      ],
      targets: [
        {
          label: "a legendary's name searchable ≤ 10 s after boot",
          value: searchableMs,
          unit: "ms",
          max: SEARCHABLE_MAX_MS,
        },
        {
          label: "a legendary's German name searchable ≤ 10 s after boot",
          value: germanMs,
          unit: "ms",
          max: SEARCHABLE_MAX_MS,
        },
        {
          label: "warm-up: tens of requests, not hundreds",
          value: warmUpRequests,
          unit: "requests",
          max: WARM_UP_MAX_REQUESTS,
        },
      ],
    };
  },
};
