/**
 * `priory_recipe_tree`: the priced buy-or-craft tree of an item, Mystic Forge included. The
 * work is the tree room's (`src/tree/plan.ts`); this module is the tool's contract: its input,
 * output schema and description.
 *
 * @module
 */

import { z } from "zod";
import type { HistoryReader } from "../history/query.ts";
import { namingIn } from "../search/localize.ts";
import { planTree } from "../tree/plan.ts";
import { TREE_VIEW_URI } from "../views/uris.ts";
import {
  argumentsSchema,
  idSchema,
  LangField,
  MAX_IDS,
  received,
  staleAgeField,
} from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** The most units one tree prices. */
export const MAX_TREE_QUANTITY = 250;

const quantityError = (issue: { input: unknown }) =>
  `quantity must be a whole number from 1 to ${MAX_TREE_QUANTITY}, not ${received(issue.input)}`;

const Copper = z.number();
const CopperOrNull = z.number().nullable();

/** The `priory_recipe_tree` tool. */
export const prioryRecipeTree = defineTool({
  name: "priory_recipe_tree",
  title: "Priced recipe tree",
  description:
    `Priory-computed: an item's buy-or-craft tree, priced here: official recipes + Priory's curated Mystic Forge and vendor data (every legendary) the GW2 API lacks. Copper. Per ingredient the cheaper of buying (lowest sell listing) or crafting; root always crafted. netSell: best buy order less 15% fee. partial + unavailable: neither buyable nor craftable (never priced 0); currencies: non-coin, not in the total. names: id\u2192name. Node: id|cur (1 = coin), q (default 1), own (held), cost, buy/craft (other option), via forge|vendor, runs, na, rep (repeat), c (ingredients). toBuy (per item): {id,count,unit,total}: total walks the Trading Post sell listings up from unit; short: units unlisted, priced at the highest listing; craftCheaper: crafting costs less; noDepth: listings unread, count×unit; soldPerWeek: count exceeds a week's sales. Also {id,count,vendor,total}|{id,count,na}|{cur,count}. summary.buyCost: toBuy's coin; depthExtra: its excess over unit prices. useAccount: holdings first (toBuy after), adds summary.saved. One itemId; MAX_IDS = ${MAX_IDS} is for lists.`,
  inputSchema: argumentsSchema({
    itemId: idSchema("item").describe("Item to craft"),
    quantity: z.number({ error: quantityError }).int({ error: quantityError })
      .min(1, { error: quantityError }).max(MAX_TREE_QUANTITY, { error: quantityError })
      .default(1).describe("Units to craft"),
    useAccount: z.boolean({
      error: (issue) => `useAccount must be true or false, not ${received(issue.input)}`,
    }).default(false).describe("Use your holdings (X-GW2-Key)"),
    lang: LangField,
  }),
  outputSchema: z.object({
    summary: z.looseObject({
      rootId: z.number(),
      quantity: z.number(),
      totalCraftCost: Copper,
      rootBuyPrice: CopperOrNull,
      netSell: CopperOrNull,
      profit: CopperOrNull,
      buyCost: Copper,
      depthExtra: Copper,
    }),
    names: z.record(z.string(), z.string()),
    tree: z.looseObject({}),
    stale_age_s: staleAgeField,
    toBuy: z.array(z.looseObject({})),
  }),
  annotations: UPSTREAM_READ,
  errorHints: {
    notFound: { what: "item", hint: "Check the id: item ids are numbers such as 19721." },
    rateLimited: "; the records already read are cached, so the retry asks the GW2 API for less",
  },
  view: TREE_VIEW_URI,
  handle({ itemId, quantity, useAccount, lang }, deps) {
    const gw2Key = useAccount ? requireGw2Key(deps) : undefined;
    const history = deps.history;
    const naming = namingIn(deps.gw2, deps.names, lang);
    return planTree(deps.gw2, {
      itemId,
      quantity,
      gw2Key,
      naming,
      ...(history === undefined ? {} : { soldPerDay: (ids) => soldPerDay(history, ids) }),
    });
  },
});

/** Units sold a day of `ids`, from the price history's running volumes. */
async function soldPerDay(
  history: HistoryReader,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const volumes = await history.dailyVolumes(ids);
  return new Map([...volumes].map(([id, volume]) => [id, volume.soldPerDay]));
}
