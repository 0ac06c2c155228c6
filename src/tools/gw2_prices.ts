/**
 * `gw2_prices`: Trading Post prices by item id, flattened to two unit prices.
 *
 * @module
 */

import { z } from "zod";
import { shapePricesResult } from "../passthrough/shape.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import {
  argumentsSchema,
  BATCH_IDS_ADVICE,
  idListSchema,
  MAX_IDS,
  staleAgeField,
} from "./inputs.ts";
import { defineTool, UPSTREAM_READ } from "./types.ts";

/** The `gw2_prices` tool. */
export const gw2Prices = defineTool({
  name: "gw2_prices",
  title: "GW2 Trading Post prices",
  description:
    `Official GW2 API: Trading Post prices by item id (/v2/commerce/prices): buy = highest buy order, sell = lowest sell listing, per unit in copper (10000 copper = 1 gold); 0 = none. MAX_IDS = ${MAX_IDS} ids per call. Untradeable items have no price and are listed in missing_ids.`,
  inputSchema: argumentsSchema({ ids: idListSchema("item") }),
  outputSchema: z.object({
    prices: z.array(z.object({ id: z.number(), buy: z.number(), sell: z.number() })),
    missing_ids: z.array(z.number()),
    stale_age_s: staleAgeField,
  }),
  annotations: UPSTREAM_READ,
  errorHints: {
    notFound: {
      what: "Trading Post price",
      hint:
        "Untradeable items (account bound, soulbound, most currencies) have no price; check the ids with gw2_items.",
    },
    rateLimited: BATCH_IDS_ADVICE,
  },
  async handle({ ids }, { gw2 }) {
    const read = await gw2.prices(ids);
    if (read.found.length === 0) throw new Gw2NotFoundError(read.missingIds, "price");
    return shapePricesResult(read);
  },
});
