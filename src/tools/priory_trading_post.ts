/**
 * `priory_trading_post`: how the account's Trading Post is doing - its listings and buy orders
 * against the market now (undercut, outbid, the units ahead in the order book), the delivery box
 * valued, and what the window's sales earned after fees. The work is the trading room's
 * (`src/trading/`); this module is the tool's contract.
 *
 * @module
 */

import { z } from "zod";
import { systemClock } from "../async/clock.ts";
import { EARNING_WINDOWS, type EarningWindow } from "../trading/earnings.ts";
import { readTradingPost } from "../trading/read.ts";
import { itemNamer } from "../search/localize.ts";
import { TRADING_POST_VIEW_URI } from "../views/uris.ts";
import { argumentsSchema, LangField, received } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** Rows per list when `limit` is not given, and the most a call may ask for. */
export const DEFAULT_TP_LIMIT = 10;
const MAX_TP_LIMIT = 50;
/** The window when none is given. */
export const DEFAULT_TP_WINDOW: EarningWindow = "7d";

const limitError = `limit must be a whole number from 1 to ${MAX_TP_LIMIT}`;

/** The `priory_trading_post` tool. */
export const prioryTradingPost = defineTool({
  name: "priory_trading_post",
  title: "My Trading Post",
  description:
    `Priory-computed: your Trading Post (key from the X-GW2-Key header; needs tradingpost), copper. selling/buying: per item and price; lowest/highest = the market's best now; undercut/outbid: a better price goes first; ahead = units listed below (ordered above) your price (atLeast: book cut; null: unread). delivery: value = count × floor(buy × 0.85). earnings over window (default ${DEFAULT_TP_WINDOW}; the whole 90-day history): gross, net after the 15% fee, spent, profit = net - spent, top items by net. limit rows a list; more: rows cut.`,
  inputSchema: argumentsSchema({
    window: z.enum(EARNING_WINDOWS, {
      error: (issue) =>
        `window must be one of ${EARNING_WINDOWS.join(", ")}, not ${received(issue.input)}`,
    }).default(DEFAULT_TP_WINDOW),
    limit: z.number({ error: limitError }).int({ error: limitError }).min(1, { error: limitError })
      .max(MAX_TP_LIMIT, { error: limitError }).default(DEFAULT_TP_LIMIT),
    lang: LangField,
  }),
  outputSchema: z.object({
    // Rows are self-describing and named in the description (as priory_flips').
    selling: z.array(z.looseObject({})),
    buying: z.array(z.looseObject({})),
    delivery: z.looseObject({}),
    earnings: z.looseObject({}),
  }).catchall(z.unknown()),
  annotations: UPSTREAM_READ,
  view: TRADING_POST_VIEW_URI,
  async handle({ window, limit, lang }, deps) {
    const key = requireGw2Key(deps);
    const answer = await readTradingPost(deps.gw2, key, {
      window,
      limit,
      now: (deps.clock ?? systemClock).now(),
      itemNames: itemNamer(deps.gw2, deps.names, lang ?? "en"),
    });
    // A fresh object literal: the declared output's open record accepts it.
    return { ...answer };
  },
});
