/**
 * Cold start: from spawning the production entry (the `start` task's command line) to the first
 * answered `gw2_items [19721]` call, with an empty KV (the call goes upstream) and with a KV a
 * previous process warmed (the call is a cache hit). Median of several starts each.
 *
 * @module
 */

import { WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { BenchContext, BenchFake, Scenario } from "../scenario.ts";
import { median } from "../support/stats.ts";
import { expectResult, ITEMS } from "./calls.ts";

/** Starts Priory on `kvPath`, answers one call, stops it: start-to-answer and start-to-listen, ms. */
async function startToAnswer(
  ctx: BenchContext,
  fake: BenchFake,
  kvPath: string,
): Promise<{ readonly answered: number; readonly listening: number }> {
  const priory = await ctx.startPriory(fake, { kvPath });
  const args = { ids: [WELL_KNOWN.globOfEctoplasm] };
  expectResult(await ctx.client(priory).callTool(ITEMS, args), ITEMS);
  const answered = performance.now() - priory.spawnedAt;
  await priory.close();
  return { answered, listening: priory.listeningAt - priory.spawnedAt };
}

/** The cold-start scenario. */
export const coldStart: Scenario = {
  name: "cold-start",
  summary: "process start to first answered call, with an empty and with a warm KV",
  tools: [ITEMS],
  async run(ctx) {
    const starts = ctx.options.quick ? 2 : 5;
    const fake = await ctx.startFake();
    const warmKv = ctx.kvPath();
    // Fills the warm KV, and lets Deno cache the compiled modules before anything is timed.
    await startToAnswer(ctx, fake, warmKv);
    const empty: number[] = [];
    const warm: number[] = [];
    const listening: number[] = [];
    for (let index = 0; index < starts; index++) {
      const cold = await startToAnswer(ctx, fake, ctx.kvPath());
      empty.push(cold.answered);
      const hot = await startToAnswer(ctx, fake, warmKv);
      warm.push(hot.answered);
      listening.push(cold.listening, hot.listening);
    }
    return {
      figures: [
        {
          label: "empty KV: start → first answer",
          value: median(empty),
          unit: "ms",
          note: `${starts} starts; upstream without latency`,
        },
        {
          label: "warm KV: start → first answer",
          value: median(warm),
          unit: "ms",
          note: `${starts} starts; a cache hit`,
        },
        { label: "start → listening", value: median(listening), unit: "ms" },
      ],
      targets: [{
        label: "cold start < 1 s with a warm KV",
        value: median(warm),
        unit: "ms",
        max: 1_000,
      }],
    };
  },
};
