/**
 * Issue 30's answers: tokens (bytes / 4) of `priory_achievements`' and `gw2_api`'s structured
 * results on the fake's planted account - a precursor gift's collection, a chain by name, the
 * half-done collection, a page of a list past 50, a bank, the account's progress - against their
 * bounds (2,500 tokens a default answer of the account tools, 6,000 for `gw2_api`), and the time
 * of the first name lookup on a fresh server (which fills the achievement catalogue).
 *
 * @module
 */

import { TEST_KEYS } from "../../tests/fake_gw2/mod.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { OPEN_BUDGET, structured, tokens } from "./calls.ts";

const ACHIEVEMENTS = "priory_achievements";
const API = "gw2_api";
/** The contract's bound on a default answer of the account tools. */
const ANSWER_BUDGET = 2_500;
/** The contract's bound on a `gw2_api` answer. */
const API_BUDGET = 6_000;

const ACHIEVEMENT_CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ["item: the Gift of the Cosmos", { item: 72083 }],
  ["query: Astralaria (4 rows)", { query: "Astralaria" }],
  ["query: Nevermore (4 rows, 144 bits)", { query: "Nevermore" }],
  ["ids: the half-done collection", { ids: [2268] }],
  ["ids: 100 filler achievements", {
    ids: Array.from({ length: 100 }, (_, index) => 50_001 + index),
  }],
];

const API_CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ["/v2/skins (id list past 50)", { path: "/v2/skins" }],
  ["/v2/skins page 1 (50 records)", { path: "/v2/skins", page: 1 }],
  ["/v2/achievements page 0 (50 records)", { path: "/v2/achievements", page: 0 }],
  ["/v2/account/bank", { path: "/v2/account/bank" }],
  ["/v2/account/achievements", { path: "/v2/account/achievements" }],
  ["/v2/account/mastery/points", { path: "/v2/account/mastery/points" }],
];

/** The collections scenario. */
export const collections: Scenario = {
  name: "collections",
  summary: "tokens of priory_achievements' and gw2_api's answers; the first name lookup",
  tools: [ACHIEVEMENTS, API],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    const client = ctx.client(priory, { headers: { "X-GW2-Key": TEST_KEYS.full } });
    const figures: Figure[] = [];
    const targets: Target[] = [];
    const started = performance.now();
    structured(await client.callTool(ACHIEVEMENTS, { query: "Aurora" }), ACHIEVEMENTS);
    figures.push({
      label: "first name lookup (fills the catalogue)",
      value: performance.now() - started,
      unit: "ms",
      note: `${fake.fake.control.requests.length} upstream requests`,
    });
    for (const [label, args] of ACHIEVEMENT_CALLS) {
      const value = tokens(structured(await client.callTool(ACHIEVEMENTS, args), ACHIEVEMENTS));
      figures.push({ label: `${ACHIEVEMENTS} ${label}`, value, unit: "tokens" });
      if (!("ids" in args && Array.isArray(args.ids) && args.ids.length > 1)) {
        targets.push({
          label: `${ACHIEVEMENTS} ${label} ≤ ${ANSWER_BUDGET.toLocaleString("en-US")} tokens`,
          value,
          unit: "tokens",
          max: ANSWER_BUDGET,
        });
      }
    }
    for (const [label, args] of API_CALLS) {
      const value = tokens(structured(await client.callTool(API, args), API));
      figures.push({ label: `${API} ${label}`, value, unit: "tokens" });
      targets.push({
        label: `${API} ${label} ≤ ${API_BUDGET.toLocaleString("en-US")} tokens`,
        value,
        unit: "tokens",
        max: API_BUDGET,
      });
    }
    return { figures, targets };
  },
};
