/**
 * Throughput: warm `gw2_items [19721]` calls from concurrent clients (20 by default), against the
 * floor's echo under the same load. Windows alternate between the two servers so a change in the
 * machine's load affects both alike.
 *
 * @module
 */

import { WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import type { McpWire } from "../support/wire.ts";
import { expectResult, FLOOR_CALL, ITEMS } from "./calls.ts";

/** Calls completed per second by `concurrency` clients looping `call` for `durationMs`. */
export async function callsPerSecond(
  concurrency: number,
  durationMs: number,
  call: () => Promise<unknown>,
): Promise<number> {
  let completed = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const client = async () => {
    while (performance.now() < deadline) {
      await call();
      completed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return completed / ((performance.now() - started) / 1000);
}

/** The throughput scenario. */
export const throughput: Scenario = {
  name: "throughput",
  summary: "warm gw2_items calls/s from concurrent clients vs the floor's",
  tools: [ITEMS],
  async run(ctx) {
    const { concurrency, durationMs, quick } = ctx.options;
    const fake = await ctx.startFake();
    const priory = await ctx.startPriory(fake);
    const floor = await ctx.floor();
    const args = { ids: [WELL_KNOWN.globOfEctoplasm] };
    // One client object per simulated client, as separate agents would be.
    const items: McpWire[] = Array.from({ length: concurrency }, () => ctx.client(priory));
    const echoes: McpWire[] = Array.from({ length: concurrency }, () => ctx.client(floor));
    expectResult(await items[0]!.callTool(ITEMS, args), ITEMS);
    const runPriory = (window: number) => {
      let next = 0;
      return callsPerSecond(concurrency, window, async () => {
        const client = items[next++ % concurrency]!;
        expectResult(await client.callTool(ITEMS, args), ITEMS);
      });
    };
    const runFloor = (window: number) => {
      let next = 0;
      return callsPerSecond(concurrency, window, async () => {
        const client = echoes[next++ % concurrency]!;
        expectResult(await client.callTool(...FLOOR_CALL), "echo");
      });
    };
    await runFloor(300);
    await runPriory(300);
    const rounds = quick ? 1 : 3;
    const prioryRates: number[] = [];
    const floorRates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      floorRates.push(await runFloor(durationMs / rounds));
      prioryRates.push(await runPriory(durationMs / rounds));
    }
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length;
    const share = (mean(prioryRates) / mean(floorRates)) * 100;
    return {
      figures: [{
        label: `warm calls/s, ${concurrency} clients`,
        value: mean(prioryRates),
        unit: "calls/s",
        floor: mean(floorRates),
        note: `${rounds} × ${Math.round(durationMs / rounds)} ms per side, alternating`,
      }],
      targets: [
        { label: "throughput ≥ 80 % of the floor's", value: share, unit: "%", min: 80 },
        {
          label: "throughput ≥ 90 % of the floor's, stretch",
          value: share,
          unit: "%",
          min: 90,
          stretch: true,
        },
      ],
    };
  },
};
