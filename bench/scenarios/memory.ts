/**
 * Resident memory after a load: a Priory that has served the representative ids on the three
 * bulk tools, the whole priced catalogue, and a stretch of warm calls from concurrent clients.
 * Read from `/proc/<pid>/status` (VmRSS, and VmHWM for the peak). The floor, loaded by the same
 * clients for the same time, shows what the runtime alone grows to.
 *
 * @module
 */

import { chunk, mapWithConcurrency } from "../../src/concurrency.ts";
import { REPRESENTATIVE_IDS, WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import {
  expectResult,
  FLOOR_CALL,
  ITEMS,
  OPEN_BUDGET,
  PRICES,
  RECIPES,
  structured,
} from "./calls.ts";
import { callsPerSecond } from "./throughput.ts";

const MB = 1024 * 1024;

/** The memory scenario. */
export const memory: Scenario = {
  name: "memory",
  summary: "resident memory of Priory after a load (catalogue sweep and concurrent warm calls)",
  tools: [ITEMS, RECIPES, PRICES],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    await fake.quiet();
    const idle = await priory.memory();
    const clients = Array.from({ length: ctx.options.concurrency }, () => ctx.client(priory));
    const ids = [...REPRESENTATIVE_IDS];
    const client = clients[0]!;
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
    let next = 0;
    const rate = await callsPerSecond(
      clients.length,
      ctx.options.quick ? 1_000 : 5_000,
      async () => {
        const tool = [ITEMS, PRICES][next % 2]!;
        structured(await clients[next++ % clients.length]!.callTool(tool, { ids }), tool);
      },
    );
    const loaded = await priory.memory();
    if (loaded === undefined || idle === undefined) {
      throw new Error("resident memory cannot be read on this system (no /proc)");
    }
    // The floor under the same clients for the same time: what the runtime itself grows to.
    const floor = await ctx.floor();
    const echoes = Array.from({ length: ctx.options.concurrency }, () => ctx.client(floor));
    await callsPerSecond(echoes.length, ctx.options.quick ? 1_000 : 5_000, async () => {
      expectResult(await echoes[next++ % echoes.length]!.callTool(...FLOOR_CALL), "echo");
    });
    const floorLoaded = await floor.memory();
    return {
      figures: [
        { label: "RSS after start", value: idle.rss / MB, unit: "MB" },
        {
          label: "RSS after the load",
          value: loaded.rss / MB,
          unit: "MB",
          ...(floorLoaded === undefined ? {} : { floor: floorLoaded.rss / MB }),
          note: `peak ${(loaded.peak / MB).toFixed(0)} MB; ${
            Math.round(rate)
          } calls/s of 51 ids; floor: echo, same clients and time`,
        },
      ],
      targets: [{
        label: "RSS < 200 MB after the load",
        value: loaded.rss / MB,
        unit: "MB",
        max: 200,
      }],
    };
  },
};
