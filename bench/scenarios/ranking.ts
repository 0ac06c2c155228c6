/**
 * The legendary ranking (`priory_legendary_ranking`) on the fake account with 300 ms upstream
 * latency: its time against the sequential time of the upstream requests it made (requests ×
 * latency), and the tokens of its default result (the contract's ceiling is 4,000). Skipped
 * until the tool is registered.
 *
 * @module
 */

import { TEST_KEYS } from "../../tests/fake_gw2/mod.ts";
import type { Scenario } from "../scenario.ts";
import { timed } from "../support/stats.ts";
import { OPEN_BUDGET, RANKING, structured, tokens } from "./calls.ts";

/** The upstream latency of this scenario, as the issue sets it. */
const RANKING_LATENCY_MS = 300;

/** The ranking scenario. */
export const ranking: Scenario = {
  name: "ranking",
  summary: "legendary ranking at 300 ms upstream vs its sequential time; result tokens",
  tools: [RANKING],
  async run(ctx) {
    const fake = await ctx.startFake({ latencyMs: RANKING_LATENCY_MS, rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    // The fake's 19-character account where it has one (the seeds' measurement), else the main one.
    const [label, key] = Object.entries(TEST_KEYS).find(([name]) => name === "veteran") ??
      ["full", TEST_KEYS.full];
    const client = ctx.client(priory, { headers: { "x-gw2-key": key } });
    let result: Record<string, unknown> = {};
    const ms = await timed(async () => {
      result = structured(await client.callTool(RANKING, {}), RANKING);
    });
    const requests = fake.fake.control.requests.length;
    const sequential = requests * RANKING_LATENCY_MS;
    return {
      figures: [
        {
          label: "cold ranking",
          value: ms,
          unit: "ms",
          note: `${requests} upstream requests, ${
            (sequential / 1000).toFixed(1)
          } s if sequential; key "${label}"`,
        },
        {
          label: "share of the sequential time",
          value: (100 * ms) / sequential,
          unit: "%",
          note: `${requests} × ${RANKING_LATENCY_MS} ms one after another`,
        },
        { label: "default result", value: tokens(result), unit: "tokens" },
      ],
      targets: [{
        label: "ranking default result ≤ 4,000 tokens",
        value: tokens(result),
        unit: "tokens",
        max: 4_000,
      }],
    };
  },
};
