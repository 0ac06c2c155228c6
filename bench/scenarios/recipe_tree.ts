/**
 * Legendary trees (`priory_recipe_tree`): a cold tree with upstream latency on a fresh KV — through
 * Priory's handler in the bench process, without the background jobs whose startup warm-up walks
 * the same trees — then, on Priory as `deno task start` runs it once its warm-up is over, the warm
 * tree next to the floor and the tokens of every legendary's tree, largest and median (the
 * contract's ceiling is 10,000). Skipped until the tool is registered.
 *
 * @module
 */

import { LEGENDARIES } from "../../src/data/legendaries.ts";
import { rankableIds } from "../../src/ranking/rank.ts";
import { WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import { servePrioryInProcess } from "../support/in_process.ts";
import { BENCH_TOKEN } from "../support/processes.ts";
import { interleaved, median, timed } from "../support/stats.ts";
import {
  callFloor,
  OPEN_BUDGET,
  RECIPE_TREE,
  structured,
  tokens,
  upstreamRequests,
} from "./calls.ts";

/** The recipe-tree scenario. */
export const recipeTree: Scenario = {
  name: "recipe-tree",
  summary: "cold and warm legendary trees; tokens of every legendary's tree",
  tools: [RECIPE_TREE],
  async run(ctx) {
    const { latencyMs, quick } = ctx.options;
    const fake = await ctx.startFake({ latencyMs, rate: OPEN_BUDGET });
    const sunrise = { itemId: WELL_KNOWN.sunrise };
    let cold: number;
    let coldRequests: number;
    {
      using kv = await Deno.openKv(":memory:");
      const alone = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: BENCH_TOKEN });
      try {
        const requestsBefore = upstreamRequests(fake);
        cold = await timed(async () =>
          structured(await ctx.client(alone).callTool(RECIPE_TREE, sunrise), RECIPE_TREE)
        );
        coldRequests = upstreamRequests(fake) - requestsBefore;
      } finally {
        await alone.close();
      }
    }
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    await fake.quiet();
    const floor = await ctx.floor();
    const client = ctx.client(priory);
    const echo = ctx.client(floor);
    const ms = await interleaved(
      {
        tree: async () => structured(await client.callTool(RECIPE_TREE, sunrise), RECIPE_TREE),
        floor: () => callFloor(echo),
      },
      quick ? 10 : 50,
      10,
    );
    const sizes: [number, number][] = [];
    for (const itemId of rankableIds(LEGENDARIES)) {
      const size = tokens(structured(await client.callTool(RECIPE_TREE, { itemId }), RECIPE_TREE));
      sizes.push([itemId, size]);
    }
    sizes.sort((a, b) => a[1] - b[1]);
    const [largestId, largest] = sizes.at(-1) ?? [0, 0];
    const middle = sizes[Math.floor(sizes.length / 2)]?.[1] ?? 0;
    return {
      figures: [
        {
          label: "cold tree (Sunrise)",
          value: cold,
          unit: "ms",
          note: `${coldRequests} upstream requests at ${latencyMs} ms`,
        },
        {
          label: "warm tree (Sunrise), median",
          value: median(ms.tree),
          unit: "ms",
          floor: median(ms.floor),
        },
        {
          label: "largest legendary tree",
          value: largest,
          unit: "tokens",
          note: `item ${largestId}, of ${sizes.length}`,
        },
        { label: "median legendary tree", value: middle, unit: "tokens" },
      ],
      targets: [{
        label: "a legendary tree ≤ 10,000 tokens",
        value: largest,
        unit: "tokens",
        max: 10_000,
      }],
    };
  },
};
