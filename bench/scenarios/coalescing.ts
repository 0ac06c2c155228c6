/**
 * Coalescing: 50 concurrent `gw2_items` calls of 100 ids each, drawn (seeded) from 300 distinct
 * uncached ids, with upstream latency; counts the upstream requests they cost. Ideal: 2 (300 ids
 * in requests of at most 200). Measured on a settled server (its startup warm-up over, so the
 * burst is not paced by it), counting only the requests for the burst's ids; whatever else
 * upstream saw meanwhile (a cron job) is noted.
 *
 * @module
 */

import { FILLER_FIRST_ID } from "../../tests/fake_gw2/mod.ts";
import { seeded } from "../../tests/support/random.ts";
import { mapWithConcurrency } from "../../src/async/concurrency.ts";
import type { Scenario } from "../scenario.ts";
import { timed } from "../support/stats.ts";
import { requestIds } from "../support/fake.ts";
import { expectResult, ITEMS, OPEN_BUDGET, upstreamRequests } from "./calls.ts";

const CALLS = 50;
const DISTINCT = 300;
const PER_CALL = 100;
/** Ids no other scenario of the run asks for. */
const FIRST_ID = FILLER_FIRST_ID + 1_000;

/** The ids of each call: a seeded sample of {@linkcode PER_CALL} of the distinct ids. */
export function coalescingCalls(): number[][] {
  const random = seeded("bench", "coalescing");
  const pool = Array.from({ length: DISTINCT }, (_, index) => FIRST_ID + index);
  return Array.from({ length: CALLS }, () => {
    const ids = [...pool];
    for (let index = ids.length - 1; index > 0; index--) {
      const other = random.int(0, index);
      [ids[index], ids[other]] = [ids[other]!, ids[index]!];
    }
    return ids.slice(0, PER_CALL);
  });
}

/** The coalescing scenario. */
export const coalescing: Scenario = {
  name: "coalescing",
  summary: "50 concurrent calls over 300 distinct uncached ids → upstream requests",
  tools: [ITEMS],
  async run(ctx) {
    // An open budget lets the startup warm-up finish in seconds rather than minutes.
    const fake = await ctx.startFake({ latencyMs: ctx.options.latencyMs, rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    await fake.quiet();
    const client = ctx.client(priory);
    // Warm the process on an id outside the set, so compiling code does not pace the burst.
    expectResult(await client.callTool(ITEMS, { ids: [FIRST_ID - 1] }), ITEMS);
    const before = upstreamRequests(fake);
    const calls = coalescingCalls();
    const clients = calls.map(() => ctx.client(priory));
    const ms = await timed(() =>
      mapWithConcurrency(
        calls,
        CALLS,
        async (ids, index) => expectResult(await clients[index]!.callTool(ITEMS, { ids }), ITEMS),
      )
    );
    const distinct = new Set(calls.flat());
    const during = fake.fake.control.requests.slice(before);
    const log = during.filter((entry) => requestIds(entry).some((id) => distinct.has(id)));
    const ids = log.reduce((sum, entry) => sum + entry.idCount, 0);
    return {
      figures: [
        {
          label: "upstream requests",
          value: log.length,
          unit: "requests",
          note: `${ids} ids asked upstream for ${distinct.size} distinct (${
            log.map((entry) => entry.idCount).join(" + ")
          }); ${during.length - log.length} other requests meanwhile`,
        },
        {
          label: "burst wall time",
          value: ms,
          unit: "ms",
          note: `${CALLS} calls × ${PER_CALL} ids, upstream ${ctx.options.latencyMs} ms`,
        },
      ],
      targets: [{
        label: "coalescing ≤ 4 upstream requests",
        value: log.length,
        unit: "requests",
        max: 4,
      }],
    };
  },
};
