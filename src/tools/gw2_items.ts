/**
 * `gw2_items`: item records by id, shaped to the fields decisions depend on.
 *
 * @module
 */

import { z } from "zod";
import { shapeItemsResult } from "../passthrough/shape.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import { itemNamesIn } from "../search/localize.ts";
import {
  argumentsSchema,
  BATCH_IDS_ADVICE,
  idListSchema,
  LangField,
  MAX_IDS,
  staleAgeField,
} from "./inputs.ts";
import { defineTool, UPSTREAM_READ } from "./types.ts";

/** The `gw2_items` tool. */
export const gw2Items = defineTool({
  name: "gw2_items",
  title: "GW2 items",
  description:
    `Official GW2 API: items by id (/v2/items), trimmed to name, rarity, type, flags and vendor_value (copper an NPC merchant pays). MAX_IDS = ${MAX_IDS} ids per call; batch them. Unknown ids are listed in missing_ids. flags (AccountBound, NoSell\u2026) tell whether an item can be traded.`,
  inputSchema: argumentsSchema({ ids: idListSchema("item"), lang: LangField }),
  outputSchema: z.object({
    items: z.array(z.object({
      id: z.number(),
      name: z.string(),
      rarity: z.string(),
      type: z.string(),
      flags: z.array(z.string()),
      vendor_value: z.number(),
    })),
    missing_ids: z.array(z.number()),
    stale_age_s: staleAgeField,
  }),
  annotations: UPSTREAM_READ,
  errorHints: {
    notFound: { what: "item", hint: "Check the ids: item ids are numbers such as 19721." },
    rateLimited: BATCH_IDS_ADVICE,
  },
  async handle({ ids, lang }, { gw2, names }) {
    const read = await gw2.items(ids);
    if (read.found.length === 0) throw new Gw2NotFoundError(read.missingIds, "item");
    if (lang === undefined || lang === "en") return shapeItemsResult(read);
    const localized = await itemNamesIn(gw2, names, read.found.map((item) => item.id), lang);
    return shapeItemsResult({
      ...read,
      found: read.found.map((item) => ({ ...item, name: localized.get(item.id) ?? item.name })),
    });
  },
});
