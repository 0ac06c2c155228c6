/**
 * Budget: a burst of distinct-id `gw2_items` calls (2,000; one id each) against a small shared
 * bucket, with the fake's own bucket set to the same budget. Every upstream arrival is checked
 * against the token bucket: in any interval of `t` seconds at most `burst + perSec × t` requests.
 *
 * @module
 */

import { mapWithConcurrency } from "../../src/async/concurrency.ts";
import { FILLER_FIRST_ID } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import { requestIds } from "../support/fake.ts";
import { timed } from "../support/stats.ts";
import { ITEMS } from "./calls.ts";

/** The bucket of both sides: small, so the burst runs into it within seconds. */
export const BUDGET = { burst: 10, perSec: 10 } as const;
/** Ids no other scenario of the run asks for. */
const FIRST_ID = FILLER_FIRST_ID + 2_000;
/** Calls in flight at once. */
const IN_FLIGHT = 200;

/**
 * The most requests any interval held beyond its refill: max over arrivals i ≤ j of
 * `(j − i + 1) − perSec × (t_j − t_i)`. A token-bucket-conforming stream stays ≤ `burst`.
 */
export function peakOverRefill(arrivalsMs: readonly number[], perSec: number): number {
  let peak = 0;
  for (let first = 0; first < arrivalsMs.length; first++) {
    for (let last = first; last < arrivalsMs.length; last++) {
      const refill = (perSec * ((arrivalsMs[last] ?? 0) - (arrivalsMs[first] ?? 0))) / 1000;
      peak = Math.max(peak, last - first + 1 - refill);
    }
  }
  return peak;
}

/** The most requests that arrived within any one second. */
export function busiestSecond(arrivalsMs: readonly number[]): number {
  let busiest = 0;
  let first = 0;
  for (let last = 0; last < arrivalsMs.length; last++) {
    while ((arrivalsMs[last] ?? 0) - (arrivalsMs[first] ?? 0) >= 1000) first++;
    busiest = Math.max(busiest, last - first + 1);
  }
  return busiest;
}

/** The budget scenario. */
export const budget: Scenario = {
  name: "budget",
  summary: "a burst of distinct-id calls vs a small shared bucket: rate kept, zero 429",
  tools: [ITEMS],
  async run(ctx) {
    const calls = ctx.options.quick ? 400 : 2_000;
    const fake = await ctx.startFake({ rate: BUDGET });
    const priory = await ctx.startPriory(fake, { rate: BUDGET });
    const clients = Array.from({ length: IN_FLIGHT }, () => ctx.client(priory));
    let refused = 0;
    const ms = await timed(() =>
      mapWithConcurrency(
        Array.from({ length: calls }, (_, index) => index),
        IN_FLIGHT,
        async (index) => {
          const result = await clients[index % IN_FLIGHT]!.callTool(ITEMS, {
            ids: [FIRST_ID + index],
          });
          if (result.isError === true) refused++;
        },
      )
    );
    const arrivals = fake.arrivals.map((arrival) => arrival.at);
    const peak = peakOverRefill(arrivals, BUDGET.perSec);
    const throttled = fake.fake.control.requests.filter((entry) => entry.status === 429).length;
    const burst = fake.fake.control.requests.filter((entry) =>
      requestIds(entry).some((id) => id >= FIRST_ID && id < FIRST_ID + calls)
    );
    const seconds = ms / 1000;
    return {
      figures: [
        {
          label: "upstream requests",
          value: arrivals.length,
          unit: "requests",
          note: `${calls} calls (${IN_FLIGHT} in flight) in ${
            seconds.toFixed(1)
          } s; bucket ${BUDGET.burst} + ${BUDGET.perSec}/s`,
        },
        {
          label: "requests for the burst's ids",
          value: burst.length,
          unit: "requests",
          note: `${
            (calls / Math.max(1, burst.length)).toFixed(1)
          } ids each; the rest is the startup warm-up's`,
        },
        {
          label: "busiest second upstream",
          value: busiestSecond(arrivals),
          unit: "requests",
          note: `a bucket allows ≤ ${BUDGET.burst + BUDGET.perSec} in any 1 s`,
        },
        {
          label: "peak over refill",
          value: peak,
          unit: "requests",
          note: `conforming ≤ burst ${BUDGET.burst}`,
        },
        { label: "calls refused (rate limited)", value: refused, unit: "calls" },
      ],
      targets: [
        { label: "0 upstream 429 caused by us", value: throttled, unit: "429s", max: 0 },
        {
          label: "upstream never above the bucket",
          value: peak,
          unit: "requests",
          max: BUDGET.burst,
        },
      ],
    };
  },
};
