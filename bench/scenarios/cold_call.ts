/**
 * Cold call: `gw2_items` of one id not yet cached, with the fake answering after the configured
 * upstream latency (100 ms by default), sequentially; next to a direct fetch of the same kind of
 * record at the same latency. What Priory adds is the difference.
 *
 * @module
 */

import { FILLER_FIRST_ID } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import { median, percentile, timed } from "../support/stats.ts";
import { expectResult, ITEMS, OPEN_BUDGET } from "./calls.ts";

/** The cold-call scenario. */
export const coldCall: Scenario = {
  name: "cold-call",
  summary: "gw2_items of an uncached id with upstream latency: median and p95 vs a direct fetch",
  tools: [ITEMS],
  async run(ctx) {
    const { latencyMs, quick } = ctx.options;
    const samples = quick ? 5 : 30;
    // Measured settled: an open budget lets the startup warm-up finish first.
    const fake = await ctx.startFake({ latencyMs, rate: OPEN_BUDGET });
    const origin = await ctx.startFake({ latencyMs, rate: { burst: Infinity, perSec: 0 } });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    await fake.quiet();
    const client = ctx.client(priory);
    // Warm the process (not the ids): the first call of a process also compiles its code.
    expectResult(await client.callTool(ITEMS, { ids: [FILLER_FIRST_ID] }), ITEMS);
    const prioryMs: number[] = [];
    const directMs: number[] = [];
    for (let index = 1; index <= samples; index++) {
      const id = FILLER_FIRST_ID + index;
      prioryMs.push(
        await timed(async () => expectResult(await client.callTool(ITEMS, { ids: [id] }), ITEMS)),
      );
      directMs.push(
        await timed(async () => (await fetch(`${origin.url}/v2/items?ids=${id}`)).text()),
      );
    }
    const overhead = median(prioryMs) - median(directMs);
    return {
      figures: [
        {
          label: `median at ${latencyMs} ms upstream`,
          value: median(prioryMs),
          unit: "ms",
          note: `direct fetch ${median(directMs).toFixed(1)} ms; Priory adds ${
            overhead.toFixed(1)
          } ms`,
        },
        {
          label: `p95 at ${latencyMs} ms upstream`,
          value: percentile(prioryMs, 95),
          unit: "ms",
          note: `direct fetch ${percentile(directMs, 95).toFixed(1)} ms; ${samples} calls`,
        },
      ],
      targets: [],
    };
  },
};
