/**
 * `priory_price_history`: an item's Trading Post history from this server's own snapshots -
 * points, change, low/high, volatility, daily sales estimates and the flip figure. The work is
 * the history room's (`src/history/`); this module is the tool's contract.
 *
 * @module
 */

import { z } from "zod";
import type { Lang } from "../gw2/types.ts";
import { itemNames } from "../history/names.ts";
import { shapeHistory } from "../history/shape.ts";
import { type WindowName, WINDOWS } from "../history/series.ts";
import { namingIn } from "../search/localize.ts";
import { PRICE_HISTORY_VIEW_URI } from "../views/uris.ts";
import { argumentsSchema, idSchema, LangField, MAX_IDS, received } from "./inputs.ts";
import { defineTool, requireHistory, type ToolDeps, UPSTREAM_READ } from "./types.ts";

/** The most ids one call may ask for: 20 items × ~50 points stay a few thousand tokens. */
export const MAX_HISTORY_IDS = 20;

const idsError = `ids must be a list of 1 to ${MAX_HISTORY_IDS} item ids such as [19721]`;
const IdsField = z.array(idSchema("item"), {
  error: (issue) => `${idsError}, not ${received(issue.input)}`,
})
  .min(1, { error: `the list is empty: ${idsError}` })
  .max(MAX_HISTORY_IDS, {
    error: (issue) =>
      `too many ids: at most ${MAX_HISTORY_IDS} per call, got ${
        Array.isArray(issue.input) ? issue.input.length : "more"
      }; split the list into several calls`,
  });

const WINDOW_NAMES = Object.keys(WINDOWS) as [WindowName, ...WindowName[]];
const WindowField = z.enum(WINDOW_NAMES, {
  error: (issue) =>
    `window must be one of ${WINDOW_NAMES.join(", ")}, not ${received(issue.input)}`,
}).default("24h");

/** The `priory_price_history` tool. */
export const prioryPriceHistory = defineTool({
  name: "priory_price_history",
  title: "Price history",
  description:
    `Priory-computed: Trading Post history from this server's snapshots (48h, hourly 30d, daily 1y); 1-${MAX_HISTORY_IDS} ids (MAX_IDS = ${MAX_IDS}). ~50 points (~25 past 5 ids), oldest first, as the result's point says. change %, low, high, volatility %: of sell. Volumes count cancellations as sales. margin: flip after fee; flipProfit = margin × min volume, a day.`,
  inputSchema: argumentsSchema({ ids: IdsField, window: WindowField, lang: LangField }),
  outputSchema: z.object({
    // Rows are named in the description, and the result describes its own points (`point`:
    // their fields, the unit of their time); declaring them here would cost every connection
    // tokens the model reads again in the result.
    history: z.array(z.looseObject({})),
  }).catchall(z.unknown()),
  annotations: UPSTREAM_READ,
  view: PRICE_HISTORY_VIEW_URI,
  async handle({ ids, window, lang }, deps) {
    const history = requireHistory(deps);
    const unique = [...new Set(ids)];
    const read = await history.read(unique, window);
    const named = read.latest === undefined ? unique : read.items.map((item) => item.id);
    const names = await historyNames(deps, named, lang);
    return shapeHistory(unique, window, read, names, history.nextSnapshot(read.latest));
  },
});

/**
 * The names of `ids` for a history result: in `lang` where known, else English (the name
 * index's while GW2 is down).
 */
export function historyNames(
  deps: Pick<ToolDeps, "gw2" | "names">,
  ids: readonly number[],
  lang: Lang | undefined,
): Promise<Map<number, string>> {
  const index = deps.names;
  const lookup = index === undefined
    ? undefined
    : async (id: number) => (await index.lookup(id)).entry?.name;
  return itemNames(deps.gw2, ids, lookup, namingIn(deps.gw2, index, lang)?.itemNames);
}
