/**
 * Item search (`priory_item_search`) on a full index: 75,000 synthetic names, the size of the
 * real catalogue (`seedSyntheticNames`: two to five words from a skewed 20,000-word vocabulary,
 * plus the real anchors such as Glob of Ectoplasm and Sunrise), written into the KV before
 * Priory starts, as the catalogue crawl leaves it. Then the first query (the instance loads the
 * index) and warm queries of each kind the contract names — a full name, a part, a typo, upper
 * case, a chat link — and common and absent words, each timed end to end and next to the floor.
 * Target: at most 20 ms per query (p95). Skipped until the tool is registered.
 *
 * @module
 */

import { seedSyntheticNames } from "../../tests/support/synthetic_names.ts";
import type { Scenario } from "../scenario.ts";
import { interleaved, median, percentile, timed } from "../support/stats.ts";
import { callFloor, ITEM_SEARCH, OPEN_BUDGET, structured, tokens } from "./calls.ts";

/** Names in the index: the real catalogue's size. */
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
];

/** The item-search scenario. */
export const itemSearch: Scenario = {
  name: "item-search",
  summary: "item-search queries on a full index of 75,000 names, first and warm",
  tools: [ITEM_SEARCH],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const kvPath = ctx.kvPath();
    {
      using kv = await Deno.openKv(kvPath);
      await seedSyntheticNames(kv, fake.url, FULL_INDEX);
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
    let next = 0;
    const ms = await interleaved(
      {
        search: async () => {
          const query = SEARCH_QUERIES[next++ % SEARCH_QUERIES.length];
          return structured(await client.callTool(ITEM_SEARCH, { query }), ITEM_SEARCH);
        },
        floor: () => callFloor(echo),
      },
      ctx.options.quick ? 45 : 270,
      SEARCH_QUERIES.length,
    );
    const p95 = percentile(ms.search, 95);
    return {
      figures: [
        {
          label: "first query",
          value: firstMs,
          unit: "ms",
          note: `loads the index: ${JSON.stringify(first.index ?? "?")}`,
        },
        {
          label: "warm query, median",
          value: median(ms.search),
          unit: "ms",
          floor: median(ms.floor),
          note: `${ms.search.length} queries of ${SEARCH_QUERIES.length} kinds, end to end`,
        },
        { label: "warm query, p95", value: p95, unit: "ms", floor: percentile(ms.floor, 95) },
        {
          label: "result",
          value: tokens(first),
          unit: "tokens",
          note: `query "${SEARCH_QUERIES[0]}"`,
        },
      ],
      targets: [{
        label: `item search ≤ 20 ms per query (p95, ${FULL_INDEX} names)`,
        value: p95,
        unit: "ms",
        max: 20,
      }],
    };
  },
};
