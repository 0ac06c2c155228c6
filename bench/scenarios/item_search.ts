/**
 * Item search (`priory_item_search`) on the fullest index the fake allows: every item of its
 * catalogue (8,242) is read through `gw2_items` first, which feeds the name index. Then the first
 * query, and warm queries of each kind the contract names — a full name, a part, a typo, upper
 * case, a chat link — next to the floor. The index status comes from the result. Skipped until
 * the tool is registered.
 *
 * @module
 */

import type { Scenario } from "../scenario.ts";
import { interleaved, median, percentile, timed } from "../support/stats.ts";
import { chunk, mapWithConcurrency } from "../../src/concurrency.ts";
import {
  expectResult,
  FLOOR_CALL,
  ITEM_SEARCH,
  ITEMS,
  OPEN_BUDGET,
  structured,
  tokens,
} from "./calls.ts";

/** Queries of each kind the contract names. */
export const SEARCH_QUERIES: readonly string[] = [
  "Glob of Ectoplasm",
  "ecto",
  "mystik clover",
  "SUNRISE",
  "[&AgEJTQAA]",
];

/** The item-search scenario. */
export const itemSearch: Scenario = {
  name: "item-search",
  summary: "first and warm item-search queries once every catalogue item was read",
  tools: [ITEM_SEARCH, ITEMS],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    const floor = await ctx.floor();
    const client = ctx.client(priory);
    const echo = ctx.client(floor);
    const itemIds = [...fake.fake.world.items.keys()];
    await mapWithConcurrency(chunk(itemIds, 100), 4, async (ids) => {
      expectResult(await client.callTool(ITEMS, { ids }), ITEMS);
    });
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
        floor: async () => expectResult(await echo.callTool(...FLOOR_CALL), "echo"),
      },
      ctx.options.quick ? 20 : 100,
      10,
    );
    return {
      figures: [
        {
          label: "first query",
          value: firstMs,
          unit: "ms",
          note: `index ${JSON.stringify(first.index ?? "?")}`,
        },
        {
          label: "warm query, median",
          value: median(ms.search),
          unit: "ms",
          floor: median(ms.floor),
        },
        {
          label: "warm query, p95",
          value: percentile(ms.search, 95),
          unit: "ms",
          floor: percentile(ms.floor, 95),
        },
        {
          label: "result",
          value: tokens(first),
          unit: "tokens",
          note: `query "${SEARCH_QUERIES[0]}"`,
        },
      ],
      targets: [],
    };
  },
};
