/**
 * Item search (`priory_item_search`) on a full index in every language: 75,000 synthetic names a
 * language, the size of the real catalogue, in en, de, fr, es and zh (`seedSyntheticNames`: two
 * to five words from a skewed 20,000-word vocabulary, each language's names in its manner —
 * accents, `ß`, elisions, no-break spaces, Han characters without spaces — plus the real anchors
 * such as Glob of Ectoplasm, Sunrise and Twilight under their real names), written into the KV
 * before Priory starts, as the catalogue crawl leaves it. Then the first query (the instance
 * loads the index in slices meanwhile: it answers from what is loaded) and, once the index is
 * loaded, warm queries of each kind the contract names — a full name, a part, a
 * typo, upper case, a chat link, names in the other languages with and without accents, a
 * French typo, Chinese — and common and absent words, each timed end to end and next to the
 * floor. Target: at most 20 ms per query (p95). Besides, in this process: the five-language
 * index's heap and bytes per name at that scale. Skipped until the tool is registered.
 *
 * @module
 */

import { LANGUAGES } from "../../src/gw2/types.ts";
import { retainedBy } from "../../tests/support/heap.ts";
import {
  seedSyntheticNames,
  syntheticFiveLanguageTable,
} from "../../tests/support/synthetic_names.ts";
import type { Scenario } from "../scenario.ts";
import { interleaved, median, percentile, timed } from "../support/stats.ts";
import {
  callFloor,
  catalogueCrawled,
  ITEM_SEARCH,
  OPEN_BUDGET,
  structured,
  tokens,
} from "./calls.ts";

/** Names in the index, a language: the real catalogue's size. */
export const FULL_INDEX = 75_000;

/** Queries of each kind the contract names, and the index's common and absent words. */
export const SEARCH_QUERIES: readonly string[] = [
  "Glob of Ectoplasm",
  "ecto",
  "mystik clover",
  "SUNRISE",
  "[&AgEJTQAA]",
  "gift of sun",
  "superior",
  "of",
  "zzzz nothing",
  "Düsternis",
  "dusternis",
  "Crépuscule",
  "crepsucule",
  "Crepúsculo",
  "暗暮",
  "Ektoplasmabatzen",
];

/** The item-search scenario. */
export const itemSearch: Scenario = {
  name: "item-search",
  summary: "item-search queries on a full five-language index (5 × 75,000 names), first and warm",
  tools: [ITEM_SEARCH],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const kvPath = ctx.kvPath();
    {
      using kv = await Deno.openKv(kvPath);
      await seedSyntheticNames(kv, fake.url, FULL_INDEX, 1, LANGUAGES);
    }
    const priory = await ctx.startPriory(fake, { kvPath, rate: OPEN_BUDGET });
    await fake.quiet();
    const floor = await ctx.floor();
    const client = ctx.client(priory);
    const echo = ctx.client(floor);
    let first: Record<string, unknown> = {};
    const firstMs = await timed(async () => {
      first = structured(
        await client.callTool(ITEM_SEARCH, { query: SEARCH_QUERIES[0] }),
        ITEM_SEARCH,
      );
    });
    // The first query answers from what is loaded by then; the warm ones run on the whole index.
    const loaded = () =>
      (priory.backgroundLog?.() ?? []).some((line) => line.includes(`"msg":"name index loaded"`));
    for (let waited = 0; !loaded(); waited += 50) {
      if (waited > 120_000) throw new Error("the name index did not load within two minutes");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let next = 0;
    const queries = () =>
      interleaved(
        {
          search: async () => {
            const query = SEARCH_QUERIES[next++ % SEARCH_QUERIES.length];
            return structured(await client.callTool(ITEM_SEARCH, { query }), ITEM_SEARCH);
          },
          floor: () => callFloor(echo),
        },
        SEARCH_QUERIES.length * (ctx.options.quick ? 3 : 18),
        SEARCH_QUERIES.length,
      );
    // While this instance's catalogue crawl writes the fake's names in five languages (each
    // write reaching the index, and now and then packing a language's changes), then at steady
    // state, the crawl's first pass over, as the warm-call and memory scenarios measure.
    const during = await queries();
    const crawled = ctx.options.quick || await catalogueCrawled(client);
    const ms = await queries();
    const p95 = percentile(ms.search, 95);
    // The index itself, built here the way an instance loads it: its live heap (after a full
    // collection, where the runtime lets one be forced) and its packed columns.
    const names = FULL_INDEX * LANGUAGES.length;
    let packed = 0;
    const heap = retainedBy(() => {
      const table = syntheticFiveLanguageTable(FULL_INDEX);
      packed = table.packedBytes;
      return table;
    });
    return {
      figures: [
        {
          label: "first query",
          value: firstMs,
          unit: "ms",
          note: `at once: answers from what is loaded by then, ${
            JSON.stringify(first.index ?? "?")
          }`,
        },
        {
          label: "warm query, median",
          value: median(ms.search),
          unit: "ms",
          floor: median(ms.floor),
          note: `${ms.search.length} queries of ${SEARCH_QUERIES.length} kinds, end to end; ${
            crawled ? "the crawl's first pass over" : "the crawl had not finished"
          }`,
        },
        { label: "warm query, p95", value: p95, unit: "ms", floor: percentile(ms.floor, 95) },
        {
          label: "… while the crawl writes, median",
          value: median(during.search),
          unit: "ms",
          floor: median(during.floor),
          note: "the same queries before the crawl's first pass is over",
        },
        {
          label: "… while the crawl writes, p95",
          value: percentile(during.search, 95),
          unit: "ms",
          floor: percentile(during.floor, 95),
        },
        {
          label: "five-language index, heap",
          value: heap === undefined ? NaN : heap / (1024 * 1024),
          unit: "MB",
          note: heap === undefined
            ? "no forced collection on this runtime"
            : `${(heap / names).toFixed(0)} bytes per name, ${names.toLocaleString("en-US")} names`,
        },
        {
          label: "… packed columns",
          value: packed / names,
          unit: "bytes/name",
          note: "names (UTF-8), folded names, offsets, ids, codes, words, postings",
        },
        {
          label: "result",
          value: tokens(first),
          unit: "tokens",
          note: `query "${SEARCH_QUERIES[0]}"`,
        },
      ],
      targets: [{
        label: `item search ≤ 20 ms per query (p95, ${LANGUAGES.length} × ${FULL_INDEX} names)`,
        value: p95,
        unit: "ms",
        max: 20,
      }],
    };
  },
};
