/**
 * `gw2_recipes`: crafting recipes by recipe id.
 *
 * @module
 */

import { z } from "zod";
import { shapeRecipesResult } from "../passthrough/shape.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import {
  argumentsSchema,
  BATCH_IDS_ADVICE,
  idListSchema,
  MAX_IDS,
  staleAgeField,
} from "./inputs.ts";
import { defineTool, UPSTREAM_READ } from "./types.ts";

/** The `gw2_recipes` tool. */
export const gw2Recipes = defineTool({
  name: "gw2_recipes",
  title: "GW2 recipes",
  description:
    `Official GW2 API: crafting recipes by recipe id (/v2/recipes; not item ids: find them with gw2_recipe_search). An ingredient has type only when it is not an item (Currency, GuildUpgrade). MAX_IDS = ${MAX_IDS} ids per call; unknown ids are listed in missing_ids. Mystic Forge recipes (legendaries, their gifts, Mystic Clovers) are not in this API.`,
  inputSchema: argumentsSchema({ ids: idListSchema("recipe") }),
  outputSchema: z.object({
    recipes: z.array(z.object({
      id: z.number(),
      output_item_id: z.number(),
      output_item_count: z.number(),
      disciplines: z.array(z.string()),
      min_rating: z.number(),
      ingredients: z.array(z.object({
        id: z.number(),
        count: z.number(),
        type: z.string().optional(),
      })),
    })),
    missing_ids: z.array(z.number()),
    stale_age_s: staleAgeField,
  }),
  annotations: UPSTREAM_READ,
  errorHints: {
    notFound: {
      what: "recipe",
      hint: "These must be recipe ids, not item ids: find them with gw2_recipe_search.",
    },
    rateLimited: BATCH_IDS_ADVICE,
  },
  async handle({ ids }, { gw2 }) {
    const read = await gw2.recipes(ids);
    if (read.found.length === 0) throw new Gw2NotFoundError(read.missingIds, "recipe");
    return shapeRecipesResult(read);
  },
});
