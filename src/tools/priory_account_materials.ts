/**
 * `priory_account_materials`: the player's material storage, rolled up per category (no ids)
 * or exactly the requested ids with their counts, unowned ones included.
 *
 * @module
 */

import { z } from "zod";
import { settleAll } from "../async/concurrency.ts";
import { materialRows, rollUpMaterials } from "../account/materials.ts";
import { bestBuys } from "../market/trading_post.ts";
import { itemNamesIn } from "../search/localize.ts";
import { staleness } from "../staleness.ts";
import {
  argumentsSchema,
  BATCH_IDS_ADVICE,
  idListSchema,
  LangField,
  MAX_IDS,
  staleAgeField,
} from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** The `priory_account_materials` tool. */
export const prioryAccountMaterials = defineTool({
  name: "priory_account_materials",
  title: "GW2 material storage",
  description:
    `Priory-computed: your material storage (key from the X-GW2-Key header). Without ids: one row per category, with total_sell_value = sum of count × floor(highest buy order × 0.85), copper: instant-sell value after the 15 % Trading Post fee (untradeable = 0). With ids (MAX_IDS = ${MAX_IDS}): exactly those ids; count 0 = none stored. Bank and bags are not counted.`,
  inputSchema: argumentsSchema({ ids: idListSchema("item").optional(), lang: LangField }),
  outputSchema: z.object({
    categories: z.array(z.object({
      category: z.string(),
      distinct_owned: z.number(),
      total_count: z.number(),
      total_sell_value: z.number(),
    })).optional(),
    materials: z.array(z.object({
      id: z.number(),
      name: z.string().nullable(),
      category: z.string().nullable(),
      count: z.number(),
    })).optional(),
    stale_age_s: staleAgeField,
  }),
  annotations: UPSTREAM_READ,
  errorHints: { rateLimited: BATCH_IDS_ADVICE },
  async handle({ ids, lang }, deps) {
    const key = requireGw2Key(deps);
    const { gw2 } = deps;
    if (ids === undefined) {
      const [categories, stored] = await settleAll([
        gw2.materials(lang),
        gw2.doc("accountMaterials", { key }),
      ]);
      const owned = stored.value.filter((row) => row.count > 0).map((row) => row.id);
      const prices = await gw2.prices(owned);
      return {
        categories: rollUpMaterials(categories.value, stored.value, bestBuys(prices.found)),
        ...staleness(prices.staleAgeMs),
      };
    }
    const [categories, stored, items] = await settleAll([
      gw2.materials(lang),
      gw2.doc("accountMaterials", { key }),
      gw2.items(ids),
    ]);
    const names = lang === undefined || lang === "en"
      ? new Map(items.found.map((item) => [item.id, item.name]))
      : await itemNamesIn(gw2, deps.names, items.found.map((item) => item.id), lang);
    return {
      materials: materialRows(ids, categories.value, stored.value, names),
      ...staleness(items.staleAgeMs),
    };
  },
});
