/**
 * `priory_craft_profit`: what to craft and sell for profit now, over every recipe of the game. The
 * work is the crafting room's (`src/craft/run.ts`); this module is the tool's contract: its input,
 * output schema and description (the contract's "Crafting profit").
 *
 * @module
 */

import { z } from "zod";
import { CraftCatalogueError } from "../craft/scanner.ts";
import { runCraftProfit } from "../craft/run.ts";
import { DISCIPLINES } from "../gw2/schemas.ts";
import { namingIn } from "../search/localize.ts";
import { CRAFT_VIEW_URI } from "../views/uris.ts";
import { argumentsSchema, LangField, received } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** Rows returned when `limit` is not given. */
export const DEFAULT_CRAFT_LIMIT = 10;
/** The most rows a call may ask for. */
export const MAX_CRAFT_LIMIT = 50;

const limitError = `limit must be a whole number from 1 to ${MAX_CRAFT_LIMIT}`;
const booleanError = (name: string) => (issue: { input: unknown }) =>
  `${name} must be true or false, not ${received(issue.input)}`;

/** The `priory_craft_profit` tool. */
export const prioryCraftProfit = defineTool({
  name: "priory_craft_profit",
  title: "Crafting profit",
  description:
    "Priory-computed: most profitable crafts now, of all recipes (copper). Per craft: cost = priory_recipe_tree totalCraftCost (itemId=id, quantity=count); sell = count × best buy order \u221215%; profit = sell \u2212 cost; roi = profit/cost. crafts: how many in a row profit at book depth (\u2264250), totalProfit their sum, stop: what ended it. useAccount: only what you can craft (key scopes unlocks, characters); else sheet: needs a recipe sheet. daily: time-gated, 1 craft. cur: other currencies, not in cost. soldPerDay: units sold/day (est.); sellDays = crafts×count/soldPerDay.",
  inputSchema: argumentsSchema({
    limit: z.number({ error: limitError }).int({ error: limitError })
      .min(1, { error: limitError }).max(MAX_CRAFT_LIMIT, { error: limitError })
      .default(DEFAULT_CRAFT_LIMIT),
    discipline: z.enum(DISCIPLINES, {
      error: (issue) =>
        `discipline must be one of ${DISCIPLINES.join(", ")}, not ${received(issue.input)}`,
    }).optional(),
    useAccount: z.boolean({ error: booleanError("useAccount") }).default(false),
    includeTimeGated: z.boolean({ error: booleanError("includeTimeGated") }).default(false),
    lang: LangField,
  }),
  // Lean on purpose: the rows' fields are the description's (every token here is paid by every
  // agent on every connection).
  // (`scanned`, and `stale_age_s` when GW2 failed, pass through the loose object.)
  outputSchema: z.looseObject({
    opportunities: z.array(z.looseObject({ id: z.number(), profit: z.number() })),
    pricesAt: z.string(),
  }),
  annotations: UPSTREAM_READ,
  errorHints: {
    rateLimited:
      " (a fresh server reads the whole Trading Post, ~135 requests); what it already read is kept, so the retry asks for less",
  },
  view: CRAFT_VIEW_URI,
  handle({ limit, discipline, useAccount, includeTimeGated, lang }, deps) {
    const gw2Key = useAccount ? requireGw2Key(deps) : undefined;
    const { crafting, history, sheets } = deps;
    if (crafting === undefined || sheets === undefined) throw new CraftCatalogueError("off");
    const services = {
      sheets,
      scanner: crafting,
      signal: deps.signal,
      ...(history === undefined ? {} : {
        soldPerDay: async (ids: readonly number[]) =>
          new Map(
            [...await history.dailyVolumes(ids)].map(([id, volume]) => [id, volume.soldPerDay]),
          ),
      }),
    };
    return runCraftProfit(deps.gw2, services, {
      limit,
      discipline,
      includeTimeGated,
      gw2Key,
      naming: namingIn(deps.gw2, deps.names, lang),
    });
  },
});
