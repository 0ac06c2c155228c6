/**
 * The legendary ranking (`priory_legendary_ranking`) for the fake's 19-character account at 300 ms
 * of upstream latency, through Priory's handler in the bench process — without the background
 * jobs, whose startup warm-up walks the same trees and would make "cold" half warm:
 *
 * - `cold`: an empty KV — the 21 gen-1 trees (nine levels of recipe searches), the holdings and
 *   the prices upstream, with the production budget (300 + 5/s);
 * - `warm trees`: six minutes later on another instance sharing the KV (trees are cached a day,
 *   holdings five minutes, prices one: those are read again) — the everyday case, once the
 *   background pre-warm has run.
 *
 * Each against the baseline: the same upstream requests one after another, with every
 * character's inventory read on its own as the seeds did (`/v2/characters?ids=all` becomes
 * `/v2/characters` plus one `/v2/characters/:name/inventory` per character), i.e. requests ×
 * latency — a replay of the cold baseline measured 107.4 s for 355 requests, so the product is
 * what the replay takes. And the tokens of the default result (the contract's ceiling: 4,000).
 *
 * @module
 */

import type { Clock } from "../../src/async/clock.ts";
import { systemClock } from "../../src/async/clock.ts";
import type { FakeRequestLog } from "../../tests/fake_gw2/mod.ts";
import { TEST_KEYS } from "../../tests/fake_gw2/mod.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { servePrioryInProcess } from "../support/in_process.ts";
import { BENCH_TOKEN } from "../support/processes.ts";
import { timed } from "../support/stats.ts";
import { OPEN_BUDGET, RANKING, structured, tokens, upstreamRequests } from "./calls.ts";

/** The upstream latency of this scenario, as the issue sets it. */
export const RANKING_LATENCY_MS = 300;

/** A clock `offsetMs` ahead of the system's: cached entries look that much older. */
export function aheadBy(offsetMs: number): Clock {
  return {
    now: () => systemClock.now() + offsetMs,
    sleep: (ms, signal) => systemClock.sleep(ms, signal),
    timer: (ms, signal) => systemClock.timer(ms, signal),
  };
}

/**
 * How many requests the seeds would have sent for the same reads: one per request, except the
 * one bags request for every character, which they made as the character list plus one
 * inventory request per character.
 */
export function seedsRequestCount(log: readonly FakeRequestLog[], characters: number): number {
  return log.reduce(
    (total, request) =>
      total +
      (request.path === "/v2/characters" && request.query.includes("ids=all") ? 1 + characters : 1),
    0,
  );
}

/** The ranking scenario. */
export const ranking: Scenario = {
  name: "ranking",
  summary: "legendary ranking, 19 characters, 300 ms upstream, cold and warm trees vs sequential",
  tools: [RANKING],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: RANKING_LATENCY_MS, rate: OPEN_BUDGET });
    const characters = fake.fake.world.veteran.characters.size;
    using kv = await Deno.openKv(":memory:");
    let result: Record<string, unknown> = {};
    const rank = async (clock: Clock) => {
      const priory = servePrioryInProcess({
        gw2ApiBase: fake.url,
        kv,
        clock,
        token: BENCH_TOKEN,
      });
      try {
        const client = ctx.client(priory, { headers: { "x-gw2-key": TEST_KEYS.veteran } });
        const before = upstreamRequests(fake);
        const ms = await timed(async () => {
          result = structured(await client.callTool(RANKING, {}), RANKING);
        });
        if (result.characters !== characters) {
          throw new Error(`expected ${characters} characters, read ${String(result.characters)}`);
        }
        const log = fake.fake.control.requests.slice(before);
        return { ms, requests: log.length, sequential: seedsRequestCount(log, characters) };
      } finally {
        await priory.close();
      }
    };
    ctx.note("cold ranking (empty KV)");
    const cold = await rank(systemClock);
    ctx.note("warm trees, six minutes later, another instance");
    const warm = await rank(aheadBy(6 * 60_000));
    const figures: Figure[] = [];
    const targets: Target[] = [];
    for (const [label, run] of [["cold", cold], ["warm trees", warm]] as const) {
      const sequentialMs = run.sequential * RANKING_LATENCY_MS;
      const share = (100 * run.ms) / sequentialMs;
      figures.push(
        {
          label: `${label} ranking`,
          value: run.ms,
          unit: "ms",
          note: `${run.requests} upstream requests`,
        },
        {
          label: `${label}: share of sequential`,
          value: share,
          unit: "%",
          note: `${run.sequential} requests one after another (per character) = ${
            (sequentialMs / 1000).toFixed(1)
          } s`,
        },
      );
      targets.push(
        { label: `ranking ${label} ≤ 25 % of sequential`, value: share, unit: "%", max: 25 },
        {
          label: `ranking ${label} ≤ 10 % of sequential, aim`,
          value: share,
          unit: "%",
          max: 10,
          stretch: true,
        },
      );
    }
    figures.push({ label: "default result", value: tokens(result), unit: "tokens" });
    targets.push({
      label: "ranking default result ≤ 4,000 tokens",
      value: tokens(result),
      unit: "tokens",
      max: 4_000,
    });
    return { figures, targets };
  },
};
