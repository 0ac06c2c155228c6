/**
 * Resident memory over a load: a Priory at steady state (startup warm-up over, the catalogue
 * crawl's first pass done), after it has served the representative ids on the three bulk tools
 * and the whole priced catalogue (the sweep), and after a stretch of warm calls from concurrent
 * clients. Read from `/proc/<pid>/status` (VmRSS, and VmHWM for the peak). The floor, loaded by
 * the same clients for the same time, shows what the runtime alone grows to; a second Priory
 * started without the start task's `--v8-flags` (V8's default heap sizing, no old-space ceiling)
 * shows what the ceiling saves and what it costs in server CPU per call (docs/performance.md,
 * "Memory"). Both Priorys start together, so one cron minute crawls for both.
 *
 * @module
 */

import { chunk, mapWithConcurrency } from "../../src/async/concurrency.ts";
import { REPRESENTATIVE_IDS, WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { BenchContext, BenchFake, BenchServer, Scenario } from "../scenario.ts";
import {
  callFloor,
  catalogueCrawled,
  ITEMS,
  OPEN_BUDGET,
  PRICES,
  RECIPES,
  structured,
} from "./calls.ts";
import { callsPerSecond } from "./throughput.ts";

const MB = 1024 * 1024;

/** How a load went: warm calls per second, and server CPU per warm call (µs; NaN if unknown). */
interface LoadRate {
  readonly callsPerSec: number;
  readonly cpuPerCallUs: number;
}

/**
 * The first part of the load: the representative ids on the three bulk tools, then the whole
 * priced catalogue, 100 ids a call.
 */
async function sweep(ctx: BenchContext, priory: BenchServer, fake: BenchFake): Promise<void> {
  const client = ctx.client(priory);
  const ids = [...REPRESENTATIVE_IDS];
  const recipeIds = (fake.fake.world.recipesByInput.get(WELL_KNOWN.globOfEctoplasm) ?? []).slice(
    0,
    100,
  );
  structured(await client.callTool(RECIPES, { ids: recipeIds }), RECIPES);
  for (const tool of [ITEMS, PRICES]) structured(await client.callTool(tool, { ids }), tool);
  const priced = chunk([...fake.fake.world.prices.keys()], 100);
  await mapWithConcurrency(
    priced,
    4,
    async (group) => structured(await client.callTool(PRICES, { ids: group }), PRICES),
  );
}

/** The rest of the load: warm calls of the representative ids from concurrent clients. */
async function warmCalls(ctx: BenchContext, priory: BenchServer): Promise<LoadRate> {
  const clients = Array.from({ length: ctx.options.concurrency }, () => ctx.client(priory));
  const ids = [...REPRESENTATIVE_IDS];
  let next = 0;
  const cpuBefore = await priory.cpuTime();
  const started = performance.now();
  const callsPerSec = await callsPerSecond(
    clients.length,
    ctx.options.quick ? 1_000 : 5_000,
    async () => {
      const tool = [ITEMS, PRICES][next % 2]!;
      structured(await clients[next++ % clients.length]!.callTool(tool, { ids }), tool);
    },
  );
  const calls = (callsPerSec * (performance.now() - started)) / 1_000;
  const cpuAfter = await priory.cpuTime();
  const cpuPerCallUs = cpuBefore === undefined || cpuAfter === undefined
    ? NaN
    : ((cpuAfter - cpuBefore) * 1_000) / calls;
  return { callsPerSec, cpuPerCallUs };
}

/** "1551 calls/s, 640 µs CPU per call" (CPU left out where it cannot be read). */
function describe(rate: LoadRate): string {
  const cpu = Number.isFinite(rate.cpuPerCallUs)
    ? `, ${Math.round(rate.cpuPerCallUs)} µs CPU per call`
    : "";
  return `${Math.round(rate.callsPerSec)} calls/s${cpu}`;
}

async function rss(server: BenchServer): Promise<{ rss: number; peak: number }> {
  const memory = await server.memory();
  if (memory === undefined) {
    throw new Error("resident memory cannot be read on this system (no /proc)");
  }
  return { rss: memory.rss / MB, peak: memory.peak / MB };
}

/** The memory scenario. */
export const memory: Scenario = {
  name: "memory",
  summary: "resident memory of Priory after a load (catalogue sweep and concurrent warm calls)",
  tools: [ITEMS, RECIPES, PRICES],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const defaultsFake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    const defaults = await ctx.startPriory(defaultsFake, { rate: OPEN_BUDGET, v8Defaults: true });
    await Promise.all([fake.quiet(), defaultsFake.quiet()]);
    // Steady state, as in production a minute after a start: the crawl's first pass is over.
    const crawled = ctx.options.quick ||
      (await Promise.all([priory, defaults].map((server) => catalogueCrawled(ctx.client(server)))))
        .every(Boolean);
    const idle = await rss(priory);
    await sweep(ctx, priory, fake);
    const swept = await rss(priory);
    const rate = await warmCalls(ctx, priory);
    const loaded = await rss(priory);
    await priory.close();
    // The floor under the same clients for the same time: what the runtime itself grows to.
    const floor = await ctx.floor();
    const echoes = Array.from({ length: ctx.options.concurrency }, () => ctx.client(floor));
    let next = 0;
    await callsPerSecond(echoes.length, ctx.options.quick ? 1_000 : 5_000, async () => {
      await callFloor(echoes[next++ % echoes.length]!);
    });
    const floorLoaded = await floor.memory();
    // The same Priory with V8's default heap sizing: what the ceiling saves, and its CPU.
    await sweep(ctx, defaults, defaultsFake);
    const defaultsRate = await warmCalls(ctx, defaults);
    const defaultsLoaded = await rss(defaults);
    return {
      figures: [
        {
          label: "RSS after start",
          value: idle.rss,
          unit: "MB",
          note: crawled
            ? "warm-up and the catalogue crawl's first pass over"
            : "warm-up over; the catalogue crawl had not finished",
        },
        {
          label: "RSS after the sweep",
          value: swept.rss,
          unit: "MB",
          note: `the representative ids, then ${fake.fake.world.prices.size} prices 100 a call`,
        },
        {
          label: "RSS after the load",
          value: loaded.rss,
          unit: "MB",
          ...(floorLoaded === undefined ? {} : { floor: floorLoaded.rss / MB }),
          note: `peak ${loaded.peak.toFixed(0)} MB; ${
            describe(rate)
          } (51 ids); floor: echo, same clients and time`,
        },
        {
          label: "… with V8's default heap sizing",
          value: defaultsLoaded.rss,
          unit: "MB",
          note: `no --v8-flags; peak ${defaultsLoaded.peak.toFixed(0)} MB; ${
            describe(defaultsRate)
          }`,
        },
      ],
      targets: [
        { label: "RSS < 200 MB after the load", value: loaded.rss, unit: "MB", max: 200 },
        ...(floorLoaded === undefined ? [] : [{
          label: "RSS after the load ≤ 1.25× the floor's",
          value: (loaded.rss * MB) / floorLoaded.rss,
          unit: "×",
          max: 1.25,
        }]),
      ],
    };
  },
};
