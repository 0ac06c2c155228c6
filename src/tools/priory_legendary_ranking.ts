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
import { namingIn } from "../search/localize.ts";
import { RANKING_VIEW_URI } from "../views/uris.ts";
import { argumentsSchema, LangField, staleAgeField } from "./inputs.ts";
import { legendaryFilterFields } from "./legendary_filter.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** Rows returned when `limit` is not given. */
export const DEFAULT_RANKING_LIMIT = 10;
/** The most rows a call may ask for. */
export const MAX_RANKING_LIMIT = 25;

/**
 * The ranking's own deadline. Cold on an empty KV it reads the recipe catalogue's pages, the
 * items, holdings and prices (~25 requests on the fake, ~90 for the real API: ~2 s at 300 ms);
 * without the catalogue (`PRIORY_CATALOGUE=off`) its walk searches node by node (~700 requests,
 * beyond the burst), and a budget half spent by other calls adds refill waits. 45 s stays under
 * the 60 s request timeout most MCP clients apply (the TypeScript SDK's default), so the caller
 * gets our answer, not its own timeout.
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
    "Priory-computed: your legendary profit ranking (X-GW2-Key; scopes account, inventories, characters). Every legendary Priory has a tree for (all weapon generations, armor, trinkets, backs, rune, sigil; filter by type, generation): copper still to spend crafting it from what you hold (storage, bank, shared slots, bags, worn gear), buying at Trading Post depth, vs its sell value (best buy order less 15% fee); best profit first. saved: what holdings cover; each row uses all of them. partial + na: items to earn, not in cost, so profit is an upper bound; cur: non-coin currencies, not in cost. unpriced: legendaries without a tree. ~1 s once the server has warmed its trees (at startup); cold, a few seconds and ~90 requests of the shared GW2 budget. On a timeout call again: the retry reuses what the first cached.",
  inputSchema: argumentsSchema({ limit: LimitField, ...legendaryFilterFields(), lang: LangField }),
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
  errorHints: {
    rateLimited:
      " (a cold ranking reads hundreds of records); what it already read is cached, so the retry, on any instance, asks for less",
  },
  deadlineMs: RANKING_DEADLINE_MS,
  view: RANKING_VIEW_URI,
  handle({ limit, generation, type, lang }, deps) {
    const gw2Key = requireGw2Key(deps);
    return runRanking(deps.gw2, {
      gw2Key,
      limit,
      filter: { generation, type },
      progress: deps.progress,
      naming: namingIn(deps.gw2, deps.names, lang),
    });
  },
});
