/**
 * Throughput: warm `gw2_items [19721]` calls from concurrent clients (20 by default), against the
 * floor's echo under the same load. Windows alternate between the two servers so a change in the
 * machine's load affects both alike.
 *
 * @module
 */

import { WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { BenchServer, Figure, Scenario } from "../scenario.ts";
import type { McpWire } from "../support/wire.ts";
import { callFloor, catalogueCrawled, expectResult, ITEMS, OPEN_BUDGET } from "./calls.ts";

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

/** Totals of one side over its windows. */
interface Side {
  calls: number;
  ms: number;
  /** Server CPU time over the windows, ms; undefined when it cannot be read. */
  cpuMs: number | undefined;
}

/** Runs `concurrency` clients of `server` for `durationMs`, adding to `side`. */
async function window(
  side: Side,
  server: BenchServer,
  concurrency: number,
  durationMs: number,
  call: (client: number) => Promise<unknown>,
): Promise<void> {
  const cpuBefore = await server.cpuTime();
  let next = 0;
  const started = performance.now();
  const rate = await callsPerSecond(concurrency, durationMs, () => call(next++ % concurrency));
  const ms = performance.now() - started;
  const cpuAfter = await server.cpuTime();
  side.calls += (rate * ms) / 1000;
  side.ms += ms;
  side.cpuMs = cpuBefore === undefined || cpuAfter === undefined || side.cpuMs === undefined
    ? undefined
    : side.cpuMs + cpuAfter - cpuBefore;
}

/** The throughput scenario. */
export const throughput: Scenario = {
  name: "throughput",
  summary: "warm gw2_items calls/s from concurrent clients vs the floor's",
  tools: [ITEMS],
  async run(ctx) {
    const { concurrency, durationMs, quick } = ctx.options;
    // Measured settled: an open budget lets the startup warm-up finish first.
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    await fake.quiet();
    // Steady state: the catalogue crawl's first pass (on the next cron minute) is over.
    const crawled = quick || await catalogueCrawled(ctx.client(priory));
    const floor = await ctx.floor();
    const args = { ids: [WELL_KNOWN.globOfEctoplasm] };
    // One client object per simulated client, as separate agents would be.
    const items: McpWire[] = Array.from({ length: concurrency }, () => ctx.client(priory));
    const echoes: McpWire[] = Array.from({ length: concurrency }, () => ctx.client(floor));
    const callPriory = async (client: number) =>
      expectResult(await items[client]!.callTool(ITEMS, args), ITEMS);
    const onFloor = (client: number) => callFloor(echoes[client]!);
    const prioryTotals: Side = { calls: 0, ms: 0, cpuMs: 0 };
    const floorTotals: Side = { calls: 0, ms: 0, cpuMs: 0 };
    // Warm-up windows, not counted: long enough for both servers' hot paths to reach V8's
    // optimising tier (after 300 ms the first counted windows still ran slower).
    const warmupMs = quick ? 300 : 1_500;
    await window({ ...floorTotals }, floor, concurrency, warmupMs, onFloor);
    await window({ ...prioryTotals }, priory, concurrency, warmupMs, callPriory);
    const rounds = quick ? 2 : 10;
    for (let round = 0; round < rounds; round++) {
      await window(floorTotals, floor, concurrency, durationMs / rounds, onFloor);
      await window(prioryTotals, priory, concurrency, durationMs / rounds, callPriory);
    }
    const rate = (side: Side) => side.calls / (side.ms / 1000);
    const share = (rate(prioryTotals) / rate(floorTotals)) * 100;
    const figures: Figure[] = [{
      label: `warm calls/s, ${concurrency} clients`,
      value: rate(prioryTotals),
      unit: "calls/s",
      floor: rate(floorTotals),
      note: `${rounds} × ${Math.round(durationMs / rounds)} ms per side, alternating${
        crawled ? "" : "; the catalogue crawl had not finished"
      }`,
    }];
    if (prioryTotals.cpuMs !== undefined && floorTotals.cpuMs !== undefined) {
      // When the clients, not the server, are the bottleneck, calls/s flatters the slower server;
      // CPU per call does not.
      const busy = (side: Side) =>
        `server busy ${((100 * (side.cpuMs ?? 0)) / side.ms).toFixed(0)} %`;
      figures.push({
        label: "server CPU per call",
        value: (prioryTotals.cpuMs / prioryTotals.calls) * 1000,
        unit: "µs",
        floor: (floorTotals.cpuMs / floorTotals.calls) * 1000,
        note: `${busy(prioryTotals)}, floor ${busy(floorTotals)} (all threads; 10 ms ticks)`,
      });
    }
    return {
      figures,
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
