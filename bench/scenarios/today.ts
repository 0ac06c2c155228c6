/**
 * `priory_today` and `priory_wizards_vault` (issue 29), Priory's handler in this process (no
 * background jobs racing it) over the fake at 300 ms upstream latency: a cold call (empty KV: the
 * catalogues, the account's endpoints and the names read), a call for another player (the
 * catalogues cached: only that account's few endpoints), and the same player again within five
 * minutes (its account reads cached too) - their time and upstream requests, and the default
 * answers' tokens. The daily crafts' profits come from the crafting scan the deployed server's
 * background jobs keep warm (the sheet, the recipe catalogue); this handler has none, so they are
 * left out here (`docs/performance.md`, "The whole account").
 *
 * @module
 */

import { playerKey, TEST_KEYS } from "../../tests/fake_gw2/mod.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { servePrioryInProcess } from "../support/in_process.ts";
import { BENCH_TOKEN } from "../support/processes.ts";
import { timed } from "../support/stats.ts";
import { OPEN_BUDGET, structured, tokens, upstreamRequests } from "./calls.ts";
import { RANKING_LATENCY_MS } from "./ranking.ts";

const TODAY = "priory_today";
const VAULT = "priory_wizards_vault";

/** The scenario. */
export const today: Scenario = {
  name: "today",
  summary:
    "priory_today and priory_wizards_vault at 300 ms upstream: cold, another player (catalogues cached), within 5 min",
  tools: [TODAY, VAULT],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: RANKING_LATENCY_MS, rate: OPEN_BUDGET });
    // The accounts were last played now: the completions are today's (no stale shortcut).
    fake.fake.control.setLastModified(new Date().toISOString());
    const figures: Figure[] = [];
    const targets: Target[] = [];
    for (const tool of [TODAY, VAULT]) {
      using kv = await Deno.openKv(":memory:");
      const priory = servePrioryInProcess({ gw2ApiBase: fake.url, kv, token: BENCH_TOKEN });
      try {
        const calls = [
          ["cold", TEST_KEYS.full],
          ["another player, catalogues cached", playerKey(1)],
          ["the same player within 5 min", playerKey(1)],
        ] as const;
        for (const [label, key] of calls) {
          const client = ctx.client(priory, { headers: { "X-GW2-Key": key } });
          const before = upstreamRequests(fake);
          let answer: Record<string, unknown> = {};
          const ms = await timed(async () => {
            answer = structured(await client.callTool(tool, {}), tool);
          });
          const requests = upstreamRequests(fake) - before;
          figures.push({
            label: `${tool}: ${label}`,
            value: ms,
            unit: "ms",
            note: `${requests} upstream requests`,
          });
          if (label === "another player, catalogues cached") {
            // The account's own endpoints only: /v2/account, five progress lists, the Vault's
            // three tracks and the wallet (today); its listings and the wallet (the Vault).
            targets.push({
              label: `${tool}: catalogues cached: only the account's endpoints`,
              value: requests,
              unit: "requests",
              max: tool === TODAY ? 10 : 2,
            });
          }
          if (label === "cold") {
            figures.push({
              label: `${tool}: default answer`,
              value: tokens(answer),
              unit: "tokens",
            });
            targets.push({
              label: `${tool}: default answer ≤ 2,500 tokens`,
              value: tokens(answer),
              unit: "tokens",
              max: 2_500,
            });
            targets.push({
              label: `${tool}: cold call ≤ 15 s`,
              value: ms,
              unit: "ms",
              max: 15_000,
            });
          }
        }
      } finally {
        await priory.close();
      }
    }
    return { figures, targets };
  },
};
