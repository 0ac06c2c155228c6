/**
 * `priory_legendary_ranking`: which legendary is most profitable to craft given what the player
 * holds. The work is the ranking room's (`src/ranking/run.ts`); this module is the tool's
 * contract: its input, output schema, description and deadline.
 *
 * Cost, measured by the `ranking` scenario of `deno task bench` (19 characters, 300 ms upstream
 * latency): see the description and docs/decisions.md.
 *
 * @module
 */

import { z } from "zod";
import { runRanking } from "../ranking/run.ts";
import { RANKING_VIEW_URI } from "../views/uris.ts";
import { argumentsSchema, staleAgeField } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** Rows returned when `limit` is not given, and the most a call may ask for. */
export const DEFAULT_RANKING_LIMIT = 10;
const MAX_RANKING_LIMIT = 25;

/**
 * The ranking's own deadline. Cold (an empty KV: ~336 requests, beyond the 299-token burst) it
 * took 10 s at 300 ms latency with a full budget; a budget half spent by other calls adds up to
 * ~30 s of refill waits. 45 s stays under the 60 s request timeout most MCP clients apply (the
 * TypeScript SDK's default), so the caller gets our answer, not its own timeout.
 */
export const RANKING_DEADLINE_MS = 45_000;

const limitError = `limit must be a whole number from 1 to ${MAX_RANKING_LIMIT}`;

const LimitField = z.number({ error: limitError })
  .int({ error: limitError })
  .min(1, { error: limitError })
  .max(MAX_RANKING_LIMIT, { error: limitError })
  .default(DEFAULT_RANKING_LIMIT)
  .describe("Most rows to return");

/** The `priory_legendary_ranking` tool. */
export const prioryLegendaryRanking = defineTool({
  name: "priory_legendary_ranking",
  title: "Legendary profit ranking",
  description:
    "Priory-computed: your legendary profit ranking (X-GW2-Key; scopes account, inventories, characters). Each legendary with a Priory-curated Mystic Forge recipe (gen-1 weapons): copper still to spend crafting it from what you hold (storage, bank, shared slots, all bags), buying at Trading Post depth, against its sell value (best buy order less 15% fee); best profit first. saved: what your holdings cover; each row uses all of them. partial + na: items to earn, not in cost, so profit is an upper bound; cur: non-coin currencies, not in cost. unpriced: legendaries without a tree. Slow: ~1 s with cached trees, 10 s or more on a cold server (~340 requests of the shared GW2 budget); the bag read grows with your characters. If it times out, call it once more: the second call, on any instance, reuses what the first cached (holdings 5 min, trees 1 day) and does the rest.",
  inputSchema: argumentsSchema({ limit: LimitField }),
  outputSchema: z.object({
    ranking: z.array(z.looseObject({
      id: z.number(),
      name: z.string(),
      cost: z.number(),
      sell: z.number().nullable(),
      profit: z.number().nullable(),
      saved: z.number(),
    })),
    priced: z.number(),
    unpriced: z.number(),
    characters: z.number(),
    names: z.record(z.string(), z.string()).optional(),
    stale_age_s: staleAgeField,
  }),
  annotations: UPSTREAM_READ,
  deadlineMs: RANKING_DEADLINE_MS,
  view: RANKING_VIEW_URI,
  handle({ limit }, deps) {
    const gw2Key = requireGw2Key(deps);
    return runRanking(deps.gw2, { gw2Key, limit, progress: deps.progress });
  },
});
